"""The training of one job at a time, in plain Python: set-up, steps, seek, play, frames.

No Qt here (Orange's ``run_mds(…, state: TaskState)`` is the pattern): the runner is driven
by method calls and talks to the outside through one ``state`` object, a
:class:`svmviz.app.controls.Controls` or anything with its runner-side methods: it reads the
requests and settings there (``is_interruption_requested``, ``is_pause_requested``,
``extent``, ``show_iterate``, ``speed``, ``frame_pending``, ``clock``, ``sleep``) and posts
through it (``emit(snapshot)``, ``fail(generation, message)``). The thread wrapper
(svmviz.app.worker) calls these methods from its QThread; tests call them directly.

The heavy part of a frame (the decision values on a grid and the contours) is computed
here, not in the GUI thread. The exact optimum of a soft-margin job is computed beside the
training by ``references`` (svmviz.app.reference_runner); each frame looks for it, and
:meth:`TrainingRunner.reference_done` publishes one when it arrives while idle.
"""

from __future__ import annotations

import sys
from typing import Protocol

import numpy as np

from svmviz.app.play_loop import catch_up, play
from svmviz.app.race_runner import RECORD, Companions
from svmviz.app.snapshot import Job, Snapshot
from svmviz.app.split import Split
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import GramCache
from svmviz.core.lesson.explain import StepRecord, step_and_explain
from svmviz.core.pictures.frame import Frame, make_frame
from svmviz.core.pictures.weight_path import drawable, frozen, record, truncate
from svmviz.core.solvers import Solver
from svmviz.core.training.pace import Speed
from svmviz.core.training.race import Path
from svmviz.core.training.reference import Reference
from svmviz.core.training.setup import prepare
from svmviz.core.training.start import apply_start

PATH_STEPS = 24  # points of the path recorded in one Step N (evenly in log t)


class RunnerState(Protocol):
    """What the runner reads and writes outside itself (svmviz.app.controls.Controls)."""

    @property
    def extent(self) -> tuple | None: ...  # the plane region drawn; None: the job's own
    @property
    def show_iterate(self) -> bool: ...  # frames of the last iterate w_t, not the output
    @property
    def speed(self) -> Speed: ...
    @property
    def latest_generation(self) -> int: ...  # the newest job submitted
    def is_interruption_requested(self) -> bool: ...
    def is_pause_requested(self) -> bool: ...
    def clear_interruption(self) -> None: ...
    def frame_pending(self) -> bool: ...
    def emit(self, snapshot: Snapshot) -> None: ...
    def fail(self, generation: int, message: str) -> None: ...
    def clock(self) -> float: ...
    def sleep(self, seconds: float) -> object: ...


class References(Protocol):
    """The exact optimum computed beside the training (svmviz.app.reference_runner)."""

    def request(self, generation: int, config: SolverConfig, data: Dataset) -> tuple: ...
    def lookup(self, key) -> tuple | None: ...
    def stop(self) -> None: ...


class TrainingRunner:
    """Runs one job at a time and publishes its snapshots through ``state``.

    Parameters
    ----------
    state
        Requests, settings and the mailbox (see the module's docstring).
    references
        Computes the exact optimum beside the training: ``request(generation, config,
        data)`` → (key, found or None) and ``lookup(key)`` → found or None, where found is
        (reference, reason); see :class:`svmviz.app.reference_runner.ReferenceRunner`.
    """

    def __init__(self, state: RunnerState, references: References):
        self.state = state
        self.references = references
        self.job: Job | None = None
        self.solver: Solver | None = None
        self.reference: Reference | None = None
        self.reference_error: str | None = None
        self._reference_key = None  # the key of the job's problem while its optimum is pending
        self._split: Split | None = None
        self._fit_data: Dataset | None = None  # what the solver trains on (the split's part)
        # the last single step explained: its frames (also after the view moved) carry it,
        # until the next play, N steps or job
        self.explained_step: StepRecord | None = None
        self._optimum: Frame | None = None  # the exact optimum's frame, once per job and view
        self._grams = GramCache()  # the kernel matrix of the last job, updated after an edit
        self.path = Path()  # the job's path in weight space (svmviz.core.pictures.weight_path)
        self._from_start = False  # the job's solver began at its start w₀ (job.start)
        self.race: Companions | None = None  # a race's runs 2–4, following this one

    # ------------------------------------------------------------------ commands
    def start(self, job: Job) -> None:
        """Set up a new job (w = 0, or the previous job's model with ``job.warm``), train it
        to ``job.catch_up`` (after an edit: where the run was) and publish its first frame; a
        job that cannot start is reported through ``state.fail``. A job older than the
        newest submitted is skipped."""
        state = self.state
        if job.generation < state.latest_generation:
            return  # superseded while queued
        state.clear_interruption()
        self.explained_step = None
        self._optimum = None
        warm = self.solver.warm_state() if job.warm and self.solver is not None else None
        race_warm = self.race.warm_states() if warm is not None and self.race else None
        earlier_race = self.race
        self.job = job
        self.solver = None
        self.path = Path()
        self.race = None
        self.reference, self.reference_error = None, None
        self._split = Split(job)
        self._reference_key = None
        try:
            self._fit_data = job.training_data()
            if job.config.margin == "hard":  # its solver needs the optimum's λ first
                solver, self.reference, self.reference_error = prepare(job.config, self._fit_data)
            else:  # the first frame does not wait for the optimum
                solver = Solver(job.config, record=RECORD).reset(self._fit_data, grams=self._grams)
                key, found = self.references.request(job.generation, job.config, self._fit_data)
                if found is None:
                    self._reference_key = key
                else:
                    self.reference, self.reference_error = found
            if job.race:  # runs 2–4 (from w = 0, as run 1 is before a warm start)
                self.race = Companions(solver, list(job.race), self._fit_data, self._grams)
        except InputError as exc:
            state.fail(job.generation, str(exc))
            return
        except Exception as exc:
            # a defect: said in the window rather than a silent wait, and reported (stderr;
            # under pytest-qt, a failed test)
            state.fail(job.generation, f"internal error ({type(exc).__name__}: {exc})")
            sys.excepthook(*sys.exc_info())
            return
        # (warm_from stays at w = 0 when the problem changed shape)
        warmed = warm is not None and solver.warm_from(warm)
        self._from_start = not warmed and job.start is not None
        if warm is not None and self.race is not None and race_warm is not None:
            self.race.warm_from(race_warm)  # (each run keeps its own state)
            if earlier_race is not None:
                self.race.carry_lines(earlier_race)
        if self._from_start:
            try:
                apply_start(solver, job.start)
                if self.race is not None:
                    self.race.set_start(job.start)
            except InputError as exc:
                state.fail(job.generation, str(exc))
                return
        self.solver = solver
        self.record_path()  # (its start, w = 0 or w₀, before a catch-up goes on from it)
        fresh = solver.t_ == 0 or self._from_start
        if job.catch_up and fresh and not catch_up(self, job.catch_up, job.explain):
            return  # a newer job replaced this one while it caught up
        self.publish()

    def reference_done(self, generation: int) -> None:
        """The optimum of job ``generation`` is in (while playing, each frame looks for it;
        this publishes one when idle)."""
        if self.job is not None and generation == self.job.generation:
            self.publish()

    def step(self, n: int) -> None:
        """Exactly ``n`` iterations, then one frame; the last of them comes with its
        explanation (svmviz.core.lesson.explain) for the step inspector."""
        if self.solver is None or self.state.is_interruption_requested():
            return
        if n > 1:
            self._step_recorded(n - 1)
        self.explained_step = self.explain(self.solver)
        self.publish()

    def _step_recorded(self, n: int) -> None:
        """``n`` iterations of the solver, its path in weight space recorded on the way at
        PATH_STEPS iterations spaced evenly in log t (Step N and a catch-up show the way,
        not a jump; the same iterates as one call: the seed's samples in order)."""
        s = self.solver
        if s is None or not drawable(s) or n < 2:
            if s is not None:
                s.step(n)
            return
        end = s.t_ + n
        for t in np.unique(np.geomspace(max(s.t_, 1), end, PATH_STEPS).astype(np.int64)):
            if t > s.t_ and not s.done:
                s.step(int(t) - s.t_)
                self.record_path()
                self.follow_race()  # (a race's runs record theirs on the way too)
        if s.t_ < end and not s.done:
            s.step(end - s.t_)

    def seek(self, t: int) -> None:
        """Go to iteration ``t`` by replaying the job from w = 0 (or its start w₀) with its
        seed (the same seed gives the same samples, so this is the iterate seen before,
        exactly), then one frame; the last step comes explained. Not for a warm-started job
        (its past is another job's)."""
        s, job = self.solver, self.job
        if s is None or job is None or self.state.is_interruption_requested():
            return
        if s.t0_ != 0 and not self._from_start:
            return
        solver = self._fresh()
        t0 = solver.t_
        t = max(t0, min(int(t), t0 + job.config.iterations))
        if t > t0 + 1:
            solver.step(t - t0 - 1)
        self.explained_step = self.explain(solver) if t > t0 else None
        self.solver = solver
        self._split.forget_from(solver.t_)  # that future is replayed
        truncate(self.path, solver.t_)  # (the same seed: the points before t are the run's)
        self.publish()

    def play(self) -> None:
        """Train until the budget, a pause or a cancel, at ``state.speed``; publish frames as
        the GUI takes them (svmviz.app.play_loop). Play after the end (the budget, a
        convergence or a divergence) plays the run again from w = 0."""
        play(self)
        if self.state.is_interruption_requested():
            return  # a newer job waits (its first frame draws every run's lines)
        if self.race is not None and self.race.stale and self.job is not None:
            # a race's kernel runs' lines, redrawn in turn while playing: all of them now
            self.race.settle(self.state.extent or self.job.extent, self.state.show_iterate)
            self.publish()

    def restart(self) -> Solver:
        """The job's solver again at w = 0 or its start w₀ (its seed: the same run), its
        frame published."""
        self.solver = self._fresh()
        self._split.forget_from(self.solver.t_)
        self.path = Path()
        self.explained_step = None
        self.publish()
        return self.solver

    def stop(self) -> None:
        """No more optima computed (the thread that computes them ends)."""
        self.references.stop()

    # ------------------------------------------------------------------ helpers
    def _fresh(self) -> Solver:
        """The job's solver as it began: reset, at the job's start w₀ if it began there
        (the run's kernel matrix: the same bits, and no m² kernel values per seek)."""
        lam_hard, optimum = self._hard()
        solver = Solver(self.job.config, record=RECORD).reset(
            self._fit_data, lam_hard, grams=self._grams, optimum=optimum
        )
        if self._from_start:
            apply_start(solver, self.job.start)
        return solver

    def explain(self, solver: Solver) -> StepRecord | None:
        """One step of ``solver`` taken and explained, its sample indices the job's."""
        return self._split.record(step_and_explain(solver))

    def sample_test(self) -> None:
        """The test error at this iteration, when the job has test points (else nothing)."""
        if self._split.test is not None:
            self._split.sample(self.solver.t_, self.solver.model(self.state.show_iterate))

    def _hard(self) -> tuple[float | None, float | None]:
        """(λ of a hard margin, the exact optimum) for the solver, when known."""
        if self.reference is None:
            return None, None
        return self.reference.lam_hard, self.reference.objective

    def record_path(self) -> None:
        """The run's path in weight space: its point at the current t (linear models of
        2-D data; at each frame, and after each chunk of a catch-up, which has none)."""
        if self.solver is not None and drawable(self.solver):
            record(self.path, self.solver)

    def follow_race(self, explain: bool = False) -> None:
        """A race's runs 2–4 to this run's iteration (after each chunk of play, and before
        each frame: see svmviz.app.race_runner)."""
        if self.race is not None and self.solver is not None:
            self.race.follow(self.solver, explain, self._split.record)

    def _race_frame(self, extent):
        if self.race is None or self.job is None:
            return None
        self.follow_race(self.explained_step is not None)
        objective = None if self.reference is None else self.reference.objective
        self.race.take_references(self.references, self.job.generation, objective)
        cancelled = self.state.is_interruption_requested
        return self.race.frame(extent, self.state.show_iterate, cancelled)

    def _take_reference(self) -> None:
        if self._reference_key is not None:
            found = self.references.lookup(self._reference_key)
            if found is not None:
                self.reference, self.reference_error = found
                self._reference_key = None

    def publish(self) -> None:
        """Build the frame of the current state and post it (not after a cancel)."""
        s, job, state, split = self.solver, self.job, self.state, self._split
        if s is None or job is None or state.is_interruption_requested():
            return
        self._take_reference()
        extent = state.extent or job.extent
        race = self._race_frame(extent)
        if state.is_interruption_requested():
            return  # a newer job waits, and the GUI would drop this frame: it starts now
        iterate = state.show_iterate
        scores = s.training_values(iterate)
        # first (the model's objective is its last row), from the frame's scores when they
        # are the output's
        history = s.shared_history(None if iterate else scores)
        model = s.model(iterate)
        values = split.values(scores, model)
        frame = make_frame(model, job.data, extent, job.grid, train_values=values)
        if state.is_interruption_requested():
            return
        frame = split.frame(frame)
        alpha = split.alpha(s.training_alpha(iterate))
        test_error = None
        if split.test is not None:
            split.sample(s.t_, model, values[split.test])
            test_error = split.test_error()
        ref = self.reference
        if ref is not None and (self._optimum is None or self._optimum.extent != tuple(extent)):
            # the exact optimum's regions and curves, once per job and view
            fit = self._fit_data
            self._optimum = make_frame(ref.model, fit, extent, job.grid)
        self.record_path()
        path = frozen(self.path) if drawable(s) else None
        state.emit(
            Snapshot(
                generation=job.generation,
                t=s.t_,
                t0=s.t0_,
                status=s.status_,
                model=model,
                frame=frame,
                history=history,
                reference=ref,
                reference_error=self.reference_error,
                alpha=alpha,
                step=self.explained_step,
                iterate=iterate,
                optimum=self._optimum if ref is not None else None,
                test_error=test_error,
                reference_pending=self._reference_key is not None,
                status_text=s.status_text(),
                notice=s.notice_,
                preparing=Solver.preparing(),
                path=path,
                start=job.start if self._from_start else None,
                race=race,
            )
        )
