"""The decision plot's own items: the legend's samples, the support vectors' rings and the
misclassified crosses (svmviz.ui.plane.decision_plot draws them), the regions' pixmap, and the
sizes and symbols they use."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.ui import style

# kernel models: a support vector's ring grows with √(α_i / max α) between these sizes, close
# around its point (with an RBF kernel most points have some α_i: wide rings were a clutter)
RING_MIN, RING_MAX = style.POINT_SIZE + 4, style.POINT_SIZE + 14
MARGIN_RING = style.POINT_SIZE + 7  # linear models: the ring of a point in the margin
RING_WIDTH = 1.5
RING_COLOR = (30, 30, 30)
WRONG_SIZE = 28  # the misclassified mark's sprite: a point of POINT_SIZE in its middle
LINE_SAMPLE = 44  # legend line samples (pixels at scale 1): ≥ 1.5 periods of every dash
MARGIN_COLOR = "#555555"  # the margins f = ±1: dark grey, beside the black boundary
TUBE_COLOR = (86, 180, 233, 90)  # the ε-tube of a 1-D regression: sky blue, translucent
INLIER_COLOR = "#009E73"  # one-class: the region f ≥ 0, at the regions' alpha


def polylines(lines):
    """Join polylines into one (x, y) pair with NaN breaks (one PlotCurveItem per level)."""
    if not lines:
        return np.array([]), np.array([])
    parts = []
    for line in lines:
        parts.append(line)
        parts.append(np.full((1, 2), np.nan))
    xy = np.vstack(parts)
    return xy[:, 0], xy[:, 1]


RING_LEVELS = 7  # ring sizes are quantized: pyqtgraph renders one sprite per distinct size


def cache_tree(item) -> None:
    """Paint ``item`` and its descendants from cached pixmaps (a legend changes rarely, and
    each of its samples and labels is otherwise painted anew every frame)."""
    item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
    for child in item.childItems():
        cache_tree(child)


def beside_cross() -> QtGui.QPainterPath:
    """The misclassified mark: a small filled × above and right of the marker's centre, clear
    of a point of POINT_SIZE there (any class shape), in pyqtgraph's symbol units (the sprite
    is WRONG_SIZE pixels; y grows downwards)."""
    arm, half = 4.2 / WRONG_SIZE, 1.3 / WRONG_SIZE  # arm length and half width (from centre)
    gap = (style.POINT_SIZE / 2 + 1.0) / WRONG_SIZE  # a square class marker's corner + 1 px
    centre = gap + arm / np.sqrt(2)  # the arm pointing at the point ends at (gap, -gap)
    plus = [
        (-arm, -half),
        (-half, -half),
        (-half, -arm),
        (half, -arm),
        (half, -half),
        (arm, -half),
        (arm, half),
        (half, half),
        (half, arm),
        (-half, arm),
        (-half, half),
        (-arm, half),
    ]
    c, s = np.cos(np.pi / 4), np.sin(np.pi / 4)
    points = [QtCore.QPointF(centre + c * x - s * y, -centre + s * x + c * y) for x, y in plus]
    path = QtGui.QPainterPath()
    path.addPolygon(QtGui.QPolygonF(points))
    path.closeSubpath()
    return path


WRONG_SYMBOL = beside_cross()


class Sample(pg.ItemSample):
    """A legend sample at the plot's scale: a line LINE_SAMPLE·scale long (a 20 px stub
    showed no dash at 2× export or in presentation mode: boundary and margins looked alike),
    a mark drawn on a grey point (what a ring or a cross sits around or beside)."""

    def __init__(self, item, scale: float = 1.0, on_point: bool = False, below=None, size=None):
        super().__init__(item)
        self.scale, self.on_point, self.below = scale, on_point, below
        self.size = size  # the mark's size in the legend (None: the item's)
        self.line = not isinstance(item, pg.ScatterPlotItem)
        self.w = round(LINE_SAMPLE * scale)  # marks too: centred in the column of lines
        # (two lines, ``below`` under ``item``, in one entry)
        self.h = round((16 if self.line and below is None else 21) * scale)
        self.setFixedWidth(self.w)
        self.setFixedHeight(self.h)

    def boundingRect(self):
        return QtCore.QRectF(0, 0, self.w, self.h)

    def mouseClickEvent(self, event):
        event.ignore()  # (pyqtgraph's hides the item: here a click on the legend is the plane's)

    def paint(self, p, *args):
        from pyqtgraph.graphicsItems.ScatterPlotItem import drawSymbol

        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        opts = self.item.opts
        if self.line:
            lines = [(self.item, 0.5)]
            if self.below is not None:
                lines = [(self.item, 0.25), (self.below, 0.75)]
            for item, y in lines:
                pen = pg.mkPen(item.opts["pen"])
                pen.setCapStyle(QtCore.Qt.PenCapStyle.FlatCap)
                p.setPen(pen)
                p.drawLine(QtCore.QPointF(0, y * self.h), QtCore.QPointF(self.w, y * self.h))
            return
        p.translate(self.w / 2, self.h / 2)
        if self.item.opts["symbol"] is WRONG_SYMBOL:  # the point and its cross, centred
            shift = (WRONG_SIZE / 2 - style.POINT_SIZE / 2) / 2 * self.scale
            p.translate(-shift, shift)
        if self.on_point:
            p.save()
            drawSymbol(
                p,
                "o",
                style.POINT_SIZE * self.scale,
                pg.mkPen("w", width=1),
                pg.mkBrush(150, 150, 150),
            )
            p.restore()
        size = opts["size"] if self.size is None else self.size
        drawSymbol(p, opts["symbol"], size, pg.mkPen(opts["pen"]), pg.mkBrush(opts["brush"]))


def ring_sizes(alpha: np.ndarray) -> np.ndarray:
    """Marker sizes for support vectors with coefficient magnitudes ``alpha`` (> 0): the
    area grows with α_i (size with √α_i), in RING_LEVELS steps."""
    top = float(alpha.max()) if alpha.size else 1.0
    level = np.round(np.sqrt(alpha / max(top, 1e-300)) * (RING_LEVELS - 1))
    return RING_MIN + (RING_MAX - RING_MIN) * level / (RING_LEVELS - 1)


class Marks(pg.ScatterPlotItem):
    """A scatter of the plane, faster where pyqtgraph's is slow for our use:

    * It takes no clicks of its own: pyqtgraph would make a spot object for every point to
      find the ones under each click (slow at thousands of points); the window finds the point
      under a click by distance.
    * Its spots share the item's symbol, pen and brush (sizes may differ: setData(x, y,
      size=...) is all the plane asks of it): their sprites are looked up once per distinct
      size, not once per spot in Python (pyqtgraph's way, each time the rings change).
      Hover styles take pyqtgraph's way.
    """

    def mouseClickEvent(self, ev):
        ev.ignore()

    _rect: QtCore.QRectF | None = None
    _rect_of: list | None = None  # the bounds cache the rect was computed with

    def boundingRect(self):
        # Qt asks for it many times a paint and a click (the scene's index, each item
        # search); pyqtgraph's answer costs its pixel vectors each time. It is kept until
        # pyqtgraph drops its data bounds: new data, sizes or view transform (each makes a
        # new `bounds` list).
        if len(self.data) == 0:
            return QtCore.QRectF()
        if self._rect_of is not self.bounds:
            self._rect = super().boundingRect()
            self._rect_of = self.bounds
        return self._rect

    def setExportMode(self, *args, **kwargs):
        self._rect_of = None  # (an export paints at another scale)
        return super().setExportMode(*args, **kwargs)

    def updateSpots(self, dataSet=None):
        data = self.data if dataSet is None else dataSet
        if not (self.opts["pxMode"] and self.opts["useCache"]) or self.opts["hoverable"]:
            return super().updateSpots(dataSet)
        mask = data["sourceRect"]["w"] == 0
        if np.any(mask):
            (sizes,) = self._style(["size"], data=data, idx=mask)
            sizes, which = np.unique(sizes, return_inverse=True)
            o = self.opts
            rects = self.fragmentAtlas[[(o["symbol"], s, o["pen"], o["brush"]) for s in sizes]]
            data["sourceRect"][mask] = np.array(rects, dtype=data["sourceRect"].dtype)[which]
            self._maybeRebuildAtlas()
            self.invalidate()
        self._updateMaxSpotSizes(data=data)


class RegionItem(QtWidgets.QGraphicsPixmapItem):
    """The decision regions: an opaque image stretched over its extent in data coordinates.

    A pixmap in the screen's format, made once per frame, is the cheapest thing to draw
    scaled (pyqtgraph's ImageItem converts its RGBA image at every paint)."""

    def __init__(self):
        super().__init__()
        self._image = None  # the array behind the QImage must outlive it

    def set_regions(self, pixels: np.ndarray, extent) -> None:
        """``pixels``: (ny, nx) 0xffRRGGBB, row 0 at the bottom (y0) of ``extent``."""
        self._image = np.ascontiguousarray(pixels, dtype=np.uint32)
        ny, nx = self._image.shape
        image = QtGui.QImage(self._image.data, nx, ny, 4 * nx, QtGui.QImage.Format.Format_RGB32)
        self.setPixmap(QtGui.QPixmap.fromImage(image))
        x0, x1, y0, y1 = extent
        # pixel (column c, row r) covers [x0 + c·sx, x0 + (c+1)·sx] × [y0 + r·sy, …]
        self.setTransform(
            QtGui.QTransform.fromTranslate(x0, y0).scale((x1 - x0) / nx, (y1 - y0) / ny)
        )
        self.show()

    def clear(self) -> None:
        self.hide()


class BandItem(QtWidgets.QGraphicsPathItem):
    """The ε-tube of a 1-D regression, shaded: the polygon between f(x) − ε and f(x) + ε in
    data coordinates (a smooth edge at any zoom, where a region image of the tube showed its
    cells), no outline (the dashed edges are the plot's margin curve)."""

    def __init__(self, color):
        super().__init__()
        self.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
        self.setBrush(pg.mkBrush(color))

    def set_band(self, curve: np.ndarray, half_width: float) -> None:
        """``curve`` (n, 2) the points (x, f(x)); the band is f ± ``half_width``."""
        upper = curve + (0.0, half_width)
        lower = curve[::-1] - (0.0, half_width)
        xy = np.vstack((upper, lower))
        polygon = QtGui.QPolygonF([QtCore.QPointF(float(x), float(y)) for x, y in xy])
        path = QtGui.QPainterPath()
        path.addPolygon(polygon)
        path.closeSubpath()
        self.setPath(path)
        self.show()

    def clear(self) -> None:
        self.hide()


class FillSample(Sample):
    """A legend sample of a shaded area (the ε-tube, the one-class region): a band of
    ``color``, with the ``edge`` pen along its top and bottom (None: no edges)."""

    def __init__(self, color, scale: float = 1.0, edge=None):
        super().__init__(pg.PlotCurveItem(), scale)
        self.color, self.edge = color, edge

    def paint(self, p, *args):
        h = self.h
        rect = QtCore.QRectF(0, 0.2 * h, self.w, 0.6 * h)
        p.fillRect(rect, pg.mkBrush(self.color))
        if self.edge is not None:
            pen = pg.mkPen(self.edge)
            pen.setCapStyle(QtCore.Qt.PenCapStyle.FlatCap)
            p.setPen(pen)
            p.drawLine(rect.topLeft(), rect.topRight())
            p.drawLine(rect.bottomLeft(), rect.bottomRight())


class GradientSample(Sample):
    """A legend sample of a colour map: its colours from low (left) to high (right)."""

    def __init__(self, colors: np.ndarray, scale: float = 1.0):
        super().__init__(pg.PlotCurveItem(), scale)
        self.colors = colors  # (n,) 0xffRRGGBB
        self.w = round(2 * LINE_SAMPLE * scale)
        self.setFixedWidth(self.w)

    def paint(self, p, *args):
        gradient = QtGui.QLinearGradient(0, 0, self.w, 0)
        n = len(self.colors)
        for k in range(0, n, max(1, n // 16)):
            gradient.setColorAt(k / (n - 1), QtGui.QColor.fromRgb(int(self.colors[k])))
        gradient.setColorAt(1.0, QtGui.QColor.fromRgb(int(self.colors[-1])))
        rect = QtCore.QRectF(0, 0.15 * self.h, self.w, 0.7 * self.h)
        p.fillRect(rect, QtGui.QBrush(gradient))
        p.setPen(pg.mkPen((80, 80, 80), width=1))
        p.drawRect(rect)


def value_colors(name: str = "viridis", alpha: float = 1.0) -> np.ndarray:
    """256 colours of the colour map ``name`` (pyqtgraph's; viridis is perceptually uniform
    and colorblind-safe) as 0xffRRGGBB, blended over white at ``alpha`` (the plane's
    background light enough for the points, coloured at alpha 1, to stand out)."""
    rgb = pg.colormap.get(name).getLookupTable(0.0, 1.0, 256, alpha=False).astype(float)
    r, g, b = np.round(alpha * rgb + (1.0 - alpha) * 255.0).astype(np.uint32).T
    return (0xFF000000 | (r << 16) | (g << 8) | b).astype(np.uint32)


class ValuedMarks(pg.ScatterPlotItem):
    """Points each in its own colour (a 2-D regression's targets): pyqtgraph's scatter,
    which styles every spot, taking no clicks (the window finds the point under a click)."""

    def mouseClickEvent(self, ev):
        ev.ignore()
