"""Move the boundary by hand: two handles on the plane set a binary linear model (w, b).

In the mode (Training ▸ Move the boundary by hand, H), training pauses and the plane shows
h₀ on the line f = 0 and h₁ on the margin line f = +1 (svmviz.core.training.hand gives w and b from
them). Every move builds the hand-made model's snapshot (svmviz.app.hand_snapshot) and
shows it through the frame router, so that the regions, margins, slack segments, the
Points and Margins tabs, the status line and the presenter's lines follow the hand. Train
from here leaves the mode and trains from the hand-made w (MainWindow.train_from); leaving
otherwise shows the run where it was. Clicks and drags on the plane do not edit points
meanwhile (a drag off the handles pans); an edit that comes anyway (an undo) ends the mode.
"""

from __future__ import annotations

import time

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from svmviz.app.hand_snapshot import hand_snapshot
from svmviz.core.training.hand import Handles, drag, hand_model, handles_of, refusal
from svmviz.ui import style

HANDLE_PIXELS = 26  # the handles' size at scale 1 (grabbable by a mouse, seen from the back)
# (h₁'s diamond is drawn 1.3 times as large: it looks as large as h₀'s disc)
LEAST_PIXELS = 12  # h₁ stays at least this far from h₀ (a margin of zero width: ‖w‖ = ∞)
READINGS_SECONDS = 0.25  # the readings' pace while a handle is dragged (as while playing)
HANDLE_COLORS = ("#000000", "#555555")  # h₀ as the boundary (black), h₁ as the margins


class Handle(pg.TargetItem):
    """A handle the owner places: a drag asks ``moved(index, (x, y), finished)``."""

    def __init__(self, index: int, moved, symbol: str, color: str):
        super().__init__(
            size=HANDLE_PIXELS,
            symbol=symbol,
            pen=pg.mkPen("w", width=2.5),
            hoverPen=pg.mkPen(style.ERROR_COLOR, width=3),
            brush=pg.mkBrush(color),
            hoverBrush=pg.mkBrush(color),
        )
        self.index, self._moved = index, moved
        self.setZValue(1e8)  # over the points and the regions

    def mouseDragEvent(self, ev) -> None:
        if ev.button() != QtCore.Qt.MouseButton.LeftButton:
            return
        ev.accept()
        if ev.isStart():
            self._offset = self.pos() - self.mapToView(ev.buttonDownPos())
        p = self._offset + self.mapToView(ev.pos())
        self._moved(self.index, (p.x(), p.y()), ev.isFinish())

    def mouseClickEvent(self, ev) -> None:
        ev.accept()  # (a click on a handle is no click on the plane)


class HandBar(QtWidgets.QFrame):
    """A strip above the plane while the mode is on (never over the plane's legend): what
    to drag, Train from here and Back to the run."""

    def __init__(self, train, back):
        super().__init__()
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        self.hint = QtWidgets.QLabel(
            "By hand: drag ● h₀ to move the line f = 0, ◆ h₁ to turn it and widen the margin"
        )
        self.hint.setWordWrap(True)
        self.train = QtWidgets.QPushButton("Train from here")
        self.train.setToolTip("Train from the hand-made w (Enter)")
        self.train.clicked.connect(train)
        self.back = QtWidgets.QPushButton("Back to the run")
        self.back.setToolTip("Leave the boundary by hand: the run as it was (H)")
        self.back.clicked.connect(back)
        for button in (self.train, self.back):  # (the keys stay the plane's: Space, H)
            button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        row.addWidget(self.hint, 1)
        row.addWidget(self.train)
        row.addWidget(self.back)
        style.tint(self, background=style.CAPTION_BACKGROUND)
        self.hide()


class HandBoundary(QtCore.QObject):
    """The mode on ``window`` (svmviz.ui.window.main_window.MainWindow); ``hand_changed`` says the
    hand-made Model after every move, and None when the mode ends."""

    hand_changed = QtCore.Signal(object)
    active_changed = QtCore.Signal(bool)

    def __init__(self, window):
        super().__init__(window)
        self.w = window
        self.active = False
        self.handles: Handles | None = None
        self.run = None  # the run's newest snapshot (shown again when the mode ends)
        self.snapshot = None  # the hand-made model's, shown
        plot = window.plot
        self.items = (
            Handle(0, self._on_drag, "o", HANDLE_COLORS[0]),
            Handle(1, self._on_drag, "d", HANDLE_COLORS[1]),
        )
        # the hand-made model is shown once per pass of the event loop (moves that came
        # meanwhile coalesce), the readings at most every READINGS_SECONDS while dragging
        self._due = QtCore.QTimer(self)
        self._due.setSingleShot(True)
        self._due.setInterval(0)
        self._due.timeout.connect(self._show_model)
        self._last_readings = 0.0
        self._settled = True  # the last move finished its drag
        self.arm = pg.PlotDataItem()  # h₀ → h₁: the half-width of the margin, 1/‖w‖
        self.arm.setZValue(1e8 - 1)
        # the handles' size follows presentation mode (once the plot has its new scale)
        window.state.presentation_changed.connect(
            lambda _: QtCore.QTimer.singleShot(0, self._place)
        )
        self.bar = HandBar(self.train_here, self.leave)
        column = window.plane_column.layout()  # (the caption, then the plane)
        column.insertWidget(column.indexOf(plot), self.bar)

    # ------------------------------------------------------------------ availability
    def refusal(self) -> str | None:
        """Why the mode is not available now (None: it is)."""
        session = self.w.session
        data = session.dataset()
        if data is None:
            return "there is no model to move yet (place points of two classes)"
        return refusal(session.job_config(), data.n_classes, data.X.shape[1])

    def set_active(self, on: bool) -> None:
        if on:
            self.enter()
        else:
            self.leave()

    def enter(self) -> bool:
        """The mode on, when the problem allows (else a message says why)."""
        if self.active:
            return True
        why = self.refusal()
        snap = self.w.frames.snapshot
        if why is None and (snap is None or snap.model.coef is None):
            why = "the run has no model yet"
        if why is not None:
            self.w.status.setText(f"The boundary cannot be moved by hand: {why}")
            self.active_changed.emit(False)
            return False
        self.w.controller.pause()
        self.w.training.changed.emit()
        self.run = snap
        data = self.w.session.dataset()
        train = self.w.state.training_mask(len(data.y))
        X, y = data.X[train], data.y[train]
        means = [X[y == k].mean(axis=0) if np.any(y == k) else X.mean(axis=0) for k in (0, 1)]
        fallback = means[1] - means[0] if np.any(means[1] != means[0]) else (1.0, 0.0)
        model = snap.model
        self.handles = handles_of(
            model.coef[0], float(model.intercept[0]), X.mean(axis=0), model.bias, fallback
        )
        self.active = True
        self.w.view.editable = False
        for item in (*self.items, self.arm):
            self.w.plot.addItem(item, ignoreBounds=True)
        self.bar.show()
        self.active_changed.emit(True)
        self.show()
        return True

    def leave(self, restore: bool = True) -> None:
        """The mode off; ``restore``: the run's newest frame again (not when a new job is
        on its way)."""
        if not self.active:
            return
        self.active = False
        self.w.view.editable = True
        for item in (*self.items, self.arm):
            self.w.plot.removeItem(item)
        self.bar.hide()
        self.snapshot = None
        run, self.run = self.run, None
        self.active_changed.emit(False)
        self.hand_changed.emit(None)
        if restore and run is not None and run.generation == self.w.controller.generation:
            self.w.frames.show(run)
            self.w.frames.redraw_readings()

    def train_here(self) -> None:
        """Leave the mode and train from the hand-made (w, b)."""
        if not self.active or self.handles is None:
            return
        bias = self.run.model.bias
        w, b = self.handles.weights(bias)
        self.leave(restore=False)
        self.w.train_from(w[None, :], np.array([b]))

    # ------------------------------------------------------------------ the run's frames
    def take(self, snap) -> bool:
        """A frame of the run while the mode is on: kept to return to, and the hand-made
        model shown again over its extent with its optimum (False: the mode is off)."""
        if not self.active:
            return False
        self.run = snap
        self.show()
        return True

    # ------------------------------------------------------------------ moves
    def _on_drag(self, index: int, to, finished: bool) -> None:
        if not self.active or self.handles is None:
            return
        px, _ = self.w.view.viewPixelSize()
        least = LEAST_PIXELS * px
        self.handles = drag(self.handles, index, to, self.run.model.bias, least)
        self._place()
        self._settled = finished
        self._due.start()

    def show(self) -> None:
        """The handles where they are, and the hand-made model's snapshot in every view."""
        self._place()
        self._settled = True
        self._show_model()

    def _place(self) -> None:
        h = self.handles
        if h is None:
            return
        k = self.w.plot.scale
        for item, p, size in zip(self.items, (h.h0, h.h1), (1.0, 1.3), strict=True):
            item.scale = HANDLE_PIXELS * size * k  # (TargetItem's size in pixels)
            item._shape = None
            item.setPos(*p)
        self.arm.setData(
            [h.h0[0], h.h1[0]],
            [h.h0[1], h.h1[1]],
            pen=pg.mkPen(HANDLE_COLORS[1], width=2.5 * k, style=QtCore.Qt.PenStyle.DotLine),
        )

    @QtCore.Slot()
    def _show_model(self) -> None:
        """The hand-made model's snapshot in every view (the readings, which a large data
        set makes slow, at most every READINGS_SECONDS until the drag ends)."""
        h, run = self.handles, self.run
        if not self.active or h is None or run is None:
            return
        w, b = h.weights(run.model.bias)
        model = hand_model(run.model, w, b)
        session, state = self.w.session, self.w.state
        data = session.dataset()
        self.snapshot = hand_snapshot(run, model, data, state.parts, session.config.margin)
        now = time.perf_counter()
        readings = self._settled or now - self._last_readings >= READINGS_SECONDS
        if readings:
            self._last_readings = now
        self.w.frames.show_still(self.snapshot, readings)
        self.hand_changed.emit(self.snapshot.model)
