"""The window's training commands: play and pause, a step of one or N iterations, back one,
a seek on the timeline, run to the budget, and a pause while a file replaces the session.
They act on the training controller (svmviz.app.worker) when there is a job to act on."""

from __future__ import annotations

from PySide6 import QtCore

from svmviz.app.snapshot import TO_THE_END
from svmviz.core.training.pace import INSTANT


class Training(QtCore.QObject):
    """Commands to ``controller`` about the newest snapshot of ``frames``
    (svmviz.ui.window.frame_router); ``state``: the window's WindowState (its speed); ``status``
    shows a line of text to the user."""

    changed = QtCore.Signal()  # after a command: the controls show what it changed

    def __init__(self, controller, state, frames, status, parent=None):
        super().__init__(parent)
        self.controller, self.state, self.frames, self.status = controller, state, frames, status
        self.has_job = False  # the session has a problem to train (two classes or more)
        self._was_playing = False
        self._replacing = False  # a file replaces the session: its job starts at w = 0
        self._target = (0, False)  # where the last job submitted starts (see resume_point)
        self._run_once = False  # Run (Ctrl+R) plays at full speed, the chosen speed after
        controller.failed.connect(self._on_failed)
        controller.snapshot_ready.connect(self._on_snapshot)

    @QtCore.Slot(str)
    def _on_failed(self, _message: str) -> None:
        """A job that cannot train is no job: Play and Step wait for an edit."""
        self.has_job = False

    @QtCore.Slot(object)
    def _on_snapshot(self, _snap) -> None:
        if not self.controller.playing:
            self._end_run()

    def resume_point(self) -> tuple[int, bool]:
        """Where the job of an edit starts: (the iteration to train to before its first
        frame, whether that frame explains its last step). Paused, the run's iteration
        (explained when stepping); once it ended, the end of the budget: the plane shows
        the edited problem's model there, never an untrained one. w = 0 while playing (the
        new run plays from its start, its first frame at once), before any training and for
        a file that replaces the session."""
        snap = self.frames.snapshot
        if self._replacing or self.controller.playing:
            return (0, False)
        if snap is None or snap.generation != self.controller.generation:
            return self._target  # the last job's first frame is still to come
        if snap.status in ("ready", "running"):
            return (snap.t, snap.step is not None)
        return (TO_THE_END, False)

    def submitted(self, target: tuple[int, bool]) -> None:
        """A job starting at ``target`` (see resume_point) was submitted."""
        self._target = target

    def toggle_play(self) -> None:
        self._end_run()
        if self.controller.playing:
            self.controller.pause()
        elif self.has_job:  # queued behind the job's set-up if that is still running
            self.controller.play()
        self.changed.emit()

    def advance(self, n: int) -> None:
        self._end_run()
        if self.has_job:
            self.controller.step(n)
        self.changed.emit()

    def step_back(self) -> None:
        """Iteration t − 1, replayed from the seed (the step into it is explained)."""
        self._end_run()
        snap = self.frames.snapshot
        if self.has_job and snap is not None and snap.start is not None:
            if snap.t > snap.t0:
                self.controller.seek(snap.t - 1)  # (replayed from the start w₀)
        elif self.has_job and snap is not None and snap.t > 0:
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
        """Iteration ``t`` (the timeline), replayed from the seed (and the start w₀, not
        before it); not after a warm start."""
        self._end_run()
        snap = self.frames.snapshot
        if self.has_job and snap is not None and (not snap.t0 or snap.start is not None):
            t = max(t, snap.t0)
            if t != snap.t:
                self.controller.seek(t)
                self.changed.emit()

    def run_to_budget(self) -> None:
        """Every remaining iteration at full speed (frames as it goes); the speed chosen
        (the state's) is the next Play's."""
        if self.has_job:
            self.controller.set_speed(INSTANT)
            self._run_once = True
            if not self.controller.playing:
                self.controller.play()
        self.changed.emit()

    def _end_run(self) -> None:
        """After Run: play at the chosen speed again."""
        if self._run_once:
            self._run_once = False
            self.controller.set_speed(self.state.speed)

    @QtCore.Slot()
    def pause(self) -> None:
        """Before a file replaces the session: pause (``resume`` plays again); its job
        starts at w = 0."""
        self._was_playing = self.controller.playing
        self._replacing = True
        self.controller.pause()

    @QtCore.Slot()
    def resume(self) -> None:
        self._replacing = False
        if self._was_playing:
            self.controller.play()
        self._was_playing = False
        self.changed.emit()
