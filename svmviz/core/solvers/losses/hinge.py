"""The hinge loss of the binary soft-margin SVM: ℓ(z) = max(0, 1 − z), z = y f(x).

Objective λ/2‖w‖² + (1/m) Σ max(0, 1 − y_i f(x_i)) (001 "Soft SVM"; 004 "Gradient for Hinge
Loss": z ≥ 1 no update, z < 1 θ += η y x). The free bias is exact (:mod:`.._bias`), and the
linear model's loop screens its telemetry (:mod:`.._screen`); the exact reference is libsvm
(kernels, a free bias) or the hinge family's interior-point QP (:func:`reference`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.model_io import Model
from svmviz.core.problems import DECLARED
from svmviz.core.solvers import _bias, _stats, rules
from svmviz.core.solvers.losses import _dispatch
from svmviz.core.solvers.losses._exact import base_gram

NAME = "hinge"
KIND = DECLARED[NAME].kind
EXACT_BIAS = True  # the free bias by _bias's searches
SCREENED = True  # a linear model's telemetry by _screen
TITLE = "hinge loss"
FORMULA = "max(0, 1 − y f(x))"
STEP = "y f(x) < 1: the example is inside the margin or wrong, so w moves toward y x"
WEIGHT = "y_i if y_i f < 1"  # g_i = −∂ℓ_i/∂f in the step w += (η/k) Σ g_i x_i
PUSH = ("Σ_violating y_i x_i", "Σ y_i x_i")  # Σ g_i x_i: the rule's, the push line's
COUNTS = True  # a kernel α counts ±1 terms (003's β)
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


@plain
def loss(z):
    return max(0.0, 1.0 - z)


@plain
def dloss(z):
    return -1.0 if z < 1.0 else 0.0  # (a subgradient: 0 at the kink z = 1)


@plain
def dloss2(z):
    return (-1.0 if z < 1.0 else 0.0), 0.0


# its own terms (rules' violation test, which the step inspector applies too), telemetry
# (screened) and free bias (exact); the rest :mod:`._binary`'s
@plain
def terms(loss, f, yi, ti, off, g):
    g[0] = ti if rules.hinge_violated(ti, f[0]) else 0.0
    return 1 if g[0] != 0.0 else 0


@plain
def totals(loss, y, t, F, scale, b, off):
    return _stats.binary_stats(t, F[0], scale, b[0])


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:
        b[0] = _bias.profile_bias(t, F[0], scale, n_pos, r, win)


_dispatch.register(Hinge, __name__)

# --- exact reference
CERTIFIED = 1e-7  # libsvm's answer is kept when its relative duality gap is at most this
# ... and otherwise too above this many points, where the kernel QP's time grows cubically
# (seconds at 500 points, minutes at 2,000); ``lower`` says how far off
QP_FALLBACK_POINTS = 500


def reference(config, data):
    """(Model, lower, method): libsvm (scikit-learn's SVC on the precomputed Gram matrix,
    C = 1/(λm)) for a kernel with a free bias, soft margin and λ > 0, polished in double
    precision and certified by its dual bound; otherwise, or when that does not certify
    CERTIFIED (a badly scaled kernel), the interior-point QP of the hinge family
    (:func:`.crammer_singer.hinge_qp`; a hard margin's model has the λ of the equivalent
    soft problem as its lam)."""
    from svmviz.core.objectives import model_objective
    from svmviz.core.solvers.losses.crammer_singer import hinge_qp

    hard = config.margin == "hard"
    if config.bias == "free" and not hard and config.lam > 0 and not config.kernel.is_linear:
        model, lower = _libsvm(config, data)
        f = model_objective(model, data.X, data.y)["objective"]
        if f - lower <= CERTIFIED * max(abs(f), 1e-12) or len(data.y) > QP_FALLBACK_POINTS:
            return model, lower, "libsvm"
    model, lower = hinge_qp(config, data, 1.0 - np.eye(2), hard)
    return model, lower, "clarabel"


def _libsvm(config, data) -> tuple[Model, float]:
    """libsvm's solution, polished; and the dual bound λ(Σα − ½‖w‖²) of its feasible α."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import SVC

    X = data.X
    m = X.shape[0]
    G = base_gram(config, X)
    C = 1.0 / (config.lam * m)
    svc = SVC(C=C, kernel="precomputed", tol=1e-7, max_iter=max(10**6, 100 * m))
    with warnings.catch_warnings():  # (a run cut short is judged by its certificate)
        warnings.simplefilter("ignore", ConvergenceWarning)
        svc.fit(G, data.y)
    # scikit-learn's decision function is positive for classes_[1] = our class 1
    a = np.zeros(m)
    a[svc.support_] = svc.dual_coef_.ravel()  # y_i α_i
    s = np.where(data.y == 1, 1.0, -1.0)
    best = _dual_point(a, svc.intercept_[0], G, s, config.lam)
    polished = _polish(a, G, s, C)
    if polished is not None:
        best = min(best, _dual_point(*polished, G, s, config.lam), key=lambda d: d[0])
    _, a, b, lower = best
    sv = np.flatnonzero(a)
    common = dict(classes=data.classes, kernel=config.kernel, lam=config.lam, bias="free")
    return Model(
        support_vectors=X[sv].copy(),
        dual_coef=a[sv][None, :],
        intercept=np.array([b]),
        **common,
    ), lower


def _dual_point(a, b, G, s, lam):
    """(primal objective, a, b, dual bound) of the signed dual coefficients ``a``."""
    f0 = G @ a
    n2 = float(a @ f0)
    primal = 0.5 * lam * n2 + float(np.maximum(0.0, 1.0 - s * (f0 + b)).mean())
    lower = lam * (float(np.abs(a).sum()) - 0.5 * n2)
    return primal, a, float(b), lower


def _polish(a, G, s, C) -> tuple[np.ndarray, float] | None:
    """libsvm's α made exact in double precision: keep its active set (α = 0, α = C, free),
    solve the free support vectors' KKT equations y_i f(x_i) = 1 with Σ y_i α_i = 0, and
    accept the result if every α stays in [0, C]; None otherwise."""
    alpha = a * s
    upper = alpha >= C * (1 - 1e-9)
    free = (alpha > C * 1e-9) & ~upper
    F, U = np.flatnonzero(free), np.flatnonzero(upper)
    n = F.size
    if n == 0:
        return None
    aU = s[U] * C
    M = np.zeros((n + 1, n + 1))
    M[:n, :n] = G[np.ix_(F, F)]
    M[:n, n] = 1.0
    M[n, :n] = 1.0
    rhs = np.r_[s[F] - G[np.ix_(F, U)] @ aU, -aU.sum()]
    sol = np.linalg.lstsq(M, rhs, rcond=None)[0]
    aF = sol[:n]
    if not np.all(np.isfinite(sol)) or np.any(aF * s[F] < 0) or np.any(aF * s[F] > C):
        return None
    out = np.zeros_like(a)
    out[U] = aU
    out[F] = aF
    return out, sol[n]
