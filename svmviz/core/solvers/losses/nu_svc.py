"""ν-support vector classification (libsvm's ν-SVC): the margin ρ is a variable.

Objective ½‖w‖² − νρ + (1/m) Σ max(0, ρ − y_i f(x_i)), f = ⟨w, φ(x)⟩ + b, ρ free. For the
current w, ρ and a free bias b are exact: ρ − b is the νm/2-th smallest score of the
positives and ρ + b that of the negated scores of the negatives (without a free bias, ρ is
the νm-th smallest y_i⟨w, φ(x_i)⟩), so ν bounds the share of margin errors from above
and of support vectors from below (:mod:`._common`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "nu-svc"
KIND = "binary"
TITLE = "ν-support vector classification (ν-SVC)"
FORMULA = "−νρ + max(0, ρ − y f(x))"
STEP = "y f(x) < ρ: the example is inside the margin ρ or wrong, so w moves toward y x; ρ follows w"
LEVELS = (0.0,)


class NuSVC(NamedTuple):
    nu: float


def params(config, cost) -> NuSVC:
    return NuSVC(float(config.nu))


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    return max_norm


def losses(model, F, y, target) -> np.ndarray:
    return np.maximum(0.0, model.rho - _signs(y) * F)


def errors(model, F, y, target) -> float:
    return float(np.mean((F > 0).astype(np.int64) != y))


def offset_value(model) -> float:
    return -model.nu * model.rho


def _signs(y):
    return np.where(y == 1, 1.0, -1.0)


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)


# --- exact reference
