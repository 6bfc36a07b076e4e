"""The Weston–Watkins multiclass hinge: ℓ_i = Σ_{y′≠y_i} max(0, Δ(y′, y_i) + f_y′ − f_{y_i}).

Objective λ/2 Σ_k‖w_k‖² + (1/m) Σ_i ℓ_i (CS231n's multiclass SVM loss). Every violating
class y′ moves w_y′ away from φ(x) and w_y toward it (000's step, summed over the
violators instead of the worst one).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "weston_watkins"
DESCENT_BIAS = True  # a free bias by a descent step after every step
KIND = DECLARED[NAME].kind
TITLE = "Weston–Watkins multiclass hinge"
FORMULA = "Σ_y′≠y max(0, Δ(y′, y) + f_y′(x) − f_y(x))"
STEP = "each class y′ inside the margin: w_y′ moves away from φ(x), w_y toward it"
LEVELS = (0.0, 1.0)  # the boundaries, the margins f_y − f_k = 1 (every other class k)


class WestonWatkins(NamedTuple):
    cost: np.ndarray  # (K, K) Δ(y, y′), row = true class
    zero_one: bool  # Δ is 0-1 (_common.margin_cost)


def params(config, cost) -> WestonWatkins:
    cost = np.ascontiguousarray(cost, dtype=float)
    return WestonWatkins(cost, bool(np.array_equal(cost, 1.0 - np.eye(len(cost)))))


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    """‖Σ_y′ (Ψ(x, y′) − Ψ(x, y))‖ ≤ (K − 1)·√2·max ‖φ‖ ≤ 2(K − 1) max ‖φ‖."""
    return 2.0 * max(n_classes - 1, 1) * max_norm


def losses(model, F, y, target) -> np.ndarray:
    rows = np.arange(F.shape[0])
    margins = model.cost[y] + F - F[rows, y][:, None]
    margins[rows, y] = 0.0
    return np.maximum(0.0, margins).sum(axis=1)


def errors(model, F, y, target) -> float:
    return float(np.mean(np.argmax(F, axis=1) != y))


def offset_value(model) -> float:
    return 0.0


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)
offset_term = _common.offset_term


@plain
def terms(loss, f, yi, ti, off, g):
    fy = f[yi]
    count = 0
    for k in range(f.shape[0]):
        g[k] = 0.0
    for k in range(f.shape[0]):
        if k != yi and loss.cost[yi, k] + f[k] - fy > 0.0:
            g[k] = -1.0
            g[yi] += 1.0
            count += 1
    return count + 1 if count > 0 else 0


@plain
def totals(loss, y, t, F, scale, b, off):
    """:func:`value` summed over the examples, a class at a time (vectorized)."""
    K, m = F.shape
    fy = _common.true_scores(y, F, scale, b)
    right = np.ones(m)
    total = 0.0
    for k in range(K):
        for i in range(m):
            f = scale * F[k, i] + b[k]
            v = _common.margin_cost(loss, y[i], k) + f - fy[i]
            total += max(0.0, v) if y[i] != k else 0.0
            right[i] *= _common.first_so_far(f, fy[i], k, y[i])
    return total, m - np.sum(right)


@plain
def value(loss, f, yi, ti, off):
    fy = f[yi]
    total = 0.0
    for k in range(f.shape[0]):
        if k != yi:
            total += max(0.0, loss.cost[yi, k] + f[k] - fy)
    return total, _common.multiclass_wrong(f, yi)


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:
        _common.descent_bias(loss, y, t, F, scale, b, off, step)


_dispatch.register(WestonWatkins, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): min λ/2 Σ_k‖w_k‖² + (1/m) Σ ξ_iy′ over ξ_iy′ ≥ 0 and
    ξ_iy′ ≥ Δ(y_i, y′) + f_y′(x_i) − f_{y_i}(x_i) for y′ ≠ y_i, a QP; a free bias is
    centred (Σ_k b_k = 0: the loss only sees differences of scores)."""
    from svmviz.core.solvers.losses._exact import Program, cost_matrix

    K = data.n_classes
    cost = cost_matrix(config, K)
    y = data.y
    p = Program(config, data.X, outputs=K)
    rows = [np.flatnonzero(y != k) for k in range(K)]
    slacks = [p.var(sel.size, cost=1.0 / p.m) for sel in rows]
    truth = p.true_scores(y)
    for k, (sel, xi) in enumerate(zip(rows, slacks, strict=True)):
        if sel.size:
            p.ge(p.pick(xi) - p.scores(k, sel) + truth[sel], -cost[y[sel], k])
            p.ge(p.pick(xi))
    if p.b is not None:
        p.eq(p.total(p.b))
    x, lower = p.solve()
    return p.model(x, config, data.classes, loss=NAME, cost=cost), lower, "clarabel"
