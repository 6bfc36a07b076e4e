"""The weight-space view's dual picture (svmviz.core.pictures.weight_dual): each training point as a
line, the hard margin's feasible region shaded with the segment from 0 to its nearest
point (w*), and the lit line of the point hovered in the plane or of the step's sample.
Hovering a line emits ``line_hovered`` with its point's index among the session's points
(−1: none), so the plane can light the point.

Past MAX_LINES lines (many points) only the MAX_LINES nearest the model's w are drawn
(at the optimum of a hard margin the support vectors' lines pass through w*, so they are
among them), and the lit one: the picture stays readable; the tooltip says so.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.palette import OPTIMUM_COLOR
from svmviz.core.pictures.weight_dual import (
    clip,
    feasible,
    nearest_to_origin,
    point_lines,
    why_no_lines,
)
from svmviz.ui.style import LIT_COLOR
from svmviz.ui.views.weight_items import show_curve

MAX_LINES = 40
LINE_COLOR = (74, 106, 138, 150)  # the points' lines: a slate no class owns, half seen
PICK_PIXELS = 6  # a line this near the mouse is hovered
MAX_LIT_SAMPLES = 4  # the step's samples lit (a full-batch step lights none)


def _polyline(segments: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 2, 2) segments as one NaN-broken polyline."""
    if len(segments) == 0:
        return np.array([]), np.array([])
    gap = np.full((len(segments), 1, 2), np.nan)
    xy = np.concatenate([segments, gap], axis=1).reshape(-1, 2)
    return xy[:, 0], xy[:, 1]


class DualLines(QtCore.QObject):
    """The dual's items on the view's ``plot`` (a pg.PlotWidget)."""

    line_hovered = QtCore.Signal(int)  # the point's index among the session's, −1: none

    def __init__(self, plot: pg.PlotWidget, parent=None):
        super().__init__(parent)
        self.plot = plot
        item = plot.getPlotItem()
        self.region = QtWidgets.QGraphicsPolygonItem()
        fill = QtGui.QColor(OPTIMUM_COLOR)
        fill.setAlpha(55)
        self.region.setBrush(QtGui.QBrush(fill))
        edge = pg.mkPen(OPTIMUM_COLOR, width=1.5)
        edge.setCosmetic(True)
        self.region.setPen(edge)
        self.lines = pg.PlotCurveItem(pen=pg.mkPen(LINE_COLOR, width=1), connect="finite")
        self.lit = pg.PlotCurveItem(pen=pg.mkPen(LIT_COLOR, width=3.5), connect="finite")
        self.nearest = pg.PlotCurveItem(
            pen=pg.mkPen(OPTIMUM_COLOR, width=2, style=QtCore.Qt.PenStyle.DotLine)
        )
        for z, it in zip(
            (-9.5, -8.5, -8.4, -0.5), (self.region, self.lines, self.nearest, self.lit), strict=True
        ):
            it.setZValue(z)
            item.addItem(it)
        self.data = None  # (generation, training data, their indices among the session's)
        self.drawn: dict = {}  # what was drawn last: lines, segments, shown, polygon, nearest
        self.hovered = -1  # the point hovered in the plane (session index)
        self.samples: np.ndarray = np.zeros(0, dtype=int)  # the step's (training indices)
        self._over = -1  # the line under the mouse (its point's session index)
        self.words = ""
        plot.scene().sigMouseMoved.connect(self._on_moved)
        plot.viewport().installEventFilter(self)  # (the mouse leaving: no line hovered)

    # ------------------------------------------------------------------ data
    def follow(self, generation: int, training_data, index) -> None:
        """The training data of ``generation`` (asked once per generation): ``index()`` its
        points' indices among the session's (None: the same)."""
        if self.data is None or self.data[0] != generation:
            data = training_data()
            self.data = None if data is None else (generation, data, index())

    def show(self, model, k: int, hold: str, hard: bool, box, step=None) -> str:
        """Draw the lines of row ``k`` (``hard``: shade the feasible region) in ``box``
        (w₁ min, w₁ max, w₂ min, w₂ max); returns a word for the key (what a line is, or
        why there are none)."""
        self.samples = np.zeros(0, dtype=int)
        if step is not None and 0 < len(step.samples) <= MAX_LIT_SAMPLES:
            self.samples = np.asarray(step.samples, dtype=int)
        why = why_no_lines(model, hold)
        if why is not None or self.data is None:
            self.clear()
            self.words = why or ""
            return self.words
        _, data, _ = self.data
        lines = point_lines(model, data, k, hold)
        if lines is None or len(data.y) != len(data.X):
            self.clear()
            return ""
        segments = clip(lines, box)
        shown = np.flatnonzero(np.isfinite(segments[:, 0, 0]))
        thinned = len(shown) > MAX_LINES
        if thinned:
            a = lines.normal[shown]
            dist = np.abs(a @ model.coef[k] - lines.offset[shown]) / np.linalg.norm(a, axis=1)
            shown = shown[np.argsort(dist, kind="stable")[:MAX_LINES]]
        show_curve(self.lines, *_polyline(segments[shown]))
        polygon = feasible(lines, box) if hard else np.zeros((0, 2))
        near = nearest_to_origin(polygon) if len(polygon) else None
        self.region.setPolygon(QtGui.QPolygonF([QtCore.QPointF(*p) for p in polygon]))
        self.region.setVisible(len(polygon) > 0)
        if near is None:
            show_curve(self.nearest, [], [])
        else:
            show_curve(self.nearest, [0.0, near[0]], [0.0, near[1]])
        self.drawn = dict(lines=lines, segments=segments, shown=shown, polygon=polygon,
                          nearest=near)  # fmt: skip
        tip = self.tooltip(lines.words, thinned, hard)
        if tip != self.plot.toolTip():
            self.plot.setToolTip(tip)
        self.words = lines.words + (f" ({MAX_LINES} nearest w drawn)" if thinned else "")
        self._light()
        return self.words

    @staticmethod
    def tooltip(words: str, thinned: bool, hard: bool) -> str:
        text = f"Each training point is a line: {words}, the other parts held."
        if hard:
            text += (
                " Shaded: the feasible region, where every constraint holds on this slice"
                " of b; at b = b* its point nearest 0 (dotted from 0) is w*, touched only by"
                " the support vectors' lines."
            )
        else:
            text += " The loss's kinks lie on these lines."
        if thinned:
            text += f" Many points: only the {MAX_LINES} lines nearest the model's w are drawn."
        return text + " Hover a line to light its point in the plane."

    def clear(self) -> None:
        self.drawn = {}
        self.words = ""
        for item in (self.lines, self.lit, self.nearest):
            show_curve(item, [], [])
        self.region.hide()
        self.plot.setToolTip("")

    # ------------------------------------------------------------------ lighting
    def light_point(self, i: int) -> None:
        """Light the line of point ``i`` (its index among the session's points; −1: none)."""
        self.hovered = int(i)
        self._light()

    def lit_points(self) -> np.ndarray:
        """The points (training indices) whose lines are lit: the hovered, else the step's."""
        if self.data is None:
            return np.zeros(0, dtype=int)
        index = self.data[2]
        if self.hovered >= 0:
            if index is None:
                return np.array([self.hovered])
            return np.flatnonzero(np.asarray(index) == self.hovered)
        if self._over >= 0:
            return self.lit_of(self._over)
        return self.samples

    def lit_of(self, i: int) -> np.ndarray:
        index = None if self.data is None else self.data[2]
        return np.array([i]) if index is None else np.flatnonzero(np.asarray(index) == i)

    def _light(self) -> None:
        lines = self.drawn.get("lines")
        if lines is None:
            show_curve(self.lit, [], [])
            return
        mine = np.flatnonzero(np.isin(lines.owner, self.lit_points()))
        segments = self.drawn["segments"][mine]
        show_curve(self.lit, *_polyline(segments[np.isfinite(segments[:, 0, 0])]))

    def _session_index(self, owner: int) -> int:
        index = None if self.data is None else self.data[2]
        return int(owner) if index is None else int(np.asarray(index)[owner])

    def line_at(self, pos: QtCore.QPointF) -> int:
        """The session index of the point whose drawn line passes within PICK_PIXELS of the
        view position ``pos`` (data coordinates), or −1."""
        lines = self.drawn.get("lines")
        if lines is None or not len(self.drawn["shown"]):
            return -1
        shown = self.drawn["shown"]
        vb = self.plot.getPlotItem().vb
        px = vb.viewPixelSize()[0]
        a = lines.normal[shown]
        dist = np.abs(a @ np.array([pos.x(), pos.y()]) - lines.offset[shown])
        dist /= np.linalg.norm(a, axis=1)
        j = int(np.argmin(dist))
        return self._session_index(lines.owner[shown[j]]) if dist[j] <= PICK_PIXELS * px else -1

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QtCore.QEvent.Type.Leave:
            self._hover(-1)
        return False

    @QtCore.Slot(object)
    def _on_moved(self, scene_pos) -> None:
        vb = self.plot.getPlotItem().vb
        inside = self.plot.isVisible() and vb.sceneBoundingRect().contains(scene_pos)
        self._hover(self.line_at(vb.mapSceneToView(scene_pos)) if inside else -1)

    def _hover(self, over: int) -> None:
        if over != self._over:
            self._over = over
            self._light()
            self.line_hovered.emit(over)
