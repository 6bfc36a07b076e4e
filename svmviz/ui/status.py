"""The status bar's line: where the run is (iteration, objective, errors, the gap to the exact
optimum) and what is going on (a divergence, the compiled solver being prepared); and the
scenario's caption above the plane."""

from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

from svmviz.core.config import SolverConfig
from svmviz.core.solvers import STATUS_TEXT
from svmviz.ui import style


class StatusLine(QtWidgets.QLabel):
    """The status bar's text; its tooltip repeats it, for when it is wider than the window
    (a long message is cut at the edge)."""

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)


class Caption(QtWidgets.QLabel):
    """A scenario's caption, what to look for, above the plane: the ``session``'s (hidden
    when it has none)."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.setWordWrap(True)
        self.setMargin(6)
        style.tint(self, background=style.CAPTION_BACKGROUND)
        self.hide()
        session.caption_changed.connect(self._show)

    @QtCore.Slot()
    def _show(self) -> None:
        caption = self.session.caption
        if caption is None:
            self.hide()
            return
        self.setText(f"<b>{html.escape(caption[0])}</b> — {html.escape(caption[1])}")
        self.show()


# how the compiled solver is being prepared (svmviz.core.solvers.Solver.preparing)
PREPARING = {
    "loading": "loading the compiled solver",
    "compiling": "compiling the solver (the first run after installing: up to a minute)",
    "preparing": "preparing the compiled solver",
}


def status_text(snap, n_points: int, config: SolverConfig) -> str:
    """The status line: iteration, objective, training error and the gap to the optimum."""
    obj = snap.history["objective"]
    preparing = (
        f"   — {PREPARING[snap.preparing]}: "
        + ("Play trains" if not len(obj) else "training")
        + " in plain Python meanwhile"
        if snap.preparing and snap.status in ("ready", "running")
        else ""
    )
    if not len(obj):
        return f"{n_points} points, {config.algorithm}: press Play (Space) or Step (→)" + preparing
    if snap.status == "diverged":  # what to change first (the numbers mean nothing now)
        return f"Stopped at t = {snap.t}: {snap.status_text}"
    text = (
        f"iteration {snap.t}   objective {obj[-1]:.6g}   "
        f"training error {100 * snap.history['error'][-1]:.1f}%"
    )
    if snap.test_error is not None and len(snap.test_error[1]):
        text += f"   test error {100 * snap.test_error[1][-1]:.1f}%"
    if snap.reference is not None:
        text += f"   gap to the optimum {obj[-1] - snap.reference.objective:.3g}"
    elif snap.reference_error:
        text += f"   (no exact optimum: {snap.reference_error})"
    elif snap.reference_pending:
        text += "   (computing the exact optimum…)"
    if snap.notice:
        text += f"   — {snap.notice}"
    if snap.t0:
        text += f"   (warm start at t = {snap.t0})"
    if snap.iterate and config.average != "last":
        text += "   (plane: the last iterate w_t)"
    if snap.status not in ("ready", "running"):
        text += f"   — {snap.status_text or STATUS_TEXT[snap.status]}"
    return text + preparing
