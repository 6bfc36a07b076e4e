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

The class is set-up and stepping; its output model (:mod:`.output`), a hard margin's end
of run (:mod:`.hard_margin`), the warm start (:mod:`.warm_start`) and the compiled loops'
readiness and hand-over (:mod:`.handover`) are its bases, in modules of their own; the
loops, rules, sampling, status, bias search and losses have modules of their own too.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from svmviz.core import _jit
from svmviz.core.config import SolverConfig, nu_notice
from svmviz.core.data import Dataset, check_cost_matrix
from svmviz.core.errors import InputError
from svmviz.core.kernels import check_gram, isolation_notice
from svmviz.core.limits import check_coordinates, check_kernel_points
from svmviz.core.objectives import zero_one_cost
from svmviz.core.solvers import _loop, _screen, losses, rules
from svmviz.core.solvers._sampling import Sampler
from svmviz.core.solvers._state import Problem, Record, Settings, Work, new_state
from svmviz.core.solvers._status import STATUS_TEXT, advice
from svmviz.core.solvers.handover import Handover
from svmviz.core.solvers.hard_margin import HardMargin
from svmviz.core.solvers.output import Output
from svmviz.core.solvers.warm_start import WarmStart
from svmviz.core.telemetry import COLUMNS, OFFSETS, History

NO_ROWS = np.empty(0)  # the telemetry of the offsets a problem does not have
CHUNK = 65536  # iterations per call of the compiled loop (bounds the sample index array)
# iterations per call of the plain-Python loop (while the compiled one is being prepared):
# few, so that a step(n) hands over to the compiled loop soon after it is ready
PYTHON_CHUNK = 64


class Solver(Output, HardMargin, WarmStart, Handover):
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
        """Validate ``data`` and start from w = 0: the steps below, in this order.

        ``optimum``: the exact optimum's objective, when known. A hard margin's budget
        adapts to it (:mod:`.hard_margin`): a run whose margin (after the last exact step)
        is still more than HARD_GAP below the maximum, 1/√(2·optimum), at the budget goes
        on, a budget at a time, up to HARD_BUDGETS budgets (its λ is tiny, so 1/(λt) steps
        converge slowly, and the budget that suits a soft margin stops it short).

        ``lam_hard`` is the λ that makes the soft problem equal the hard one (from
        :func:`svmviz.core.training.reference.exact_optimum`); it is required for a hard margin.
        ``grams``: a :class:`svmviz.core.kernels.GramCache` that keeps the kernel matrix of
        the last data set, to update it instead of computing it anew after an edit.
        """
        X, loss = self._checked(data)
        self._shape(data, loss)
        cost = self._cost()
        self._regularization(lam_hard)
        PhiT, G = self._features(X, grams)
        self._nu_notice()
        y, y_sign = self._targets()
        self._start_state(PhiT.shape[0], y_sign)
        self._problem(y, y_sign, cost, PhiT, G)
        self._settings(cost)
        self._run_start(optimum)
        return self

    def _checked(self, data: Dataset) -> tuple[np.ndarray, ModuleType]:
        """(X, loss): the coordinates of ``data`` as a C-contiguous float array and the
        loss module, once the data are fit
        for the problem (shapes, finite values, targets, classes, and what the loss checks:
        ν-SVC a feasible ν); raises InputError otherwise."""
        cfg = self.config
        X = np.ascontiguousarray(data.X, dtype=float)
        if X.ndim != 2 or X.shape[0] != data.y.shape[0] or X.shape[0] == 0:
            raise InputError("the data set is empty or its shapes do not match")
        if not np.all(np.isfinite(X)):
            raise InputError("the data contain coordinates that are not finite")
        check_coordinates(X, lambda i: f"point {i + 1}")
        kind = cfg.kind
        if kind == "regression" and data.target is None:
            raise InputError(f"{cfg.problem} needs a data set with a numeric target")
        if kind == "regression" and not np.all(np.isfinite(data.target)):
            raise InputError(f"{cfg.problem} needs finite targets")
        if kind == "svc" and np.unique(data.y).size < 2:
            raise InputError("an SVM needs points of at least two classes")
        loss = losses.module_for(cfg, data.n_classes)
        if hasattr(loss, "check"):  # what the problem needs of the data (ν-SVC: a feasible ν)
            loss.check(cfg, data)
        return X, loss

    def _shape(self, data: Dataset, loss: ModuleType) -> None:
        """The problem's shape: the data, the loss module, binary or not, linear or not,
        m and d, the number of outputs and the bias mode."""
        cfg, kind = self.config, self.config.kind
        self.data_ = data
        self.loss_ = loss
        self.binary_ = kind == "svc" and data.n_classes == 2
        self.linear_ = cfg.kernel.is_linear
        self.m_, self.d_ = data.X.shape
        self.n_out_ = data.n_classes if kind == "svc" and data.n_classes > 2 else 1
        self.bias_ = "none" if kind == "one-class" else cfg.bias  # ρ is one-class's offset

    def _cost(self) -> np.ndarray:
        """The cost matrix Δ(y, y'): the configured one, else 0-1."""
        K = self.data_.n_classes
        if self.config.cost is not None:
            return check_cost_matrix(np.array(self.config.cost, dtype=float), K)
        return zero_one_cost(max(K, 1))

    def _regularization(self, lam_hard: float | None) -> None:
        """λ (a hard margin's from the exact dual) and the objective's scale (a hard
        margin reports ½‖w‖² + C Σ ξ_i, C = 1/λ, rather than the soft objective)."""
        cfg = self.config
        if cfg.margin == "hard":
            if lam_hard is None:
                raise InputError("a hard margin needs the exact solution first (lam_hard)")
            self.lam_ = float(lam_hard)
        else:
            self.lam_ = float(cfg.lam_used)
        self.objective_scale_ = 1.0 / self.lam_ if cfg.margin == "hard" else 1.0

    def _nu_notice(self) -> None:
        """notice_ (the kernel's, from :meth:`_features`) and what ν means for m points."""
        cfg = self.config
        if "nu" in losses.parameters_of(cfg.problem):
            self.notice_ = "; ".join(filter(None, (self.notice_, nu_notice(cfg.nu, self.m_))))

    def _targets(self) -> tuple[np.ndarray, np.ndarray]:
        """(y, y_sign): the class indices, and ±1 for a binary problem, the target for a
        regression, else zeros."""
        data, m = self.data_, self.m_
        y = data.y.astype(np.int64)
        if self.config.kind == "regression":
            y_sign = np.array(data.target, dtype=float)  # (writable: one loop's types)
        else:
            y_sign = np.where(y == 1, 1.0, -1.0) if self.binary_ else np.zeros(m)
        return y, y_sign

    def _start_state(self, p: int, y_sign: np.ndarray) -> None:
        """The state at w = 0, with the exact bias there when the loss keeps one."""
        st = self.state_ = new_state(self.n_out_, self.m_, p)
        if self.loss_.EXACT_BIAS and self.config.bias == "free":
            # the exact b for w = 0 (the best constant classifier): the middle of
            # [r_(P), r_(P+1)] for r = y (see _bias.profile_bias); numpy, so that setting up
            # needs no compiled code
            r = np.sort(y_sign)
            n_pos = int(np.sum(y_sign > 0))
            st.b[0] = st.bbar[0] = st.win[0] = 0.5 * (r[n_pos - 1] + r[n_pos])

    def _problem(self, y, y_sign, cost, PhiT, G) -> None:
        """The problem's arrays, the screens' (linear binary: the telemetry and the bias
        check by screening, :mod:`._screen`, exact) and the loop's work buffers."""
        p, m, Ko = PhiT.shape[0], self.m_, self.n_out_
        self.fast_ = True  # screened: _loop.run_linear_binary (tests turn it off)
        if self._screened():
            Z, zn = _screen.features(PhiT, y_sign)
        else:
            Z, zn = np.zeros((p + 1, 0)), np.zeros(0)
        self.problem_ = Problem(y=y, y_sign=y_sign, cost=cost, PhiT=PhiT, G=G, Z=Z, zn=zn)
        self.screens_ = _screen.allocate(p + 1, Z.shape[1], 2)
        self._scratch = (np.zeros((Ko, m)), np.empty(4 * m), np.empty(Z.shape[1], dtype=np.int64))
        self._work = np.empty((1, p + 1))  # the screens' rows of models (run's U)
        # name → the compiled loop for this solver's argument types (_jit.entry_point)
        self._entries = {}

    def _screened(self) -> bool:
        """Linear binary with a loss that screens: the telemetry and the bias check by
        screening (:mod:`._screen`), exact."""
        return bool(self.linear_ and self.binary_ and self.loss_.SCREENED)

    def _settings(self, cost) -> None:
        """The loop's fixed numbers: the loss's parameters, its flags, the step-size
        schedule (:func:`rules.choose_schedule`), the averaging, the projection and what
        the telemetry records."""
        cfg, loss = self.config, self.loss_
        rho = loss.subgradient_bound(float(np.sqrt(self.r2_)), self.data_.n_classes, cfg)
        schedule, eta0 = rules.choose_schedule(
            cfg.algorithm, cfg.schedule, self.lam_, cfg.eta, cfg.radius, cfg.iterations, rho
        )
        self.settings_ = Settings(
            loss=loss.params(cfg, cost),
            exact_bias=loss.EXACT_BIAS,
            fused_bias=loss.FUSED_BIAS,
            offsets=bool(loss.OFFSETS),
            binary=bool(self.binary_),
            linear=bool(self.linear_),
            free_bias=self.bias_ == "free",
            screened=self._screened(),
            lam=self.lam_,
            schedule=int(schedule),
            eta0=float(eta0),
            average=rules.AVERAGES[cfg.average],
            radius=self._radius(cost),
            record={True: rules.EVERY, False: rules.NONE}.get(self.record, rules.CHECKPOINTS),
        )

    def _run_start(self, optimum) -> None:
        """The run at t = 0: the batch, the sampler and its generator (the seed), the
        budget, the status, the history and the stopping rule's window."""
        cfg, m = self.config, self.m_
        self.batch_ = 0 if cfg.algorithm == "gd" else int(min(cfg.batch, m))
        self.rng_ = np.random.default_rng(cfg.seed)
        self._sampler = Sampler(self.rng_, m, self.batch_, cfg.sampling == "uniform")
        self.t_ = 0
        self.t0_ = 0  # the iteration a warm start began at; the budget counts from there
        self.budget_ = int(cfg.iterations)  # grows for a hard margin (HARD_GAP)
        self.optimum_ = optimum if cfg.margin == "hard" else None
        self.exact_step_ = None  # a hard margin's last step (feasible.ExactStep)
        self.status_ = "ready"
        self.history_ = History(self.batch_, self.loss_.OFFSETS)
        self._window = 1 if self.batch_ == 0 else max(1, m // max(self.batch_, 1))
        self._last_check = None
        self._python_start = None  # a run begun in plain Python: its start

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
        if np.linalg.norm(w - prev[1]) <= tol * max(float(np.linalg.norm(w)), 1e-12):
            self.status_ = "weights"
            return True
        return False

    def next_step_size(self) -> float:
        """η_t of the next step (:func:`rules.step_size`)."""
        s = self.settings_
        return float(rules.python().step_size(s.schedule, s.eta0, s.lam, self.t_ + 1))

    @property
    def schedule(self) -> str:
        """The step-size schedule the solver runs (:func:`rules.choose_schedule`)."""
        return rules.SCHEDULE_NAMES[self.settings_.schedule]
