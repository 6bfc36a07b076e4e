"""Setting a training up: the exact optimum of the problem, then a solver at w = 0.

One place for what `svmviz train` and the window's worker both do first.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.solvers import Solver
from svmviz.core.solvers.losses import module_for
from svmviz.core.training.reference import Reference, exact_optimum

FIT_CHUNK = 4096  # iterations between checks of ``stop`` while fitting


def prepare(
    config: SolverConfig, data: Dataset, record: bool | str = True
) -> tuple[Solver, Reference | None, str | None]:
    """(solver reset at w = 0, exact reference or None, why there is none); ``record``:
    the solver's telemetry (:class:`Solver`).

    A hard margin on data that are not separable raises NotSeparableError (the hard-margin
    solver needs the exact dual); a problem without an exact optimum (an indefinite sigmoid
    kernel) trains anyway, with the reason in the third element.
    """
    reference, reason = reference_or_reason(config, data)
    solver = Solver(config, record).reset(
        data,
        reference.lam_hard if reference else None,
        optimum=reference.objective if reference else None,
    )
    return solver, reference, reason


def run_to_end(
    config: SolverConfig,
    data: Dataset,
    stop: Callable[[], bool] | None = None,
    warm: dict | None = None,
    record: bool = True,
) -> Solver | None:
    """Train ``config`` on ``data`` to its budget or its stopping rule: the solver, or None
    when ``stop()`` turned true on the way. What the estimators (:mod:`svmviz.estimators`)
    and the Generalization tab's learning curves and sweeps both run. The exact optimum is
    solved first only where the solver needs it: a hard margin takes its λ from the exact
    dual (as the window's training does). ``warm``: a :meth:`Solver.warm_state` to go on
    from (when it fits the problem), instead of w = 0. ``record``: the objective of every
    iterate in the history (:class:`Solver`)."""
    lam_hard = optimum = None
    if config.margin == "hard":
        reference = exact_optimum(config, data)
        lam_hard, optimum = reference.lam_hard, reference.objective
    solver = Solver(config, record).reset(data, lam_hard, optimum=optimum)
    if warm is not None:
        solver.warm_from(warm)
    while not solver.done:
        if stop is not None and stop():
            return None
        solver.step(FIT_CHUNK)
    return solver


def reference_or_reason(config: SolverConfig, data: Dataset) -> tuple[Reference | None, str | None]:
    """The exact optimum, or None and why there is none (soft margin: an indefinite kernel);
    a hard margin on data that are not separable raises NotSeparableError."""
    try:
        return exact_optimum(config, data), None
    except InputError as exc:
        if config.margin == "hard":
            raise
        return None, str(exc)


def problem_key(config: SolverConfig, data: Dataset) -> tuple:
    """What the exact optimum depends on (not the algorithm, its schedule or its budget):
    the loss or problem and its ν and ε, the regularization, the kernel, Δ, and the data
    with their targets."""
    import hashlib

    digest = hashlib.blake2b(np.ascontiguousarray(data.X, dtype=float).tobytes(), digest_size=16)
    digest.update(np.ascontiguousarray(data.y, dtype=np.int64).tobytes())
    if data.target is not None:
        digest.update(np.ascontiguousarray(data.target, dtype=float).tobytes())
    return (
        module_for(config, data.n_classes).NAME,
        config.nu,
        config.epsilon,
        config.margin,
        config.lam,
        config.bias,
        config.kernel,
        config.cost,
        data.classes,
        digest.hexdigest(),
    )
