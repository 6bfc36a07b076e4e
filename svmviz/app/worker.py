"""Training off the GUI thread: a thin QThread wrapper around the training runner.

The runner (svmviz.app.runner) does the work in plain Python; this module gives it a
thread. One worker QObject on one long-lived QThread calls the runner from queued slots:
the GUI sends a :class:`Job` (configuration and copied data) with a queued signal, and
step, seek, play and republish the same way. The compiled training loop releases the GIL
while it runs, so the GUI thread keeps its frame rate.

Everything else crosses threads through one :class:`svmviz.app.controls.Controls`: the GUI
writes cancel, pause and the settings there (a queued slot could not run while the loop is
busy), the runner posts snapshots into its latest-wins mailbox, and the GUI takes one at
most once per display refresh, from a timer of its own (ScopeFoundry's display timer). Each
snapshot is tagged with the job's generation so that the GUI drops frames of a
configuration it has replaced. Every cross-thread receiver is a @Slot method. Shutdown is
quit() + wait(), never terminate(). (Patterns: superqt's _qthreading GeneratorWorker,
Orange's ConcurrentMixin and run_mds(…, state).)
"""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot

from svmviz.app.controls import Controls
from svmviz.app.play_loop import FRAME_SECONDS
from svmviz.app.reference_runner import ReferenceRunner
from svmviz.app.runner import TrainingRunner
from svmviz.app.snapshot import Job, Snapshot
from svmviz.app.threads import register, running_threads
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.pictures.frame import prepare_contours
from svmviz.core.solvers import Solver
from svmviz.core.training.pace import Speed

__all__ = ["Job", "Snapshot", "TrainingController", "TrainingWorker", "running_threads"]

PREPARE_AFTER_MS = 500  # from the first frame taken to preparing the compiled loops


class TrainingWorker(QObject):
    """Lives in the controller's QThread and calls its runner from queued slots.

    ``snapshot_posted`` says a snapshot waits in ``controls`` (once until the GUI takes
    it); ``failed`` says a job could not start.
    """

    snapshot_posted = Signal()
    failed = Signal(int, str)  # generation, message
    _reference_done = Signal(int)  # emitted from the reference thread: a job's optimum is in
    _compiled = Signal()  # from the compiling thread: how the compiled loops come, or ready

    def __init__(self):
        super().__init__()
        self.controls = Controls(notify=self.snapshot_posted.emit, fail=self.failed.emit)
        # the exact optimum, computed beside the training (soft margin), once the
        # controller has taken its first frame (release_references)
        self.references = ReferenceRunner(self._reference_done.emit, held=True)
        self._reference_done.connect(self._on_reference_done)
        self.runner = TrainingRunner(self.controls, self.references)
        self._compiled.connect(self._on_compiled)

    @Slot(object)
    def start_job(self, job: Job) -> None:
        self.runner.start(job)

    def prepare_compiled(self) -> None:
        """Start preparing the compiled loops (a thread of their own); a frame says how it
        goes and when they are ready."""
        Solver.prepare_in_background(self._compiled.emit)

    @Slot()
    def _on_compiled(self) -> None:
        """How the compiled loops come is known, or they are ready: a frame that says so
        (while playing, the next frame says it anyway)."""
        self.runner.publish()

    @Slot(int)
    def _on_reference_done(self, generation: int) -> None:
        self.runner.reference_done(generation)

    @Slot()
    def republish(self) -> None:
        """A new frame of the current state (after the view moved while idle)."""
        self.runner.publish()

    @Slot(int)
    def step(self, n: int) -> None:
        self.runner.step(n)

    @Slot(int)
    def seek(self, t: int) -> None:
        self.runner.seek(t)

    @Slot()
    def play(self) -> None:
        self.runner.play()

    def release_references(self) -> None:
        """Compute the optima from now on (called from the GUI thread)."""
        self.references.release()

    def stop_references(self) -> None:
        """No more optima (called from the GUI thread: the reference runner has its lock)."""
        self.runner.stop()


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
        register(self._thread)
        self._worker = TrainingWorker()
        self._worker.moveToThread(self._thread)
        # the only state both threads touch (the worker's attributes are its thread's own)
        self._controls = self._worker.controls
        self._start_job.connect(self._worker.start_job)
        self._play.connect(self._worker.play)
        self._step.connect(self._worker.step)
        self._seek.connect(self._worker.seek)
        self._republish.connect(self._worker.republish)
        self._worker.snapshot_posted.connect(self._on_posted)
        self._worker.failed.connect(self._on_failed)
        self._thread.start()
        self.latest: Snapshot | None = None
        self._preparing_started = False

    def submit(
        self,
        config: SolverConfig,
        data: Dataset,
        extent,
        play: bool = False,
        warm: bool = False,
        parts: np.ndarray | None = None,
        catch_up: int = 0,
        explain: bool = False,
        start=None,
        race: tuple = (),
    ) -> int:
        """Replace the running job: cancel it, start a new generation from w = 0 (or, with
        ``warm``, from the previous job's model and iteration when the problem allows);
        ``parts``: train on the TRAIN points of a split only; ``catch_up``, ``explain``:
        its first frame at that iteration; ``start``: from that w₀ (see :class:`Job`);
        ``race``: the companion runs' configurations."""
        self.generation += 1
        self._controls.stop(self.generation)
        self._controls.set_extent(None)  # the job's own extent until the view moves
        self.latest = None
        self._start_job.emit(
            Job(
                self.generation,
                config,
                data,
                tuple(extent),
                warm=warm,
                parts=parts,
                catch_up=catch_up,
                explain=explain,
                start=start,
                race=tuple(race),
            )
        )
        self.playing = False
        if play:
            self.play()
        return self.generation

    def cancel(self) -> int:
        """Stop the running job and drop its frames (nothing to train, e.g. one class)."""
        self.generation += 1
        self._controls.stop(self.generation)
        self.latest = None
        self.playing = False
        return self.generation

    def play(self) -> None:
        self._controls.resume()
        self.playing = True
        self._play.emit()

    def pause(self) -> None:
        self._controls.pause()
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
        self._controls.set_extent(extent)
        # queued: runs at once when idle, after the loop otherwise (then one extra frame)
        self._republish.emit()

    @property
    def full_speed(self) -> bool:
        """Playing brings frames as fast as the display takes them: as fast as possible,
        or the log-t pace (past its first steps), not N iterations per frame."""
        return not self._controls.speed.per_frame

    @property
    def showing_iterate(self) -> bool:
        return self._controls.show_iterate

    def show_iterate(self, on: bool) -> None:
        """Frames of the last iterate w_t (True) or of the output w̄ (False, the default)."""
        self._controls.set_show_iterate(on)
        self._republish.emit()

    @property
    def speed(self) -> Speed:
        return self._controls.speed

    @Slot(object)
    def set_speed(self, speed: Speed | int) -> None:
        """How fast play goes (svmviz.core.training.pace.Speed, or its code: N iterations per frame,
        0 as fast as possible, −1 the log-t pace); from the next frame on."""
        if not isinstance(speed, Speed):
            speed = Speed(max(-1, int(speed)))
        self._controls.set_speed(speed)

    def shutdown(self) -> None:
        """Stop the loop, end the thread's event loop and wait for it (never terminate())."""
        self._display.stop()
        self._controls.stop()
        self._worker.stop_references()
        self._thread.quit()
        self._thread.wait()

    @Slot()
    def _on_posted(self) -> None:
        mail = self._controls.peek()
        first = mail is not None and (
            self.latest is None or self.latest.generation != mail.generation
        )
        if self._display.isActive() and not first:
            return  # the pending take will read the newest snapshot
        # a little under one refresh: the timer's own jitter would otherwise make the mean
        # interval longer than a refresh; the first frame after an edit shows at once
        wait = 0.0 if first else 0.8 * FRAME_SECONDS - (time.perf_counter() - self._last_take)
        self._display.start(max(0, int(round(wait * 1000))))

    @Slot()
    def _take(self) -> None:
        self._last_take = time.perf_counter()
        snap = self._controls.take()  # a newer snapshot posted from now on signals again
        self._worker.release_references()  # (a frame is drawn: the optima may come)
        if snap is None or snap.generation != self.generation:
            return  # a frame of a replaced configuration
        if snap is self.latest:
            return  # already drawn (a signal posted while the GUI was taking the previous)
        if snap.preparing and not self._preparing_started:
            # the compiled loops are prepared while the user looks at the first frame (not
            # at the first step: Play then finds them ready), once that frame is painted
            # (their loading holds the GIL a second or two)
            self._preparing_started = True
            QTimer.singleShot(PREPARE_AFTER_MS, self._worker.prepare_compiled)
        self.latest = snap
        if snap.status not in ("ready", "running"):
            self.playing = False
        self.snapshot_ready.emit(snap)

    @Slot(int, str)
    def _on_failed(self, generation: int, message: str) -> None:
        if generation == self.generation:
            self.playing = False
            self.failed.emit(message)
