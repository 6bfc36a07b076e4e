"""Headless training: what `svmviz train` does, usable from Python too."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from svmviz.core.config import HARD_MARGIN_LAM, SolverConfig, nu_notice
from svmviz.core.data import Dataset
from svmviz.core.errors import counted
from svmviz.core.lesson import bounds
from svmviz.core.lesson.support import support_of, support_record, support_words
from svmviz.core.model_io import Model, with_provenance
from svmviz.core.objectives import losses
from svmviz.core.solvers import Solver, feasible
from svmviz.core.solvers import losses as loss_modules
from svmviz.core.solvers.hard_margin import HARD_GAP
from svmviz.core.solvers.losses import offset_columns, parameters_of
from svmviz.core.training.reference import Reference
from svmviz.core.training.setup import prepare

# the relative gap is printed when |F*| is at least this share of the size of its terms
RELATIVE_SCALE = 1e-3
# a run went wrong when its objective ends this many times farther from the optimum than
# the run came at its closest, than |F*| and than the Pegasos guarantee (far_off)
FAR_OFF = 1e3


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


def train(config: SolverConfig, data: Dataset, every: bool = False) -> TrainResult:
    """Solve exactly (the reference), then run the iterative solver to its budget or stop.

    The history holds the exact objective at log-spaced checkpoints, at the stopping
    rule's checks and at the end (``every``: at every iteration, an O(m) pass each where
    the loss has no screen).

    A hard margin on data that are not separable raises NotSeparableError; a problem with
    no exact optimum (an indefinite sigmoid kernel) trains anyway, without a reference.
    """
    solver, reference, reason = prepare(config, data, True if every else "checkpoints")
    start = time.perf_counter()
    while not solver.done:
        solver.step(config.iterations)
    solver.exact_last_row()
    seconds = time.perf_counter() - start
    model = with_provenance(
        solver.model(), config, solver.status_, None if reference is None else reference.objective
    )
    count = len(support_of(model, data, solver.training_values()))
    model.extra["support_count"] = support_record(model, data, count, len(data.X))
    return TrainResult(solver, model, reference, reason, seconds)


def went_wrong(result: TrainResult) -> str:
    """Why the run's output is not to be used, or "": a divergence; a ν too small for the
    data (νm < 1, :func:`svmviz.core.config.nu_notice`); an objective that ended orders of
    magnitude off the exact optimum (:func:`far_off`)."""
    s = result.solver
    if s.status_ == "diverged":
        return "training diverged"
    too_small = nu_notice(s.config.nu, s.m_) if "nu" in parameters_of(s.config.problem) else ""
    if too_small:
        return too_small
    if result.reference is None:
        return ""
    data, cfg = s.data_, s.config
    module = loss_modules.module_for(cfg, data.n_classes)
    theory = bounds.evaluate(
        data,
        cfg.kernel,
        s.bias_,
        norm=0.0,  # (the bounds of the norms are not used here)
        optimum_norm=None,
        lam=s.lam_,
        T=s.t_,
        epsilon=0.0,
        lipschitz=lambda R: module.subgradient_bound(R, data.n_classes, cfg),
    ).pegasos
    return far_off(s.history_["objective"], result.reference.objective, theory or 0.0)


def far_off(objective: np.ndarray, optimum: float, theory: float = 0.0) -> str:
    """What to say when the last objective is more than FAR_OFF times farther from the exact
    ``optimum`` than each of: |F*|, the closest the run came, and ``theory`` (the gap that
    Pegasos's guarantee allows after these iterations: the scale of a sane run's noise where
    F* is 0, as at a linear one-class optimum). That is a run whose objective grew orders of
    magnitude, not an early iterate on its way down. "" otherwise."""
    if not len(objective):
        return ""
    gaps = np.asarray(objective, dtype=float) - optimum
    closest = float(np.min(gaps[np.isfinite(gaps)], initial=np.inf))
    gap = float(gaps[-1])
    if not np.isfinite(gap) or gap > FAR_OFF * max(abs(optimum), closest, theory, 1e-300):
        return (
            f"the objective ended {gap:.3g} above the exact optimum {optimum:.6g}, orders of "
            f"magnitude farther than the run came ({closest:.3g}): the run went wrong"
        )
    return ""


def summary(result: TrainResult, data: Dataset, source: str) -> str:
    """What `svmviz train` prints: the data, the problem (its loss, λ, and ν, ε and ρ where
    the problem has them: ε and ρ from the model, since ν-SVR learns ε and ρ is learned),
    the run, and the gap to the exact optimum."""
    s = result.solver
    cfg = s.config
    model = result.model
    h = s.history_
    m, d = data.X.shape
    error = {"svc": "training error", "regression": "outside the ε-tube", "one-class": "outliers"}
    lines = [
        f"data: {source} ({counted(m, 'point')}, {counted(d, 'dimension')}, {data_words(data)})",
        f"problem: {problem_words(cfg, model, s.lam_)}",
        f"solver: {cfg.algorithm}, {counted(s.t_, 'iteration')} in {result.seconds:.3f} s "
        f"({s.status_text()})"
        + (
            f"; the hard margin's budget grew to {s.budget_:,} to bring its margin within "
            f"{HARD_GAP:.0%} of the maximum"
            if s.budget_ > cfg.iterations
            else ""
        ),
        f"objective: {h['objective'][-1]:.6g}   loss: {h['loss'][-1]:.6g}   "
        f"{error[model.kind]}: {100 * h['error'][-1]:.2f}%   ‖w‖: {h['norm'][-1]:.6g}",
        support_words(model, data, model.extra["support_count"]["count"], m),
    ]
    if s.notice_:
        lines.append(f"notice: {s.notice_}")
    ref = result.reference
    if ref is None:
        lines.append(f"exact optimum: unavailable ({result.reference_error})")
    else:
        reg = 0.5 * model.lam * h["norm"][-1] ** 2
        lines.append(
            f"exact optimum: {ref.objective:.6g} ({ref.method}, {ref.seconds:.2f} s)   "
            + gap_words(h["objective"][-1], ref.objective, h["loss"][-1], reg)
        )
        step = s.exact_step_
        if step is not None:
            lines.append(
                f"last exact step (after iteration {step.iteration:,}): {feasible.WORDS} "
                f"(÷ {step.scale:.6g}); objective ½‖w‖² = {s.exact_objective():.6g}   "
                + gap_words(s.exact_objective(), ref.objective, 0.0, s.exact_objective())
            )
        if cfg.margin == "hard" and ref.margin is not None:
            lines.append(hard_margin_line(result.model, data, ref.margin))
    return "\n".join(lines)


def gap_words(objective: float, optimum: float, loss: float, reg: float) -> str:
    """The gap F − F*, and beside it the relative gap when F* has a scale of its own: not
    where the objective's terms (the regularizer ``reg``, the mean ``loss`` and the offset
    term −ρ, −νρ or νε) cancel to about 0, as at a linear one-class optimum (w = 0, ρ = 0),
    where any gap is a huge share of nothing."""
    gap = objective - optimum
    terms = abs(reg) + abs(loss) + abs(objective - reg - loss)
    text = f"gap: {gap:.3g}"
    if optimum != 0 and np.isfinite(terms) and abs(optimum) >= RELATIVE_SCALE * terms:
        text += f" ({100 * gap / abs(optimum):.3g}%)"
    return text


def data_words(data: Dataset) -> str:
    """The classes, the range of a regression target, or "unlabelled" (one-class)."""
    if data.target is not None:
        return f"target in [{data.target.min():.6g}, {data.target.max():.6g}]"
    if not data.classes:
        return "unlabelled"
    return f"{data.n_classes} classes: {', '.join(data.classes)}"


def problem_words(cfg: SolverConfig, model: Model, lam: float) -> str:
    """The problem in a line: its name, margin and outputs (svc), loss, kernel, and the
    numbers it has (λ but for ν-SVC and one-class, ν, ε, ρ) and bias (but for one-class)."""
    words = [cfg.problem]
    if cfg.problem == "svc":
        words.append(f"{cfg.margin} margin")
    if model.kind == "svc":
        words.append("binary" if model.binary else "multiclass")
    if model.loss is not None:
        words.append(f"{model.loss} loss")
    words.append(f"kernel {cfg.kernel.name}")
    if not cfg.nu_scaled:
        words.append(f"λ = {lam:g}" + (f" ({HARD_MARGIN_LAM})" if cfg.margin == "hard" else ""))
    if model.nu is not None:
        words.append(f"ν = {model.nu:g}")
    if model.epsilon is not None:
        learned = "epsilon" in offset_columns(cfg.problem)
        words.append(f"ε = {model.epsilon:.6g}" + (" (learned)" if learned else ""))
    if model.rho is not None:
        words.append(f"ρ = {model.rho:.6g}")
    if model.kind != "one-class":  # (ρ is its offset)
        words.append(f"bias {cfg.bias}")
    return ", ".join(words)


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
