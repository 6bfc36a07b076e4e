"""Headless training: what `svmviz train` does, usable from Python too."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from svmviz.core.config import HARD_MARGIN_LAM, SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.model_io import Model, with_provenance
from svmviz.core.objectives import losses
from svmviz.core.reference import Reference
from svmviz.core.solvers import Solver
from svmviz.core.solvers.iterative import HARD_GAP
from svmviz.core.training import prepare


@dataclass
class TrainResult:
    solver: Solver
    model: Model
    reference: Reference | None
    reference_error: str | None
    seconds: float

    @property
    def objective(self) -> float:
        return float(self.solver.history_["objective"][-1])


def train(config: SolverConfig, data: Dataset) -> TrainResult:
    """Solve exactly (the reference), then run the iterative solver to its budget or stop.

    A hard margin on data that are not separable raises NotSeparableError; a problem with
    no exact optimum (an indefinite sigmoid kernel) trains anyway, without a reference.
    """
    solver, reference, reason = prepare(config, data)
    start = time.perf_counter()
    while not solver.done:
        solver.step(config.iterations)
    seconds = time.perf_counter() - start
    model = with_provenance(
        solver.model(), config, solver.status_, None if reference is None else reference.objective
    )
    return TrainResult(solver, model, reference, reason, seconds)


def summary(result: TrainResult, data: Dataset, source: str) -> str:
    s = result.solver
    cfg = s.config
    h = s.history_
    m, d = data.X.shape
    lam = f"{s.lam_:g}" + (f" ({HARD_MARGIN_LAM})" if cfg.margin == "hard" else "")
    lines = [
        f"data: {source} ({m} points, {d} dimensions, {data.n_classes} classes: "
        f"{', '.join(data.classes)})",
        f"problem: {cfg.margin} margin, {'binary' if s.binary_ else 'multiclass'}, "
        f"kernel {cfg.kernel.name}, λ = {lam}, bias {cfg.bias}",
        f"solver: {cfg.algorithm}, {s.t_} iterations in {result.seconds:.3f} s ({s.status_text()})"
        + (
            f"; the hard margin's budget grew to {s.budget_:,} to come within "
            f"{HARD_GAP:.0%} of the exact optimum"
            if s.budget_ > cfg.iterations
            else ""
        ),
        f"objective: {h['objective'][-1]:.6g}   loss: {h['loss'][-1]:.6g}   "
        f"training error: {100 * h['error'][-1]:.2f}%   ‖w‖: {h['norm'][-1]:.6g}",
    ]
    ref = result.reference
    if ref is None:
        lines.append(f"exact optimum: unavailable ({result.reference_error})")
    else:
        gap = h["objective"][-1] - ref.objective
        rel = gap / abs(ref.objective) if ref.objective != 0 else float("nan")
        lines.append(
            f"exact optimum: {ref.objective:.6g} ({ref.method}, {ref.seconds:.2f} s)   "
            f"gap: {gap:.3g} ({100 * rel:.3g}%)"
        )
        if cfg.margin == "hard" and ref.margin is not None:
            lines.append(hard_margin_line(result.model, data, ref.margin))
    return "\n".join(lines)


def hard_margin_line(model: Model, data: Dataset, maximum: float) -> str:
    """The trained model's geometric margin, min_i y_i f(x_i)/‖w‖ (multiclass: the least
    f_{y_i} − max_{k≠y_i} f_k over ‖w‖), beside the maximum, and the constraints it breaks.
    (1/‖w‖ is the margin only of a feasible w: an iterate that breaks a constraint can have
    a smaller ‖w‖, and printed a "margin" above the maximum.)"""
    F = model.decision_function(data.X)
    y = data.y
    if F.ndim == 1:
        z, what = np.where(y == 1, 1.0, -1.0) * F, "min y_i f(x_i)/‖w‖"
    else:
        rows = np.arange(y.size)
        others = F.copy()
        others[rows, y] = -np.inf
        z, what = F[rows, y] - others.max(axis=1), "min (f_y − max other f)/‖w‖"
    norm = np.sqrt(max(model.norm2(), 0.0))
    margin = float(z.min()) / norm if norm > 0 else float("nan")
    line = f"margin {what}: {margin:.6g} (maximum {maximum:.6g})"
    broken = int(np.count_nonzero(losses(F, y, model.cost) > 1e-9))
    if broken:
        line += f"; this w still breaks {broken} of {y.size} margin constraints"
    return line
