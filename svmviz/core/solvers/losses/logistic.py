"""The logistic loss: ℓ(z) = log(1 + e^(−z)), z = y f(x) (logistic regression).

Objective λ/2‖w‖² + (1/m) Σ log(1 + e^(−y_i f(x_i))). Smooth: every example has a term,
the gradient y φ(x)/(1 + e^z); a free bias is exact by Newton's method in b
(:func:`._common.newton_bias`). The loop's parts are :mod:`._binary`'s over ℓ, ℓ′, ℓ″.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _binary, _dispatch

NAME = "logistic"
KIND = DECLARED[NAME].kind
TITLE = "logistic loss"
FORMULA = "log(1 + e^(−y f(x)))"
STEP = "every example pulls w toward y x, by 1/(1 + e^(y f(x))): more when it is wrong"
WEIGHT = "y_i/(1 + e^(y_i f))"  # g_i = −∂ℓ_i/∂f in the step w += (η/k) Σ g_i x_i
LEVELS = (0.0,)
KINK = False  # every example has a term: no margin, no point line in weight space


class Logistic(NamedTuple):
    margin: float = np.inf  # every example has a term


def params(config, cost) -> Logistic:
    return Logistic()


def probability(F) -> np.ndarray:
    """P(class | x) of the two classes (columns) for decision values F: σ(f) (the
    estimators' predict_proba)."""
    p = np.exp(-np.logaddexp(0.0, -F))
    return np.column_stack([1.0 - p, p])


def log_probability(F) -> np.ndarray:
    """log P(class | x), without the rounding of log σ near 0."""
    return np.column_stack([-np.logaddexp(0.0, F), -np.logaddexp(0.0, -F)])


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    """|ℓ′| ≤ 1, so ‖v‖ ≤ max ‖φ‖."""
    return max_norm


def losses(model, F, y, target) -> np.ndarray:
    return np.logaddexp(0.0, -_binary.signs(y) * F)


@plain
def loss(z):
    return np.log1p(np.exp(-z)) if z > 0.0 else -z + np.log1p(np.exp(z))


@plain
def dloss(z):
    if z > 0.0:  # −1/(1 + e^z), without overflow
        e = np.exp(-z)
        return -(e / (1.0 + e))
    return -(1.0 / (1.0 + np.exp(z)))


@plain
def dloss2(z):
    e = np.exp(-abs(z))
    s = 1.0 / (1.0 + e)  # σ(|z|); σ(−z) = 1/(1 + e^z) is e·s for z > 0, else s
    return -(e * s if z > 0.0 else s), e * s * s


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
