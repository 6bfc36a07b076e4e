"""The exact reference of every loss: one conic program, solved by Clarabel's interior point.

The problem's Gram matrix (k, or k + 1 for a regularized bias) is factored once, G = F Fᵀ
(eigenvalues below 1e-12 of the largest are dropped; a linear kernel uses X itself), so
every score f_k(x_i) = F_i·w_k + b_k is linear in the r columns of F. A loss module's
``reference`` states its program with :class:`Program`: blocks of variables with a
diagonal quadratic and a linear cost, and affine rows in the zero, nonnegative and
exponential cones (log-sum-exp epigraphs, for the logistic and softmax losses). The
certified lower bound is Clarabel's dual objective, as for the hinge
(:func:`.crammer_singer.hinge_qp`), and :meth:`Program.model` maps w back to a Model.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.data import check_cost_matrix
from svmviz.core.errors import InputError
from svmviz.core.kernels import check_gram
from svmviz.core.limits import check_kernel_points
from svmviz.core.model_io import Model


def base_gram(config, X: np.ndarray) -> np.ndarray:
    """The kernel matrix of X; an InputError when a sigmoid kernel makes it indefinite
    (the objective is then unbounded below)."""
    check_kernel_points(X.shape[0], config.kernel.name)
    G = config.kernel.gram(X, X)
    check_gram(G, config.kernel)
    if config.kernel.name == "sigmoid":
        low = np.linalg.eigvalsh(G)[0]
        if low < -1e-8 * max(1.0, np.abs(G).max()):
            raise InputError(
                "no exact optimum: the sigmoid kernel matrix is not positive semidefinite "
                f"on these data (smallest eigenvalue {low:.3g}), so the SVM objective is "
                "unbounded below; try a smaller gamma or a negative coef0"
            )
    return G


def features(config, X: np.ndarray, regularized: bool):
    """F with F Fᵀ = the Gram matrix of the problem (k, or k + 1 for a regularized bias),
    and the map from a weight vector in F's space to coefficients on the training points
    (None for a linear kernel, whose F is X itself)."""
    m = X.shape[0]
    if config.kernel.is_linear:
        F = np.hstack([X, np.ones((m, 1))]) if regularized else X
        return F, None
    G = base_gram(config, X)
    if regularized:
        G = G + 1.0
    ev, U = np.linalg.eigh(G)
    keep = ev > 1e-12 * max(ev[-1], 1e-300)
    ev, U = ev[keep], U[:, keep]
    F = U * np.sqrt(ev)
    to_coef = U / np.sqrt(ev)  # a = U Λ^(-1/2) w, so that G a = F w
    return F, to_coef


def cost_matrix(config, n_classes: int) -> np.ndarray:
    """Δ of the config (rows = true class), 0-1 when it sets none."""
    if config.cost is None:
        return 1.0 - np.eye(n_classes)
    return check_cost_matrix(np.array(config.cost), n_classes)


class Program:
    """min ½ xᵀPx + qᵀx over the rows M x + c in cones, P diagonal; x starts with the
    weights (``outputs`` blocks of r, solved for w′ = σw on F′ = F/σ, whose largest
    entry is 1: the same scores, and λ‖w‖² = (λ/σ²)‖w′‖²) and the free biases."""

    def __init__(self, config, X, outputs: int = 1, lam: float | None = None, bias=None, scale=1.0):
        self.X = np.asarray(X, dtype=float)
        self.m = self.X.shape[0]
        self.bias = config.bias if bias is None else bias
        self.lam = config.lam_used if lam is None else lam
        F, self.to_coef = features(config, self.X, self.bias == "regularized")
        self.r = F.shape[1]
        # (never scaled up: features of 1e-130 would make λ/σ² overflow)
        self.sigma = max(1.0, float(np.abs(F).max(initial=0.0)))
        self.F = F / self.sigma
        # ν-SVC and one-class are homogeneous: their optimum on the kernel K/σ² is theirs on
        # K scaled by 1/σ² (w′ = σw in F's coordinates, ρ, b, ξ and the value divided by
        # σ²), so they are solved there with ½‖w′‖², and scaled back in solve()
        self.homogeneous = config.nu_scaled
        # a problem stated in units 1/scale (regression targets divided by it, λ times it):
        # every variable and the bound are multiplied by it in solve()
        self.scale = float(scale)
        self.outputs = outputs
        self.n = 0
        self.P: list[np.ndarray] = []  # the diagonal of P and q, block by block
        self.q: list[np.ndarray] = []
        self.rows: dict[str, list] = {"zero": [], "nonneg": [], "exp": []}
        square = 1.0 if self.homogeneous else self.lam / self.sigma**2
        self.W = self.var(outputs * self.r, square=square)
        self.b = self.var(outputs) if self.bias == "free" else None
        self.f: np.ndarray | None = None
        if self.to_coef is not None:
            # a kernel's F is dense (m × r): the scores as variables, f = F w + b once, so
            # the cones see sparse rows (logistic and softmax twice as fast at m = 200)
            f = self.var(outputs * self.m)
            for k in range(outputs):
                self.eq(self._affine(k) - self.pick(f[k * self.m : (k + 1) * self.m]))
            self.f = f

    def var(self, size: int, cost: float = 0.0, square: float = 0.0) -> np.ndarray:
        """A block of ``size`` variables with cost·x + ½·square·x² each: their indices."""
        idx = np.arange(self.n, self.n + size)
        self.n += size
        self.q.append(np.full(size, float(cost)))
        self.P.append(np.full(size, float(square)))
        return idx

    def pick(self, idx):
        """The rows x[idx[j]] (an index may repeat: a scalar in every row)."""
        import scipy.sparse as sp

        idx = np.asarray(idx)
        ones = np.ones(idx.size)
        return sp.csr_matrix((ones, (np.arange(idx.size), idx)), shape=(idx.size, self.n))

    def total(self, idx):
        """One row: the sum of x[idx]."""
        import scipy.sparse as sp

        idx = np.asarray(idx)
        return sp.csr_matrix((np.ones(idx.size), (np.zeros(idx.size), idx)), shape=(1, self.n))

    def scores(self, k: int = 0, rows=None):
        """The rows f_k(x_i) = F_i·w_k + b_k of the examples ``rows`` (all by default)."""
        rows = np.arange(self.m) if rows is None else np.asarray(rows)
        if self.f is not None:
            return self.pick(self.f[k * self.m + rows])
        return self._affine(k, rows)

    def _affine(self, k, rows=None):
        """The rows F_i·w_k + b_k themselves (dense in F)."""
        import scipy.sparse as sp

        rows = np.arange(self.m) if rows is None else np.asarray(rows)
        n = rows.size
        F = self.F[rows]
        cols = self.W[k * self.r : (k + 1) * self.r]
        ii = np.repeat(np.arange(n), self.r)
        jj = np.tile(cols, n)
        vals = F.ravel()
        if self.b is not None:
            ii = np.r_[ii, np.arange(n)]
            jj = np.r_[jj, np.full(n, self.b[k])]
            vals = np.r_[vals, np.ones(n)]
        return sp.csr_matrix((vals, (ii, jj)), shape=(n, self.n))

    def true_scores(self, y):
        """The rows f_{y_i}(x_i)."""
        total = None
        for k in range(self.outputs):
            part = self.scores(k).multiply((y == k)[:, None].astype(float)).tocsr()
            total = part if total is None else total + part
        return total

    def ge(self, M, c=0.0):
        """M x + c ≥ 0."""
        self.rows["nonneg"].append((M, np.broadcast_to(np.asarray(c, float), (M.shape[0],))))

    def eq(self, M, c=0.0):
        """M x + c = 0."""
        self.rows["zero"].append((M, np.broadcast_to(np.asarray(c, float), (M.shape[0],))))

    def log_sum_exp(self, terms, t):
        """log Σ_j e^(a_j) ≤ t row by row, for the affine terms a_j = (M_j, c_j):
        e^(a_j − t) ≤ v_j, i.e. (a_j − t, 1, v_j) in Clarabel's exponential cone
        {(x, y, z): y e^(x/y) ≤ z}, and Σ_j v_j ≤ 1."""
        import scipy.sparse as sp

        n = len(t)
        vs = [self.var(n) for _ in terms]
        for (M, c), v in zip(terms, vs, strict=True):
            x = (_pad(M, self.n) - self.pick(t), np.broadcast_to(np.asarray(c, float), (n,)))
            one = (sp.csr_matrix((n, self.n)), np.ones(n))
            self.rows["exp"].append((x, one, (self.pick(v), np.zeros(n))))
        self.ge(-sum(self.pick(v) for v in vs), 1.0)

    def solve(self):
        """(x, lower): Clarabel's solution and its dual objective, a certified lower bound."""
        import clarabel
        import scipy.sparse as sp

        blocks, rhs, cones = [], [], []
        for kind, cone in (("zero", clarabel.ZeroConeT), ("nonneg", clarabel.NonnegativeConeT)):
            if self.rows[kind]:
                M = sp.vstack([_pad(M, self.n) for M, _ in self.rows[kind]])
                blocks.append(-M)
                rhs.append(np.concatenate([c for _, c in self.rows[kind]]))
                cones.append(cone(M.shape[0]))
        if self.lam == 0:
            # a linear program can have an unbounded optimal face (separable data); a loose
            # box on w keeps the interior-point iterates finite without changing the value.
            # A smooth loss there has no minimizer (its infimum is at ‖w‖ → ∞), and the
            # exponential cones lose accuracy at scores of 1e6: its box, 1e4, leaves a value
            # of order e^(−1e4·margin) above the infimum
            box = 1e4 if self.rows["exp"] else 1e6
            nw = self.W.size
            blocks.append(sp.vstack([self.pick(self.W), -self.pick(self.W)]).tocsr())
            rhs.append(np.full(2 * nw, box * self.sigma))
            cones.append(clarabel.NonnegativeConeT(2 * nw))
        for x, y, z in self.rows["exp"]:
            # the three rows of each cone together: interleave the components
            parts = [(_pad(M, self.n), c) for M, c in (x, y, z)]
            n = parts[0][0].shape[0]
            order = np.arange(3 * n).reshape(3, n).T.ravel()
            M = sp.vstack([M for M, _ in parts]).tocsr()[order]
            blocks.append(-M)
            rhs.append(np.concatenate([c for _, c in parts])[order])
            cones.extend(clarabel.ExponentialConeT() for _ in range(n))
        A = sp.vstack(blocks).tocsc()
        P = sp.diags(np.concatenate(self.P)).tocsc()
        settings = clarabel.DefaultSettings()
        settings.verbose = False
        settings.tol_gap_abs = 1e-10
        settings.tol_gap_rel = 1e-10
        settings.tol_feas = 1e-10
        settings.max_iter = 200
        q, b = np.concatenate(self.q), np.concatenate(rhs)
        sol = clarabel.DefaultSolver(P, q, A, b, cones, settings).solve()
        status = str(sol.status)
        if status in ("InsufficientProgress", "NumericalError"):
            # badly scaled programs (kernel values of 1e13 against λ = 1e-3) stall in the
            # factorization: ten times its static regularization gets them through
            settings.static_regularization_constant *= 10
            sol = clarabel.DefaultSolver(P, q, A, b, cones, settings).solve()
            status = str(sol.status)
        if status not in ("Solved", "AlmostSolved"):
            raise InputError(f"the exact solver failed ({status}); the problem may be ill-posed")
        scale = self.scale * (self.sigma**2 if self.homogeneous else 1.0)
        return scale * np.asarray(sol.x), scale * float(sol.obj_val_dual)

    def model(self, x, config, classes, intercept=None, **fields) -> Model:
        """The Model of the solution x: w and b (the bias mode's), or ``intercept``."""
        Wf = x[self.W].reshape(self.outputs, self.r) / self.sigma
        b = x[self.b] if self.b is not None else np.zeros(self.outputs)
        reg = self.bias == "regularized"
        common = dict(classes=classes, kernel=config.kernel, lam=self.lam, bias=self.bias)
        common.update(problem=config.problem, **fields)
        if self.to_coef is None:
            d = self.X.shape[1]
            icpt = Wf[:, d].copy() if reg else b
            arrays = dict(coef=Wf[:, :d].copy())
        else:
            coef = Wf @ self.to_coef.T  # (outputs, m)
            icpt = coef.sum(axis=1) if reg else b
            arrays = dict(support_vectors=self.X.copy(), dual_coef=coef)
        icpt = np.asarray(icpt if intercept is None else intercept, dtype=float).reshape(-1)
        return Model(intercept=icpt, **arrays, **common)


def _pad(M, n: int):
    """M with zero columns up to n (variables declared after its rows were written)."""
    import scipy.sparse as sp

    M = sp.csr_matrix(M)
    if M.shape[1] == n:
        return M
    return sp.hstack([M, sp.csr_matrix((M.shape[0], n - M.shape[1]))]).tocsr()


def target_scale(t: np.ndarray) -> float:
    """c that brings regression targets to at most 1 (never scaled up). With y/c, ε/c and
    λc the objective is F/c at (w/c, b/c, ε/c): the same problem, which the interior point
    solves far more accurately than targets of 1e3 against kernel values of 1."""
    return max(1.0, float(np.abs(t).max(initial=0.0)))


def targets(data, name: str) -> np.ndarray:
    """The real targets of a regression problem, or an InputError naming it."""
    if data.target is None:
        raise InputError(f"{name} needs real targets: these data have class labels")
    t = np.asarray(data.target, dtype=float)
    if not np.all(np.isfinite(t)):
        raise InputError(f"{name} needs finite targets")
    return t


def binary_signs(data, name: str) -> np.ndarray:
    """s_i = ±1 of a two-class data set, or an InputError naming the problem."""
    if data.n_classes != 2:
        raise InputError(f"{name} is binary: these data have {data.n_classes} classes")
    return np.where(data.y == 1, 1.0, -1.0)
