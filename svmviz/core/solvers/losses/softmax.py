"""The softmax (multinomial logistic) loss: ℓ_i = log Σ_y′ e^(f_y′(x_i)) − f_{y_i}(x_i).

Objective λ/2 Σ_k‖w_k‖² + (1/m) Σ_i ℓ_i (CS231n's softmax classifier). Smooth: every
example moves each w_k by (1[k = y] − p_k) φ(x), p the softmax of the scores.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "softmax"
KIND = DECLARED[NAME].kind
TITLE = "softmax cross-entropy"
FORMULA = "log Σ_y′ e^(f_y′(x)) − f_y(x)"
STEP = "each w_k moves by (1[k = y] − p_k) φ(x), p_k the predicted probability of class k"
LEVELS = (0.0,)


class Softmax(NamedTuple):
    scale: float = 1.0


def params(config, cost) -> Softmax:
    return Softmax()


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    """‖1_y − p‖ ≤ √2, so ‖v‖ ≤ √2 max ‖φ‖."""
    return float(np.sqrt(2.0)) * max_norm


def losses(model, F, y, target) -> np.ndarray:
    top = F.max(axis=1)
    lse = top + np.log(np.exp(F - top[:, None]).sum(axis=1))
    return lse - F[np.arange(F.shape[0]), y]


def errors(model, F, y, target) -> float:
    return float(np.mean(np.argmax(F, axis=1) != y))


def offset_value(model) -> float:
    return 0.0


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)
totals = _common.totals
offset_term = _common.offset_term


@plain
def terms(loss, f, yi, ti, off, g):
    top = f[0]
    for k in range(1, f.shape[0]):
        top = f[k] if f[k] > top else top
    for k in range(f.shape[0]):
        g[k] = np.exp(f[k] - top)
    # summed in a loop that stores nothing: a sum beside a store is vectorized or not by
    # where the arrays happen to lie (the compiler's overlap check), and rounds differently
    total = 0.0
    for k in range(f.shape[0]):
        total += g[k]
    for k in range(f.shape[0]):
        g[k] = (1.0 if k == yi else 0.0) - g[k] / total
    return f.shape[0]


@plain
def value(loss, f, yi, ti, off):
    top = f[0]
    for k in range(1, f.shape[0]):
        top = f[k] if f[k] > top else top
    total = 0.0
    for k in range(f.shape[0]):
        total += np.exp(f[k] - top)
    return top + np.log(total) - f[yi], _common.multiclass_wrong(f, yi)


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:
        _common.descent_bias(loss, y, t, F, scale, b, off, step)


_dispatch.register(Softmax, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): min λ/2 Σ_k‖w_k‖² + (1/m) Σ t_i over
    log Σ_y′ e^(f_y′(x_i) − f_{y_i}(x_i)) ≤ t_i, K exponential cones per example
    (:meth:`._exact.Program.log_sum_exp`); a free bias is centred (Σ_k b_k = 0)."""
    from svmviz.core.solvers.losses._exact import Program

    K = data.n_classes
    p = Program(config, data.X, outputs=K)
    t = p.var(p.m, cost=1.0 / p.m)
    truth = p.true_scores(data.y)
    p.log_sum_exp([(p.scores(k) - truth, 0.0) for k in range(K)], t)
    if p.b is not None:
        p.eq(p.total(p.b))
    x, lower = p.solve()
    return p.model(x, config, data.classes, loss=NAME), lower, "clarabel"
