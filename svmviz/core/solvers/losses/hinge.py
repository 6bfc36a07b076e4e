"""The hinge loss of the binary soft-margin SVM: ℓ(z) = max(0, 1 − z), z = y f(x).

Objective λ/2‖w‖² + (1/m) Σ max(0, 1 − y_i f(x_i)) (001 "Soft SVM"; 004 "Gradient for Hinge
Loss": z ≥ 1 no update, z < 1 θ += η y x). The free bias is exact (:mod:`.._bias`), and the
linear model's loop screens its telemetry (:mod:`.._screen`); the exact reference is libsvm
(kernels) or the interior-point QP (:mod:`svmviz.core.reference`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.solvers import _bias, _stats, rules
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "hinge"
KIND = "binary"
TITLE = "hinge loss"
FORMULA = "max(0, 1 − y f(x))"
STEP = "y f(x) < 1: the example is inside the margin or wrong, so w moves toward y x"
LEVELS = (-1.0, 0.0, 1.0)  # f = 0 and the margins f = ±1


class Hinge(NamedTuple):
    margin: float = 1.0


def params(config, cost) -> Hinge:
    return Hinge()


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    """ρ ≥ ‖v‖ for every loss subgradient v = y φ(x): max ‖φ‖."""
    return max_norm


def losses(model, F, y, target) -> np.ndarray:
    """ℓ_i of the decision values F (m,) of classes y (0, 1)."""
    return np.maximum(0.0, 1.0 - np.where(y == 1, 1.0, -1.0) * F)


def errors(model, F, y, target) -> float:
    return float(np.mean((F > 0).astype(np.int64) != y))


def offset_value(model) -> float:
    return 0.0


@plain
def terms(loss, f, yi, ti, off, g):
    g[0] = ti if rules.hinge_violated(ti, f[0]) else 0.0
    return 1 if g[0] != 0.0 else 0


@plain
def value(loss, f, yi, ti, off):
    z = ti * f[0]
    return max(0.0, 1.0 - z), _common.binary_wrong(ti, f[0])


@plain
def totals(loss, y, t, F, scale, b, off):
    return _stats.binary_stats(t, F[0], scale, b[0])


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:
        b[0] = _bias.profile_bias(t, F[0], scale, n_pos, r, win)


@plain
def offset_term(loss, off):
    return 0.0


_dispatch.register(Hinge, __name__)

# --- exact reference
