"""Presentation mode, for a projector: full screen, the plane and its companion only (the
view chosen beside the plane, svmviz.ui.window.companion; the objective curve when none is), the
scenario's caption and a two-line summary of the current step in large type, every demo
action on the keyboard (a presenter's clicker sends PageDown and PageUp).

What it hides (menus, toolbars, the solver and every dock, the loss panel, the status bar)
comes back as it was when it ends (F11 or Esc): the window's geometry, the docks' sizes and
the curves' split too. The lines below the plane never change its size: a longer
text is drawn smaller or cut, never widening the bar (which would narrow the curve and
rescale the plane while playing).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.app.hand_snapshot import HAND
from svmviz.core.config import SolverConfig
from svmviz.ui import style
from svmviz.ui.panels.status import SHORT_SEP, OneLine, hand_text, readings, shown_objective
from svmviz.ui.views import registry
from svmviz.ui.views.step_words import race_step_words, step_summary
from svmviz.ui.window import layout

SCALE = 1.6  # text, markers and lines, on a screen FULL_HEIGHT px tall
FULL_HEIGHT = 1080
LEAST_SCALE = 1.2  # on a shorter screen, in proportion down to this: the text keeps about
# its share of the screen's height (a projector shows 768 px as large as 1080)
SETTLE_MS = 2000  # leaving: how long the window's size may take to come back
SHRINK = 0.75  # the least a line below the plane is drawn at (of its size) before it is cut
CAPTION_LINES = 2  # a longer caption is drawn smaller (down to SHRINK): the plane keeps half
REGION_ALPHA = 95  # of 255: stronger regions on a washed-out projector
DEFAULT_COMPANION = "curves"  # beside the plane when presenting, if no view is chosen
KEYS = "Space play · → / PageDown step · ← / PageUp back · R restart · F11 / Esc leave"


def scale_for(height: int) -> float:
    """Presentation mode's scale on a screen ``height`` px tall."""
    return max(LEAST_SCALE, SCALE * min(1.0, height / FULL_HEIGHT))


def short_status(snap, config=None) -> str:
    """The first line: where the run is, in a few large words (those of ``config``'s
    problem: svmviz.ui.panels.status.readings)."""
    if snap.status == HAND:
        return hand_text(snap, short=True)
    obj = snap.history["objective"]
    if not len(obj):
        return "t = 0"
    if snap.status == "diverged":
        return f"Stopped at t = {snap.t:,}: diverged"
    config = SolverConfig() if config is None else config
    F, _ = shown_objective(snap)  # (after a hard margin's exact final step: the model's)
    text = f"t = {snap.t:,} · F = {F:.4g} · " + readings(snap, config, short=True)[0]
    if snap.reference is not None:
        text += f" · gap {F - snap.reference.objective:.2g}"
    return text


class PresenterBar(QtWidgets.QFrame):
    """Below the plane in presentation mode: where the run is and the demo's buttons (for a
    presenter with a mouse) on one line, what the last step did on the next."""

    def __init__(self, actions, parent=None):
        super().__init__(parent)
        style.tint(self, background="#F4F4F4")
        grid = QtWidgets.QGridLayout(self)
        grid.setContentsMargins(10, 2, 10, 4)
        grid.setVerticalSpacing(0)
        self.status = OneLine(shrink=SHRINK, sep=SHORT_SEP)
        bold = QtGui.QFont()  # (only the weight: the size follows the window's)
        bold.setBold(True)
        self.status.setFont(bold)
        grid.addWidget(self.status, 0, 0)
        buttons = QtWidgets.QHBoxLayout()
        for action in actions:
            button = QtWidgets.QToolButton()
            button.setDefaultAction(action)
            button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # the keys stay the window's
            buttons.addWidget(button)
        grid.addLayout(buttons, 0, 1)
        self.step = OneLine(KEYS, shrink=SHRINK)
        grid.addWidget(self.step, 1, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        self.hide()

    def show_lines(self, status: str, step: str) -> None:
        self.status.setText(status)
        self.step.setText(step or KEYS)


@dataclass
class _Saved:
    """The window as it was before presentation mode."""

    geometry: QtCore.QByteArray
    state: QtCore.QByteArray  # the docks (saveState)
    size: QtCore.QSize
    curves: list  # the objective and loss plots' split
    font: QtGui.QFont
    app_font: QtGui.QFont
    shown: list  # the parts it hides


class _Settle(QtCore.QObject):
    """The docks' layout and the curves' split put back, and again at each resize of the
    window until it has its size back (the docks' sizes follow the window's, which a window
    manager restores some time after leaving full screen); at most SETTLE_MS."""

    def __init__(self, window, saved: _Saved):
        super().__init__(window)
        self.w, self.saved, self.active = window, saved, True
        self._timer = QtCore.QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._timer.timeout.connect(self.stop)
        self._timer.start()
        window.installEventFilter(self)

    def apply(self) -> None:
        layout.restore(self.w, self.saved.state)
        # (the views as the window's state says now: they may have been turned on or off
        # while presenting, which the saved layout does not know)
        self.w.view_docks.place_docks()
        layout.hide_stale_tab_bars(self.w)
        self.w.curves.setSizes(self.saved.curves)

    def eventFilter(self, obj, event):
        if event.type() == QtCore.QEvent.Type.Resize:
            self.apply()
            if obj.size() == self.saved.size:
                self.stop()
        return False

    def stop(self) -> None:
        if self.active:
            self.active = False
            self.w.removeEventFilter(self)
            self._timer.stop()


class Presentation:
    """Turns presentation mode on and off for a MainWindow (its ``actions``: the
    svmviz.ui.window.menus.Actions; leaving sets the window ``state``'s presentation off)."""

    def __init__(self, window, actions, state):
        self.w = window
        self.on = False
        self._saved: _Saved | None = None  # the window before presentation mode
        self._settling: _Settle | None = None
        w, a = window, actions
        leave = QtGui.QAction("Leave", w)
        leave.setToolTip("Leave presentation mode (F11 or Esc)")
        leave.triggered.connect(lambda: state.set_presentation(False))
        self.bar = PresenterBar([a.back, a.play, a.step, a.reset, leave])
        w.centralWidget().layout().addWidget(self.bar)
        # a clicker's keys, and Esc to leave
        a.step.setShortcuts([QtGui.QKeySequence("Right"), QtGui.QKeySequence("PgDown")])
        a.back.setShortcuts([QtGui.QKeySequence("Left"), QtGui.QKeySequence("PgUp")])
        self._escape = QtGui.QShortcut(QtGui.QKeySequence("Esc"), w)
        self._escape.activated.connect(lambda: state.set_presentation(False))
        self._escape.setEnabled(False)  # (Esc is the dialogs' and the fields' otherwise)

    def hidden_parts(self):
        w = self.w
        docks = w.findChildren(QtWidgets.QDockWidget)
        bars = w.findChildren(QtWidgets.QToolBar)
        return docks + bars + [w.menuBar(), w.statusBar(), w.curves.loss_plot]

    def set(self, on: bool) -> None:
        w = self.w
        if on == self.on:
            return
        self.on = on
        self._escape.setEnabled(on)
        app = QtWidgets.QApplication.instance()
        if on:
            if self._settling is not None:  # (back in before the last layout settled)
                self._settling.stop()
            self._saved = _Saved(
                w.saveGeometry(),
                w.saveState(layout.LAYOUT_VERSION),
                w.size(),
                w.curves.sizes(),
                w.font(),
                app.font(),
                [p for p in self.hidden_parts() if not p.isHidden()],
            )
            for part in self._saved.shown:
                part.hide()
            k = scale_for(w.screen().size().height())
            for target in (w, app):  # the app's: menus and dialogs (F1) are windows of their own
                font = target.font()
                font.setPointSize(round(style.FONT_POINT_SIZE * k))
                target.setFont(font)
            self._scale(k, REGION_ALPHA)
            w.caption.fit_lines(CAPTION_LINES, SHRINK)
            self.bar.show()
            w.companion.pane.show_header(False)  # (C and Ctrl+1… choose it: F1 lists them)
            w.showFullScreen()
        else:
            saved = self._saved
            self.bar.hide()
            w.companion.pane.show_header(True)
            app.setFont(saved.app_font)
            w.setFont(saved.font)
            self._scale(1.0, style.REGION_ALPHA)
            w.caption.fit_lines(None)
            for part in saved.shown:  # (the docks come back with their layout, below)
                if not isinstance(part, QtWidgets.QDockWidget):
                    part.show()
            w.showNormal()  # (out of full screen; the geometry brings back a maximized window)
            w.restoreGeometry(saved.geometry)
            self._settling = _Settle(w, saved)
            self._settling.apply()  # (once settling: the docks it shows and hides are not asks)
        w.plot.setFocus()  # Space, R and the arrows reach the window's actions

    @property
    def settling(self) -> bool:
        """Whether the window's layout is being put back after presentation mode (its
        docks come and go as the saved layout says, not as the user asks)."""
        return self._settling is not None and self._settling.active

    def companion_name(self) -> str | None:
        """The view beside the plane: the state's; presenting, if none is chosen, the last
        of the views turned on in front of the curves (the 3-D view, the weight space…),
        else the curve."""
        state = self.w.state
        if not self.on or state.companion is not None:
            return state.companion
        front = [n for n, s in self.w.specs.items() if s.home is registry.Home.FRONT]
        on = [name for name in front if state.view_on(name)]
        return on[-1] if on else DEFAULT_COMPANION

    def normal_layout(self) -> tuple[QtCore.QByteArray, QtCore.QByteArray]:
        """The window's geometry and dock layout outside presentation mode (what the
        preferences remember): as they were before it while it is on or still settling."""
        w = self.w
        if self.on or (self._settling is not None and self._settling.active):
            return self._saved.geometry, self._saved.state
        return w.saveGeometry(), w.saveState(layout.LAYOUT_VERSION)

    def _scale(self, k: float, region_alpha: int) -> None:
        w = self.w
        w.plot.set_scale(k, region_alpha)
        for made in w.made.values():  # (a view made later is scaled as it is made)
            if made.scale is not None:
                made.scale(k)
        w.companion.pane.setFont(w.font())

    def show(self, snap, session) -> None:
        """The summary lines for the newest frame (only while presenting)."""
        if self.on:
            y = session.points.y

            def name_of(i: int) -> str:  # (only the sampled point's: not a list per frame)
                return session.classes[int(y[i])] if i < len(y) else "?"

            step = step_summary(snap.step, name_of, snap.model.classes, session.kind)
            if step:  # (a race: what the other runs' steps did, in a few words)
                step += race_step_words(snap.race)
            self.bar.show_lines(short_status(snap, session.config), step)
