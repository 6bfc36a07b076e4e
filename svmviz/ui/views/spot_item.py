"""One mark at one point of a plot (the weight space's w*, model and hand-set w): the sprite
pyqtgraph's ScatterPlotItem would draw there, pixel for pixel, at a fraction of its cost.

A one-point ScatterPlotItem works out its bounds from its data and the view's pixel size,
culls its spots and maps them in Python at every paint; this item is drawn untransformed
at its point (ItemIgnoresTransformations), so its bounds are the sprite's, fixed, and its
paint is one pixmap, by Qt. The sprite is rendered at the application's pixel ratio."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.ScatterPlotItem import renderSymbol
from PySide6 import QtCore, QtGui, QtWidgets


class SpotItem(QtWidgets.QGraphicsPixmapItem):
    """``symbol`` of ``size`` px with ``pen`` and ``brush`` (as ScatterPlotItem takes them)
    at the point of :meth:`setData`; takes no mouse events (the plot's scene handles them).
    Painted and bounded by Qt alone: no Python is called back during a paint (each call
    back waits for the GIL, held by the training thread while playing)."""

    def __init__(self, size: float, symbol: str, pen, brush):
        super().__init__()
        app = QtWidgets.QApplication.instance()
        dpr = app.devicePixelRatio() if app is not None else 1.0  # (ScatterPlotItem's atlas)
        sprite = QtGui.QPixmap.fromImage(
            renderSymbol(symbol, size, pg.mkPen(pen), pg.mkBrush(brush), dpr=dpr)
        )
        self.setPixmap(sprite)
        side = sprite.deviceIndependentSize()
        self.setOffset(-side.width() / 2, -side.height() / 2)
        self.setShapeMode(QtWidgets.QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self._xy = (np.zeros(0), np.zeros(0))
        self.setFlag(QtWidgets.QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)

    def setData(self, x, y) -> None:
        """The point: one x and one y (as sequences, ScatterPlotItem's way)."""
        self._xy = (np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        self.setPos(float(self._xy[0][0]), float(self._xy[1][0]))

    def getData(self) -> tuple[np.ndarray, np.ndarray]:
        return self._xy
