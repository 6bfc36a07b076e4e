"""Every loss module has every part the compiled loop, the solver and the window read, with
the signatures the loop calls; the registry of names (svmviz.core.problems) and the
modules agree; the README's list of a loss module's parts names them all."""

import inspect
import re
from pathlib import Path

import pytest

from svmviz.core import _jit, problems
from svmviz.core.solvers import losses
from svmviz.core.solvers.losses import _dispatch

# what the loop calls through _dispatch (derivatives: only where it is called, below)
LOOP_PARTS = ("terms", "value", "totals", "offsets", "offset_term")
# the numpy parts that define the objective and the reference, and their parameters
NUMPY_PARTS = {
    "params": ("config", "cost"),
    "subgradient_bound": ("max_norm", "n_classes", "config"),
    "losses": ("model", "F", "y", "target"),
    "errors": ("model", "F", "y", "target"),
    "offset_value": ("model",),
    "reference": ("config", "data"),
}
WORDS = ("TITLE", "FORMULA", "STEP")  # the step inspector's
FLAGS = ("PROJECT", "EXACT_BIAS", "SCREENED", "FUSED_BIAS", "KINK")
MODULES = list(losses.MODULES.items())
IDS = [name for name, _ in MODULES]


def _parameters(func) -> tuple[str, ...]:
    return tuple(inspect.signature(func).parameters)


def _calls_newton(func) -> bool:
    """Whether a loss's part calls _common.newton_bias, which calls its derivatives."""
    return "newton_bias" in func.__code__.co_names


def test_the_registry_and_the_modules_agree():
    assert list(losses.MODULES) == list(problems.DECLARED)
    for name, module in MODULES:
        assert module.NAME == name
        assert module.KIND == problems.DECLARED[name].kind


@pytest.mark.parametrize(("name", "module"), MODULES, ids=IDS)
def test_a_module_has_every_part(name, module):
    assert module.KIND in problems.KINDS
    for word in WORDS:
        assert isinstance(getattr(module, word), str) and getattr(module, word).strip(), word
    levels = module.LEVELS
    assert isinstance(levels, tuple) and levels and all(isinstance(v, float) for v in levels)
    for part, parameters in NUMPY_PARTS.items():
        assert callable(getattr(module, part)), part
        assert _parameters(getattr(module, part)) == parameters, part
    if hasattr(module, "check"):
        assert _parameters(module.check) == ("config", "data")
    assert callable(getattr(module, "probability", None)) is problems.DECLARED[name].proba


@pytest.mark.parametrize(("name", "module"), MODULES, ids=IDS)
def test_the_loop_parts_have_the_dispatch_signatures_and_python_twins(name, module):
    """Each part the loop calls takes the arguments the generic function of _dispatch
    passes, and is known to _jit (a :func:`plain` function: compiled by the loop's
    specialisation, with a plain-Python twin)."""
    known = {func for _, _, func in _jit._functions}
    parts = list(LOOP_PARTS)
    if any(_calls_newton(getattr(module, p)) for p in LOOP_PARTS):
        parts.append("derivatives")  # a smooth binary loss's free bias: Newton's method
    for part in parts:
        func = getattr(module, part)
        assert _parameters(func) == _parameters(getattr(_dispatch, part)), part
        assert func in known, part
        twin = getattr(_jit.python_version(inspect.getmodule(func)), func.__name__)
        assert twin.__code__ is func.__code__, part


@pytest.mark.parametrize(("name", "module"), MODULES, ids=IDS)
def test_the_parameters_select_the_module(name, module):
    """The parameters' class is registered with the dispatch and resolves to the module."""
    from svmviz.core.config import SolverConfig
    from svmviz.core.objectives import zero_one_cost

    config = SolverConfig(problem=name) if name in problems.PROBLEMS else SolverConfig()
    params = module.params(config, zero_one_cost(3))
    assert hasattr(type(params), "_fields")
    assert _dispatch.module_of(params) is module


@pytest.mark.parametrize(("name", "module"), MODULES, ids=IDS)
def test_the_optional_parts_have_their_kinds(name, module):
    for flag in FLAGS:
        assert isinstance(getattr(module, flag), bool), flag
    assert isinstance(module.OFFSETS, tuple) and set(module.OFFSETS) <= {"rho", "epsilon"}
    assert module.MODEL_LOSS is None or isinstance(module.MODEL_LOSS, str)
    assert isinstance(module.PUSH, tuple) and len(module.PUSH) in (0, 2), "PUSH"
    assert all(isinstance(words, str) and "_i" in words for words in module.PUSH)
    # the loop's hinge-only paths: two outputs' scores would be read as one
    if module.EXACT_BIAS or module.SCREENED:
        assert module.KIND == "binary" and not module.OFFSETS
    if module.FUSED_BIAS:
        assert module.KIND == "multiclass"
    if hasattr(module, "dloss"):  # a kink: no term past a margin (then a point line)
        assert bool(module.loss(10.0) == 0.0) is module.KINK


def test_the_option_lists_come_from_the_registry():
    from svmviz.core import config

    declared = problems.DECLARED
    assert config.BINARY_LOSSES == tuple(n for n, d in declared.items() if d.option == "loss")
    assert config.COST_LOSSES == tuple(n for n, d in declared.items() if d.cost)
    assert set(config.PROBLEMS) - {"svc"} == {
        n for n, d in declared.items() if d.option == "problem"
    }
    for name in config.REGRESSION:
        assert losses.MODULES[name].KIND == "regression"


def test_the_readme_names_every_part():
    """The README's "A loss or problem" paragraph names every part a module must have."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("- **A loss or problem**") :].split("\n- **")[0]
    named = set(re.findall(r"`([A-Za-z_]+)[`(]", paragraph))
    parts = {*LOOP_PARTS, "derivatives", *NUMPY_PARTS, *WORDS, "LEVELS", "NAME", *FLAGS}
    parts |= {"OFFSETS", "MODEL_LOSS", "PUSH", "check", "probability"}
    assert parts <= named, sorted(parts - named)


def test_single_output_losses_say_their_weight():
    """The step inspector's rule g_i = −∂ℓ_i/∂f comes from each single-output module's
    WEIGHT (never re-typed in ui/); COUNTS is a flag."""
    for module in losses.MODULES.values():
        assert isinstance(module.COUNTS, bool), module.NAME
        if module.KIND in ("binary", "regression", "one-class"):
            assert module.WEIGHT and "_i" in module.WEIGHT, module.NAME


@pytest.mark.parametrize(("name", "module"), MODULES, ids=IDS)
def test_a_margin_loss_gives_its_derivatives_over_the_shared_base(name, module):
    """A binary margin loss (one with ``dloss``) gives ℓ, ℓ′, (ℓ′, ℓ″) of z as plain
    functions the loop's specialisation inlines, and a ``margin`` in its parameters."""
    from svmviz.core.config import SolverConfig

    if not hasattr(module, "dloss"):
        assert module.KIND != "binary" or name in problems.PROBLEMS, name
        return
    assert module.KIND == "binary" and problems.DECLARED[name].option == "loss"
    known = {func for _, _, func in _jit._functions}
    for part in ("loss", "dloss", "dloss2"):
        assert _parameters(getattr(module, part)) == ("z",), part
        assert getattr(module, part) in known, part
    assert isinstance(module.params(SolverConfig(), None).margin, float)
