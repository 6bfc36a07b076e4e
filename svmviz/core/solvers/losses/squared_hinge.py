"""The squared hinge loss: ℓ(z) = max(0, 1 − z)², z = y f(x) (L2-SVM; liblinear's default).

Objective λ/2‖w‖² + (1/m) Σ max(0, 1 − y_i f(x_i))². Smooth: the step is the gradient
2 max(0, 1 − z) y φ(x) (004's hinge step weighted by the slack), and a free bias is
exact by Newton's method in b (:func:`._common.newton_bias`). The loop's parts are
:mod:`._binary`'s over ℓ, ℓ′, ℓ″.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _binary, _dispatch

NAME = "squared_hinge"
KIND = DECLARED[NAME].kind
TITLE = "squared hinge loss"
FORMULA = "max(0, 1 − y f(x))²"
STEP = "y f(x) < 1: w moves toward y x by twice the slack 1 − y f(x)"
WEIGHT = "2(1 − y_i f) y_i if y_i f < 1"  # g_i = −∂ℓ_i/∂f in the step w += (η/k) Σ g_i x_i
LEVELS = (-1.0, 0.0, 1.0)
# the gradient grows with the slack, so the steps are projected onto the ball that holds w*:
# λ/2‖w*‖² ≤ F(0) ≤ 1 gives ‖w*‖ ≤ √(2/λ) (002's projected gradient)
PROJECT = True


class SquaredHinge(NamedTuple):
    margin: float = 1.0


def params(config, cost) -> SquaredHinge:
    return SquaredHinge()


def subgradient_bound(max_norm: float, n_classes: int, config) -> float | None:
    """None: the gradient 2(1 − z) y φ grows with the slack (no bound of 000's kind)."""
    return None


def losses(model, F, y, target) -> np.ndarray:
    return np.maximum(0.0, 1.0 - _binary.signs(y) * F) ** 2


@plain
def loss(z):
    h = max(0.0, 1.0 - z)
    return h * h


@plain
def dloss(z):
    return -2.0 * (1.0 - z) if z < 1.0 else 0.0


@plain
def dloss2(z):
    return (-2.0 * (1.0 - z), 2.0) if z < 1.0 else (0.0, 0.0)


_dispatch.register(SquaredHinge, __name__)


# --- exact reference


def reference(config, data):
    """(Model, lower, method): min λ/2‖w‖² + (1/m) Σ ξ_i² over ξ_i ≥ 1 − y_i f(x_i), a QP whose
    ξ² weighs 2/m in P (ξ ≥ 0 is not needed: a negative ξ only costs more). Checked by
    liblinear (LinearSVC, loss squared_hinge, C = 1/(λm), no intercept): C Σ ξ² +
    ½‖w‖² is 1/λ times this objective."""
    from svmviz.core.solvers.losses._exact import Program, binary_signs

    s = binary_signs(data, "the squared hinge loss")
    p = Program(config, data.X)
    xi = p.var(p.m, square=2.0 / p.m)
    p.ge(p.scores().multiply(s[:, None]).tocsr() + p.pick(xi), -1.0)
    x, lower = p.solve()
    return p.model(x, config, data.classes, loss=NAME), lower, "clarabel"
