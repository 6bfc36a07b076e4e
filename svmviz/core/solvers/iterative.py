"""The steppable SVM solver: GD, SGD and Pegasos; linear or kernel; every loss and problem
of :mod:`.losses` (binary and multiclass classification, ν-SVC, one-class, ε- and ν-SVR).

Scikit-learn flavoured: the constructor stores the configuration, :meth:`reset` validates
the data and sets up, :meth:`step` advances and records telemetry, :meth:`model` returns the
current output model; fitted attributes end in ``_``.

Bias modes (config.bias; one-class has none: ρ is its offset):

* ``none``: f = ⟨w, x⟩.
* ``regularized``: a constant feature 1 (linear) or the kernel k + 1, so b² is inside ‖w‖².
* ``free``: b is not regularized. For single-output problems and softmax b is profiled
  out: b is a minimizer of the loss for the current w (the hinge's
  :func:`_bias.profile_bias`, a median for ε-SVR, order statistics with ρ or ε for the ν
  problems, Newton's method for the smooth losses), so the solver runs SGD on the
  λ-strongly convex F̃(w) = min_b F(w, b), whose subgradient at w is the w-part of the
  subgradient at (w, b*(w)) (Danskin); ρ and ε are profiled out the same way, after every
  step (a profile kept for a few steps lets w fit the stale b: far from the origin, or
  with a small λ, the run stalls short of the optimum). For
  the multiclass hinges b takes a full-batch subgradient step of size 1/(m√t) after each
  step of w (:func:`.losses._common.descent_bias`).

Hard margin (001 "Hard SVM": min ½‖w‖² s.t. y_i f(x_i) ≥ 1) is the soft-margin problem with
C = 1/(λm) at least the largest dual variable of the hard problem; then both have the same
unique solution (exact penalty). λ is taken from the exact dual
(:mod:`svmviz.core.training.reference`), which also tells when the data are not separable; the
objective is reported as ½‖w‖² + C Σ ξ_i, which equals ½‖w‖² on feasible points. Its budget adapts
(HARD_GAP), and when it stops, a last exact step makes its output feasible (:mod:`.feasible`: b
re-centred, w rescaled so that min y f = 1; recorded in ``exact_step_``).

The module is one class of about 650 lines: set-up, stepping and the output model share
every fitted attribute; the loops, rules, sampling, status, bias search and losses have
modules of their own.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np

from svmviz.core import _jit
from svmviz.core.config import MAX_ITERATIONS, SolverConfig, nu_notice
from svmviz.core.data import Dataset, check_cost_matrix
from svmviz.core.errors import InputError
from svmviz.core.kernels import check_gram, compiled_gram, isolation_notice
from svmviz.core.limits import check_coordinates, check_kernel_points
from svmviz.core.model_io import Model
from svmviz.core.objectives import zero_one_cost
from svmviz.core.solvers import _loop, _screen, feasible, losses, rules
from svmviz.core.solvers._sampling import Sampler
from svmviz.core.solvers._state import Problem, Record, Settings, Work, carry_over, new_state
from svmviz.core.solvers._status import STATUS_TEXT, advice
from svmviz.core.telemetry import COLUMNS, OFFSETS, History

# a hard margin goes on past its budget until its margin, after the last exact step
# (feasible.py), is within HARD_GAP of the maximum, for at most HARD_BUDGETS budgets
HARD_GAP = 0.01
HARD_BUDGETS = 40
# what Solver._compile_loops calls, for the default loss: numba's cache holding them means a
# warm-up loads them
_WARM_LOSS = losses.module_for(SolverConfig(), 2).__name__.rpartition(".")[2]
WARM_UP_ENTRIES = ((_loop, "run_linear_binary", _WARM_LOSS), (_loop, "run", _WARM_LOSS))
NO_ROWS = np.empty(0)  # the telemetry of the offsets a problem does not have
CHUNK = 65536  # iterations per call of the compiled loop (bounds the sample index array)
# iterations per call of the plain-Python loop (while the compiled one is being prepared):
# few, so that a step(n) hands over to the compiled loop soon after it is ready
PYTHON_CHUNK = 64


class Solver:
    """Minimize the SVM primal of ``config`` on a data set, one iteration at a time."""

    def __init__(self, config: SolverConfig, record: bool | str = True):
        self.config = config
        # the output's objective, loss and error in the history (where it costs an O(mK)
        # pass): at every step (True), at none (False: NaN rows), or at the checkpoints
        # ("checkpoints": log-spaced, rules.is_checkpoint); where NaN, computed at the
        # stopping rule's checks and on request (:meth:`output_objective`)
        if record not in (True, False, "checkpoints"):
            raise ValueError(f"record is True, False or 'checkpoints', not {record!r}")
        self.record = record
        self.notice_ = ""  # something about the problem the user should know (no error)

    # ------------------------------------------------------------------ set-up
    def reset(
        self, data: Dataset, lam_hard: float | None = None, grams=None, optimum=None
    ) -> Solver:
        """Validate ``data`` and start from w = 0.

        ``optimum``: the exact optimum's objective, when known. A hard margin's budget
        adapts to it: a run whose margin (after the last exact step) is still more than
        HARD_GAP below the maximum, 1/√(2·optimum), at the budget goes on, a budget at a
        time, up to HARD_BUDGETS budgets (its λ is tiny, so 1/(λt) steps converge slowly,
        and the budget that suits a soft margin stops it short).

        ``lam_hard`` is the λ that makes the soft problem equal the hard one (from
        :func:`svmviz.core.training.reference.exact_optimum`); it is required for a hard margin.
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
        kind = cfg.kind
        if kind == "regression" and data.target is None:
            raise InputError(f"{cfg.problem} needs a data set with a numeric target")
        if kind == "regression" and not np.all(np.isfinite(data.target)):
            raise InputError(f"{cfg.problem} needs finite targets")
        if kind == "svc" and np.unique(data.y).size < 2:
            raise InputError("an SVM needs points of at least two classes")
        loss = losses.module_for(cfg, K)
        if hasattr(loss, "check"):  # what the problem needs of the data (ν-SVC: a feasible ν)
            loss.check(cfg, data)
        self.data_ = data
        self.binary_ = kind == "svc" and K == 2
        self.linear_ = cfg.kernel.is_linear
        self.m_, self.d_ = m, d
        self.n_out_ = K if kind == "svc" and K > 2 else 1
        self.bias_ = "none" if kind == "one-class" else cfg.bias  # ρ is one-class's offset
        if cfg.cost is not None:
            cost = check_cost_matrix(np.array(cfg.cost, dtype=float), K)
        else:
            cost = zero_one_cost(max(K, 1))
        if cfg.margin == "hard":
            if lam_hard is None:
                raise InputError("a hard margin needs the exact solution first (lam_hard)")
            self.lam_ = float(lam_hard)
        else:
            self.lam_ = float(cfg.lam_used)
        self.objective_scale_ = 1.0 / self.lam_ if cfg.margin == "hard" else 1.0
        PhiT, G = self._features(X, grams)
        if "nu" in losses.parameters_of(cfg.problem):
            self.notice_ = "; ".join(filter(None, (self.notice_, nu_notice(cfg.nu, m))))
        p = PhiT.shape[0]
        Ko = self.n_out_
        y = data.y.astype(np.int64)
        if kind == "regression":
            y_sign = np.array(data.target, dtype=float)  # (writable: one loop's types)
        else:
            y_sign = np.where(y == 1, 1.0, -1.0) if self.binary_ else np.zeros(m)
        st = self.state_ = new_state(Ko, m, p)
        self.loss_ = loss
        if loss.EXACT_BIAS and cfg.bias == "free":
            # the exact b for w = 0 (the best constant classifier): the middle of
            # [r_(P), r_(P+1)] for r = y (see _bias.profile_bias); numpy, so that setting up
            # needs no compiled code
            r = np.sort(y_sign)
            n_pos = int(np.sum(y_sign > 0))
            st.b[0] = st.bbar[0] = st.win[0] = 0.5 * (r[n_pos - 1] + r[n_pos])
        # linear binary: the telemetry and the bias check by screening (_screen), exact
        screened = self.linear_ and self.binary_ and loss.SCREENED
        self.fast_ = True  # screened: _loop.run_linear_binary (tests turn it off)
        if screened:
            Z, zn = _screen.features(PhiT, y_sign)
        else:
            Z, zn = np.zeros((p + 1, 0)), np.zeros(0)
        self.problem_ = Problem(y=y, y_sign=y_sign, cost=cost, PhiT=PhiT, G=G, Z=Z, zn=zn)
        self.screens_ = _screen.allocate(p + 1, Z.shape[1], 2)
        self._scratch = (np.zeros((Ko, m)), np.empty(4 * m), np.empty(Z.shape[1], dtype=np.int64))
        self._work = np.empty((1, p + 1))  # the screens' rows of models (run's U)
        # name → the compiled loop for this solver's argument types (_jit.entry_point)
        self._entries: dict[str, Callable] = {}
        rho = self.loss_.subgradient_bound(float(np.sqrt(self.r2_)), K, cfg)
        schedule, eta0 = rules.choose_schedule(
            cfg.algorithm, cfg.schedule, self.lam_, cfg.eta, cfg.radius, cfg.iterations, rho
        )
        self.settings_ = Settings(
            loss=self.loss_.params(cfg, cost),
            exact_bias=loss.EXACT_BIAS,
            fused_bias=loss.FUSED_BIAS,
            offsets=bool(loss.OFFSETS),
            binary=bool(self.binary_),
            linear=bool(self.linear_),
            free_bias=self.bias_ == "free",
            screened=bool(screened),
            lam=self.lam_,
            schedule=int(schedule),
            eta0=float(eta0),
            average=rules.AVERAGES[cfg.average],
            radius=self._radius(cost),
            record={True: rules.EVERY, False: rules.NONE}.get(self.record, rules.CHECKPOINTS),
        )
        self.batch_ = 0 if cfg.algorithm == "gd" else int(min(cfg.batch, m))
        self.rng_ = np.random.default_rng(cfg.seed)
        self._sampler = Sampler(self.rng_, m, self.batch_, cfg.sampling == "uniform")
        self.t_ = 0
        self.t0_ = 0  # the iteration a warm start began at; the budget counts from there
        self.budget_ = int(cfg.iterations)  # grows for a hard margin (HARD_GAP)
        self.optimum_ = optimum if cfg.margin == "hard" else None
        self.exact_step_: feasible.ExactStep | None = None  # a hard margin's last step
        self.status_ = "ready"
        self.history_ = History(self.batch_, self.loss_.OFFSETS)
        self._window = 1 if self.batch_ == 0 else max(1, m // max(self.batch_, 1))
        self._last_check = None
        self._python_start: dict | None = None  # a run begun in plain Python: its start
        return self

    def _radius(self, cost) -> float:
        """B of the projection (0: none): the configured one, or √(2/λ) for a loss whose
        gradients grow without bound (``PROJECT``), where λ/2‖w*‖² ≤ F(0) ≤ 1."""
        cfg = self.config
        radius = rules.projection_radius(cfg.radius, cfg.project, cfg.algorithm, self.lam_, cost)
        if radius == 0.0 and self.loss_.PROJECT and self.lam_ > 0:
            return float(np.sqrt(2.0 / self.lam_))
        return radius

    def _features(self, X, grams):
        """(PhiT, G): the features p×m of a linear model (with a constant 1 when the bias is
        regularized) or the Gram matrix of a kernel one (k + 1); sets r2_, the largest
        ‖φ‖², and notice_."""
        cfg, m = self.config, X.shape[0]
        reg = self.bias_ == "regularized"
        if self.linear_:
            PhiT = np.ascontiguousarray((np.hstack([X, np.ones((m, 1))]) if reg else X).T)
            self.r2_ = float(np.max(np.einsum("ij,ij->j", PhiT, PhiT), initial=0.0))
            return PhiT, np.zeros((0, 0))
        check_kernel_points(m, cfg.kernel.name)
        G = cfg.kernel.gram(X, X) if grams is None else grams.gram(cfg.kernel, X)
        check_gram(G, cfg.kernel)
        self.notice_ = isolation_notice(cfg.kernel, G)
        G = G + 1.0 if reg else G
        self.r2_ = float(np.max(np.diag(G), initial=0.0))
        return np.zeros((0, m)), G

    def warm_state(self) -> dict:
        """What a warm start needs: the output model's parameters, the iteration t, and the
        points and classes they belong to."""
        avg = self.config.average != "last"
        return dict(
            linear=self.linear_,
            p=self.problem_.PhiT.shape[0],
            classes=self.data_.classes,
            params=self._output_params().copy(),
            b=(self.state_.bbar if avg else self.state_.b).copy(),
            off=(self.state_.offbar if avg else self.state_.off).copy(),
            problem=self.config.problem,
            t=int(self.t_),
            X=self.data_.X,
            y=self.data_.y,
        )

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
            or (self.linear_ and state["p"] != self.problem_.PhiT.shape[0])
            or state.get("problem", "svc") != self.config.problem
            or self.t_ != 0
        ):
            return False
        st = self.state_
        if self.linear_:
            st.W[:] = state["params"]
        else:
            carry_over(st.A, state["params"], state["X"], state["y"], self.data_.X, self.data_.y)
            st.S[:] = st.A @ self.problem_.G
        st.b[:] = state["b"]
        st.off[:] = state.get("off", 0.0)
        st.offbar[:] = st.off
        if self.loss_.EXACT_BIAS and self.bias_ == "free":
            st.win[0] = st.b[0]
        st.Wbar[:], st.Abar[:], st.Sbar[:] = st.W, st.A, st.S
        st.bbar[:] = st.b
        st.scal[0] = 1.0
        st.scal[1] = float(np.sum(st.A * st.S))  # αᵀKα, which the loop keeps
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
        _jit.compile_now(Solver._compile_loops, WARM_UP_ENTRIES)

    @staticmethod
    def python_meanwhile() -> None:
        """For an interactive program (the window): from now on a solver whose compiled
        loops are not ready runs them as plain Python meanwhile (replayed on the compiled
        loop once it is ready: :meth:`_run_loops`), instead of waiting for the compiler."""
        _jit.python_meanwhile = True

    @staticmethod
    def compiling() -> bool:
        """The compiled loops are being made in a thread of this process."""
        return _jit.compiling()

    @staticmethod
    def preparing() -> str:
        """While the compiled loops are being prepared (solvers run plain Python now), how:
        "loading" from numba's cache, "compiling", "in memory" (numba's cache failed) or
        "preparing"; "unavailable" when they could not be compiled; "" when not."""
        return _jit.preparing()

    @staticmethod
    def notice() -> str:
        """What went wrong in preparing the compiled loops, in a line ("" when nothing)."""
        return _jit.notice()

    @staticmethod
    def prepare_in_background(on_change=None) -> None:
        """Start preparing the compiled loops in a background thread now, rather than at
        the first step (an interactive program that waits for its user); ``on_change()`` is
        called in that thread when :meth:`preparing` changes (never if they are ready)."""
        if on_change is not None:
            _jit.on_change(on_change)
        _jit.compile_in_background(Solver._compile_loops, WARM_UP_ENTRIES)

    @staticmethod
    def _compile_loops() -> None:
        from svmviz.core import _gram
        from svmviz.core.data import Dataset
        from svmviz.core.kernels import Kernel

        data = Dataset.from_labels(np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]), [0, 1, 1])
        for kernel in (Kernel(), Kernel("rbf")):
            Solver(SolverConfig(iterations=2, kernel=kernel)).reset(data).step(2)
        _gram.to_stride(np.zeros(6), 2, 3)  # (the Gram cache's append)

    @staticmethod
    def _loops():
        """The loop module to call now: compiled when ready (or in the thread compiling it),
        else its plain-Python twin, with the compilation started in the background."""
        if _jit.use_compiled():
            return _loop
        if not _jit.python_meanwhile:
            _jit.compile_now(Solver._compile_loops, WARM_UP_ENTRIES)
            if not _jit.unavailable():
                return _loop
        else:
            _jit.compile_in_background(Solver._compile_loops, WARM_UP_ENTRIES)
        return _jit.python_version(_loop)

    def _run_loops(self):
        """:meth:`_loops` for this run, which never mixes them: the compiled loop and its
        plain-Python twin give the same iterates up to rounding, not the same bits (numba's
        fastmath reassociates sums), so a run begun in Python is replayed from its start on
        the compiled loop once that is ready (milliseconds: the Python loop ran a minute at
        most), and a run begun compiled stays compiled. Its replays (the timeline, an
        animation) are made on the compiled loop too: a seed gives the compiled bits."""
        loops = self._loops()
        if loops is _loop:
            if self._python_start is not None:
                self._replay_compiled()
            return _loop
        if self._python_start is None:
            if self.t_ > self.t0_:  # begun compiled (only tests make the loops unready)
                return _loop
            self._python_start = self._start_of_run()
        return loops

    def _start_of_run(self) -> dict:
        """What a replay of the run from here needs: the state, the buffers the loop
        carries between calls, the sampler (with its generator) and the iteration."""
        return dict(
            arrays=[a.copy() for a in (*self.state_, *self.screens_, *self._scratch)],
            sampler=copy.deepcopy(self._sampler),
            t=self.t_,
            budget=self.budget_,
        )

    def _replay_compiled(self) -> None:
        """The run so far again, from its start, on the compiled loop (and an RBF kernel's
        matrix made again by the compiled loop, as a run begun compiled has it)."""
        start, self._python_start = self._python_start, None
        assert start is not None
        t = self.t_
        for a, saved in zip(
            (*self.state_, *self.screens_, *self._scratch), start["arrays"], strict=True
        ):
            a[...] = saved
        st = self.state_
        if not self.linear_ and compiled_gram(self.config.kernel):  # (and what it gave)
            G = self.config.kernel.gram(self.data_.X, self.data_.X)
            self.problem_.G[...] = G + 1.0 if self.bias_ == "regularized" else G
            st.S[:], st.Sbar[:] = st.A @ self.problem_.G, st.Abar @ self.problem_.G
            st.scal[1] = float(np.sum(st.A * st.S))
        self._sampler = start["sampler"]
        self.rng_ = self._sampler.rng
        self.t_, self.budget_ = start["t"], start["budget"]
        self.history_ = History(self.batch_, self.loss_.OFFSETS)
        self._last_check = None
        self.exact_step_ = None
        self.status_ = "running"
        while self.t_ < t and not self.done:  # (a hard margin's budget grows as it did)
            self.step(t - self.t_)

    def status_text(self) -> str:
        """STATUS_TEXT of the status; a divergence says what to change, for these data."""
        if self.status_ != "diverged":
            return STATUS_TEXT[self.status_]
        s = self.settings_
        return "diverged: " + advice(s.lam, s.eta0, s.schedule, self.r2_, self.linear_)

    # ------------------------------------------------------------------ stepping
    @property
    def done(self) -> bool:
        return self.status_ not in ("ready", "running")

    def step(self, n: int = 1) -> int:
        """Advance at most ``n`` iterations (fewer at the budget or a stop); return how many.
        (A run that stopped while begun in plain Python is replayed on the compiled loop
        when asked to go on once that is ready: see :meth:`_run_loops`.)"""
        if self.done:
            if self._python_start is not None and _jit.use_compiled():
                self._replay_compiled()
            return 0
        n = int(min(n, self.t0_ + self.budget_ - self.t_))
        done = 0
        while done < n:
            loops = self._run_loops()
            if self.done:  # (the run replayed on the compiled loop stopped early)
                return done
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
                    self._take_exact_step()
                    return done
        at_budget = self.t_ >= self.t0_ + self.budget_
        if at_budget and self._extend_budget():
            at_budget = False
        self.status_ = "budget" if at_budget else "running"
        if at_budget:
            self._take_exact_step()
        return done

    def _extend_budget(self) -> bool:
        """At the budget of a hard margin whose margin after the exact step would still be
        more than HARD_GAP below the maximum: one more budget (at most HARD_BUDGETS in
        all); whether it was given."""
        if self.optimum_ is None or not len(self.history_):
            return False
        iterations = self.config.iterations
        cap = min(HARD_BUDGETS * iterations, MAX_ITERATIONS)  # (each keeps a telemetry row)
        if self.margin_ratio() >= 1.0 - HARD_GAP or self.budget_ + iterations > cap:
            return False
        self.budget_ += iterations
        return True

    def margin_ratio(self) -> float:
        """A hard margin's output after the exact step: its margin over the maximum
        1/√(2·optimum) (for a cost matrix Δ: √(optimum / its objective ½‖w‖²)); nan
        without the optimum, ≤ 0 when the output's w does not separate the data."""
        if self.optimum_ is None:
            return float("nan")
        _, t = self._recentred()
        norm = float(np.sqrt(max(self.model().norm2(), 0.0)))
        return t / norm * float(np.sqrt(2.0 * self.optimum_)) if norm > 0 else 0.0

    def exact_objective(self) -> float:
        """½‖w‖² of the output, the hard margin's objective ½‖w‖² + C Σ ξ on a feasible
        output (after the exact step)."""
        P = self._output_params()
        if self.linear_:
            return 0.5 * float(np.sum(P * P))
        return 0.5 * float(np.einsum("km,mn,kn->", P, self.problem_.G, P))

    def _recentred(self) -> tuple[np.ndarray, float]:
        """(b, t) of the exact step for the output now (:func:`feasible.recentred`)."""
        b, _ = self._offsets()
        F = self.training_values()
        return feasible.recentred(F, self.data_.y, self.problem_.cost, b, self.bias_ == "free")

    def _take_exact_step(self) -> None:
        """A hard margin's last exact step (:mod:`.feasible`), once, when the run stops:
        the output's b re-centred and w, b divided by t, so that min y f = 1; recorded in
        ``exact_step_``. Not taken when the output's w does not separate the data."""
        if self.config.margin != "hard" or self.exact_step_ is not None:
            return
        b, t = self._recentred()
        if not (np.isfinite(t) and t > 0):
            return
        before = self.model()
        F = self.training_values()
        norm = float(np.sqrt(max(before.norm2(), 0.0)))
        st = self.state_
        if self._averaged():
            for a in (st.Wbar, st.Abar, st.Sbar):
                a /= t
            b_before = st.bbar.copy()
            st.bbar[:] = b / t
        else:
            st.scal[0] /= t
            b_before = st.b.copy()
            st.b[:] = b / t
        self.exact_step_ = feasible.ExactStep(
            iteration=int(self.t_),
            scale=float(t),
            bias_before=tuple(float(v) for v in b_before),
            bias=tuple(float(v) for v in b / t),
            margin_before=feasible.least_margin(F, self.data_.y) / norm,
            margin=feasible.least_margin(self.training_values(), self.data_.y) * t / norm,
            broken_before=feasible.broken(F, self.data_.y, self.problem_.cost),
        )

    def _run(self, n: int, loops=_loop):
        """``n`` iterations of ``loops`` (the compiled loop module or its Python twin: the
        same code, so either carries on from the other's state)."""
        cfg = self.settings_
        p = self.problem_.PhiT.shape[0]
        idx = self._sampler.indices(n)
        cols, sampled, flags = self.history_.reserve(n)
        sampled[:] = idx
        if self._work.shape[0] < (n + 1 if cfg.screened else 1):  # kept: no page faults
            self._work = np.empty((n + 1, p + 1))
        F, r, buckets = self._scratch
        work = Work(F, r, *self.screens_, buckets, self._work[: n + 1])
        out = Record(**{c: cols.get(c, NO_ROWS) for c in COLUMNS + OFFSETS}, flags=flags)
        fast = cfg.screened and self.fast_
        name = "run_linear_binary" if fast else "run"
        args = (self.t_, n, idx, cfg, self.problem_, self.state_, work, out)
        entry = None
        if loops is _loop:  # the compiled loop for these types (they stay the same)
            entry = self._entries.get(name) or _jit.entry_point(getattr(loops, name), args)
            self._entries[name] = entry
        if entry is not None:  # called without typing the bundles at every call
            count, status = entry(*args)
        elif loops is _loop:  # the dispatcher, which compiles or loads the loop first
            count, status = getattr(loops, name)(*args)
        else:  # plain Python: a divergence is the status's to say, not numpy's warnings
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                count, status = getattr(loops, name)(*args)
        if self.objective_scale_ != 1.0:
            cols["objective"][:count] *= self.objective_scale_
        self.history_.commit(count)
        self.t_ += count
        return count, status

    def _converged(self) -> bool:
        """004's stopping criteria, checked once per window (an epoch for SGD)."""
        if self.record is not True:  # (the check's iteration: a row the history holds)
            self.exact_last_row()
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
        st = self.state_
        if self.linear_:
            return st.Wbar if avg else st.W * st.scal[0]
        return st.Abar if avg else st.A * st.scal[0]

    # ------------------------------------------------------------------ results
    def model(self, iterate: bool = False, objective: bool = True) -> Model:
        """The current output model (the averaged iterate if averaging), as a Model; with
        ``iterate``, the last iterate w_t instead (what a step moves). ``objective``: with
        the output's objective in its ``extra`` (when it is the output)."""
        cfg = self.config
        avg = self._averaged(iterate)
        b, off = self._offsets(iterate)
        params = self._output_params(iterate).copy()
        extra = {"iterations": int(self.t_)}
        output = avg == (cfg.average != "last")  # the telemetry's model
        if objective and len(self.history_) and output:
            extra["objective"] = float(self.history_["objective"][-1])
            if np.isnan(extra["objective"]) and self.record is not True:
                extra["objective"] = self.output_objective()
        if self.exact_step_ is not None and avg == (cfg.average != "last"):
            extra["exact_step"] = self.exact_step_.to_dict()
            extra["objective"] = self.exact_objective()
            if len(self.history_):  # (the history's last row: the output before the step)
                extra["objective_before_exact_step"] = float(self.history_["objective"][-1])
            if len(self.history_):  # (the history's last row: the output before the step)
                extra["objective_before_exact_step"] = float(self.history_["objective"][-1])
        kind = cfg.kind
        common = dict(
            classes=self.data_.classes if kind == "svc" else (),  # (one-class ignores labels)
            kernel=cfg.kernel,
            lam=self.lam_,
            bias=self.bias_,
            cost=self.problem_.cost.copy() if hasattr(self.settings_.loss, "cost") else None,
            extra=extra,
            problem=cfg.problem,
            **self._model_fields(off),
        )
        if kind == "one-class":  # f = ⟨w, φ(x)⟩ − ρ
            b = b - off[0]
        if self.linear_:
            d = self.d_
            intercept = params[:, d].copy() if self.bias_ == "regularized" else b
            return Model(coef=params[:, :d].copy(), intercept=intercept, **common)
        intercept = params.sum(axis=1) if self.bias_ == "regularized" else b
        sv = np.flatnonzero(np.any(params != 0, axis=0))
        return Model(
            support_vectors=self.data_.X[sv].copy(),
            dual_coef=params[:, sv].copy(),
            intercept=intercept,
            **common,
        )

    def _model_fields(self, off) -> dict:
        """The Model's loss (the module's MODEL_LOSS, else its name), and ε, ν, ρ where the
        problem has them: a parameter of the loss, or an offset it learns (OFFSETS)."""
        params, learned = self.settings_.loss, self.loss_.OFFSETS
        fields = dict(loss=self.loss_.MODEL_LOSS)
        fields["rho"] = float(off[0]) if "rho" in learned else None
        fields["epsilon"] = (
            float(off[1]) if "epsilon" in learned else getattr(params, "epsilon", None)
        )
        fields["nu"] = getattr(params, "nu", None)
        return fields

    def output_objective(self) -> float:
        """The output model's objective (what the history records at every step), exact,
        from the scores and ‖w‖² the solver keeps: O(mK), no kernel evaluated."""
        return self._exact_telemetry()["objective"]

    def exact_last_row(self, F: np.ndarray | None = None) -> None:
        """The history's last row made exact where the telemetry left it NaN (record False,
        or between checkpoints): the output's objective, loss and error, as the loop records
        them. For a run's end, the stopping rule's checks and each of the window's frames
        (:meth:`shared_history`). ``F``: the output's :meth:`training_values`, when the
        caller has them."""
        h = self.history_
        if not len(h) or not np.isnan(h["objective"][-1]):
            return
        values = self._exact_telemetry(F)
        for name in ("objective", "loss", "error"):
            h[name][-1] = values[name]

    def shared_history(self, F: np.ndarray | None = None) -> dict:
        """The history for another thread (a frame of the window): read-only views of its
        columns, the last row exact (``F`` as :meth:`exact_last_row` takes it). That row is
        new since the last frame, or was made exact then: no row handed out is written
        again."""
        self.exact_last_row(F)
        return self.history_.views()

    def _exact_telemetry(self, F: np.ndarray | None = None) -> dict:
        """The output's objective (scaled as the history's), mean loss and error, exact
        (``F``: the output's training values, computed here when None)."""
        from svmviz.core.objectives import scores_objective

        st, P = self.state_, self._output_params()
        if self.linear_:
            n2 = float(np.sum(P * P))
        elif self._averaged():
            n2 = float(np.sum(st.Abar * st.Sbar))
        else:
            n2 = float(np.sum(st.A * st.S)) * float(st.scal[0]) ** 2
        model = self.model(iterate=not self._averaged(), objective=False)
        data = self.data_
        F = self.training_values() if F is None else F
        values = scores_objective(model, F, data.y, data.target, n2)
        values["objective"] = float(values["objective"]) * self.objective_scale_
        return values

    def training_values(self, iterate: bool = False) -> np.ndarray:
        """The output model's f on the training points, from the scores the solver keeps
        (no kernel evaluation): (m,) for binary, (m, K) for multiclass. Equal to
        ``self.model(iterate).decision_function(data.X)`` up to rounding."""
        st, PhiT = self.state_, self.problem_.PhiT
        b, off = self._offsets(iterate)
        if self._averaged(iterate):
            F = st.Wbar @ PhiT if self.linear_ else st.Sbar
        else:
            sigma = st.scal[0]
            F = sigma * (st.W @ PhiT if self.linear_ else st.S)
        if self.config.kind == "one-class":
            b = b - off[0]
        F = (F + b[:, None]).T
        return F[:, 0] if self.n_out_ == 1 else F

    def _offsets(self, iterate: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Copies of (b, (ρ, ε)) of the output model, or of the iterate."""
        st = self.state_
        if self._averaged(iterate):
            return st.bbar.copy(), st.offbar.copy()
        return st.b.copy(), st.off.copy()

    def iterate(self) -> tuple[np.ndarray, np.ndarray]:
        """(params, b) of the current iterate w_t (not the average), as copies: K×p weights
        in the solver's features (linear) or K×m coefficients α on the training points."""
        return self._output_params(iterate=True).copy(), self.state_.b.copy()

    def next_step_size(self) -> float:
        """η_t of the next step (:func:`rules.step_size`)."""
        s = self.settings_
        return float(rules.python().step_size(s.schedule, s.eta0, s.lam, self.t_ + 1))

    @property
    def schedule(self) -> str:
        """The step-size schedule the solver runs (:func:`rules.choose_schedule`)."""
        return rules.SCHEDULE_NAMES[self.settings_.schedule]

    def decision_function(self, X) -> np.ndarray:
        return self.model().decision_function(X)

    def predict(self, X) -> np.ndarray:
        return self.model().predict(X)
