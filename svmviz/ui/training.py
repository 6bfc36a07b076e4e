"""The window's training commands: play and pause, a step of one or N iterations, back one,
a seek on the timeline, run to the budget, and a pause while a file replaces the session.
They act on the training controller (svmviz.app.worker) when there is a job to act on."""

from __future__ import annotations

from PySide6 import QtCore

from svmviz.core.pace import INSTANT


class Training(QtCore.QObject):
    """Commands to ``controller`` about the newest snapshot of ``frames``
    (svmviz.ui.frame_router); ``state``: the window's WindowState (its speed); ``status``
    shows a line of text to the user."""

    changed = QtCore.Signal()  # after a command: the controls show what it changed

    def __init__(self, controller, state, frames, status, parent=None):
        super().__init__(parent)
        self.controller, self.state, self.frames, self.status = controller, state, frames, status
        self.has_job = False  # the session has a problem to train (two classes or more)
        self._was_playing = False
        controller.failed.connect(self._on_failed)

    @QtCore.Slot(str)
    def _on_failed(self, _message: str) -> None:
        """A job that cannot train is no job: Play and Step wait for an edit."""
        self.has_job = False

    def toggle_play(self) -> None:
        if self.controller.playing:
            self.controller.pause()
        elif self.has_job:  # queued behind the job's set-up if that is still running
            self.controller.play()
        self.changed.emit()

    def advance(self, n: int) -> None:
        if self.has_job:
            self.controller.step(n)
        self.changed.emit()

    def step_back(self) -> None:
        """Iteration t − 1, replayed from the seed (the step into it is explained)."""
        snap = self.frames.snapshot
        if self.has_job and snap is not None and snap.t > 0:
            if snap.t0:
                self.status(
                    "Back is not available after a warm start (its past belongs to the run "
                    "before the edit); press R to restart"
                )
                return
            self.controller.seek(snap.t - 1)
        self.changed.emit()

    @QtCore.Slot(int)
    def seek(self, t: int) -> None:
        """Iteration ``t`` (the timeline), replayed from the seed; not after a warm start."""
        snap = self.frames.snapshot
        if self.has_job and snap is not None and not snap.t0:
            if t != snap.t:
                self.controller.seek(t)
                self.changed.emit()

    def run_to_budget(self) -> None:
        """Every remaining iteration at full speed (frames as it goes)."""
        if self.has_job:
            self.state.set_speed(INSTANT)
            if not self.controller.playing:
                self.controller.play()
        self.changed.emit()

    @QtCore.Slot()
    def pause(self) -> None:
        """Before a file replaces the session: pause (``resume`` plays again)."""
        self._was_playing = self.controller.playing
        self.controller.pause()

    @QtCore.Slot()
    def resume(self) -> None:
        if self._was_playing:
            self.controller.play()
        self._was_playing = False
        self.changed.emit()
