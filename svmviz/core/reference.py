"""The exact optimum of the same problem the iterative solvers minimize.

The binary hinge and the Crammer–Singer losses are solved here, by one of two exact
methods; every other problem by the conic program of its loss module (its ``reference``,
built on :mod:`svmviz.core.solvers.losses._exact`). The two methods:

* libsvm (scikit-learn's SVC on the precomputed Gram matrix, C = 1/(λm)) for the standard
  binary soft-margin SVM with a free bias, linear or kernel;
* an interior-point QP (Clarabel) for everything else: bias ``none`` or ``regularized``,
  multiclass with a cost matrix Δ, λ = 0 (a linear program) and the hard margin. The
  kernel is factored once, K = F Fᵀ (eigenvalues below 1e-12 of the largest are dropped),
  so every problem becomes a linear one in the r columns of F.

Every answer is certified: ``lower`` is a lower bound on the optimum from a feasible dual
point (weak duality), so the optimum lies in [lower, objective]. libsvm caches its kernel in
single precision, which leaves relative gaps of order 1e-5 (a poly kernel, small λ); its
answer is therefore polished in double precision on its own active set (the KKT system
of the free support vectors). When that does not certify 1e-7 relative (a badly scaled
kernel, e.g. kernel values of 1e14, where libsvm stops far above the optimum),
the interior-point QP solves the problem instead. The returned objective is evaluated by
:mod:`svmviz.core.objectives` at the returned model, the same definition the solvers use.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, check_cost_matrix
from svmviz.core.errors import InputError, NotSeparableError
from svmviz.core.limits import check_coordinates
from svmviz.core.model_io import Model
from svmviz.core.objectives import model_objective, zero_one_cost
from svmviz.core.solvers import losses
from svmviz.core.solvers.losses._exact import base_gram, features

CERTIFIED = 1e-7  # libsvm's answer is kept when its relative duality gap is at most this
# ... and otherwise too above this many points, where the kernel QP's time grows cubically
# (seconds at 500 points, minutes at 2,000); ``lower`` says how far off
QP_FALLBACK_POINTS = 500


@dataclass(frozen=True)
class Reference:
    objective: float
    model: Model
    method: str
    seconds: float
    lam_hard: float | None = None  # hard margin: λ with the same soft solution
    margin: float | None = None  # hard margin: 1/‖w‖ (geometric margin)
    lower: float = -np.inf  # a certified lower bound on the optimum (weak duality)


def exact_optimum(config: SolverConfig, data: Dataset) -> Reference:
    """Solve the problem of ``config`` on ``data`` exactly.

    Raises :class:`NotSeparableError` for a hard margin on data that are not separable,
    and :class:`InputError` when the problem has no optimum (an indefinite sigmoid kernel).
    """
    start = time.perf_counter()
    X = np.asarray(data.X, dtype=float)
    check_coordinates(X, lambda i: f"point {i + 1}")
    K = data.n_classes
    module = losses.module_for(config, K)
    if module.NAME not in ("hinge", "crammer_singer"):
        # every other problem: its loss module's conic program (:mod:`.losses._exact`)
        model, lower = module.reference(config, data)
        objective = model_objective(model, X, data.y, data.target)["objective"]
        seconds = time.perf_counter() - start
        return Reference(objective, model, "clarabel", seconds, lower=min(lower, objective))
    binary = K == 2
    cost = zero_one_cost(K) if config.cost is None else check_cost_matrix(np.array(config.cost), K)
    hard = config.margin == "hard"
    linear = config.kernel.is_linear
    # libsvm for kernels; the interior-point QP for linear models, whose primal has only
    # p + 1 weights (far faster than libsvm's dual there, and a lower objective)
    lam_hard = None
    if binary and config.bias == "free" and not hard and config.lam > 0 and not linear:
        model, lower = _libsvm(config, data)
        method = "libsvm"
        obj = model_objective(model, X, data.y)
        f = obj["objective"]
        if f - lower > CERTIFIED * max(abs(f), 1e-12) and X.shape[0] <= QP_FALLBACK_POINTS:
            model, lam_hard, lower = _qp(config, data, cost, hard)
            method = "clarabel"
            obj = model_objective(model, X, data.y)
    else:
        model, lam_hard, lower = _qp(config, data, cost, hard)
        method = "clarabel"
        obj = model_objective(model, X, data.y)
    if hard:
        n2 = model.norm2()
        # the exact penalty form the solver reports: ½‖w‖² + C Σ ξ = soft objective / λ
        objective = 0.5 * n2 + obj["loss"] / lam_hard
        margin = 1.0 / np.sqrt(n2) if n2 > 0 else np.inf
    else:
        objective = obj["objective"]
        margin = None
    return Reference(
        objective,
        model,
        method,
        time.perf_counter() - start,
        lam_hard,
        margin,
        min(lower, objective),
    )


def _libsvm(config: SolverConfig, data: Dataset) -> tuple[Model, float]:
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


def _qp(config: SolverConfig, data: Dataset, cost: np.ndarray, hard: bool):
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
        lam_hard = 0.9 / (m * max(alpha_max, 1e-12))
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
        return Model(coef=Wf[:, :d].copy(), intercept=intercept, **common), lam_hard, lower
    coef = Wf @ to_coef.T  # (Ko, m)
    intercept = coef.sum(axis=1) if reg else bvec
    model = Model(support_vectors=X.copy(), dual_coef=coef, intercept=intercept, **common)
    return model, lam_hard, lower
