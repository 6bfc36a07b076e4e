"""The modified Huber loss: ℓ(z) = max(0, 1 − z)² for z ≥ −1, else −4z; z = y f(x)
(scikit-learn's SGDClassifier(loss="modified_huber"); Zhang 2004).

The squared hinge near the margin and a line of slope −4 beyond z = −1, where the two
meet with one slope: smooth, and an outlier pulls w by at most 4 y φ(x). The loop's parts
are :mod:`._binary`'s over ℓ, ℓ′, ℓ″ (a free bias by Newton's method in b).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _binary, _dispatch

NAME = "modified_huber"
KIND = DECLARED[NAME].kind
TITLE = "modified Huber loss"
FORMULA = "max(0, 1 − y f(x))² if y f(x) ≥ −1, else −4 y f(x)"
STEP = "y f(x) < 1: w moves toward y x by twice the slack 1 − y f(x), at most 4"
WEIGHT = "min(2(1 − y_i f), 4) y_i if y_i f < 1"  # g_i = −∂ℓ_i/∂f
LEVELS = (-1.0, 0.0, 1.0)


class ModifiedHuber(NamedTuple):
    margin: float = 1.0


def params(config, cost) -> ModifiedHuber:
    return ModifiedHuber()


def probability(F) -> np.ndarray:
    """P(class | x) of the two classes (columns): (clip(f, −1, 1) + 1)/2, scikit-learn's
    SGDClassifier(loss="modified_huber").predict_proba (Zhang 2004)."""
    p = (np.clip(F, -1.0, 1.0) + 1.0) / 2.0
    return np.column_stack([1.0 - p, p])


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    """|ℓ′| ≤ 4, so ‖v‖ ≤ 4 max ‖φ‖."""
    return 4.0 * max_norm


def losses(model, F, y, target) -> np.ndarray:
    z = _binary.signs(y) * F
    return np.where(z >= -1.0, np.maximum(0.0, 1.0 - z) ** 2, -4.0 * z)


@plain
def loss(z):
    if z >= 1.0:
        return 0.0
    return (1.0 - z) * (1.0 - z) if z >= -1.0 else -4.0 * z


@plain
def dloss(z):
    if z >= 1.0:
        return 0.0
    return -2.0 * (1.0 - z) if z >= -1.0 else -4.0


@plain
def dloss2(z):
    if z >= 1.0:
        return 0.0, 0.0
    return (-2.0 * (1.0 - z), 2.0) if z >= -1.0 else (-4.0, 0.0)


_dispatch.register(ModifiedHuber, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): ℓ(z) = min s² + 4r over s ≤ 2, r ≥ 0, s + r ≥ 1 − z (s = the
    slack up to 2, r the rest), so min λ/2‖w‖² + (1/m) Σ (s_i² + 4 r_i) over those: a QP."""
    from svmviz.core.solvers.losses._exact import Program, binary_signs

    sign = binary_signs(data, "the modified Huber loss")
    p = Program(config, data.X)
    s = p.var(p.m, square=2.0 / p.m)
    r = p.var(p.m, cost=4.0 / p.m)
    p.ge(p.scores().multiply(sign[:, None]).tocsr() + p.pick(s) + p.pick(r), -1.0)
    p.ge(-p.pick(s), 2.0)
    p.ge(p.pick(r))
    x, lower = p.solve()
    return p.model(x, config, data.classes, loss=NAME), lower, "clarabel"
