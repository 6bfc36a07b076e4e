"""Learning curves and complexity sweeps off the GUI thread (svmviz.core.lesson.generalization).

One worker QObject on a QThread of its own (training keeps its own thread): the GUI submits
a computation as a generator function, the worker runs it and sends each point as it is
ready, with the progress. Submitting again or cancelling supersedes the running one: the
worker checks between points, and the fits check between chunks of iterations, so a cancel
takes effect within a few milliseconds, not at the end of a fit. Shutdown is quit() + wait().
"""

from __future__ import annotations

import threading
import traceback

from PySide6.QtCore import QObject, QThread, Signal, Slot

from svmviz.app.threads import register
from svmviz.core.errors import InputError


class _Latest:
    """The newest run's generation: set by the GUI, read by the worker between points."""

    def __init__(self):
        self._lock = threading.Lock()
        self._value = 0

    def set(self, generation: int) -> None:
        with self._lock:
            self._value = generation

    def get(self) -> int:
        with self._lock:
            return self._value


class _CurveWorker(QObject):
    point = Signal(int, object)  # generation, CurvePoint
    finished = Signal(int, str)  # generation, "" or why it stopped

    def __init__(self, latest: _Latest):
        super().__init__()
        self.latest = latest  # the newest generation: older ones stop at their next check

    def stopped(self, generation: int) -> bool:
        return generation != self.latest.get()

    @Slot(object)
    def run(self, job) -> None:
        generation, make = job
        if self.stopped(generation):
            return
        message = ""
        try:
            for p in make(lambda: self.stopped(generation)):
                if self.stopped(generation):
                    return
                self.point.emit(generation, p)
        except InputError as exc:
            message = str(exc)
        except Exception:  # a defect: said, not a dead thread
            message = "internal error:\n" + traceback.format_exc(limit=4)
        if not self.stopped(generation):
            self.finished.emit(generation, message)


class CurveRunner(QObject):
    """GUI-thread side. ``start(make, total)`` runs ``make(stop)``, a generator of curve
    points that calls ``stop()`` to learn it should end; ``point_ready``, ``progressed``
    (done, total) and ``finished`` (message, "" when complete) come for the newest run only."""

    point_ready = Signal(object)
    progressed = Signal(int, int)
    finished = Signal(str)
    _run = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.generation = 0
        self.total = 0
        self.done = 0
        self.running = False
        self._thread = QThread()
        self._thread.setObjectName("svmviz-curves")
        register(self._thread)
        self._latest = _Latest()
        self._worker = _CurveWorker(self._latest)
        self._worker.moveToThread(self._thread)
        self._run.connect(self._worker.run)
        self._worker.point.connect(self._on_point)
        self._worker.finished.connect(self._on_finished)
        self._thread.start()

    def start(self, make, total: int) -> int:
        self.generation += 1
        self._latest.set(self.generation)
        self.total, self.done, self.running = int(total), 0, True
        self._run.emit((self.generation, make))
        self.progressed.emit(0, self.total)
        return self.generation

    def cancel(self) -> None:
        self.generation += 1
        self._latest.set(self.generation)
        if self.running:
            self.running = False
            self.finished.emit("cancelled")

    def shutdown(self) -> None:
        self.generation += 1
        self._latest.set(self.generation)
        self._thread.quit()
        self._thread.wait()

    @Slot(int, object)
    def _on_point(self, generation: int, p) -> None:
        if generation == self.generation:
            self.done += 1
            self.point_ready.emit(p)
            self.progressed.emit(self.done, self.total)

    @Slot(int, str)
    def _on_finished(self, generation: int, message: str) -> None:
        if generation == self.generation:
            self.running = False
            self.finished.emit(message)
