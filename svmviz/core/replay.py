"""Replaying a training from w = 0 for an animation: the iterations to show, and the solver
stepped to each of them. The run is the window's own (same configuration and seed, on the
same training points), so every picture is an iterate the window showed or would show."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.reference import Reference
from svmviz.core.solvers import Solver

SPACINGS = ("log", "linear")


def frame_iterations(last: int, frames: int, spacing: str = "log") -> np.ndarray:
    """Up to ``frames`` distinct iterations from 1 to ``last``, both included: spaced evenly
    in log t (the early steps, which move the boundary most, get more frames) or in t."""
    if spacing not in SPACINGS:
        raise InputError(f"spacing must be one of {', '.join(SPACINGS)}, not {spacing!r}")
    if int(last) < 1 or int(frames) < 2:
        raise InputError("an animation needs at least 2 frames and 1 iteration")
    if spacing == "log":
        t = np.geomspace(1, last, frames)
    else:
        t = np.linspace(1, last, frames)
    return np.unique(np.round(t).astype(np.int64))


def replay(
    config: SolverConfig, data: Dataset, reference: Reference | None, iterations: Iterable[int]
) -> Iterator[Solver]:
    """The solver of ``config`` on ``data`` from w = 0, stepped to each of ``iterations``
    (increasing) in turn; stops early where the solver stops (its stopping rule, or a
    divergence: ``solver.status_`` says which)."""
    solver = Solver(config).reset(
        data,
        None if reference is None else reference.lam_hard,
        optimum=None if reference is None else reference.objective,
    )
    for t in iterations:
        while solver.t_ < t and not solver.done:
            solver.step(int(t) - solver.t_)
        yield solver
        if solver.done:
            return
