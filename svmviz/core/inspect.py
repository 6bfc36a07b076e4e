"""One training step, explained: what the step inspector shows.

:func:`step_and_explain` takes exactly one iteration of a solver and records what the update
rule used: the step size η_t, the sampled examples, their margins y_i f_t(x_i) at the current
iterate w_t and which case of the hinge subgradient applies (004, "z ≥ 1: no update; z < 1:
θ += η y x"), and, for linear binary models, the update split into the shrink (1 − η_t λ)w_t
and the push (η_t/k) Σ y_i x_i over the violating samples (Pegasos, 002; the SGD of 004 with
the regularizer's gradient λw).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class StepRecord:
    """Step t (1 for the first): from the current iterate to the next (not the averaged
    output)."""

    t: int  # the step's number
    eta: float  # its step size (Pegasos: 1/(λ(t+1)), see svmviz.core.solvers._loop)
    lam: float  # λ (for a hard margin, the λ of the equivalent soft problem)
    samples: np.ndarray  # indices i of the examples used (all of them for GD)
    margins: np.ndarray  # y_i f_t(x_i) (binary) or f_{y_i} − max_{k≠y_i} f_k (multiclass)
    violated: np.ndarray  # the examples with a hinge term in the subgradient
    binary: bool
    linear: bool
    # linear binary models: w and b in data coordinates, before and after; the update's parts
    w_before: np.ndarray | None = None
    b_before: float = 0.0
    w_after: np.ndarray | None = None
    b_after: float = 0.0
    shrink: np.ndarray | None = None  # (1 − η_t λ) w_t
    push: np.ndarray | None = None  # (η_t / k) Σ_{violating i} y_i x_i
    projected: bool = False  # w was scaled back onto the ball ‖w‖ ≤ B
    radius: float = 0.0  # B of the projection (0: none); 1/√λ by default for Pegasos (002)
    # multiclass (000, 001): per sample, ŷ = argmax_y' Δ(y', y) + f_y' − f_y (−1: no update),
    # Δ(y, ŷ), the runner-up class (the best other f_k); linear: every w_k before and after
    yhat: np.ndarray | None = None
    cost: np.ndarray | None = None
    runner_up: np.ndarray | None = None
    W_before: np.ndarray | None = None  # K×d
    W_after: np.ndarray | None = None
    # kernel models (003): the sampled points' coefficients α_i before and after (K×k)
    alpha_before: np.ndarray | None = None
    alpha_after: np.ndarray | None = None

    @property
    def batch(self) -> int:
        return int(self.samples.size)


def _current(solver):
    """(W, b) of the current iterate (not the average): W is K×p in the solver's features."""
    return solver.W_ * solver.scal_[0], solver.b_.copy()


def _scores(solver, W, b) -> np.ndarray:
    """f_t at every training point, K×m, from the current iterate."""
    if solver.linear_:
        return W @ solver.PhiT_ + b[:, None]
    return solver.S_ * solver.scal_[0] + b[:, None]


def step_and_explain(solver) -> StepRecord | None:
    """Take one iteration of ``solver`` and return what it did (None at the budget)."""
    if solver.done:
        return None
    t = solver.t_ + 1
    # (the loops the solver runs now: no wait for the compiled ones)
    eta = float(solver._loops().step_size(solver.schedule_, solver.eta0_, solver.lam_, t))
    W, b = _current(solver)
    F = _scores(solver, W, b)
    A_before = solver.A_ * solver.scal_[0]
    if solver.step(1) == 0:
        return None
    full = solver.batch_ == 0
    samples = np.arange(solver.m_) if full else solver.history_["sampled"][-1].copy()
    y = solver.y_[samples]
    if solver.binary_:
        margins = solver.y_sign_[samples] * F[0, samples]
    else:
        Fs = F[:, samples].T.copy()
        fy = Fs[np.arange(len(samples)), y]
        Fs[np.arange(len(samples)), y] = -np.inf
        margins = fy - Fs.max(axis=1)
    if full:  # GD: every example with a hinge term (binary: margin < 1)
        if solver.binary_:
            violated = margins < 1.0
        else:
            cost = solver.cost_[y]  # Δ(y_i, ·)
            G = F[:, samples].T - F[y, samples][:, None] + cost
            G[np.arange(len(samples)), y] = 0.0
            violated = G.max(axis=1) > 0.0
    else:
        violated = solver.history_["violated"][-1].copy()
    record = dict(t=t, eta=eta, lam=float(solver.lam_), samples=samples, margins=margins,
                  violated=violated, binary=solver.binary_, linear=solver.linear_,
                  radius=float(solver.radius_))  # fmt: skip
    if not solver.binary_:
        rows = np.arange(len(samples))
        Fs = F[:, samples].T  # k×K
        G = solver.cost_[y] + Fs - Fs[rows, y][:, None]  # Δ(y_i, y') + f_y' − f_y
        G[rows, y] = 0.0
        yhat = np.where(G.max(axis=1) > 0.0, G.argmax(axis=1), -1)
        others = Fs.copy()
        others[rows, y] = -np.inf
        record.update(yhat=yhat, cost=solver.cost_[y, np.maximum(yhat, 0)],
                      runner_up=others.argmax(axis=1))  # fmt: skip
    if not solver.linear_:
        record.update(alpha_before=A_before[:, samples].copy(),
                      alpha_after=(solver.A_ * solver.scal_[0])[:, samples].copy())  # fmt: skip
    elif not solver.binary_:
        d = solver.d_
        record.update(W_before=W[:, :d].copy(), W_after=_current(solver)[0][:, :d].copy())
    if solver.linear_ and solver.binary_:
        d = solver.d_
        W2, b2 = _current(solver)
        reg = solver.config.bias == "regularized"
        phi = solver.PhiT_.T[samples]  # the features the rule uses (x, 1 with a regularized b)
        k = len(samples)
        push = (eta / k) * (solver.y_sign_[samples][violated, None] * phi[violated]).sum(axis=0)
        shrink = (1.0 - eta * solver.lam_) * W[0]
        unprojected = shrink + push
        projected = not np.allclose(W2[0], unprojected, rtol=1e-9, atol=1e-12)
        record.update(
            w_before=W[0, :d].copy(), b_before=float(W[0, d] if reg else b[0]),
            w_after=W2[0, :d].copy(), b_after=float(W2[0, d] if reg else b2[0]),
            shrink=shrink[:d], push=push[:d], projected=bool(projected),
        )  # fmt: skip
    return StepRecord(**record)
