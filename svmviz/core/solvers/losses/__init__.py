"""The losses and problems the solvers minimize, one module each, and the registry that
every option list is derived from.

A loss module holds everything about its problem: the per-example value and
(sub)gradient that the compiled loop calls (``terms``, ``value``, ``totals``, ``offsets``,
``offset_term``, and ``derivatives`` for a smooth binary loss's free bias: plain functions
that :mod:`._dispatch` inlines into one specialisation of the loop per loss), its
parameters (a NamedTuple class, registered with the dispatch), the vectorized ``losses``
that define the objective for everything else, its exact reference, the levels the plane
draws, the words the step inspector shows, its subgradient bound, and the flags of
:data:`OPTIONAL` where they differ from the default. What it is (its ``KIND``, the option
that chooses it, whether it takes Δ, ...) is its entry in :mod:`svmviz.core.problems`,
the light table that the option lists of :mod:`svmviz.core.config` are derived from.

Adding a loss: a new module with those parts (a binary margin loss: its ``loss``,
``dloss`` and ``dloss2`` in z = y f over :mod:`._binary`) and its line in
:data:`svmviz.core.problems.DECLARED`, from which :data:`MODULES` below, the option lists
and the tests' parametrisations are derived (tests/core/test_loss_table.py checks its
derivatives, tests/core/test_loss_conformance.py that it has every part).
"""

from __future__ import annotations

import importlib

from svmviz.core import objectives
from svmviz.core.problems import DECLARED, module_name
from svmviz.core.solvers.losses import _binary

# the svc losses by name; the other problems by problem name (in the order the options
# are listed): one module per entry of the registry
MODULES = {name: importlib.import_module(f"{__name__}.{module_name(name)}") for name in DECLARED}

# What a module may leave out, and the default it then has (set on the module here, so
# that the loop, the solver and the window read every part as ``module.PART``):
OPTIONAL = {
    # the variables beside w that the problem learns (ρ of ν-SVC and one-class, ε of
    # ν-SVR): history columns, set from the scores after each step
    "OFFSETS": (),
    # the loss's gradients grow without bound: project onto ‖w‖ ≤ √(2/λ) (squared hinge)
    "PROJECT": False,
    # the loss a model file names (None: the file has no loss); default: NAME
    "MODEL_LOSS": "",
    # the binary hinge's exact free bias: _bias's searches (profile_bias, screened and
    # checked bias) instead of the loss's offsets, and w = 0's bias set in numpy
    "EXACT_BIAS": False,
    # a linear binary model's telemetry and bias check by screening (:mod:`.._screen`)
    "SCREENED": False,
    # a multiclass free bias by the loss's own fused step (_bias.bias_descent) instead of
    # its offsets (a call through the loss costs the loop 5%)
    "FUSED_BIAS": False,
    # its free bias is a subgradient descent that follows b*(w) (the multiclass hinges);
    # otherwise its offsets are a profile (both after every step)
    "DESCENT_BIAS": False,
    # a single-output loss's weight g_i = −∂ℓ_i/∂f in words (the step inspector's rule)
    "WEIGHT": "",
    # the push Σ g_i x_i in simpler words where each g_i is y_i or 0 (the hinge: a sum over
    # the violating points of y_i x_i), as (in the rule, in the push's line); (): the
    # step inspector writes Σ g_i x_i with WEIGHT
    "PUSH": (),
    # its kernel coefficients count ±1 terms (the hinges: 003's β is α's count)
    "COUNTS": False,
    # each term is 0 past a margin (a kink: the hinges, the modified Huber), so each point
    # has a line in weight space (svmviz.core.pictures.weight_dual); False: every example has a term
    "KINK": True,
}
for _module in MODULES.values():
    if hasattr(_module, "dloss"):  # a binary margin loss: the parts it shares
        for _part in _binary.PARTS:
            if not hasattr(_module, _part):
                setattr(_module, _part, getattr(_binary, _part))
    for _part, _default in OPTIONAL.items():
        if not hasattr(_module, _part):
            setattr(_module, _part, _module.NAME if _part == "MODEL_LOSS" else _default)


# the objective evaluates every problem through these modules; the solvers depend on it, so
# it cannot import them: they register here
objectives.LOSS_MODULES.update(MODULES)


def module_for(config, n_classes: int):
    """The loss module of ``config`` on data of ``n_classes`` classes."""
    if config.problem != "svc":
        return MODULES[config.problem]
    return MODULES[config.loss if n_classes == 2 else config.multiclass]


def offset_columns(problem: str) -> tuple[str, ...]:
    """The variables beside w that ``problem`` learns (``OFFSETS``: ρ of ν-SVC and
    one-class, ε of ν-SVR), the offset columns of its history (``history_csv``)."""
    module = MODULES.get(problem)
    return module.OFFSETS if module is not None else ()


def parameters_of(name: str) -> tuple[str, ...]:
    """The fields of the parameters of the loss or problem ``name`` (e.g. ("nu",)); none
    for "svc", whose losses are chosen by --loss and --multiclass."""
    from svmviz.core.solvers.losses import _dispatch

    if name not in MODULES:
        return ()
    module = MODULES[name]
    return next(cls._fields for cls, mod in _dispatch._MODULES.items() if mod is module)
