"""The logistic loss: ℓ(z) = log(1 + e^(−z)), z = y f(x) (logistic regression).

Objective λ/2‖w‖² + (1/m) Σ log(1 + e^(−y_i f(x_i))). Smooth: every example has a term,
the gradient y φ(x)/(1 + e^z); a free bias is exact by Newton's method in b
(:func:`._common.newton_bias`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "logistic"
KIND = DECLARED[NAME].kind
TITLE = "logistic loss"
FORMULA = "log(1 + e^(−y f(x)))"
STEP = "every example pulls w toward y x, by 1/(1 + e^(y f(x))): more when it is wrong"
WEIGHT = "y_i/(1 + e^(y_i f))"  # g_i = −∂ℓ_i/∂f in the step w += (η/k) Σ g_i x_i
LEVELS = (0.0,)


class Logistic(NamedTuple):
    scale: float = 1.0


def params(config, cost) -> Logistic:
    return Logistic()


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    """|ℓ′| ≤ 1, so ‖v‖ ≤ max ‖φ‖."""
    return max_norm


def losses(model, F, y, target) -> np.ndarray:
    return np.logaddexp(0.0, -_signs(y) * F)


def errors(model, F, y, target) -> float:
    return float(np.mean((F > 0).astype(np.int64) != y))


def offset_value(model) -> float:
    return 0.0


def _signs(y):
    return np.where(y == 1, 1.0, -1.0)


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)
totals = _common.single_totals
offset_term = _common.offset_term


@plain
def terms(loss, f, yi, ti, off, g):
    z = ti * f[0]
    if z > 0.0:  # 1/(1 + e^z), without overflow
        e = np.exp(-z)
        g[0] = ti * e / (1.0 + e)
    else:
        g[0] = ti / (1.0 + np.exp(z))
    return 1


@plain
def value(loss, f, yi, ti, off):
    z = ti * f[0]
    v = np.log1p(np.exp(-z)) if z > 0.0 else -z + np.log1p(np.exp(z))
    return v, _common.binary_wrong(ti, f[0])


@plain
def derivatives(loss, f, ti):
    z = ti * f[0]
    e = np.exp(-abs(z))
    s = 1.0 / (1.0 + e)  # σ(|z|); σ(−z) = 1/(1 + e^z) is e·s for z > 0, else s
    return -ti * (e * s if z > 0.0 else s), e * s * s


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:
        _common.newton_bias(loss, t, F, scale, b)


_dispatch.register(Logistic, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): min λ/2‖w‖² + (1/m) Σ t_i over log(1 + e^(−y_i f(x_i))) ≤ t_i, two
    exponential cones per example (:meth:`._exact.Program.log_sum_exp`). Checked by
    scikit-learn's LogisticRegression (lbfgs, C = 1/(λm), an unpenalized intercept =
    the free bias): ½‖w‖² + C Σ ℓ_i is 1/λ times this objective."""
    import scipy.sparse as sp

    from svmviz.core.solvers.losses._exact import Program, binary_signs

    s = binary_signs(data, "the logistic loss")
    p = Program(config, data.X)
    t = p.var(p.m, cost=1.0 / p.m)
    margin = p.scores().multiply(-s[:, None]).tocsr()  # −y_i f(x_i)
    p.log_sum_exp([(sp.csr_matrix(margin.shape), 0.0), (margin, 0.0)], t)
    x, lower = p.solve()
    return p.model(x, config, data.classes, loss=NAME), lower, "clarabel"
