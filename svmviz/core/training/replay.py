"""Replaying a training from w = 0 (or its start w₀) for an animation: the iterations to
show, and the solver stepped to each of them. The run is the window's own (same
configuration and seed, on the same training points), so every picture is an iterate the
window showed or would show."""

from __future__ import annotations

from collections.abc import Generator, Iterable

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.solvers import Solver
from svmviz.core.training.reference import Reference
from svmviz.core.training.start import Start, apply_start

SPACINGS = ("log", "linear")


def frame_iterations(last: int, frames: int, spacing: str = "log") -> np.ndarray:
    """``min(frames, last)`` distinct iterations from 1 to ``last``, both included: at the
    log-t pace (svmviz.core.training.pace: t = 1, 2, 3, … one at a time while the steps of an even
    spacing in log t would be shorter than one iteration, then evenly in log t, so the
    early steps, which move the boundary most, get more frames) or evenly in t."""
    if spacing not in SPACINGS:
        raise InputError(f"spacing must be one of {', '.join(SPACINGS)}, not {spacing!r}")
    if int(last) < 1 or int(frames) < 2:
        raise InputError("an animation needs at least 2 frames and 1 iteration")
    last, n = int(last), min(int(frames), int(last))
    if spacing == "linear" or n < 2:
        return np.unique(np.round(np.linspace(1, last, n)).astype(np.int64))
    t = [1.0]
    for left in range(n - 1, 0, -1):  # the ratio that reaches ``last`` in the steps left
        t.append(max(t[-1] + 1.0, t[-1] * (last / t[-1]) ** (1.0 / left)))
    # (steps of at least 1 stay distinct when rounded; the last is ``last`` itself)
    return np.round(np.array(t)).astype(np.int64)


def replay(
    config: SolverConfig,
    data: Dataset,
    reference: Reference | None,
    iterations: Iterable[int],
    start: Start | None = None,
) -> Generator[Solver, None, None]:
    """The solver of ``config`` on ``data`` from w = 0 (or the run's ``start`` w₀, its
    iterations then counted from t₀), stepped to each of ``iterations`` (increasing) in
    turn; stops early where the solver stops (its stopping rule, or a divergence:
    ``solver.status_`` says which)."""
    solver = Solver(config).reset(
        data,
        None if reference is None else reference.lam_hard,
        optimum=None if reference is None else reference.objective,
    )
    if start is not None:
        apply_start(solver, start)
    t0 = solver.t_
    for t in iterations:
        while solver.t_ < t0 + t and not solver.done:
            solver.step(int(t0 + t) - solver.t_)
        yield solver
        if solver.done:
            return
