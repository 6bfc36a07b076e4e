"""Mouse editing on the decision plot: a ViewBox that drags points and selects with a band.

Left drag on a point moves it (all selected points if it is selected); the whole drag is one
undo step. Ctrl + left drag draws a selection band, which selects in the session (the
selection lives there: svmviz.app.session). A left drag on empty plane pans, the wheel
zooms, as everywhere in pyqtgraph. A drag holds the indices of the points it moves only while
the points stay those it moved: an edit, undo or new document during it ends its moving.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

PICK_PIXELS = 12  # how close to a point a press must be to grab it
BAND, HELD = "band", "held"  # a drag drawing the selection band; one whose points changed


class EditorViewBox(pg.ViewBox):
    def __init__(self, session):
        super().__init__(enableMenu=False)  # (right click removes a point)
        self.session = session
        # False while the plane is another tool's (the boundary moved by hand): a drag pans,
        # a click places nothing
        self.editable = True
        self._dragging: tuple | str | None = None  # the indices being moved, BAND or HELD
        self._moved = None  # the session's points after the drag's last move
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
                self._dragging = BAND
            else:
                i = self.pick(start)
                if i is None:
                    self._dragging = None
                    return super().mouseDragEvent(ev, axis)
                selected = self.session.selection
                self._dragging = selected if i in selected else (i,)
                self._moved = self.session.points
            self._last = start
            self._first_move = True
        if self._dragging is None:
            return super().mouseDragEvent(ev, axis)
        ev.accept()
        if ev.isFinish():
            dragging, self._dragging = self._dragging, None
        else:
            dragging = self._dragging
        if dragging == BAND:
            start = self.mapSceneToView(ev.buttonDownScenePos())
            rect = QtCore.QRectF(start, pos).normalized()
            self._band.setRect(rect)
            self._band.setVisible(not ev.isFinish())
            if ev.isFinish():
                X = self.session.points.X
                inside = (
                    (X[:, 0] >= rect.left())
                    & (X[:, 0] <= rect.right())
                    & (X[:, 1] >= rect.top())
                    & (X[:, 1] <= rect.bottom())
                )
                self.session.select(np.flatnonzero(inside))
            return
        if dragging == HELD or self.session.points is not self._moved:
            if not ev.isFinish():  # the points changed under the drag: the rest moves nothing
                self._dragging = HELD
            return
        dx, dy = pos.x() - self._last.x(), pos.y() - self._last.y()
        self._last = pos
        if dx or dy:
            self.session.move_points(dragging, dx, dy, merge=not self._first_move)
            self._moved = self.session.points
            self._first_move = False
