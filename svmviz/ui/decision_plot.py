"""The decision plot: the points of each class, the model's regions, the boundary f = 0, the
dashed margins f = ±1, rings on the support vectors and crosses on misclassified points.

Every item is created once and updated with setData / setImage (pyqtgraph renders lazily,
so several updates in one tick cost one paint).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.frame import MARGIN_TOLERANCE
from svmviz.core.limits import MAX_COORDINATE
from svmviz.core.palette import MAX_CLASSES
from svmviz.ui import style
from svmviz.ui.curves import legend_above
from svmviz.ui.point_editor import EditorViewBox

# kernel models: a support vector's ring grows with √(α_i / max α) between these sizes
RING_MIN, RING_MAX = style.POINT_SIZE + 5, style.POINT_SIZE + 24
ALPHA_SHOWN = 0.01  # rings for α_i above this fraction of the largest


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


def _cache_tree(item) -> None:
    """Paint ``item`` and its descendants from cached pixmaps (a legend changes rarely, and
    each of its samples and labels is otherwise painted anew every frame)."""
    item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
    for child in item.childItems():
        _cache_tree(child)


def ring_sizes(alpha: np.ndarray) -> np.ndarray:
    """Marker sizes for support vectors with coefficient magnitudes ``alpha`` (> 0): the
    area grows with α_i (size with √α_i), in RING_LEVELS steps."""
    top = float(alpha.max()) if alpha.size else 1.0
    level = np.round(np.sqrt(alpha / max(top, 1e-300)) * (RING_LEVELS - 1))
    return RING_MIN + (RING_MAX - RING_MIN) * level / (RING_LEVELS - 1)


class Marks(pg.ScatterPlotItem):
    """A scatter of the plane, faster where pyqtgraph's is slow for our use:

    * It takes no clicks of its own: pyqtgraph would make a spot object for every point to
      find the ones under each click (16 ms at 20,000 points); the window finds the point
      under a click by distance.
    * Its spots share the item's symbol, pen and brush (sizes may differ: setData(x, y,
      size=...) is all the plane asks of it): their sprites are looked up once per distinct
      size, not once per spot in Python (pyqtgraph's way: 15 → 6 ms for 9,000 rings, each
      time the rings change). Hover styles take pyqtgraph's way.
    """

    def mouseClickEvent(self, ev):  # noqa: N802 (pyqtgraph's name)
        ev.ignore()

    def updateSpots(self, dataSet=None):  # noqa: N802, N803 (pyqtgraph's names)
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
        self.setTransform(QtGui.QTransform.fromTranslate(x0, y0).scale((x1 - x0) / nx,
                                                                       (y1 - y0) / ny))  # fmt: skip
        self.show()

    def clear(self) -> None:
        self.hide()


class DecisionPlot(pg.PlotWidget):
    def __init__(self, session, parent=None):
        self.view = EditorViewBox(session)
        super().__init__(parent, viewBox=self.view)
        self.session = session
        self.setAspectLocked(True)
        reach = 2 * MAX_COORDINATE  # no zooming out to where coordinates overflow
        self.view.setLimits(xMin=-reach, xMax=reach, yMin=-reach, yMax=reach)
        self.setLabel("bottom", "x₁")
        self.setLabel("left", "x₂")
        self.setMenuEnabled(False)  # right click removes a point
        self.getPlotItem().hideButtons()  # the "A" (auto range) button: Fit does that
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.ClickFocus)  # see MainWindow._on_plot_click
        # the legend sits above the plane, in the title's row: inside it would hide points
        self.legend = legend_above(self, 2, "11pt")
        self.region = RegionItem()
        self.region.setZValue(-10)
        self.addItem(self.region)
        self.boundary = pg.PlotCurveItem(
            pen=pg.mkPen("k", width=style.LINE_WIDTH), connect="finite"
        )
        self.margin = pg.PlotCurveItem(
            pen=pg.mkPen("k", width=2, style=QtCore.Qt.PenStyle.DashLine), connect="finite"
        )
        self.rings = Marks(
            size=style.POINT_SIZE + 10, pen=pg.mkPen("k", width=2), brush=None, symbol="o"
        )
        self.wrong = Marks(
            size=style.POINT_SIZE + 12, pen=pg.mkPen(style.ERROR_COLOR, width=3),
            brush=None, symbol="x",
        )  # fmt: skip
        self.wrong.setZValue(5)
        # the exact optimum's boundary and margins, over the current iterate (a toggle)
        optimum_pen = dict(color="#009E73", width=3, style=QtCore.Qt.PenStyle.DashDotLine)
        self.optimum_boundary = pg.PlotCurveItem(pen=pg.mkPen(**optimum_pen), connect="finite")
        optimum_pen.update(width=2, style=QtCore.Qt.PenStyle.DotLine)
        self.optimum_margin = pg.PlotCurveItem(pen=pg.mkPen(**optimum_pen), connect="finite")
        for item in (self.optimum_boundary, self.optimum_margin):
            item.setZValue(4)
            item.hide()
            self.addItem(item)
        self.optimum_shown = False
        # slack ξ_i drawn as a segment from a violating point to its margin line (linear)
        self.slack = pg.PlotCurveItem(pen=pg.mkPen(style.ERROR_COLOR, width=2), connect="finite")
        self.slack.setZValue(3)
        self.slack.hide()
        self.addItem(self.slack)
        self._ring_label = ""
        for item in (self.boundary, self.margin, self.rings, self.wrong):
            self.addItem(item)
        # one persistent scatter per class slot; setData on every edit
        self.scatters = []
        # a train/test split: test points hollow (white inside, the class's colour around),
        # points left out of a smaller training set faded
        self.test_scatters, self.unused_scatters = [], []
        for k in range(MAX_CLASSES):
            symbol = style.class_symbol(k)
            item = Marks(size=style.POINT_SIZE, symbol=symbol,
                                      pen=pg.mkPen("w", width=1))  # fmt: skip
            test = Marks(size=style.POINT_SIZE, symbol=symbol, brush=pg.mkBrush("w"))
            unused = Marks(size=style.POINT_SIZE, symbol=symbol, pen=None)
            for scatter, group in ((item, self.scatters), (test, self.test_scatters),
                                   (unused, self.unused_scatters)):  # fmt: skip
                self.addItem(scatter)
                group.append(scatter)
                scatter.hide()
        self.parts = None  # each point's part of the split (None: no split)
        self.test_sample = Marks(
            size=style.POINT_SIZE, symbol="o", brush=pg.mkBrush("w"), pen=pg.mkPen("k", width=2)
        )
        self.unused_sample = Marks(
            size=style.POINT_SIZE, symbol="o", pen=None, brush=pg.mkBrush(0, 0, 0, 60)
        )
        self.selection = Marks(
            size=style.POINT_SIZE + 8, symbol="s", brush=None,
            pen=pg.mkPen((40, 40, 40), width=2, style=QtCore.Qt.PenStyle.DotLine),
        )  # fmt: skip
        self.selection.hide()
        self.addItem(self.selection)
        # the points and their marks are painted from pixmaps kept between frames: while
        # training, the regions and curves change every frame but these rarely do (repainted
        # when their data or the view change)
        for item in (*self.scatters, *self.test_scatters, *self.unused_scatters, self.rings,
                     self.wrong):  # fmt: skip
            item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._legend_key = None
        self._drawn = None  # (points, parts, colours, scale) of the scatters drawn last
        self._scatter_data = {}  # id(scatter) -> ((colour, pen width), its points) drawn
        self.on_leave = None  # called when the mouse leaves the plot (the window sets it)
        self.scale = 1.0  # of markers, lines and text (presentation mode)
        self.region_alpha = style.REGION_ALPHA
        self._marks = None  # (rings, sizes, wrong) drawn last: unchanged marks are not re-set
        self.set_ring_meaning(kernel=False)

    # ------------------------------------------------------------------ classes and points
    def set_ring_meaning(self, kernel: bool) -> None:
        label = "support vectors, ring ∝ α_i" if kernel else "in the margin, y f ≤ 1"
        if label != self._ring_label:
            self._ring_label = label
            self._legend_key = None  # rebuild the legend

    def set_parts(self, parts) -> None:
        """The split of the points the model trains on (None: all train); redraws them."""
        self.parts = parts
        self.draw_points()

    def draw_points(self) -> None:
        """The session's points, one scatter per class (the class bar above the plot is
        their legend: marker, colour, key and name), and the legend of the model's marks.
        Nothing is set again when the points (immutable), their split, the colours and the
        scale are the ones drawn last (an edit calls this, and the job it starts too)."""
        s = self.session
        p = s.points
        drawn = (p, self.parts, s.colors, self.scale)
        if self._drawn is None or any(a is not b for a, b in zip(drawn[:2], self._drawn[:2],
                                                                strict=True)) or (
                drawn[2:] != self._drawn[2:]):  # fmt: skip
            self._drawn = drawn
            self._draw_scatters(p)
        self._draw_legend()

    def _draw_scatters(self, p) -> None:
        s = self.session
        parts = self.parts
        if parts is None or len(parts) != len(p.y):
            parts = np.zeros(len(p.y), dtype=np.int8)
        width = 2.5 * self.scale
        for k in range(MAX_CLASSES):
            groups = (self.scatters[k], self.test_scatters[k], self.unused_scatters[k])
            for part, item in enumerate(groups):
                sel = (p.y == k) & (parts == part)
                if not sel.any() and not item.isVisible():
                    continue  # empty and staying empty (most of the 27 while dragging)
                color = s.colors[k]
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
                        # (pyqtgraph styles every spot of a setData in Python: 50 ms at 10k)
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

    def _draw_legend(self) -> None:
        parts = self.parts
        has = (lambda part: False) if parts is None else (lambda part: bool(np.any(parts == part)))
        key = (self._ring_label, self.optimum_shown, has(1), has(2))
        if key != self._legend_key:
            self._legend_key = key
            self.legend.clear()
            entries = [
                (self.boundary, "boundary f = 0"),
                (self.margin, "margins f = ±1"),
                (self.rings, self._ring_label),
                (self.wrong, "misclassified, y f &lt; 0"),  # the label is HTML
            ]
            if key[2]:
                entries.append((self.test_sample, "test point (not trained on)"))
            if key[3]:
                entries.append((self.unused_sample, "left out of the training set"))
            if self.optimum_shown:
                entries += [(self.optimum_boundary, "exact optimum: boundary"),
                            (self.optimum_margin, "exact optimum: margins")]  # fmt: skip
            for item, label in entries:
                self.legend.addItem(item, label)
            _cache_tree(self.legend)

    def show_selection(self, indices) -> None:
        X = self.session.points.X
        indices = indices[indices < len(X)]
        self.selection.setData(X[indices, 0], X[indices, 1])
        self.selection.setVisible(bool(indices.size))

    # ------------------------------------------------------------------ the model
    def clear_model(self) -> None:
        self.region.clear()
        for item in (self.boundary, self.margin, self.rings, self.wrong):
            item.setData([], [])
        self._marks = None

    def draw_frame(self, frame, region_colors: np.ndarray, alpha=None, marks=True) -> None:
        """One frame of the model: ``region_colors`` (0xffRRGGBB per class) colours the
        regions; ``alpha`` (m,) are the kernel coefficients |α_i| (None for linear models).
        With ``marks`` False the rings and crosses are left as they are (cleared if points
        moved or went): at full speed they are refreshed at a lower rate than the plane."""
        self.region.set_regions(region_colors[frame.region], frame.extent)
        self.boundary.setData(*polylines(frame.contours["boundary"]))
        self.margin.setData(*polylines(frame.contours["margin"]))
        X = self.session.points.X
        if len(frame.margins) != len(X):
            return  # the points changed since this job started; its frame is on its way
        if not marks and self._marks is not None:
            old = self._marks[0]
            if X is old:
                return
            if len(old) < len(X) and np.array_equal(old, X[: len(old)]):
                return  # points appended: the marks still sit on theirs; they follow soon
            self.rings.setData([], [])  # points moved or gone: no mark on a wrong place
            self.wrong.setData([], [])
            self._marks = (X, None)
            return
        if alpha is not None and len(alpha) == len(X):
            ring = alpha > ALPHA_SHOWN * (alpha.max() if alpha.size else 0.0)
            sizes = ring_sizes(alpha[ring]) * self.scale
        else:
            ring = (frame.margins <= 1.0 + MARGIN_TOLERANCE) & (frame.margins >= 0)
            if self.parts is not None and len(self.parts) == len(X):
                ring &= self.parts == 0  # support vectors are training points
            sizes = np.full(int(ring.sum()), (style.POINT_SIZE + 10.0) * self.scale)
        wrong = frame.margins < 0
        # near convergence the marks rarely change, and setting a scatter's data costs more
        # than drawing it (pyqtgraph keys every spot's sprite in Python)
        marks = (ring.tobytes(), sizes.tobytes(), wrong.tobytes())
        if self._marks is not None and X is self._marks[0] and marks == self._marks[1]:
            return
        self._marks = (X, marks)
        self.rings.setData(X[ring, 0], X[ring, 1], size=sizes)
        # (never hidden: the legend draws a hidden item's sample as an "invisible" eye)
        self.wrong.setData(X[wrong, 0], X[wrong, 1])

    def show_slack(self, starts=None, ends=None) -> None:
        """Segments from each point with slack to its margin line (None hides them)."""
        if starts is None or not len(starts):
            self.slack.hide()
            return
        xy = np.empty((3 * len(starts), 2))
        xy[0::3], xy[1::3], xy[2::3] = starts, ends, np.nan
        self.slack.setData(xy[:, 0], xy[:, 1])
        self.slack.show()

    def show_optimum(self, frame, shown: bool) -> None:
        """The exact optimum's f = 0 and f = ±1 (``frame`` of the reference model) or none."""
        if shown != self.optimum_shown:
            self.optimum_shown = shown
            self.draw_points()  # the legend
        on = shown and frame is not None
        if on:
            self.optimum_boundary.setData(*polylines(frame.contours["boundary"]))
            self.optimum_margin.setData(*polylines(frame.contours["margin"]))
        self.optimum_boundary.setVisible(on)
        self.optimum_margin.setVisible(on)

    def set_scale(self, k: float, region_alpha: int = style.REGION_ALPHA) -> None:
        """Markers, lines and text ``k`` times their size, regions at ``region_alpha``
        (presentation mode: larger and with more contrast, for the back of the room)."""
        self.scale = k
        self.region_alpha = region_alpha
        for item in (*self.scatters, *self.test_scatters, *self.unused_scatters):
            item.setSize(style.POINT_SIZE * k)
        self.boundary.setPen(pg.mkPen("k", width=style.LINE_WIDTH * k))
        self.margin.setPen(pg.mkPen("k", width=2 * k, style=QtCore.Qt.PenStyle.DashLine))
        self.rings.setPen(pg.mkPen("k", width=2 * k))
        self.wrong.setPen(pg.mkPen(style.ERROR_COLOR, width=3 * k))
        self.wrong.setSize((style.POINT_SIZE + 12) * k)
        self._marks = None  # ring sizes scale at the next frame
        self.legend.setLabelTextSize(f"{round(11 * k)}pt")
        # room for the larger samples (a sample's box stays 20 px; its marker grows)
        self.legend.layout.setHorizontalSpacing(round(25 * k))
        self._legend_key = None
        self.draw_points()
        font = QtGui.QFont()
        font.setPointSize(round(style.FONT_POINT_SIZE * k * 0.8))
        for side, text in (("bottom", "x₁"), ("left", "x₂")):
            self.getAxis(side).setStyle(tickFont=font)
            self.setLabel(side, text, **{"font-size": f"{round(style.FONT_POINT_SIZE * k)}pt"})

    def region_colors(self, present) -> np.ndarray:
        """The region colour of each present class as 0xffRRGGBB: its colour at REGION_ALPHA
        over white, blended here so that the image is opaque (cheaper to draw)."""
        rgb = np.array(
            [QtGui.QColor(self.session.colors[int(k)]).getRgb()[:3] for k in present], dtype=float
        )
        a = self.region_alpha / 255.0
        r, g, b = np.round(a * rgb + (1.0 - a) * 255.0).astype(np.uint32).T
        return (0xFF000000 | (r << 16) | (g << 8) | b).astype(np.uint32)

    def leaveEvent(self, event):  # noqa: N802 (Qt override)
        if self.on_leave is not None:
            self.on_leave()
        super().leaveEvent(event)

    # ------------------------------------------------------------------ geometry
    def view_extent(self):
        (x0, x1), (y0, y1) = self.view.viewRange()
        return (x0, x1, y0, y1)

    def data_at(self, scene_pos):
        """Data coordinates of a scene position, or None outside the plot area."""
        if not self.view.sceneBoundingRect().contains(scene_pos):
            return None
        return self.view.mapSceneToView(scene_pos)
