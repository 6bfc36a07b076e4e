"""The Crammer–Singer multiclass hinge: ℓ_i = max_y′ [Δ(y′, y_i) + f_y′(x_i) − f_{y_i}(x_i)].

Objective λ/2 Σ_k‖w_k‖² + (1/m) Σ_i ℓ_i (000 "SGD for Multiclass Learning", 001 "Stochastic
SbGD for the MC case"): ŷ = argmax_y′ Δ(y′, y) + ⟨w, Ψ(x, y′) − Ψ(x, y)⟩, v = Ψ(x, ŷ) −
Ψ(x, y), w ← w − ηv, which moves only w_y (+φ) and w_ŷ (−φ). The exact reference is the
interior-point QP of the hinge family (:func:`hinge_qp`, the hard margin's too).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.config import HARD_MARGIN_LAM_FACTOR
from svmviz.core.errors import InputError, NotSeparableError
from svmviz.core.model_io import Model
from svmviz.core.problems import DECLARED
from svmviz.core.solvers import _bias, rules
from svmviz.core.solvers.losses import _common, _dispatch
from svmviz.core.solvers.losses._exact import features

NAME = "crammer_singer"
DESCENT_BIAS = True  # a free bias by a descent step after every step
KIND = DECLARED[NAME].kind
FUSED_BIAS = True  # a free bias by _bias.bias_descent
TITLE = "Crammer–Singer multiclass hinge"
FORMULA = "max_y′ [Δ(y′, y) + f_y′(x) − f_y(x)]"
STEP = "the most violating class ŷ: w_y moves toward φ(x), w_ŷ away from it"
COUNTS = True  # a kernel α counts ±1 terms (003's β)
LEVELS = (0.0, 1.0)  # the boundaries between the regions, the margins f_y − max f_k = 1


class CrammerSinger(NamedTuple):
    cost: np.ndarray  # (K, K) Δ(y, y′), row = true class
    zero_one: bool  # Δ is 0-1 (_common.margin_cost)


def params(config, cost) -> CrammerSinger:
    cost = np.ascontiguousarray(cost, dtype=float)
    return CrammerSinger(cost, bool(np.array_equal(cost, 1.0 - np.eye(len(cost)))))


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
    """:func:`value` summed over the examples, a class at a time (vectorized)."""
    K, m = F.shape
    fy = _common.true_scores(y, F, scale, b)
    worst = np.zeros(m)
    right = np.ones(m)
    for k in range(K):
        for i in range(m):
            f = scale * F[k, i] + b[k]
            worst[i] = max(worst[i], _common.margin_cost(loss, y[i], k) + f - fy[i])
            right[i] *= _common.first_so_far(f, fy[i], k, y[i])
    return np.sum(worst), m - np.sum(right)


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:  # _common.descent_bias's step, fused for this loss (the default multiclass one)
        _bias.bias_descent(y, loss.cost, F, scale, b, step)


offset_term = _common.offset_term

_dispatch.register(CrammerSinger, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, "clarabel"): :func:`hinge_qp` with the cost matrix Δ of ``config``."""
    from svmviz.core.solvers.losses._exact import cost_matrix

    model, lower = hinge_qp(
        config, data, cost_matrix(config, data.n_classes), config.margin == "hard"
    )
    return model, lower, "clarabel"


def hinge_qp(config, data, cost: np.ndarray, hard: bool):
    """(Model, lower): the hinge (binary, one output) or Crammer–Singer (multiclass) SVM,
    soft or hard margin, as an interior-point QP (Clarabel) in the factor space of the
    kernel (:func:`._exact.features`); ``lower`` is its dual objective. A hard margin's
    model has lam = λ_hard = HARD_MARGIN_LAM_FACTOR/(m max α), the λ whose soft problem
    has its solution."""
    # (imported here: scipy takes 0.2 s to import, and the first frame does not need it)
    import clarabel
    import scipy.sparse as sp

    X = np.asarray(data.X, dtype=float)
    y = data.y
    m = X.shape[0]
    K = data.n_classes
    binary = K == 2
    Ko = 1 if binary else K
    F, to_coef = features(config, X, config.bias == "regularized")
    r = F.shape[1]
    # solved for w' = σ w with F' = F / σ, whose largest entry is 1: the same margins
    # w'·F' = w·F, and λ‖w‖² = (λ/σ²)‖w'‖² (a polynomial kernel on coordinates of 1e3 has
    # F of 1e7, where Clarabel stopped with "InsufficientProgress")
    # (never scaled up: features of 1e-130 would make λ/σ² overflow)
    sigma = max(1.0, float(np.abs(F).max(initial=0.0)))
    F = F / sigma
    free = config.bias == "free"
    nb = Ko if free else 0
    nxi = 0 if hard else m
    nw = Ko * r
    nvar = nw + nb + nxi
    lam = 1.0 if hard else config.lam
    P = sp.diags(np.r_[np.full(nw, lam / sigma**2), np.zeros(nb + nxi)]).tocsc()
    q = np.r_[np.zeros(nw + nb), np.full(nxi, 1.0 / m)]

    # margin constraints, written as  −(margin terms) − ξ_i ≤ −Δ
    rows, rhs = [], []
    rng = np.arange(m)
    if binary:
        s = np.where(y == 1, 1.0, -1.0)
        blocks = [sp.csr_matrix(-s[:, None] * F)]
        if free:
            blocks.append(sp.csr_matrix(-s[:, None]))
        if not hard:
            blocks.append(-sp.eye(m, format="csr"))
        rows.append(sp.hstack(blocks))
        rhs.append(-np.ones(m))
    else:
        for k in range(K):
            sel = rng[y != k]  # constraint for y' = k on examples whose label is not k
            n = sel.size
            if n == 0:
                continue
            Wpart = np.zeros((n, nw))
            for a, i in enumerate(sel):
                Wpart[a, y[i] * r : (y[i] + 1) * r] -= F[i]
                Wpart[a, k * r : (k + 1) * r] += F[i]
            blocks = [sp.csr_matrix(Wpart)]
            if free:
                Bpart = np.zeros((n, Ko))
                Bpart[np.arange(n), y[sel]] = -1.0
                Bpart[np.arange(n), k] = 1.0
                blocks.append(sp.csr_matrix(Bpart))
            if not hard:
                blocks.append(-sp.csr_matrix((np.ones(n), (np.arange(n), sel)), shape=(n, m)))
            rows.append(sp.hstack(blocks))
            rhs.append(-cost[y[sel], k])
    if not hard:  # ξ ≥ 0
        rows.append(sp.hstack([sp.csr_matrix((m, nw + nb)), -sp.eye(m, format="csr")]))
        rhs.append(np.zeros(m))
    A_ineq = sp.vstack(rows).tocsc()
    b_ineq = np.concatenate(rhs)
    cones = []
    A_parts, b_parts = [], []
    if free and not binary:  # fix the shift invariance of b: Σ_k b_k = 0
        A_parts.append(sp.csr_matrix(np.r_[np.zeros(nw), np.ones(nb), np.zeros(nxi)][None, :]))
        b_parts.append(np.zeros(1))
        cones.append(clarabel.ZeroConeT(1))
    A_parts.append(A_ineq)
    b_parts.append(b_ineq)
    cones.append(clarabel.NonnegativeConeT(A_ineq.shape[0]))
    if not hard and config.lam == 0:
        # a linear program can have an unbounded optimal face (separable data); a loose box
        # on w keeps the interior-point iterates finite without changing the optimal value
        box = 1e6 * sigma
        A_parts.append(sp.vstack([sp.eye(nw, nvar), -sp.eye(nw, nvar)]))
        b_parts.append(np.full(2 * nw, box))
        cones.append(clarabel.NonnegativeConeT(2 * nw))
    A = sp.vstack(A_parts).tocsc()
    b = np.concatenate(b_parts)
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.tol_gap_abs = 1e-10
    settings.tol_gap_rel = 1e-10
    settings.tol_feas = 1e-10
    settings.max_iter = 200
    sol = clarabel.DefaultSolver(P, q, A, b, cones, settings).solve()
    status = str(sol.status)
    if hard and "Infeasible" in status:
        raise NotSeparableError(
            "the data are not separable"
            + (
                ""
                if config.kernel.is_linear
                else f" in the {config.kernel.name} kernel's feature space"
            )
            + ", so a hard-margin SVM has no solution; use a soft margin"
            + ("" if config.kernel.is_linear else " or another kernel")
        )
    if status not in ("Solved", "AlmostSolved"):
        raise InputError(f"the exact solver failed ({status}); the problem may be ill-posed")
    lower = float(sol.obj_val_dual)
    x = np.asarray(sol.x)
    Wf = x[:nw].reshape(Ko, r) / sigma
    bvec = x[nw : nw + nb] if free else np.zeros(Ko)
    lam_hard = None
    if hard:
        z = np.asarray(sol.z)[(1 if (free and not binary) else 0) :][: A_ineq.shape[0]]
        # per example, C must cover the sum of its multipliers
        per_example = np.zeros(m)
        if binary:
            per_example = z[:m]
        else:
            pos = 0
            for k in range(K):
                sel = rng[y != k]
                np.add.at(per_example, sel, z[pos : pos + sel.size])
                pos += sel.size
        alpha_max = float(per_example.max())
        # any C = 1/(λm) ≥ max α gives the hard solution; a little above it, for rounding
        # in α (a smaller λ would only slow the 1/(λt) steps down)
        lam_hard = HARD_MARGIN_LAM_FACTOR / (m * max(alpha_max, 1e-12))
    common = dict(
        classes=data.classes,
        kernel=config.kernel,
        lam=config.lam if not hard else lam_hard,
        bias=config.bias,
        cost=None if binary else cost,
    )
    reg = config.bias == "regularized"
    if to_coef is None:
        d = X.shape[1]
        intercept = Wf[:, d].copy() if reg else bvec
        return Model(coef=Wf[:, :d].copy(), intercept=intercept, **common), lower
    coef = Wf @ to_coef.T  # (Ko, m)
    intercept = coef.sum(axis=1) if reg else bvec
    model = Model(support_vectors=X.copy(), dual_coef=coef, intercept=intercept, **common)
    return model, lower
