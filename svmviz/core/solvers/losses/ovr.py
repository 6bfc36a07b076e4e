"""One-vs-rest: ℓ_i = Σ_k max(0, 1 − s_ik f_k(x_i)), s_ik = +1 if k = y_i else −1.

Objective λ/2 Σ_k‖w_k‖² + (1/m) Σ_i ℓ_i: K binary hinge SVMs trained together (CS231n's
one-vs-all), each w_k stepping as 004's hinge step with its own sign.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers import rules
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "ovr"
DESCENT_BIAS = True  # a free bias by a descent step after every step
KIND = DECLARED[NAME].kind
TITLE = "one-vs-rest hinge"
FORMULA = "Σ_k max(0, 1 − s_k f_k(x)), s_k = +1 for k = y, −1 otherwise"
STEP = "each class k inside its margin: w_k moves toward s_k φ(x)"
LEVELS = (0.0,)


class OneVsRest(NamedTuple):
    margin: float = 1.0


def params(config, cost) -> OneVsRest:
    return OneVsRest()


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    """‖v‖ ≤ √K max ‖φ‖ (one ±φ per class)."""
    return float(np.sqrt(max(n_classes, 1))) * max_norm


def losses(model, F, y, target) -> np.ndarray:
    s = -np.ones_like(F)
    s[np.arange(F.shape[0]), y] = 1.0
    return np.maximum(0.0, 1.0 - s * F).sum(axis=1)


def errors(model, F, y, target) -> float:
    return float(np.mean(np.argmax(F, axis=1) != y))


def offset_value(model) -> float:
    return 0.0


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)
offset_term = _common.offset_term


@plain
def terms(loss, f, yi, ti, off, g):
    count = 0
    for k in range(f.shape[0]):
        s = 1.0 if k == yi else -1.0
        g[k] = s if rules.hinge_violated(s, f[k]) else 0.0
        if g[k] != 0.0:
            count += 1
    return count


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
            s = 1.0 if y[i] == k else -1.0
            total += max(0.0, 1.0 - s * f)
            right[i] *= _common.first_so_far(f, fy[i], k, y[i])
    return total, m - np.sum(right)


@plain
def value(loss, f, yi, ti, off):
    total = 0.0
    for k in range(f.shape[0]):
        s = 1.0 if k == yi else -1.0
        total += max(0.0, 1.0 - s * f[k])
    return total, _common.multiclass_wrong(f, yi)


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:
        _common.descent_bias(loss, y, t, F, scale, b, off, step)


_dispatch.register(OneVsRest, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): min λ/2 Σ_k‖w_k‖² + (1/m) Σ ξ_ik over ξ_ik ≥ 0 and
    ξ_ik ≥ 1 − s_ik f_k(x_i), a QP: K binary hinge SVMs, each with its own free bias
    (the loss is not shift invariant, so the b_k are not centred)."""
    from svmviz.core.solvers.losses._exact import Program

    K = data.n_classes
    p = Program(config, data.X, outputs=K)
    slacks = [p.var(p.m, cost=1.0 / p.m) for _ in range(K)]
    for k, xi in enumerate(slacks):
        s = np.where(data.y == k, 1.0, -1.0)
        p.ge(p.pick(xi) + p.scores(k).multiply(s[:, None]).tocsr(), -1.0)
        p.ge(p.pick(xi))
    x, lower = p.solve()
    return p.model(x, config, data.classes, loss=NAME), lower, "clarabel"
