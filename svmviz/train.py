"""Headless training: what `svmviz train` does, usable from Python too."""

from __future__ import annotations

import time
from dataclasses import dataclass

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.model_io import Model, with_provenance
from svmviz.core.reference import Reference
from svmviz.core.solvers import Solver
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
    model = with_provenance(solver.model(), config, solver.status_,
                            None if reference is None else reference.objective)  # fmt: skip
    return TrainResult(solver, model, reference, reason, seconds)


def summary(result: TrainResult, data: Dataset, source: str) -> str:
    s = result.solver
    cfg = s.config
    h = s.history_
    m, d = data.X.shape
    lines = [
        f"data: {source} ({m} points, {d} dimensions, {data.n_classes} classes: "
        f"{', '.join(data.classes)})",
        f"problem: {cfg.margin} margin, {'binary' if s.binary_ else 'multiclass'}, "
        f"kernel {cfg.kernel.name}, λ = {s.lam_:g}, bias {cfg.bias}",
        f"solver: {cfg.algorithm}, {s.t_} iterations in {result.seconds:.3f} s ({s.status_text()})",
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
        if cfg.margin == "hard":
            lines.append(f"margin 1/‖w‖: {1 / h['norm'][-1]:.6g} (maximum {ref.margin:.6g})")
    return "\n".join(lines)
