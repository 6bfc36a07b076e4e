"""The Crammer–Singer multiclass hinge: ℓ_i = max_y′ [Δ(y′, y_i) + f_y′(x_i) − f_{y_i}(x_i)].

Objective λ/2 Σ_k‖w_k‖² + (1/m) Σ_i ℓ_i (000 "SGD for Multiclass Learning", 001 "Stochastic
SbGD for the MC case"): ŷ = argmax_y′ Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩, v = Ψ(x, ŷ) −
Ψ(x, y), w ← w − ηv, which moves only w_y (+φ) and w_ŷ (−φ). The exact reference is the
interior-point QP (:mod:`svmviz.core.reference`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.solvers import _bias, _stats, rules
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "crammer_singer"
KIND = "multiclass"
TITLE = "Crammer–Singer multiclass hinge"
FORMULA = "max_y′ [Δ(y′, y) + f_y′(x) − f_y(x)]"
STEP = "the most violating class ŷ: w_y moves toward φ(x), w_ŷ away from it"
LEVELS = (0.0,)  # the boundaries between the regions


class CrammerSinger(NamedTuple):
    cost: np.ndarray  # (K, K) Δ(y, y′), row = true class


def params(config, cost) -> CrammerSinger:
    return CrammerSinger(np.ascontiguousarray(cost, dtype=float))


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    """‖Ψ(x, ŷ) − Ψ(x, y)‖ ≤ 2 max ‖φ‖ (000, Corollary 17.2)."""
    return 2.0 * max_norm


def losses(model, F, y, target) -> np.ndarray:
    rows = np.arange(F.shape[0])
    return np.max(model.cost[y] + F - F[rows, y][:, None], axis=1)


def errors(model, F, y, target) -> float:
    return float(np.mean(np.argmax(F, axis=1) != y))


def offset_value(model) -> float:
    return 0.0


@plain
def terms(loss, f, yi, ti, off, g):
    for k in range(f.shape[0]):
        g[k] = 0.0
    yhat = rules.crammer_singer(loss.cost, f, yi)
    if yhat < 0:
        return 0
    g[yi] = 1.0
    g[yhat] = -1.0
    return 2


@plain
def value(loss, f, yi, ti, off):
    fy = f[yi]
    worst = 0.0
    for k in range(f.shape[0]):
        v = loss.cost[yi, k] + f[k] - fy
        worst = v if v > worst else worst
    return worst, _common.multiclass_wrong(f, yi)


@plain
def totals(loss, y, t, F, scale, b, off):
    return _stats.multiclass_stats(y, loss.cost, F, scale, b)


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:  # _common.descent_bias's step, fused for this loss (the default multiclass one)
        _bias.bias_descent(y, loss.cost, F, scale, b, step)


@plain
def offset_term(loss, off):
    return 0.0


_dispatch.register(CrammerSinger, __name__)

# --- exact reference
