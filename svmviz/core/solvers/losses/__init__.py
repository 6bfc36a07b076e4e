"""The losses and problems the solvers minimize, one module each.

A loss module holds everything about its problem: the per-example value and
(sub)gradient that the compiled loop calls (``terms``, ``value``, ``totals``, ``offsets``,
``offset_term``: plain functions that :mod:`._dispatch` inlines into one specialisation of
the loop per loss), its parameters (a NamedTuple class, registered with the dispatch), the
vectorized ``losses`` that define the objective for everything else, its exact reference,
the levels the plane draws, the words the step inspector shows, and its subgradient bound.

Adding a loss: a new module with those parts, registered in :data:`MODULES` below, and its
tests (tests/core/test_losses.py runs every loss through the same checks).
"""

from __future__ import annotations

from svmviz.core import objectives
from svmviz.core.solvers.losses import (
    crammer_singer,
    epsilon_svr,
    hinge,
    logistic,
    nu_svc,
    nu_svr,
    one_class,
    ovr,
    softmax,
    squared_hinge,
    weston_watkins,
)

# the svc losses by name; the other problems by problem name
MODULES = {
    m.NAME: m
    for m in (
        hinge,
        squared_hinge,
        logistic,
        crammer_singer,
        weston_watkins,
        ovr,
        softmax,
        epsilon_svr,
        nu_svr,
        one_class,
        nu_svc,
    )
}

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
    return getattr(module, "OFFSETS", ()) if module is not None else ()


def parameters_of(name: str) -> tuple[str, ...]:
    """The fields of the parameters of the loss or problem ``name`` (e.g. ("nu",)); none
    for "svc", whose losses are chosen by --loss and --multiclass."""
    from svmviz.core.solvers.losses import _dispatch

    if name not in MODULES:
        return ()
    module = MODULES[name]
    return next(cls._fields for cls, mod in _dispatch._MODULES.items() if mod is module)
