"""The plane's points: one scatter per class slot and part of a train/test split (training
points filled, test points hollow, points left out of a smaller training set faded), made
once and set again only where a class's points or style changed (an edit sets them, and the
job it starts too; a click appends to one class); a 2-D regression's points in the colours
of their targets."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui, QtWidgets

from svmviz.core.palette import MAX_CLASSES
from svmviz.ui import style
from svmviz.ui.plane.items import Marks, ValuedMarks, value_colors


class ClassPoints:
    """``scatters``, ``test_scatters`` and ``unused_scatters``: one of each per class slot,
    added to ``plot`` in that order."""

    def __init__(self, plot):
        # one persistent scatter per class slot; setData on every edit
        self.scatters = []
        # a train/test split: test points hollow (white inside, the class's colour around),
        # points left out of a smaller training set faded
        self.test_scatters, self.unused_scatters = [], []
        for k in range(MAX_CLASSES):
            symbol = style.class_symbol(k)
            item = Marks(size=style.POINT_SIZE, symbol=symbol, pen=pg.mkPen("w", width=1))
            test = Marks(size=style.POINT_SIZE, symbol=symbol, brush=pg.mkBrush("w"))
            unused = Marks(size=style.POINT_SIZE, symbol=symbol, pen=None)
            for scatter, group in (
                (item, self.scatters),
                (test, self.test_scatters),
                (unused, self.unused_scatters),
            ):
                plot.addItem(scatter)
                group.append(scatter)
                scatter.hide()
        # painted from pixmaps kept between frames: while training, the regions and curves
        # change every frame but the points rarely do (repainted when they or the view change)
        for item in self.items():
            item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._scatter_data = {}  # id(scatter) -> ((colour, pen width), its points) drawn

    def items(self) -> tuple:
        return (*self.scatters, *self.test_scatters, *self.unused_scatters)

    def set_scale(self, k: float) -> None:
        """Markers ``k`` times their size (presentation mode)."""
        for item in self.items():
            item.setSize(style.POINT_SIZE * k)

    def draw(self, p, parts, colors, scale: float) -> None:
        """The points ``p`` in the class ``colors``, split by ``parts`` (None: all train)."""
        if parts is None or len(parts) != len(p.y):
            parts = np.zeros(len(p.y), dtype=np.int8)
        width = 2.5 * scale
        for k in range(MAX_CLASSES):
            groups = (self.scatters[k], self.test_scatters[k], self.unused_scatters[k])
            for part, item in enumerate(groups):
                sel = (p.y == k) & (parts == part)
                if not sel.any() and not item.isVisible():
                    continue  # empty and staying empty (most of the 27 while dragging)
                color = colors[k]
                xy = p.X[sel]
                style = (color, width)
                last = self._scatter_data.get(id(item))
                self._scatter_data[id(item)] = (style, xy)
                if last is not None and last[0] == style:
                    n = len(last[1])
                    if np.array_equal(last[1], xy):
                        continue  # this class's points are as drawn (a click adds to one)
                    if 0 < n < len(xy) and np.array_equal(last[1], xy[:n]):
                        # points appended (a click): only the new spots are made, not all
                        # (pyqtgraph styles every spot of a setData in Python)
                        item.addPoints(x=xy[n:, 0], y=xy[n:, 1])
                        continue
                # (update=False: the setData below styles the new spots once)
                if part == 0:  # training points: filled
                    item.setBrush(pg.mkBrush(color), update=False)
                elif part == 1:  # test points: hollow, the class's colour around
                    item.setPen(pg.mkPen(color, width=width), update=False)
                else:  # left out of the training set: faded
                    faded = pg.mkColor(color)
                    faded.setAlpha(70)
                    item.setBrush(pg.mkBrush(faded), update=False)
                item.setData(xy[:, 0], xy[:, 1])
                item.setVisible(bool(sel.any()))  # an empty scatter still costs a paint call


class ValuedPoints(ValuedMarks):
    """A 2-D regression's points in the colour of their targets on the map ``name`` (over
    their class markers, which stay for the other problems); hidden for the others."""

    def __init__(self, name: str):
        super().__init__(size=style.POINT_SIZE + 2, symbol="o")
        self.lut = value_colors(name)  # the points' colours (the map at full strength)
        # (one brush a colour, made once: pyqtgraph draws a symbol once for a brush it has
        # seen, where a new brush a point redraws every marker, 150 ms for 1,000 points)
        self.brushes = [pg.mkBrush(QtGui.QColor.fromRgb(int(c))) for c in self.lut]
        self._key = None

    def stale(self) -> None:
        """Set again at the next draw (a new scale)."""
        self._key = None

    def forget(self) -> None:
        """Hidden, and set again at the next draw."""
        self.hide()
        self.stale()

    def draw(self, frame, X, scale: float) -> None:
        """The points ``X`` of ``frame`` at ``scale`` (nothing set when they are as drawn)."""
        if frame.kind != "regression2d" or frame.target is None:
            self.forget()
            return
        key = (X, frame.value_range, frame.target.tobytes(), scale)
        if self._key is not None and key[0] is self._key[0]:
            if key[1:] == self._key[1:]:
                return
        self._key = key
        lo, hi = frame.value_range
        index = np.round(255 * np.clip((frame.target - lo) / (hi - lo), 0, 1)).astype(int)
        brushes = [self.brushes[i] for i in index]
        pen = pg.mkPen("w", width=1.5 * scale)
        self.setData(X[:, 0], X[:, 1], brush=brushes, pen=pen, size=(style.POINT_SIZE + 2) * scale)
        self.show()
