"""One training step, explained: what the step inspector shows.

:func:`step_and_explain` takes exactly one iteration of a solver and records what the update
rule used: the step size η_t, the sampled examples, their margins at the current iterate
w_t and whether each has a term in the step (the loss module's own rule,
:mod:`svmviz.core.solvers.losses`; for the hinge, 004's "z ≥ 1: no update; z < 1:
θ += η y x"), each sample's scores and loss-term weights g_i = −∂ℓ_i/∂f (the class terms of
Weston–Watkins and one-vs-rest, the probabilities of softmax), the offsets ρ and ε before and
after, and, for linear single-output models, the update split into the shrink
(1 − η_t λ)w_t and the push (η_t/k) Σ g_i x_i over the samples (Pegasos, 002; the SGD of
004 with the regularizer's gradient λw). The cases and the parts come from the rules the
solver runs, applied here to the state before the step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.solvers import rules
from svmviz.core.solvers.losses import _dispatch


@dataclass(frozen=True)
class StepRecord:
    """Step t (1 for the first): from the current iterate to the next (not the averaged
    output)."""

    t: int  # the step's number
    eta: float  # its step size (Pegasos: 1/(λ(t+1)), see svmviz.core.solvers.rules)
    lam: float  # λ (for a hard margin, the λ of the equivalent soft problem)
    samples: np.ndarray  # indices i of the examples used (all of them for GD)
    # y_i f_t(x_i) (binary), f_{y_i} − max_{k≠y_i} f_k (multiclass), y_i − f_t(x_i)
    # (regression) or f_t(x_i) − ρ (one-class)
    margins: np.ndarray
    violated: np.ndarray  # the examples with a term of the loss in the step
    binary: bool
    linear: bool
    margin: float = 1.0  # binary: the level of y f(x) at the margin (ρ for ν-SVC)
    schedule: str = "constant"  # the step-size schedule the solver ran (rules.SCHEDULES)
    # linear binary models: w and b in data coordinates, before and after; the update's parts
    w_before: np.ndarray | None = None
    b_before: float = 0.0
    w_after: np.ndarray | None = None
    b_after: float = 0.0
    shrink: np.ndarray | None = None  # (1 − η_t λ) w_t
    push: np.ndarray | None = None  # (η_t / k) Σ_i g_i x_i, g_i = −ℓ′ (y_i for a hinge term)
    projected: bool = False  # w was scaled back onto the ball ‖w‖ ≤ B
    radius: float = 0.0  # B of the projection (0: none); 1/√λ by default for Pegasos (002)
    # multiclass (000, 001): per sample, ŷ = argmax_y' Δ(y', y) + f_y' − f_y (−1: no update),
    # Δ(y, ŷ), the runner-up class (the best other f_k); linear: every w_k before and after
    yhat: np.ndarray | None = None
    cost: np.ndarray | None = None
    runner_up: np.ndarray | None = None
    true_class: np.ndarray | None = None  # per sample: y_i, the index of its class
    W_before: np.ndarray | None = None  # K×d
    W_after: np.ndarray | None = None
    # kernel models (003): the sampled points' coefficients α_i before and after (K×k)
    alpha_before: np.ndarray | None = None
    alpha_after: np.ndarray | None = None
    # the loss in force (its module's NAME and KIND: binary, multiclass, regression,
    # one-class) and what each sample's term was made of, at the iterate before the step
    loss: str = "hinge"
    kind: str = "binary"
    scores: np.ndarray | None = None  # k×K: f(x_i) as the loss sees it (one-class: ⟨w, φ⟩)
    targets: np.ndarray | None = None  # k: y_i = ±1 (binary), the target (regression)
    weights: np.ndarray | None = None  # k×K: g_i = −∂ℓ_i/∂f_k, the loss term's weight
    # k×K: the argument of each class's max(0, ·): Δ(y′, y) + f_y′ − f_y (Weston–Watkins,
    # NaN at y′ = y) or 1 − s_k f_k (one-vs-rest); None for the other losses
    class_terms: np.ndarray | None = None
    probabilities: np.ndarray | None = None  # k×K: softmax's p_k
    # the offsets beside w (None where the problem has none): ρ (ν-SVC, one-class) and the
    # tube's half-width ε (fixed for ε-SVR, learned for ν-SVR), before and after the step
    rho: float | None = None
    rho_after: float | None = None
    epsilon: float | None = None
    epsilon_after: float | None = None
    nu: float | None = None  # ν of the ν problems (one-class's terms weigh 1/ν)
    inputs: int = 2  # the input's dimension (1: a 1-D regression, x against the target)

    @property
    def batch(self) -> int:
        return int(self.samples.size)


def class_terms(loss: str, F: np.ndarray, y: np.ndarray, cost: np.ndarray) -> np.ndarray | None:
    """Each class's term inside the max(0, ·) of a multiclass hinge, for scores ``F`` (k×K)
    of classes ``y``: Δ(y′, y) + f_y′ − f_y for Weston–Watkins (NaN at y′ = y; a term is
    violated when positive) and 1 − s_k f_k, s_k = +1 for k = y else −1, for one-vs-rest;
    None for the other losses."""
    rows = np.arange(len(y))
    if loss == "weston_watkins":
        terms = cost[y] + F - F[rows, y][:, None]
        terms[rows, y] = np.nan
        return terms
    if loss == "ovr":
        s = -np.ones_like(F)
        s[rows, y] = 1.0
        return 1.0 - s * F
    return None


def softmax(F: np.ndarray) -> np.ndarray:
    """The probabilities p_k = e^(f_k) / Σ_k′ e^(f_k′) of each row of scores ``F``."""
    e = np.exp(F - F.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def point_terms(loss: str, f: np.ndarray, y: int, cost: np.ndarray) -> np.ndarray:
    """One point's loss terms per class, as CS231n's linear-classifier demo lists them
    (scores ``f`` (K,), class ``y``): max(0, Δ(y′, y) + f_y′ − f_y) per class y′ ≠ y for
    Weston–Watkins (0 at y), Δ(y′, y) + f_y′ − f_y for Crammer–Singer (the loss is their
    max, with 0 at y), max(0, 1 − s_k f_k) for one-vs-rest, the probabilities p_k for
    softmax."""
    f = np.asarray(f, dtype=float)[None, :]
    yy = np.array([int(y)])
    if loss == "softmax":
        return softmax(f)[0]
    if loss == "crammer_singer":
        return (cost[yy] + f - f[0, int(y)])[0]
    terms = class_terms(loss, f, yy, cost)
    if terms is None:
        raise ValueError(f"{loss} is not a multiclass loss")
    return np.nan_to_num(np.maximum(0.0, terms), nan=0.0)[0]


def margin_case(z: float, margin: float = 1.0) -> str:
    """Where a binary example with y f(x) = ``z`` lies, in words: misclassified (z < 0),
    inside the margin on the correct side (0 ≤ z < ``margin``) or outside the margin."""
    if z < 0:
        return "misclassified"
    return "inside the margin" if z < margin else "outside the margin"


def _scores(solver) -> np.ndarray:
    """f_t at every training point, K×m, from the current iterate (not the average)."""
    f = solver.training_values(iterate=True)
    return f[None, :] if f.ndim == 1 else f.T


def _multiclass(R, cost, F, y, samples):
    """Per sample: ŷ (−1: no hinge term, :func:`rules.crammer_singer`), Δ(y, ŷ), and the
    runner-up class (the best other f_k)."""
    pairs = zip(samples, y, strict=True)
    yhat = np.array([R.crammer_singer(cost, F[:, i], int(c)) for i, c in pairs], dtype=np.int64)
    others = F[:, samples].T.copy()
    others[np.arange(len(samples)), y] = -np.inf
    return yhat, cost[y, np.maximum(yhat, 0)], others.argmax(axis=1)


def _terms(solver, F, b_off, samples) -> np.ndarray:
    """−∂ℓ_i/∂f at the iterate for each sample (k×K): the loss module's own rule
    (:func:`losses._dispatch.terms`, as plain Python), on the scores F (K×m, bias in)."""
    pb, loss = solver.problem_, solver.settings_.loss
    g = np.zeros((len(samples), F.shape[0]))
    for r, i in enumerate(samples):
        _dispatch.terms(loss, F[:, i].copy(), int(pb.y[i]), float(pb.y_sign[i]), b_off, g[r])
    return g


def _linear_single(R, solver, eta, W, b, samples, g) -> dict:
    """w and b before and after, and the update's parts: the shrink (1 − ηλ)w_t and the push
    (η/k) Σ g_i φ_i over the samples, g_i = −ℓ′ (y_i for a violating hinge sample, 004)."""
    d = solver.d_
    W2, b2 = solver.iterate()
    reg = solver.bias_ == "regularized"
    pb = solver.problem_
    push = np.zeros(W.shape[1])
    for r, i in enumerate(samples):
        push += g[r, 0] * (eta / len(samples)) * pb.PhiT[:, i]
    shrink = R.shrink_factor(eta, solver.lam_) * W[0]
    projected = not np.allclose(W2[0], shrink + push, rtol=1e-9, atol=1e-12)
    return dict(
        w_before=W[0, :d].copy(),
        b_before=float(W[0, d] if reg else b[0]),
        w_after=W2[0, :d].copy(),
        b_after=float(W2[0, d] if reg else b2[0]),
        shrink=shrink[:d],
        push=push[:d],
        projected=bool(projected),
    )


def _offsets(solver, before) -> dict:
    """ρ and ε of the problem before and after the step (the solver's state, now after it),
    and ν; only the ones the problem has."""
    after = solver.state_.off
    names = getattr(solver.loss_, "OFFSETS", ())
    params = solver.settings_.loss
    out: dict = {}
    if "nu" in getattr(params, "_fields", ()):
        out["nu"] = float(params.nu)
    if "rho" in names:
        out.update(rho=float(before[0]), rho_after=float(after[0]))
    if "epsilon" in names:
        out.update(epsilon=float(before[1]), epsilon_after=float(after[1]))
    elif "epsilon" in getattr(params, "_fields", ()):  # ε-SVR: fixed
        out.update(epsilon=float(params.epsilon), epsilon_after=float(params.epsilon))
    return out


def step_and_explain(solver) -> StepRecord | None:
    """Take one iteration of ``solver`` and return what it did (None at the budget)."""
    if solver.done:
        return None
    R = rules.python()  # the rules as plain Python: no wait for the compiled loops
    t = solver.t_ + 1
    eta = solver.next_step_size()
    W, b = solver.iterate()
    off = solver.state_.off.copy()  # ρ, ε of the iterate, which the step's terms use
    F = _scores(solver)
    if solver.step(1) == 0:
        return None
    pb = solver.problem_
    full = solver.batch_ == 0
    samples = np.arange(solver.m_) if full else solver.history_["sampled"][-1].copy()
    y = pb.y[samples]
    record = dict(
        t=t,
        eta=eta,
        lam=float(solver.lam_),
        samples=samples,
        binary=solver.binary_,
        linear=solver.linear_,
        schedule=solver.schedule,
        radius=float(solver.settings_.radius),
    )
    kind = solver.config.kind
    module = solver.loss_
    # the loop's scores: ⟨w, φ⟩ + b (one-class's f = ⟨w, φ⟩ − ρ has ρ taken off)
    Fl = F + off[0] if kind == "one-class" else F
    g = _terms(solver, Fl, off, samples)
    scores = Fl[:, samples].T.copy()
    record.update(
        loss=module.NAME,
        kind=module.KIND,
        scores=scores,
        weights=g,
        inputs=int(solver.d_),
        **_offsets(solver, off),
    )
    if kind == "regression" or solver.binary_:
        record.update(targets=pb.y_sign[samples].copy())
    if module.NAME == "softmax":
        record.update(probabilities=softmax(scores))
    terms = class_terms(module.NAME, scores, y, pb.cost)
    if terms is not None:
        record.update(class_terms=terms)
    if solver.n_out_ == 1:  # y f (svc), the residual y − f (regression), f − ρ (one-class)
        f = F[0, samples]
        t_i = pb.y_sign[samples]
        margins = t_i - f if kind == "regression" else f if kind == "one-class" else t_i * f
        violated = np.any(g != 0, axis=1)
    else:
        Fs = F[:, samples].T.copy()
        fy = Fs[np.arange(len(samples)), y]
        Fs[np.arange(len(samples)), y] = -np.inf
        margins = fy - Fs.max(axis=1)
        yhat, cost, runner_up = _multiclass(R, pb.cost, F, y, samples)
        violated = np.any(g != 0, axis=1)
        record.update(yhat=yhat, cost=cost, runner_up=runner_up, true_class=y.copy())
    if solver.binary_ and "rho" in getattr(solver.loss_, "OFFSETS", ()):
        record.update(margin=float(off[0]))  # ν-SVC: the margin is at y f = ρ
    if not full:  # what the loop found (the same rule, on the same numbers)
        violated = solver.history_["violated"][-1].copy()
    record.update(margins=margins, violated=violated)
    if not solver.linear_:
        after = solver.iterate()[0]
        record.update(alpha_before=W[:, samples].copy(), alpha_after=after[:, samples].copy())
    elif solver.n_out_ > 1:
        d = solver.d_
        record.update(W_before=W[:, :d].copy(), W_after=solver.iterate()[0][:, :d].copy())
    else:
        record.update(_linear_single(R, solver, eta, W, b, samples, g))
    return StepRecord(**record)
