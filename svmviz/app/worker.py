"""Training off the GUI thread: one worker QObject on one long-lived QThread.

The GUI sends a :class:`Job` (configuration and copied data) with a queued signal; the worker
owns the solver of that job and runs it in chunks of a few milliseconds. The compiled loop
releases the GIL while it runs, so the GUI thread keeps its frame rate (until it is compiled,
the first time after installing, the same loop runs as plain Python, resting between chunks
so that the compiler gets the GIL). Snapshots (the heavy
part of a frame, the decision values on a grid and the contours, is computed here, not in
the GUI thread) go through a latest-wins mailbox; the GUI takes one at most once per display
refresh, from a timer of its own, and the worker builds the next only when the GUI has taken
the last, so neither side queues stale frames. Each is tagged with the job's generation so
that the GUI drops frames of a configuration it has replaced.

Pausing and cancelling use threading.Events checked between chunks: a queued "stop" slot
could not run while the loop is busy. Every cross-thread receiver is a @Slot method.
Shutdown is quit() + wait(), never terminate(). (Patterns: superqt's _qthreading
GeneratorWorker, Orange's ConcurrentMixin, ScopeFoundry's display timer.)
"""

from __future__ import annotations

import sys
import threading
import time
import weakref
from dataclasses import dataclass, replace

import numpy as np
from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot

from svmviz.app.reference_runner import ReferenceRunner
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.explain import StepRecord, step_and_explain
from svmviz.core.frame import Frame, make_frame, prepare_contours
from svmviz.core.generalization import TEST, TRAIN, subset
from svmviz.core.kernels import GramCache
from svmviz.core.model_io import Model
from svmviz.core.objectives import errors
from svmviz.core.pace import INSTANT, LogPace, Speed
from svmviz.core.reference import Reference
from svmviz.core.solvers import Solver
from svmviz.core.training import prepare

_THREADS: weakref.WeakSet = weakref.WeakSet()


def running_threads() -> list:
    """Training threads that are still running (for tests and for a clean exit)."""
    return [t for t in list(_THREADS) if t.isRunning()]


FRAME_SECONDS = 1 / 60  # at most one published frame per display refresh
CHUNK_SECONDS = 0.004  # training time between checks for pause / cancel / publish
SLOW_SECONDS = 2 * FRAME_SECONDS  # one step of "N per frame" every two display refreshes
TEST_SAMPLING = 1.05  # at full speed, a split's test error is measured every 5% of t
# while the plain-Python loop runs (the compiled one being prepared), the full-speed loop
# rests this many times as long as each chunk took: the compiler, in another thread, needs
# the GIL more than the Python loop needs speed
PYTHON_REST = 1.0


@dataclass(frozen=True)
class Job:
    """Everything the worker needs, owned by it (the GUI keeps editing its own copy)."""

    generation: int
    config: SolverConfig
    data: Dataset
    extent: tuple[float, float, float, float]
    grid: int = 160
    warm: bool = False  # go on from the previous job's model and t when the problem allows
    # each point's part of a train/test split (svmviz.core.generalization: TRAIN, TEST,
    # UNUSED), or None: train on every point. Frames still cover every point of ``data``.
    parts: np.ndarray | None = None

    @property
    def train(self) -> np.ndarray | None:
        """Indices of the training points in ``data`` (None: all of them)."""
        return None if self.parts is None else np.flatnonzero(self.parts == TRAIN)

    def training_data(self) -> Dataset:
        return self.data if self.parts is None else subset(self.data, self.train)


@dataclass(frozen=True)
class Snapshot:
    """One published state of the training, safe to read in the GUI thread.

    ``history`` holds read-only views of the rows written so far (column ``t``: the
    iteration of each row, since the job's start; long runs are thinned, see
    :mod:`svmviz.core.telemetry`); the solver never writes those rows again (it appends into
    spare rows, thins into new arrays, and a reset makes a new history), so no copy is needed.
    """

    generation: int
    t: int
    t0: int  # the iteration a warm start began at (0: from w = 0)
    status: str
    model: Model
    frame: Frame
    history: dict
    reference: Reference | None
    reference_error: str | None
    alpha: np.ndarray | None = None  # (m,) |α_i| of a kernel model's points; None if linear
    step: StepRecord | None = None  # what the step did, when this frame follows one step
    iterate: bool = False  # model and frame are of the last iterate w_t, not the output w̄
    optimum: Frame | None = None  # the exact optimum's frame over the same extent
    # a split's test error, sampled as training goes: (iterations t, 0-1 errors), or None
    test_error: tuple | None = None
    reference_pending: bool = False  # the exact optimum is being computed
    status_text: str = ""  # the solver's status in words (a divergence: what to change)
    notice: str = ""  # a word about the problem (an rbf γ that isolates every point)
    # the compiled loop is being prepared (first run after installing): the solver runs the
    # same loop as plain Python meanwhile, and hands over when it is ready
    preparing: bool = False


class TrainingWorker(QObject):
    """Runs one job at a time; lives in the controller's QThread.

    Snapshots go through a latest-wins mailbox: ``_publish`` overwrites ``mailbox`` and
    signals ``snapshot_posted`` only when the GUI has taken the previous signal, so a GUI
    slower than the worker skips frames instead of queueing stale ones.
    """

    snapshot_posted = Signal()
    failed = Signal(int, str)  # generation, message
    _reference_done = Signal(int)  # emitted from the reference thread: a job's optimum is in

    def __init__(self):
        super().__init__()
        self.cancel = threading.Event()  # set by the GUI: drop the running loop now
        self.pause = threading.Event()  # set by the GUI: stop the loop after this chunk
        self._job: Job | None = None
        self._solver: Solver | None = None
        self._reference: Reference | None = None
        self._reference_error: str | None = None
        # how fast play goes (svmviz.core.pace: as fast as possible, N iterations per frame
        # or the log-t pace); set from the GUI thread and read between chunks, like the
        # events (a queued slot would wait for the loop to end)
        self.speed: Speed = INSTANT
        # the log-t pace's clock, and its wait (woken early by a pause or a cancel); a test
        # may give a fake pair
        self.clock = time.perf_counter
        self.sleep = self.pause.wait
        self._pace_cap = 1  # iterations in one call at the log-t pace (adapts to the solver)
        self._pace_single = True  # the log-t pace still takes one step a frame
        # the plane region drawn (x0, x1, y0, y1); follows the view, set like the speed
        self.extent: tuple | None = None
        # the newest generation the GUI has submitted: older queued jobs are skipped (a drag
        # submits one job per mouse move)
        self.latest_generation = 0
        self.mailbox: Snapshot | None = None
        # the last single step explained: its frames (also after the view moved) carry it,
        # until the next play, N steps or job
        self._step: StepRecord | None = None
        # show the last iterate instead of the (averaged) output; set from the GUI thread,
        # read when a frame is made
        self.show_iterate = False
        self._optimum: Frame | None = None
        self.posted = threading.Event()  # a signal is on its way and not yet taken
        self._fit_data: Dataset | None = None  # what the solver trains on (the split's part)
        self._train: np.ndarray | None = None  # its points' indices in the job's data
        self._test: np.ndarray | None = None
        self._test_curve: list = []  # (t, test error) samples of this job
        # the exact optimum, computed beside the training (soft margin); the key of the
        # job's problem while it is pending
        self._references = ReferenceRunner(self._reference_done.emit)
        self._reference_done.connect(self._on_reference_done)
        self._reference_key = None
        self._grams = GramCache()  # the kernel matrix of the last job, updated after an edit

    # ------------------------------------------------------------------ slots (worker thread)
    @Slot(object)
    def start_job(self, job: Job) -> None:
        """Set up a new job (w = 0) and publish its first frame."""
        if job.generation < self.latest_generation:
            return  # superseded while queued
        self.cancel.clear()
        self._step = None
        self._optimum = None
        warm = self._solver.warm_state() if job.warm and self._solver is not None else None
        self._job = job
        self._solver = None
        self._reference, self._reference_error = None, None
        self._test_curve = []
        self._train = job.train
        test = np.zeros(0) if job.parts is None else np.flatnonzero(job.parts == TEST)
        self._test = test if test.size else None  # None: no test error to measure
        self._reference_key = None
        try:
            self._fit_data = job.training_data()
            if job.config.margin == "hard":  # its solver needs the optimum's λ first
                solver, self._reference, self._reference_error = prepare(job.config, self._fit_data)
            else:  # the first frame does not wait for the optimum
                solver = Solver(job.config).reset(self._fit_data, grams=self._grams)
                key, found = self._references.request(job.generation, job.config,
                                                      self._fit_data)  # fmt: skip
                if found is None:
                    self._reference_key = key
                else:
                    self._reference, self._reference_error = found
        except InputError as exc:
            self.failed.emit(job.generation, str(exc))
            return
        except Exception as exc:  # noqa: BLE001
            # a defect: said in the window rather than a silent wait, and reported (stderr;
            # under pytest-qt, a failed test)
            self.failed.emit(job.generation, f"internal error ({type(exc).__name__}: {exc})")
            sys.excepthook(*sys.exc_info())
            return
        if warm is not None:
            solver.warm_from(warm)  # stays at w = 0 when the problem changed shape
        self._solver = solver
        self._publish()

    @Slot(int)
    def _on_reference_done(self, generation: int) -> None:
        """The optimum arrived while idle (in the loop, each frame looks for it)."""
        if self._job is not None and generation == self._job.generation:
            self._publish()

    def stop_references(self) -> None:
        self._references.stop()

    @Slot()
    def republish(self) -> None:
        """A new frame of the current state (after the view moved while idle)."""
        self._publish()

    @Slot(int)
    def step(self, n: int) -> None:
        """Exactly ``n`` iterations, then one frame; the last of them comes with its
        explanation (svmviz.core.inspect) for the step inspector."""
        if self._solver is None or self.cancel.is_set():
            return
        if n > 1:
            self._solver.step(n - 1)
        self._step = self._explained(self._solver)
        self._publish()

    @Slot(int)
    def seek(self, t: int) -> None:
        """Go to iteration ``t`` by replaying the job from w = 0 with its seed (the same seed
        gives the same samples, so this is the iterate seen before, exactly), then one frame;
        the last step comes explained. Not for a warm-started job (its past is another job's)."""
        s, job = self._solver, self._job
        if s is None or job is None or self.cancel.is_set() or s.t0_ != 0:
            return
        t = max(0, min(int(t), job.config.iterations))
        lam_hard = self._reference.lam_hard if self._reference is not None else None
        solver = Solver(job.config).reset(self._fit_data, lam_hard)
        if t > 1:
            solver.step(t - 1)
        self._step = self._explained(solver) if t >= 1 else None
        self._solver = solver
        while self._test_curve and self._test_curve[-1][0] >= solver.t_:
            self._test_curve.pop()  # that future is replayed
        self._publish()

    @Slot()
    def play(self) -> None:
        """Train until the budget, a stop, a pause or a cancel; publish throttled frames.
        Play after the end (the budget, a convergence or a divergence) plays the run again
        from w = 0: at the end, Play would otherwise do nothing."""
        s = self._solver
        if s is None:
            return
        if s.done and not self.cancel.is_set():
            s = self._restart()
        self._step = None
        chunk = 1
        last = time.perf_counter()
        next_slow = last
        frame_cost = 0.0
        next_test = 0
        pace = None  # the log-t pace of this stretch of play (from when it was chosen)
        while not s.done and not self.pause.is_set() and not self.cancel.is_set():
            if self.speed.paced:
                pace = self._paced_frame(s, pace)
                last = time.perf_counter()
                continue
            pace = None
            per_frame = self.speed.per_frame
            if per_frame:
                # slow motion for the classroom: per_frame iterations, a frame, a real sleep,
                # paced by its own clock (never by when frames happened to be published)
                # the frame's last step comes explained: the step inspector follows a
                # slow play as it follows stepping
                if per_frame > 1:
                    s.step(per_frame - 1)
                self._step = self._explained(s) if not s.done else None
                self._publish()
                next_slow = max(next_slow + SLOW_SECONDS, time.perf_counter())
                time.sleep(max(0.0, next_slow - time.perf_counter()))
                last = time.perf_counter()
                continue
            start = time.perf_counter()
            python = Solver.preparing()
            s.step(chunk)
            if self._test is not None and s.t_ >= next_test:
                self._sample_test(s.model(self.show_iterate))
                next_test = int(s.t_ * TEST_SAMPLING) + 1
            spent = time.perf_counter() - start
            # grow or shrink the chunk towards CHUNK_SECONDS of work
            if spent < CHUNK_SECONDS / 2:
                chunk = min(chunk * 2, 1 << 20)
            elif spent > CHUNK_SECONDS * 2 and chunk > 1:
                chunk //= 2
            if python:
                time.sleep(PYTHON_REST * spent)
            now = time.perf_counter()
            # a new frame once the GUI has taken the previous one (it takes at most one per
            # display refresh, so this is the refresh rate, or the rate the GUI manages),
            # and frames take at most half of the worker's time
            if not self.posted.is_set() and now - last >= max(FRAME_SECONDS / 2, 2 * frame_cost):
                cpu = time.thread_time()
                self._publish()
                last = time.perf_counter()
                # the frame's own work: waits for the GIL (the GUI painting) do not count
                frame_cost = time.thread_time() - cpu
        if not self.cancel.is_set():
            self._publish()

    # ------------------------------------------------------------------ helpers
    def _restart(self) -> Solver:
        """The job's solver again at w = 0 (its seed: the same run), its frame published."""
        job = self._job
        lam_hard = self._reference.lam_hard if self._reference is not None else None
        self._solver = Solver(job.config).reset(self._fit_data, lam_hard, grams=self._grams)
        self._test_curve = []
        self._step = None
        self._publish()
        return self._solver

    def _paced_frame(self, s: Solver, pace: LogPace | None) -> LogPace:
        """One frame of the log-t pace (svmviz.core.pace): the iterations due by now, a
        frame, then a wait until the next iteration is due (at least a display refresh;
        woken early by a pause or a cancel). A frame that follows exactly one step carries
        it explained: the step inspector follows the first steps."""
        now = self.clock()
        done = s.t_ - s.t0_
        if pace is None:
            pace, self._pace_cap, self._pace_single = LogPace(done, now), 1, True
        if self.posted.is_set():  # the GUI has not taken the last frame: no new one yet
            self.sleep(FRAME_SECONDS / 4)
            return pace
        n = min(pace.due(now) - done, self._pace_cap)
        if n > 0:
            start = time.perf_counter()
            # one step a frame, explained, until the first frame of more (from then on the
            # pace only grows: the inspector does not flicker between a step and its hint)
            self._pace_single = self._pace_single and n == 1
            if self._pace_single:
                self._step = self._explained(s)
            else:
                self._step = None
                s.step(n)
            # at most about a frame's time in one call (a pause stays prompt when the
            # solver cannot keep the pace): the cap doubles while it is easily met
            spent = time.perf_counter() - start
            if spent > FRAME_SECONDS and self._pace_cap > 1:
                self._pace_cap //= 2
            elif spent < FRAME_SECONDS / 4 and n == self._pace_cap:
                self._pace_cap = min(2 * self._pace_cap, 1 << 20)
            self._publish()
        wake = max(pace.when(s.t_ - s.t0_ + 1), now + FRAME_SECONDS)
        self.sleep(max(0.0, wake - self.clock()))
        return pace

    def _explained(self, solver: Solver) -> StepRecord | None:
        """One step explained, its sample indices those of the job's points."""
        record = step_and_explain(solver)
        if record is not None and self._train is not None:
            record = replace(record, samples=self._train[record.samples])
        return record

    def _sample_test(self, model: Model, values: np.ndarray | None = None) -> None:
        """Record the test error of ``model`` at this iteration (``values``: f at the test
        points, when known)."""
        s, test, data = self._solver, self._test, self._job.data
        if test is None:
            return
        t = s.t_
        if self._test_curve and self._test_curve[-1][0] >= t:
            return
        F = model.decision_function(data.X[test]) if values is None else values
        self._test_curve.append((t, errors(F, data.y[test])))

    def _values(self, model: Model, iterate: bool) -> np.ndarray:
        """f at every point of the job: the solver's own at the training points, the
        model's at the others."""
        s, train = self._solver, self._train
        inside = s.training_values(iterate)
        if train is None:
            return inside
        X = self._job.data.X
        values = np.empty((len(X),) + inside.shape[1:])
        values[train] = inside
        other = np.flatnonzero(self._job.parts != TRAIN)
        values[other] = model.decision_function(X[other])
        return values

    def _take_reference(self) -> None:
        if self._reference_key is not None:
            found = self._references.lookup(self._reference_key)
            if found is not None:
                self._reference, self._reference_error = found
                self._reference_key = None

    def _publish(self) -> None:
        s, job = self._solver, self._job
        if s is None or job is None or self.cancel.is_set():
            return
        self._take_reference()
        iterate = self.show_iterate
        model = s.model(iterate)
        extent = self.extent or job.extent
        values = self._values(model, iterate)
        frame = make_frame(model, job.data.X, job.data.y, extent, job.grid, train_values=values)
        alpha = s.training_alpha(iterate)
        test_error = None
        if self._train is not None:
            frame = replace(frame, support=frame.support[job.parts[frame.support] == TRAIN])
            if alpha is not None:
                full = np.zeros(len(job.data.y))
                full[self._train] = alpha
                alpha = full
            if self._test is not None:
                self._sample_test(model, values[self._test])
                curve = np.array(self._test_curve, dtype=float).reshape(-1, 2)
                test_error = (curve[:, 0], curve[:, 1])
        ref = self._reference
        if ref is not None and (self._optimum is None or self._optimum.extent != tuple(extent)):
            # the exact optimum's regions and curves, once per job and view
            self._optimum = make_frame(ref.model, self._fit_data.X, self._fit_data.y, extent,
                                       job.grid)  # fmt: skip
        h = s.history_
        history = {c: h[c] for c in ("objective", "loss", "error", "norm", "violations", "t")}
        for v in history.values():
            v.flags.writeable = False
        self.mailbox = Snapshot(
            job.generation, s.t_, s.t0_, s.status_, model, frame, history, self._reference,
            self._reference_error, alpha, self._step, iterate,
            self._optimum if ref is not None else None, test_error,
            self._reference_key is not None, s.status_text(), s.notice_, Solver.preparing(),
        )  # fmt: skip
        if not self.posted.is_set():
            self.posted.set()
            self.snapshot_posted.emit()


class TrainingController(QObject):
    """GUI-thread side: owns the thread and the worker, numbers the jobs, drops stale frames.

    ``snapshot_ready`` re-emits only snapshots of the current generation.
    """

    snapshot_ready = Signal(object)
    failed = Signal(str)
    _start_job = Signal(object)
    _play = Signal()
    _step = Signal(int)
    _seek = Signal(int)
    _republish = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.generation = 0
        self.playing = False
        # the display timer (ScopeFoundry's pattern): a posted snapshot is taken from the
        # mailbox at most once per FRAME_SECONDS, in a timer event of its own, so a burst of
        # frames never runs back to back in one pass of the event loop and the GUI's other
        # timers and input get their turn between frames
        self._display = QTimer(self)
        self._display.setSingleShot(True)
        self._display.setTimerType(Qt.TimerType.PreciseTimer)
        self._display.timeout.connect(self._take)
        self._last_take = 0.0
        prepare_contours()  # (here, in the GUI thread: see its docstring)
        self._thread = QThread()
        self._thread.setObjectName("svmviz-training")
        _THREADS.add(self._thread)
        self._worker = TrainingWorker()
        self._worker.moveToThread(self._thread)
        self._start_job.connect(self._worker.start_job)
        self._play.connect(self._worker.play)
        self._step.connect(self._worker.step)
        self._seek.connect(self._worker.seek)
        self._republish.connect(self._worker.republish)
        self._worker.snapshot_posted.connect(self._on_posted)
        self._worker.failed.connect(self._on_failed)
        self._thread.start()
        self.latest: Snapshot | None = None

    def submit(
        self, config: SolverConfig, data: Dataset, extent, play: bool = False,
        warm: bool = False, parts: np.ndarray | None = None,
    ) -> int:  # fmt: skip
        """Replace the running job: cancel it, start a new generation from w = 0 (or, with
        ``warm``, from the previous job's model and iteration when the problem allows);
        ``parts``: train on the TRAIN points of a split only (see :class:`Job`)."""
        self._worker.cancel.set()
        self._worker.pause.set()
        self._worker.extent = None  # the job's own extent until the view moves
        self.generation += 1
        self._worker.latest_generation = self.generation
        self.latest = None
        self._start_job.emit(
            Job(self.generation, config, data, tuple(extent), warm=warm, parts=parts)
        )
        self.playing = False
        if play:
            self.play()
        return self.generation

    def cancel(self) -> int:
        """Stop the running job and drop its frames (nothing to train, e.g. one class)."""
        self._worker.cancel.set()
        self._worker.pause.set()
        self.generation += 1
        self._worker.latest_generation = self.generation
        self.latest = None
        self.playing = False
        return self.generation

    def play(self) -> None:
        self._worker.pause.clear()
        self.playing = True
        self._play.emit()

    def pause(self) -> None:
        self._worker.pause.set()
        self.playing = False

    def step(self, n: int = 1) -> None:
        self.pause()
        self._step.emit(int(n))

    def seek(self, t: int) -> None:
        """Pause and go to iteration ``t`` (backwards too) by replaying from the seed."""
        self.pause()
        self._seek.emit(int(t))

    def set_extent(self, extent) -> None:
        """Draw the regions over ``extent`` from the next frame on (now, if idle)."""
        self._worker.extent = tuple(float(v) for v in extent)
        # queued: runs at once when idle, after the loop otherwise (then one extra frame)
        self._republish.emit()

    @property
    def full_speed(self) -> bool:
        """Playing brings frames as fast as the display takes them: as fast as possible,
        or the log-t pace (past its first steps), not N iterations per frame."""
        return not self._worker.speed.per_frame

    @property
    def showing_iterate(self) -> bool:
        return self._worker.show_iterate

    def show_iterate(self, on: bool) -> None:
        """Frames of the last iterate w_t (True) or of the output w̄ (False, the default)."""
        self._worker.show_iterate = bool(on)
        self._republish.emit()

    @property
    def speed(self) -> Speed:
        return self._worker.speed

    @Slot(object)
    def set_speed(self, speed: Speed | int) -> None:
        """How fast play goes (svmviz.core.pace.Speed, or its code: N iterations per frame,
        0 as fast as possible, −1 the log-t pace); from the next frame on."""
        self._worker.speed = speed if isinstance(speed, Speed) else Speed(max(-1, int(speed)))

    def shutdown(self) -> None:
        """Stop the loop, end the thread's event loop and wait for it (never terminate())."""
        self._display.stop()
        self._worker.cancel.set()
        self._worker.pause.set()
        self._worker.stop_references()
        self._thread.quit()
        self._thread.wait()

    @Slot()
    def _on_posted(self) -> None:
        mail = self._worker.mailbox
        first = mail is not None and (self.latest is None or
                                      self.latest.generation != mail.generation)  # fmt: skip
        if self._display.isActive() and not first:
            return  # the pending take will read the newest snapshot
        # a little under one refresh: the timer's own jitter would otherwise make the mean
        # interval longer than a refresh; the first frame after an edit shows at once
        wait = 0.0 if first else 0.8 * FRAME_SECONDS - (time.perf_counter() - self._last_take)
        self._display.start(max(0, int(round(wait * 1000))))

    @Slot()
    def _take(self) -> None:
        self._last_take = time.perf_counter()
        self._worker.posted.clear()  # first: a newer snapshot posted from now on signals again
        snap = self._worker.mailbox
        if snap is None or snap.generation != self.generation:
            return  # a frame of a replaced configuration
        if snap is self.latest:
            return  # already drawn (a signal posted while the GUI was taking the previous)
        self.latest = snap
        if snap.status not in ("ready", "running"):
            self.playing = False
        self.snapshot_ready.emit(snap)

    @Slot(int, str)
    def _on_failed(self, generation: int, message: str) -> None:
        if generation == self.generation:
            self.playing = False
            self.failed.emit(message)
