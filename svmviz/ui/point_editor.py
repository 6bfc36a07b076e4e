"""Mouse editing on the decision plot: a ViewBox that drags points and selects with a band.

Left drag on a point moves it (all selected points if it is selected); the whole drag is one
undo step. Ctrl + left drag draws a selection band; Delete removes the selection. A left drag
on empty plane pans, the wheel zooms, as everywhere in pyqtgraph.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

PICK_PIXELS = 12  # how close to a point a press must be to grab it


class EditorViewBox(pg.ViewBox):
    selection_changed = QtCore.Signal(object)  # the selected indices

    def __init__(self, session):
        super().__init__()
        self.session = session
        self.selected = np.zeros(0, dtype=np.int64)
        # False while the plane is another tool's (the boundary moved by hand): a drag pans,
        # a click places nothing
        self.editable = True
        self._dragging = None  # indices being moved
        self._last = None
        self._band = QtWidgets.QGraphicsRectItem()
        self._band.setPen(pg.mkPen((60, 60, 60), width=1, style=QtCore.Qt.PenStyle.DashLine))
        self._band.setBrush(pg.mkBrush(60, 60, 60, 30))
        self._band.setZValue(1e9)
        self._band.hide()
        self.addItem(self._band, ignoreBounds=True)

    @property
    def dragging(self) -> bool:
        """A drag is moving points or drawing the selection band (a pan is not)."""
        return self._dragging is not None

    def pick(self, pos) -> int | None:
        px, py = self.viewPixelSize()
        return self.session.nearest_point(pos.x(), pos.y(), PICK_PIXELS * px, PICK_PIXELS * py)

    def set_selection(self, indices) -> None:
        self.selected = np.asarray(sorted(set(int(i) for i in indices)), dtype=np.int64)
        self.selection_changed.emit(self.selected)

    def delete_selection(self) -> None:
        if self.selected.size:
            chosen, self.selected = self.selected, np.zeros(0, dtype=np.int64)
            self.session.delete_points(chosen)
            self.set_selection([])

    def mouseDragEvent(self, ev, axis=None):
        if ev.button() != QtCore.Qt.MouseButton.LeftButton:
            return super().mouseDragEvent(ev, axis)
        pos = self.mapSceneToView(ev.scenePos())
        if ev.isStart():
            start = self.mapSceneToView(ev.buttonDownScenePos())
            if not self.editable:
                self._dragging = None
                return super().mouseDragEvent(ev, axis)
            if ev.modifiers() & QtCore.Qt.KeyboardModifier.ControlModifier:
                self._dragging = "band"
            else:
                i = self.pick(start)
                if i is None:
                    self._dragging = None
                    return super().mouseDragEvent(ev, axis)
                self._dragging = self.selected if i in self.selected else np.array([i])
            self._last = start
            self._first_move = True
        if self._dragging is None:
            return super().mouseDragEvent(ev, axis)
        ev.accept()
        if isinstance(self._dragging, str):  # the selection band
            start = self.mapSceneToView(ev.buttonDownScenePos())
            rect = QtCore.QRectF(start, pos).normalized()
            self._band.setRect(rect)
            self._band.show()
            if ev.isFinish():
                self._band.hide()
                X = self.session.points.X
                inside = (
                    (X[:, 0] >= rect.left())
                    & (X[:, 0] <= rect.right())
                    & (X[:, 1] >= rect.top())
                    & (X[:, 1] <= rect.bottom())
                )
                self.set_selection(np.flatnonzero(inside))
                self._dragging = None
            return
        dx, dy = pos.x() - self._last.x(), pos.y() - self._last.y()
        self._last = pos
        if dx or dy:
            self.session.move_points(self._dragging, dx, dy, merge=not self._first_move)
            self._first_move = False
        if ev.isFinish():
            self._dragging = None
