"""One mark at one point of a plot (the weight space's w*, model and hand-set w): the sprite
pyqtgraph's ScatterPlotItem would draw there, pixel for pixel, at a fraction of its cost.

A one-point ScatterPlotItem works out its bounds from its data and the view's pixel size,
culls its spots and maps them at every paint (the weight space's two cost 1.6–6 ms a
repaint); this item is drawn untransformed at its point (ItemIgnoresTransformations), so
its bounds are the sprite's, fixed, and its paint is one pixmap."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.ScatterPlotItem import renderSymbol
from PySide6 import QtCore, QtGui, QtWidgets


class SpotItem(QtWidgets.QGraphicsItem):
    """``symbol`` of ``size`` px with ``pen`` and ``brush`` (as ScatterPlotItem takes them)
    at the point of :meth:`setData`; takes no mouse events (the plot's scene handles them)."""

    def __init__(self, size: float, symbol: str, pen, brush):
        super().__init__()
        self._style = (symbol, size, pg.mkPen(pen), pg.mkBrush(brush))
        self._dpr = 0.0  # the sprite's device pixel ratio (rendered on the first paint)
        self._sprite = QtGui.QPixmap()
        side = math.ceil(size + max(math.ceil(self._style[2].widthF()), 1))
        self._rect = QtCore.QRectF(-side / 2, -side / 2, side, side)
        self._xy = (np.zeros(0), np.zeros(0))
        self.setFlag(QtWidgets.QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)

    def setData(self, x, y) -> None:
        """The point: one x and one y (as sequences, ScatterPlotItem's way)."""
        self._xy = (np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        self.setPos(float(self._xy[0][0]), float(self._xy[1][0]))

    def getData(self) -> tuple[np.ndarray, np.ndarray]:
        return self._xy

    def boundingRect(self) -> QtCore.QRectF:
        return self._rect

    def paint(self, painter, option, widget=None) -> None:
        dpr = widget.devicePixelRatioF() if widget is not None else 1.0
        if dpr != self._dpr:  # (ScatterPlotItem's atlas: the sprite at the screen's ratio)
            self._dpr = dpr
            self._sprite = QtGui.QPixmap.fromImage(renderSymbol(*self._style, dpr=dpr))
        painter.drawPixmap(self._rect, self._sprite, QtCore.QRectF(self._sprite.rect()))
