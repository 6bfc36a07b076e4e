"""The decision plot: the points of each class, the model's regions, the boundary f = 0, the
dashed margins f = ±1 (±ρ for ν-SVC; none for the logistic and softmax losses), thin rings
on the support vectors and a small cross beside each misclassified point (beside, not over
it: its colour and shape stay visible), with a legend that hides no point, inside the plane
where a spot is free or in a strip below it (svmviz.ui.plane.legend), in the words of the
problem in force.

The other problems, as svmviz.core.pictures.frame draws them: a 1-D regression as libsvm's svm-toy
(x the input, y the target: the curve f(x), the ε-tube shaded between its dashed edges, a
segment from each point outside it to its edge); a 2-D regression as a colour map of f with
its contours, each point coloured by its target on the same map and ringed by its distance
outside the tube; one-class as the shaded region f ≥ 0, its boundary and the outliers marked.

Every item is created once and updated with setData / setImage (pyqtgraph renders lazily,
so several updates in one tick cost one paint). The items' own classes are in
svmviz.ui.plane.items, the points' scatters in svmviz.ui.plane.class_points, and a model given
from Python is drawn by svmviz.ui.plane.given_model; what stays here is one widget whose items
share its view, scale and legend.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.limits import EXTENT_REACH, MIN_SPAN
from svmviz.core.palette import OPTIMUM_COLOR
from svmviz.core.pictures.lines import tube_segments
from svmviz.core.pictures.rings import ringed
from svmviz.ui import style
from svmviz.ui.plane.class_points import ClassPoints, ValuedPoints
from svmviz.ui.plane.given_model import GivenModel
from svmviz.ui.plane.items import (
    INLIER_COLOR,
    MARGIN_COLOR,
    MARGIN_RING,
    RING_COLOR,
    RING_WIDTH,
    TUBE_COLOR,
    WRONG_SIZE,
    WRONG_SYMBOL,
    BandItem,
    Marks,
    RegionItem,
    polylines,
    ring_sizes,
    value_colors,
)
from svmviz.ui.plane.legend import PlaneKey
from svmviz.ui.plane.legend_words import legend_entries
from svmviz.ui.plane.point_editor import EditorViewBox
from svmviz.ui.plane.race_lines import RaceLines

LEVEL_COLOR = (40, 40, 40, 170)  # the contours of a 2-D regression's f
MAP_NAME = "viridis"  # a 2-D regression's colour map (perceptually uniform, colorblind-safe)
MAP_ALPHA = 2.5  # its background's weight over white, in units of the regions' alpha
AXES = {"svc": ("x₁", "x₂"), "regression": ("x", "y (target)")}


class DecisionPlot(pg.PlotWidget):
    mouse_left = QtCore.Signal()  # the mouse left the plot

    def __init__(self, session, parent=None, fit_later: bool = False):
        """``fit_later``: the legend fitted once the event loop runs (PlaneKey.hold: a
        window's plane, built and shown first), not at each step of the building. The items
        are added in the order they are stacked in where their z is the same."""
        self.view = EditorViewBox(session)
        super().__init__(parent, viewBox=self.view, enableMenu=False)
        self.session = session
        self._set_up_axes()
        self._add_model_items()
        self._add_overlays()
        self._ring_label = ""
        self.axis_names = AXES["svc"]
        self.axes_named = True  # (presenting beside a companion: left out, see name_axes)
        for item in (self.boundary, self.margin, self.rings, self.wrong):
            self.addItem(item)
        self.class_points = ClassPoints(self)
        self._add_point_marks()
        # the marks are painted from pixmaps kept between frames, as the points (ClassPoints)
        for item in (self.rings, self.wrong):
            item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._step_marks = None  # (item, label) of the step inspector's marks, when shown
        self._drawn = None  # (points, parts, colours, scale) of the scatters drawn last
        self.scale = 1.0  # of markers, lines and text (presentation mode)
        self.region_alpha = style.REGION_ALPHA
        self._marks = None  # (rings, sizes, wrong) drawn last: unchanged marks are not re-set
        self.multiclass = False  # the model's words: f_k for 3+ classes, f for two
        # the legend: never over a point (svmviz.ui.plane.legend)
        self.key = PlaneKey(self)
        if fit_later:
            self.key.hold()
        self.legend = self.key.legend
        self.set_ring_meaning(kernel=False)
        self.set_scale(1.0)  # the axes' fonts too: as after presentation mode

    def _set_up_axes(self) -> None:
        """The view's limits, the axes' names, no auto-range button; the plane's focus."""
        self.setAspectLocked(True)
        # the view a session may hold: no zooming out to where coordinates overflow, nor in
        # below the smallest side a file takes
        reach = EXTENT_REACH
        self.view.setLimits(
            xMin=-reach, xMax=reach, yMin=-reach, yMax=reach, minXRange=MIN_SPAN, minYRange=MIN_SPAN
        )
        self.setLabel("bottom", "x₁")
        self.setLabel("left", "x₂")
        self.getPlotItem().hideButtons()  # the "A" (auto range) button: Fit does that
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.ClickFocus)  # see MainWindow._on_plot_click

    def _add_model_items(self) -> None:
        """The model's regions, boundary, margins and marks, and the other problems' items:
        a 1-D regression's tube, a 2-D regression's contours and valued points."""
        self.region = RegionItem()
        self.region.setZValue(-10)
        self.addItem(self.region)
        self.boundary = pg.PlotCurveItem(
            pen=pg.mkPen("k", width=style.LINE_WIDTH), connect="finite"
        )
        self.margin = pg.PlotCurveItem(
            pen=pg.mkPen(MARGIN_COLOR, width=2, style=QtCore.Qt.PenStyle.DashLine),
            connect="finite",
        )
        # under the boundary: where a narrow margin runs along it (a large ‖w‖), the boundary
        # stays one black line with the grey dashes beside it, not a striped rope
        self.margin.setZValue(-0.5)
        # the other problems' items (hidden while the problem has none)
        self.tube = BandItem(TUBE_COLOR)
        self.tube.setZValue(-5)
        self.tube.hide()
        self.levels = pg.PlotCurveItem(pen=pg.mkPen(LEVEL_COLOR, width=1), connect="finite")
        self.levels.setZValue(-0.6)
        self.tube_slack = pg.PlotCurveItem(
            pen=pg.mkPen(style.ERROR_COLOR, width=2), connect="finite"
        )
        self.tube_slack.setZValue(3)
        # a 2-D regression's points coloured by their targets, over the class markers
        self.valued = ValuedPoints(MAP_NAME)
        self.valued.setZValue(1)
        for item in (self.tube, self.levels, self.tube_slack, self.valued):
            self.addItem(item)
        self.kind = "svc"
        self.words = ("svc", "hinge", True, "")  # (kind, loss, margin lines, colour range)
        self.rings = Marks(
            size=MARGIN_RING, pen=pg.mkPen(RING_COLOR, width=RING_WIDTH), brush=None, symbol="o"
        )
        self.wrong = Marks(
            size=WRONG_SIZE,
            pen=pg.mkPen("w", width=1),
            brush=pg.mkBrush(style.ERROR_COLOR),
            symbol=WRONG_SYMBOL,
        )
        self.wrong.setZValue(5)

    def _add_overlays(self) -> None:
        """The exact optimum's lines, a model given from Python, a race's runs and the
        slack segments, over the model."""
        # the exact optimum's boundary and margins, over the current iterate (a toggle)
        optimum_pen = dict(color=OPTIMUM_COLOR, width=3, style=QtCore.Qt.PenStyle.DashDotLine)
        self.optimum_boundary = pg.PlotCurveItem(pen=pg.mkPen(**optimum_pen), connect="finite")
        optimum_pen.update(width=2, style=QtCore.Qt.PenStyle.DotLine)
        self.optimum_margin = pg.PlotCurveItem(pen=pg.mkPen(**optimum_pen), connect="finite")
        for item in (self.optimum_boundary, self.optimum_margin):
            item.setZValue(4)
            item.hide()
            self.addItem(item)
        self.optimum_shown = False
        self.given = GivenModel(self)  # a model given from Python, over the training
        self.race = RaceLines(self)  # a race's other runs (svmviz.ui.plane.race_lines)
        # slack ξ_i drawn as a segment from a violating point to its margin line (linear)
        self.slack = pg.PlotCurveItem(pen=pg.mkPen(style.ERROR_COLOR, width=2), connect="finite")
        self.slack.setZValue(3)
        self.slack.hide()
        self.addItem(self.slack)

    def _add_point_marks(self) -> None:
        """The split's legend samples, the selection and the point lit from weight space."""
        self.parts = None  # each point's part of the split (None: no split)
        self.test_sample = Marks(
            size=style.POINT_SIZE, symbol="o", brush=pg.mkBrush("w"), pen=pg.mkPen("k", width=2)
        )
        self.unused_sample = Marks(
            size=style.POINT_SIZE, symbol="o", pen=None, brush=pg.mkBrush(0, 0, 0, 60)
        )
        self.selection = Marks(
            size=style.POINT_SIZE + 8,
            symbol="s",
            brush=None,
            pen=pg.mkPen((40, 40, 40), width=2, style=QtCore.Qt.PenStyle.DotLine),
        )
        self.selection.hide()
        self.addItem(self.selection)
        # the point whose line is hovered in weight space (svmviz.ui.views.weight_dual)
        self.lit = Marks(
            size=style.POINT_SIZE + 12,
            symbol="o",
            brush=None,
            pen=pg.mkPen(style.LIT_COLOR, width=3),
        )
        self.lit.setZValue(6)
        self.lit.hide()
        self.addItem(self.lit)

    # ------------------------------------------------------------------ classes and points
    def close(self):
        self.key.place_never()  # (pyqtgraph's close drops the plot item a placement reads)
        return super().close()

    def set_ring_meaning(self, kernel: bool) -> None:
        """The rings' legend words: a kernel model's rings are sized by α_i."""
        label = "kernel" if kernel else "margin"
        if label != self._ring_label:
            self._ring_label = label
            self._draw_legend()

    def legend_labels(self) -> list[tuple[object, str]]:
        """(item or legend sample, label) of the legend's entries (svmviz.ui.plane.legend_words)."""
        return legend_entries(self, self.key.k)

    def _draw_legend(self) -> None:
        if hasattr(self, "key"):  # (not before the constructor has made it)
            self.key.draw()

    def show_step_marks(self, entry: tuple[object, str] | None) -> None:
        """The step inspector's marks on the plane, (item, label) of their legend entry, or
        None when it shows none."""
        if entry != self._step_marks:
            self._step_marks = entry
            self._draw_legend()

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
        if (
            self._drawn is None
            or any(a is not b for a, b in zip(drawn[:2], self._drawn[:2], strict=True))
            or (drawn[2:] != self._drawn[2:])
        ):
            self._drawn = drawn
            self.class_points.draw(p, self.parts, s.colors, self.scale)
            self.key.place_soon()  # (the legend: where no point is, after the frame)
        self._draw_legend()

    def light_point(self, i: int) -> None:
        """Ring the session's point ``i`` (its line hovered in weight space; −1: none)."""
        X = self.session.points.X
        if 0 <= i < len(X):
            self.lit.setData([float(X[i, 0])], [float(X[i, 1])])
        self.lit.setVisible(0 <= i < len(X))

    def show_selection(self) -> None:
        """Mark the session's selected points (after a change of the selection or a move)."""
        X = self.session.points.X[list(self.session.selection)]
        self.selection.setData(X[:, 0], X[:, 1])
        self.selection.setVisible(len(X) > 0)

    # ------------------------------------------------------------------ the model
    def clear_model(self) -> None:
        self.region.clear()
        self.tube.clear()
        for item in (self.boundary, self.margin, self.levels, self.tube_slack):
            item.setData([], [])
        for item in (self.rings, self.wrong):
            item.setData([], [])
        self.valued.forget()
        self._marks = None

    def draw_frame(self, frame, region_colors: np.ndarray, alpha=None, marks=True) -> None:
        """One frame of the model (svmviz.core.pictures.frame.Frame, of any kind): ``region_colors``
        (0xffRRGGBB per class) colours a classifier's regions (the other problems have their
        own colours); ``alpha`` (m,) are the kernel coefficients |α_i| (None for linear
        models). With ``marks`` False the rings and crosses are left as they are (cleared if
        points moved or went): at full speed they are refreshed at a lower rate than the
        plane."""
        self._follow_kind(frame)
        kind = frame.kind
        if kind == "svc":
            self.region.set_regions(region_colors[frame.region], frame.extent)
        elif kind == "one-class":
            self.region.set_regions(
                self._blend(["#FFFFFF", INLIER_COLOR])[frame.region], frame.extent
            )
        elif kind == "regression2d":
            self.region.set_regions(self._map_colors()[frame.region], frame.extent)
        else:
            self.region.clear()
        if kind == "regression" and frame.curve is not None:
            self.tube.set_band(frame.curve, frame.level)
        else:
            self.tube.clear()
        if kind == "svc" and (len(region_colors) > 2) != self.multiclass:  # a region per class
            self.multiclass = len(region_colors) > 2
            self._draw_legend()
        self.boundary.setData(*polylines(frame.contours["boundary"]))
        self.margin.setData(*polylines(frame.contours["margin"]))
        self.levels.setData(*polylines(frame.contours.get("levels", [])))
        X = self.session.points.X
        if len(frame.margins) != len(X):
            return  # the points changed since this job started; its frame is on its way
        if not marks and self._marks is not None:
            old = self._marks[0]
            if X is old:
                return
            if len(old) + 1 == len(X) and np.array_equal(old, X[: len(old)]):
                return  # a point added: the marks still sit on theirs; they follow soon
            for item in (self.rings, self.wrong, self.tube_slack):
                item.setData([], [])  # points moved or gone: no mark on a wrong place
            self.valued.forget()
            self._marks = (X, None)
            return
        ring, sizes = self._rings(frame, alpha, X)
        # one-class's outliers and the misclassified points are crossed; a regression's
        # points outside the tube have their segment (1-D) or their ring's size (2-D)
        wrong = frame.margins < 0 if frame.wrong is None else frame.wrong
        if kind in ("regression", "regression2d"):
            wrong = np.zeros(len(X), dtype=bool)
        # near convergence the marks rarely change, and setting a scatter's data costs more
        # than drawing it (pyqtgraph keys every spot's sprite in Python)
        marks = (ring.tobytes(), sizes.tobytes(), wrong.tobytes(), frame.margins.tobytes())
        if self._marks is not None and X is self._marks[0] and marks == self._marks[1]:
            return
        self._marks = (X, marks)
        self.rings.setData(X[ring, 0], X[ring, 1], size=sizes)
        # (never hidden: the legend draws a hidden item's sample as an "invisible" eye)
        self.wrong.setData(X[wrong, 0], X[wrong, 1])
        if kind == "regression":
            starts, ends = tube_segments(X, frame.margins, frame.level)
            xy = np.empty((3 * len(starts), 2))
            xy[0::3], xy[1::3], xy[2::3] = starts, ends, np.nan
            self.tube_slack.setData(xy[:, 0], xy[:, 1])
        else:
            self.tube_slack.setData([], [])
        self.valued.draw(frame, X, self.scale)

    def _rings(self, frame, alpha, X) -> tuple[np.ndarray, np.ndarray]:
        """(which points are ringed, their ring sizes): the frame's support vectors
        (svmviz.core.pictures.rings), a kernel classifier's sized by α_i, a 2-D regression's
        growing with the distance outside the tube."""
        ring = ringed(frame, self.parts)
        if frame.kind == "regression2d":
            distance = np.maximum(np.abs(frame.margins[ring]) - frame.level, 0.0)
            return ring, ring_sizes(distance) * self.scale
        if frame.kind == "svc" and alpha is not None and len(alpha) == len(X):
            return ring, ring_sizes(alpha[ring]) * self.scale
        return ring, np.full(int(ring.sum()), MARGIN_RING * self.scale)

    def _follow_kind(self, frame) -> None:
        """The words, axes and items of the problem of ``frame`` (on a change only)."""
        value_range = ""
        if frame.value_range is not None:
            lo, hi = frame.value_range
            value_range = f"{lo:.3g} … {hi:.3g}"
        words = (frame.kind, frame.loss, frame.level > 0, value_range)
        if words == self.words:
            return
        kind_changed = frame.kind != self.kind
        self.kind, self.words = frame.kind, words
        if kind_changed:
            self._marks = None
            if frame.kind != "svc":
                self.multiclass = False
            self.axis_names = AXES.get(frame.kind, AXES["svc"])
            self._label_axes()
        self._draw_legend()

    def _blend(self, colors) -> np.ndarray:
        """``colors`` at the regions' alpha over white, as opaque 0xffRRGGBB."""
        rgb = np.array([QtGui.QColor(c).getRgb()[:3] for c in colors], dtype=float)
        a = self.region_alpha / 255.0
        r, g, b = np.round(a * rgb + (1.0 - a) * 255.0).astype(np.uint32).T
        return (0xFF000000 | (r << 16) | (g << 8) | b).astype(np.uint32)

    def _map_colors(self) -> np.ndarray:
        """The colour map as a 2-D regression's background: lighter than its points."""
        return value_colors(MAP_NAME, min(1.0, MAP_ALPHA * self.region_alpha / 255.0))

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
            lines = frame.contours["boundary"] + frame.contours.get("levels", [])
            self.optimum_boundary.setData(*polylines(lines))
            self.optimum_margin.setData(*polylines(frame.contours["margin"]))
        self.optimum_boundary.setVisible(on)
        self.optimum_margin.setVisible(on)

    def set_given(self, overlay) -> None:
        """Draw ``overlay`` (svmviz.core.pictures.overlay.Overlay: a fitted model given from Python)
        over the plane, or none (None): svmviz.ui.plane.given_model; named in the legend."""
        if self.given.set(overlay):
            self._draw_legend()

    def set_race(self, race) -> None:
        """Draw a race's other runs (svmviz.app.race_runner.RaceFrame; None: none)."""
        if self.race.show(race):
            self._draw_legend()

    def grid_size(self) -> int:
        """Region cells of about 3 pixels of the plot (at least the window's 160): for a
        picture's regions and a given model's lines."""
        return int(np.clip(max(self.width(), self.height()) / 3, 160, 600))

    def set_scale(self, k: float, region_alpha: int = style.REGION_ALPHA) -> None:
        """Markers, lines and text ``k`` times their size, regions at ``region_alpha``
        (presentation mode: larger and with more contrast, for the back of the room)."""
        self.scale = k
        self.region_alpha = region_alpha
        self.class_points.set_scale(k)
        self.boundary.setPen(pg.mkPen("k", width=style.LINE_WIDTH * k))
        self.margin.setPen(pg.mkPen(MARGIN_COLOR, width=2 * k, style=QtCore.Qt.PenStyle.DashLine))
        self.rings.setPen(pg.mkPen(RING_COLOR, width=RING_WIDTH * k))
        self.rings.setSize(MARGIN_RING * k)
        self.wrong.setPen(pg.mkPen("w", width=k))
        self.wrong.setSize(WRONG_SIZE * k)
        self.levels.setPen(pg.mkPen(LEVEL_COLOR, width=k))
        self.tube_slack.setPen(pg.mkPen(style.ERROR_COLOR, width=2 * k))
        self.given.set_scale(k)
        self.race.set_scale(k)
        self._marks = None  # ring sizes scale at the next frame
        self.key.set_scale(k)
        self.draw_points()
        self.valued.stale()
        self._label_axes()

    def _label_axes(self) -> None:
        """The axes' names (x₁, x₂; a 1-D regression's x and its target y) at the scale."""
        k = self.scale
        font = QtGui.QFont()
        font.setPointSize(round(style.FONT_POINT_SIZE * k * 0.8))
        size = f"{round(style.FONT_POINT_SIZE * k)}pt"
        for side, text in zip(("bottom", "left"), self.axis_names, strict=True):
            self.getAxis(side).setStyle(tickFont=font)
            self.setLabel(side, text, **{"font-size": size})
            self.getAxis(side).showLabel(self.axes_named)
        self.legend.axis_named = self.axes_named
        self.legend.set_axis_name(self.axis_names[0], size)  # (the strip ends with it)

    def name_axes(self, named: bool) -> None:
        """The axes' names (x₁, x₂) shown or left out: presenting beside a companion on a
        short screen, their row and column go to the plane, which keeps its ticks."""
        if named != self.axes_named:
            self.axes_named = named
            self._label_axes()

    def region_colors(self, present) -> np.ndarray:
        """The region colour of each present class as 0xffRRGGBB: its colour at REGION_ALPHA
        over white, blended here so that the image is opaque (cheaper to draw)."""
        return self._blend([self.session.colors[int(k)] for k in present])

    def leaveEvent(self, event):
        self.mouse_left.emit()
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
