"""The steppable SVM solver: GD, SGD and Pegasos; linear or kernel; binary or multiclass.

Scikit-learn flavoured: the constructor stores the configuration, :meth:`reset` validates
the data and sets up, :meth:`step` advances and records telemetry, :meth:`model` returns the
current output model; fitted attributes end in ``_``.

Bias modes (config.bias):

* ``none``: f = ⟨w, x⟩.
* ``regularized``: a constant feature 1 (linear) or the kernel k + 1, so b² is inside ‖w‖².
* ``free``: b is not regularized. For binary problems b is profiled out exactly: after every
  step b is the minimizer of the loss for the current w (:func:`_loop.profile_bias`), so the
  solver runs SGD on the λ-strongly convex F̃(w) = min_b F(w, b), whose subgradient at w is the
  w-part of the subgradient at (w, b*(w)) (Danskin); it converges as the ``none`` mode does.
  For multiclass problems b takes the same subgradient step as the rows of w it belongs to.

Hard margin (001 "Hard SVM": min ½‖w‖² s.t. y_i f(x_i) ≥ 1) is the soft-margin problem with
C = 1/(λm) at least the largest dual variable of the hard problem; then both have the same
unique solution (exact penalty). λ is taken from the exact dual (:mod:`svmviz.core.reference`),
which also tells when the data are not separable; the objective is reported as
½‖w‖² + C Σ ξ_i, which equals ½‖w‖² on feasible points.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, check_cost_matrix
from svmviz.core.errors import InputError
from svmviz.core.kernels import check_gram, isolation_notice
from svmviz.core.limits import check_coordinates, check_kernel_points
from svmviz.core.model_io import Model
from svmviz.core.objectives import zero_one_cost
from svmviz.core.solvers import _jit, _loop, _screen
from svmviz.core.telemetry import History

_SCHEDULES = {
    "constant": _loop.CONSTANT,
    "inv_t": _loop.INV_T,
    "inv_sqrt_t": _loop.INV_SQRT_T,
    "pegasos": _loop.PEGASOS,
}
_AVERAGES = {"last": _loop.LAST, "uniform": _loop.UNIFORM, "weighted": _loop.WEIGHTED}

CHUNK = 65536  # iterations per call of the compiled loop (bounds the sample index array)
# iterations per call of the plain-Python loop (while the compiled one is being prepared):
# few, so that a step(n) hands over to the compiled loop soon after it is ready
PYTHON_CHUNK = 64

STATUS_TEXT = {
    "ready": "ready",
    "running": "running",
    "budget": "stopped: iteration budget reached",
    "objective": "stopped: the objective stopped changing (tolerance reached)",
    "weights": "stopped: w stopped changing (tolerance reached)",
    "diverged": "stopped: diverged (the objective or ‖w‖ became too large); lower the step size",
}


class Solver:
    """Minimize the SVM primal of ``config`` on a data set, one iteration at a time."""

    def __init__(self, config: SolverConfig):
        self.config = config
        self.notice_ = ""  # something about the problem the user should know (no error)

    # ------------------------------------------------------------------ set-up
    def reset(self, data: Dataset, lam_hard: float | None = None, grams=None) -> Solver:
        """Validate ``data`` and start from w = 0.

        ``lam_hard`` is the λ that makes the soft problem equal the hard one (from
        :func:`svmviz.core.reference.exact_optimum`); it is required for a hard margin.
        ``grams``: a :class:`svmviz.core.kernels.GramCache` that keeps the kernel matrix of
        the last data set, to update it instead of computing it anew after an edit.
        """
        cfg = self.config
        X = np.ascontiguousarray(data.X, dtype=float)
        if X.ndim != 2 or X.shape[0] != data.y.shape[0] or X.shape[0] == 0:
            raise InputError("the data set is empty or its shapes do not match")
        if not np.all(np.isfinite(X)):
            raise InputError("the data contain coordinates that are not finite")
        check_coordinates(X, lambda i: f"point {i + 1}")
        m, d = X.shape
        K = data.n_classes
        present = np.unique(data.y)
        if present.size < 2:
            raise InputError("an SVM needs points of at least two classes")
        self.data_ = data
        self.binary_ = K == 2
        self.linear_ = cfg.kernel.is_linear
        self.m_, self.d_ = m, d
        self.n_out_ = 1 if self.binary_ else K
        if cfg.cost is not None:
            self.cost_ = check_cost_matrix(np.array(cfg.cost, dtype=float), K)
        else:
            self.cost_ = zero_one_cost(K)
        if cfg.margin == "hard":
            if lam_hard is None:
                raise InputError("a hard margin needs the exact solution first (lam_hard)")
            self.lam_ = float(lam_hard)
        else:
            self.lam_ = float(cfg.lam)
        self.objective_scale_ = 1.0 / self.lam_ if cfg.margin == "hard" else 1.0
        reg = cfg.bias == "regularized"
        if self.linear_:
            Phi = np.hstack([X, np.ones((m, 1))]) if reg else X
            self.PhiT_ = np.ascontiguousarray(Phi.T)
            self.r2_ = float(np.max(np.einsum("ij,ij->j", self.PhiT_, self.PhiT_), initial=0.0))
            self.G_ = np.zeros((0, 0))
        else:
            check_kernel_points(m, cfg.kernel.name)
            self.PhiT_ = np.zeros((0, m))
            G = cfg.kernel.gram(X, X) if grams is None else grams.gram(cfg.kernel, X)
            check_gram(G, cfg.kernel)
            self.notice_ = isolation_notice(cfg.kernel, G)
            self.G_ = G + 1.0 if reg else G
            self.r2_ = float(np.max(np.diag(self.G_), initial=0.0))
        p = self.PhiT_.shape[0]
        Ko = self.n_out_
        self.y_ = data.y.astype(np.int64)
        self.y_sign_ = np.where(self.y_ == 1, 1.0, -1.0) if self.binary_ else np.zeros(m)
        self.A_ = np.zeros((Ko, m))
        self.W_ = np.zeros((Ko, p))
        self.S_ = np.zeros((Ko, m))
        self.b_ = np.zeros(Ko)
        self.Abar_ = np.zeros((Ko, m))
        self.Wbar_ = np.zeros((Ko, p))
        self.Sbar_ = np.zeros((Ko, m))
        self.bbar_ = np.zeros(Ko)
        self.scal_ = np.array([1.0, 0.0])
        self.F_ = np.zeros((Ko, m))
        self.r_ = np.empty(m)
        self.win_ = np.zeros(2)  # the exact b, and the window its search starts with
        if self.binary_ and cfg.bias == "free":
            # the exact b for w = 0 (the best constant classifier): the middle of
            # [r_(P), r_(P+1)] for r = y (see _loop.profile_bias); numpy, so that setting up
            # needs no compiled code
            r = np.sort(self.y_sign_)
            n_pos = int(np.sum(self.y_sign_ > 0))
            self.b_[0] = self.bbar_[0] = self.win_[0] = 0.5 * (r[n_pos - 1] + r[n_pos])
        # linear binary: the telemetry and the bias check by screening (_screen), exact
        self.screened_ = self.linear_ and self.binary_
        self.fast_ = True  # one example a step: _loop.run_linear_binary (tests turn it off)
        if self.screened_:
            self.Z_, self.zn_ = _screen.features(self.PhiT_, self.y_sign_)
        else:
            self.Z_, self.zn_ = np.zeros((p + 1, 0)), np.zeros(0)
        self.screens_ = _screen.allocate(p + 1, self.Z_.shape[1], 2)
        self._buckets = np.empty(self.Z_.shape[1], dtype=np.int64)
        self._work = np.empty((1, p + 1))  # the screens' rows of models (run's U)
        self.radius_ = self._radius()
        self.schedule_, self.eta0_ = self._schedule()
        self.batch_ = 0 if cfg.algorithm == "gd" else int(min(cfg.batch, m))
        self.rng_ = np.random.default_rng(cfg.seed)
        self._perm = np.empty(0, dtype=np.int64)
        self._perm_pos = 0
        self.t_ = 0
        self.t0_ = 0  # the iteration a warm start began at; the budget counts from there
        self.status_ = "ready"
        self.history_ = History(self.batch_)
        self._window = 1 if self.batch_ == 0 else max(1, m // max(self.batch_, 1))
        self._last_check = None
        return self

    def warm_state(self) -> dict:
        """What a warm start needs: the output model's parameters, the iteration t, and the
        points and classes they belong to."""
        avg = self.config.average != "last"
        return dict(
            linear=self.linear_, p=self.PhiT_.shape[0], classes=self.data_.classes,
            params=self._output_params().copy(), b=(self.bbar_ if avg else self.b_).copy(),
            t=int(self.t_), X=self.data_.X, y=self.data_.y,
        )  # fmt: skip

    def warm_from(self, state: dict) -> bool:
        """Go on from ``state`` (:meth:`warm_state` of a solver of the same kind of problem on
        edited points or with other parameters) instead of w = 0, at its iteration t, so that
        the step size η_t goes on decreasing (a Pegasos step at t = 1 would wipe w out).

        Linear models keep w. Kernel models keep α_i of each point still present unchanged
        (same coordinates and class); a moved or new point starts at α_i = 0. Returns False,
        and leaves the solver at w = 0, when the problem changed shape (kernel ↔ linear,
        other classes, another bias mode)."""
        if (
            state["linear"] != self.linear_
            or state["classes"] != self.data_.classes
            or state["params"].shape[0] != self.n_out_
            or (self.linear_ and state["p"] != self.PhiT_.shape[0])
            or self.t_ != 0
        ):
            return False
        if self.linear_:
            self.W_[:] = state["params"]
        else:

            def keys(X, y):
                return [(*x, c) for x, c in zip(X.tolist(), y.tolist(), strict=True)]

            old = {key: i for i, key in enumerate(keys(state["X"], state["y"]))}
            for j, key in enumerate(keys(self.data_.X, self.data_.y)):
                i = old.get(key)
                if i is not None:
                    self.A_[:, j] = state["params"][:, i]
            self.S_[:] = self.A_ @ self.G_
        self.b_[:] = state["b"]
        if self.binary_ and self.config.bias == "free":
            self.win_[0] = self.b_[0]
        self.Wbar_[:], self.Abar_[:], self.Sbar_[:] = self.W_, self.A_, self.S_
        self.bbar_[:] = self.b_
        self.scal_[0] = 1.0
        self.t_ = self.t0_ = state["t"]
        return True

    def training_alpha(self, iterate: bool = False) -> np.ndarray | None:
        """|α_i| summed over the outputs, per training point, for kernel models (the size of
        each support vector's ring); None for linear models."""
        if self.linear_:
            return None
        return np.abs(self._output_params(iterate)).sum(axis=0)

    @staticmethod
    def warm_up() -> None:
        """Compile the loops (numba) on tiny problems, in this thread, and mark them ready:
        the linear binary one and the general one (kernels, classes, batches); after
        installation this takes seconds once, then comes from numba's cache. Solvers do not
        wait for it: until then they run the same loops as plain Python, and the first
        that does starts this in a background thread if nobody has."""
        _jit.compile_now(Solver._compile_loops)

    @staticmethod
    def python_meanwhile() -> None:
        """For an interactive program (the window): from now on a solver whose compiled
        loops are not ready runs them as plain Python meanwhile (the same numbers), instead
        of waiting for the compiler."""
        _jit.python_meanwhile = True

    @staticmethod
    def compiling() -> bool:
        """The compiled loops are being made in a thread of this process."""
        return _jit.compiling()

    @staticmethod
    def preparing() -> bool:
        """Whether the compiled loops are being prepared (solvers run plain Python now)."""
        return _jit.preparing()

    @staticmethod
    def _compile_loops() -> None:
        from svmviz.core.data import Dataset
        from svmviz.core.kernels import Kernel

        data = Dataset.from_labels(np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]), [0, 1, 1])
        for kernel in (Kernel(), Kernel("rbf")):
            Solver(SolverConfig(iterations=2, kernel=kernel)).reset(data).step(2)

    @staticmethod
    def _loops():
        """The loop module to call now: compiled when ready (or in the thread compiling it),
        else its plain-Python twin, with the compilation started in the background."""
        if _jit.use_compiled():
            return _loop
        if not _jit.python_meanwhile:
            _jit.compile_now(Solver._compile_loops)
            return _loop
        _jit.compile_in_background(Solver._compile_loops)
        return _jit.python_version(_loop)

    def _schedule(self):
        """(schedule code, η₀). ``auto``: Pegasos' 1/(λt) when λ > 0; for λ = 0 the constant
        step of UML Corollary 17.2 (000), η = √(B²/(ρ²T)) = B/(ρ√T) with T the budget and ρ
        bounding the subgradients, when a radius B is given, else the constant η₀ (004)."""
        cfg = self.config
        if cfg.algorithm == "pegasos":
            return _loop.PEGASOS, 0.0
        name = cfg.schedule
        if name == "auto":
            name = "pegasos" if self.lam_ > 0 else "constant"
            if self.lam_ == 0 and cfg.radius is not None:
                return _loop.CONSTANT, self._corollary_17_2_step()
        return _SCHEDULES[name], float(cfg.eta)

    def _corollary_17_2_step(self) -> float:
        phi = self.PhiT_.T if self.linear_ else None
        if phi is not None:
            max_norm = float(np.sqrt(np.max(np.sum(phi**2, axis=1))))
        else:
            max_norm = float(np.sqrt(np.max(np.diag(self.G_))))
        # ‖Ψ(x, y)‖ ≤ ρ/2 (000); for the binary hinge the subgradient is y x, so ρ = max ‖x‖
        rho = max_norm if self.binary_ else 2.0 * max_norm
        return float(self.config.radius) / (max(rho, 1e-300) * np.sqrt(self.config.iterations))

    def _radius(self) -> float:
        cfg = self.config
        if cfg.radius is not None:
            return float(cfg.radius) if (cfg.project or cfg.algorithm == "sgd") else 0.0
        if cfg.project:
            # ‖w*‖ ≤ √(Δmax/λ) (1/√λ for the binary hinge, 002 and Pegasos)
            return float(np.sqrt(self.cost_.max() / self.lam_))
        return 0.0

    def status_text(self) -> str:
        """STATUS_TEXT of the status; a divergence says what to change, for these data."""
        if self.status_ != "diverged":
            return STATUS_TEXT[self.status_]
        return "diverged: " + self._advice()

    def _advice(self) -> str:
        lam, eta = self.lam_, self.eta0_
        r2 = self.r2_
        scale = f"‖x‖² up to {r2:.3g}" if self.linear_ else f"k(x, x) up to {r2:.3g}"
        if self.schedule_ == _loop.PEGASOS:
            lower = "" if self.linear_ else " or lower γ"
            return (f"scale the coordinates down{lower} ({scale}: too large for the step "
                    "1/(λt))")  # fmt: skip
        rule = "η₀" if self.schedule_ == _loop.CONSTANT else "η₀ (of η₀/t, η₀/√t)"
        factor = 1 - eta * lam
        if abs(factor) > 1:
            return (
                f"lower {rule} = {eta:g} below 2/λ = {2 / lam:.3g} or choose Pegasos "
                f"(each step multiplies w by 1 − ηλ = {factor:.3g})"
            ).replace("= -", "= −")
        return (f"lower {rule} = {eta:g} below about {1 / max(r2, 1e-300):.3g} or choose "
                f"Pegasos (the steps are too large for {scale})")  # fmt: skip

    # ------------------------------------------------------------------ stepping
    @property
    def done(self) -> bool:
        return self.status_ not in ("ready", "running")

    def step(self, n: int = 1) -> int:
        """Advance at most ``n`` iterations (fewer at the budget or a stop); return how many."""
        if self.done:
            return 0
        n = int(min(n, self.t0_ + self.config.iterations - self.t_))
        done = 0
        while done < n:
            loops = self._loops()
            top = CHUNK if loops is _loop else PYTHON_CHUNK
            chunk = min(n - done, top, self.history_.chunk_rows)
            if self.config.tol > 0:
                chunk = min(chunk, self._window - self.t_ % self._window)
            k, status = self._run(chunk, loops)
            done += k
            if status == _loop.DIVERGED:
                self.status_ = "diverged"
                return done
            if self.config.tol > 0 and self.t_ % self._window == 0:
                if self._converged():
                    return done
        self.status_ = "budget" if self.t_ >= self.t0_ + self.config.iterations else "running"
        return done

    def _indices(self, n: int) -> np.ndarray:
        k = self.batch_
        if k == 0:
            return np.empty((n, 0), dtype=np.int64)
        total = n * k
        if self.config.sampling == "uniform":
            return self.rng_.integers(0, self.m_, size=(n, k))
        out = np.empty(total, dtype=np.int64)
        filled = 0
        while filled < total:  # shuffled passes (004: "randomly shuffle points" each pass)
            if self._perm_pos >= self._perm.size:
                self._perm = self.rng_.permutation(self.m_)
                self._perm_pos = 0
            take = min(total - filled, self._perm.size - self._perm_pos)
            out[filled : filled + take] = self._perm[self._perm_pos : self._perm_pos + take]
            filled += take
            self._perm_pos += take
        return out.reshape(n, k)

    def _run(self, n: int, loops=_loop):
        """``n`` iterations of ``loops`` (the compiled loop module or its Python twin: the
        same code, so either carries on from the other's state)."""
        cfg = self.config
        p = self.PhiT_.shape[0]
        idx = self._indices(n)
        cols, sampled, flags = self.history_.reserve(n)
        sampled[:] = idx
        if self._work.shape[0] < (n + 1 if self.screened_ else 1):  # kept: no page faults
            self._work = np.empty((n + 1, p + 1))
        screens = (*self.screens_, self._buckets, self._work[: n + 1])
        if self.screened_ and self.batch_ == 1 and self.fast_:
            count, status = loops.run_linear_binary(
                self.t_, n, cfg.bias == "free", self.lam_, self.schedule_, self.eta0_,
                _AVERAGES[cfg.average], self.radius_, idx, self.y_sign_, self.PhiT_,
                self.A_, self.W_, self.b_, self.Wbar_, self.bbar_, self.scal_, self.F_,
                self.r_, self.win_,
                cols["objective"], cols["loss"], cols["error"], cols["norm"],
                cols["violations"], flags, self.Z_, self.zn_, *screens,
            )  # fmt: skip
        else:
            count, status = loops.run(
                self.t_, n, self.binary_, self.linear_, cfg.bias == "free", self.lam_,
                self.schedule_, self.eta0_, _AVERAGES[cfg.average], self.radius_,
                idx, self.y_, self.y_sign_, self.cost_, self.PhiT_, self.G_,
                self.A_, self.W_, self.S_, self.b_, self.Abar_, self.Wbar_, self.Sbar_,
                self.bbar_, self.scal_, self.F_, self.r_, self.win_,
                cols["objective"], cols["loss"], cols["error"], cols["norm"],
                cols["violations"], flags, self.screened_, self.Z_, self.zn_, *screens,
            )  # fmt: skip
        if self.objective_scale_ != 1.0:
            cols["objective"][:count] *= self.objective_scale_
        self.history_.commit(count)
        self.t_ += count
        return count, status

    def _converged(self) -> bool:
        """004's stopping criteria, checked once per window (an epoch for SGD)."""
        obj = float(self.history_["objective"][-1])
        w = self._output_params().copy()
        prev, self._last_check = self._last_check, (obj, w)
        if prev is None:
            return False
        tol = self.config.tol
        if abs(obj - prev[0]) <= tol * max(abs(obj), 1e-12):
            self.status_ = "objective"
            return True
        if np.linalg.norm(w - prev[1]) <= tol * max(np.linalg.norm(w), 1e-12):
            self.status_ = "weights"
            return True
        return False

    def _averaged(self, iterate: bool = False) -> bool:
        """Whether the model reported is the average (the output) or the last iterate."""
        return self.config.average != "last" and not iterate

    def _output_params(self, iterate: bool = False) -> np.ndarray:
        avg = self._averaged(iterate)
        if self.linear_:
            return self.Wbar_ if avg else self.W_ * self.scal_[0]
        return self.Abar_ if avg else self.A_ * self.scal_[0]

    # ------------------------------------------------------------------ results
    def model(self, iterate: bool = False) -> Model:
        """The current output model (the averaged iterate if averaging), as a Model; with
        ``iterate``, the last iterate w_t instead (what a step moves)."""
        cfg = self.config
        avg = self._averaged(iterate)
        b = (self.bbar_ if avg else self.b_).copy()
        params = self._output_params(iterate).copy()
        extra = {"iterations": int(self.t_)}
        if len(self.history_) and avg == (cfg.average != "last"):  # the telemetry's model
            extra["objective"] = float(self.history_["objective"][-1])
        common = dict(
            classes=self.data_.classes, kernel=cfg.kernel, lam=self.lam_, bias=cfg.bias,
            cost=None if self.binary_ else self.cost_.copy(), extra=extra,
        )  # fmt: skip
        if self.linear_:
            d = self.d_
            intercept = params[:, d].copy() if cfg.bias == "regularized" else b
            return Model(coef=params[:, :d].copy(), intercept=intercept, **common)
        intercept = params.sum(axis=1) if cfg.bias == "regularized" else b
        sv = np.flatnonzero(np.any(params != 0, axis=0))
        return Model(
            support_vectors=self.data_.X[sv].copy(),
            dual_coef=params[:, sv].copy(),
            intercept=intercept,
            **common,
        )

    def training_values(self, iterate: bool = False) -> np.ndarray:
        """The output model's f on the training points, from the scores the solver keeps
        (no kernel evaluation): (m,) for binary, (m, K) for multiclass. Equal to
        ``self.model(iterate).decision_function(data.X)`` up to rounding."""
        if self._averaged(iterate):
            b = self.bbar_
            F = self.Wbar_ @ self.PhiT_ if self.linear_ else self.Sbar_
        else:
            b = self.b_
            sigma = self.scal_[0]
            F = sigma * (self.W_ @ self.PhiT_ if self.linear_ else self.S_)
        F = (F + b[:, None]).T
        return F[:, 0] if self.binary_ else F

    def decision_function(self, X) -> np.ndarray:
        return self.model().decision_function(X)

    def predict(self, X) -> np.ndarray:
        return self.model().predict(X)
