"""The step inspector's marks on the plane: the sampled point ringed; for linear binary and
one-class models the previous boundary ghosted and the update as vectors from the origin,
w_t, its shrink (1 − η_t λ) w_t and the push (η_t/k) Σ g_i x_i that add up to w_{t+1}, with
Pegasos' projection ball; for a 1-D regression the sampled point's residual to f and the part
of it beyond the tube. The words are the panel's (svmviz.ui.views.step_view)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from svmviz.core.palette import OPTIMUM_COLOR, STEP_COLORS
from svmviz.core.pictures.lines import level_line
from svmviz.ui import style

# the update's vectors (colorblind-safe; the legend is in the panel)
VECTOR_PENS = {
    "w_before": (STEP_COLORS["w_before"], QtCore.Qt.PenStyle.DashLine),
    "shrink": (STEP_COLORS["shrink"], QtCore.Qt.PenStyle.SolidLine),
    "push": (STEP_COLORS["push"], QtCore.Qt.PenStyle.SolidLine),
    "w_after": ("#000000", QtCore.Qt.PenStyle.SolidLine),
}
RESIDUAL_COLOR = style.ERROR_COLOR  # beyond the tube: as the plane's segments outside it
ARROW_SHARE = 0.35  # the longest vector is drawn at most this share of the view's size


def arrow(start, end, head: float):
    """(x, y) of a shaft from ``start`` to ``end`` with a head of length ``head``, NaN-broken."""
    start, end = np.asarray(start, float), np.asarray(end, float)
    v = end - start
    n = float(np.hypot(*v))
    if n == 0.0:
        return np.array([]), np.array([])
    u = v / n
    h = min(head, 0.5 * n)
    c, s = np.cos(np.radians(25)), np.sin(np.radians(25))
    left = end - h * np.array([c * u[0] - s * u[1], s * u[0] + c * u[1]])
    right = end - h * np.array([c * u[0] + s * u[1], -s * u[0] + c * u[1]])
    pts = [start, end, [np.nan, np.nan], left, end, right]
    xy = np.array(pts)
    return xy[:, 0], xy[:, 1]


class StepOverlay:
    """The inspector's items on the decision plot (created once, hidden between steps)."""

    def __init__(self, plot):
        self.plot = plot
        self.sampled = pg.ScatterPlotItem(
            size=style.POINT_SIZE + 22, symbol="s", brush=None, pen=pg.mkPen("#000000", width=3)
        )
        self.ghost = pg.PlotCurveItem(
            pen=pg.mkPen((90, 90, 90), width=2, style=QtCore.Qt.PenStyle.DotLine),
            connect="finite",
        )
        self.vectors = {
            name: pg.PlotCurveItem(pen=pg.mkPen(color, width=3, style=dash), connect="finite")
            for name, (color, dash) in VECTOR_PENS.items()
        }
        # the projection ball ‖w‖ ≤ B (002), in the same scale as the vectors
        self.ball = pg.PlotCurveItem(
            pen=pg.mkPen(OPTIMUM_COLOR, width=2, style=QtCore.Qt.PenStyle.DashDotLine)
        )
        # a 1-D regression's sampled point: its residual to the curve f (dotted) and the
        # part of it outside the tube (solid), the distance its loss counts
        self.residual = pg.PlotCurveItem(
            pen=pg.mkPen("#555555", width=2, style=QtCore.Qt.PenStyle.DotLine), connect="finite"
        )
        self.outside = pg.PlotCurveItem(pen=pg.mkPen(RESIDUAL_COLOR, width=4), connect="finite")
        self.items = [
            self.ghost,
            self.ball,
            *self.vectors.values(),
            self.residual,
            self.outside,
            self.sampled,
        ]
        for item in self.items:
            item.setZValue(20)
            plot.addItem(item)
        self.scale = 1.0
        self.hide()

    def hide(self) -> None:
        for item in self.items:
            item.hide()
        self.plot.show_step_marks(None)

    def show(self, record, X: np.ndarray, extent) -> None:
        """Draw ``record`` (svmviz.core.lesson.explain.StepRecord) over the points ``X``."""
        for item in self.items:
            item.hide()
        if record is None:
            self.plot.show_step_marks(None)
            return
        batch = record.batch < len(X)
        marked = record.samples if batch else record.samples[record.violated]
        marked = marked[marked < len(X)]
        self.sampled.setData(X[marked, 0], X[marked, 1])
        self.sampled.show()
        label = "sampled in this step" if batch else "with a loss term in this step"
        self.plot.show_step_marks((self.sampled, label))
        if record.kind == "regression" and record.inputs == 1:
            self._show_residuals(record, X, marked)
        if not arrows_drawn(record):
            return  # kernel, multiclass or regression: the panel tells the rest
        # the boundary before the step: f = 0 (one-class: ⟨w, x⟩ = ρ)
        level = record.rho if record.kind == "one-class" else 0.0
        lines = level_line(record.w_before, record.b_before, level, extent)
        if lines:
            self.ghost.setData(lines[0][:, 0], lines[0][:, 1])
            self.ghost.show()
        x0, x1, y0, y1 = extent
        size = min(x1 - x0, y1 - y0)
        vecs = [record.w_before, record.shrink, record.w_after, record.shrink + record.push]
        longest = max(float(np.hypot(*v)) for v in vecs)
        if record.radius > 0:
            longest = max(longest, record.radius)
        self.scale = min(1.0, ARROW_SHARE * size / longest) if longest > 0 else 1.0
        k = self.scale
        head = 0.03 * size
        o = np.zeros(2)
        if record.radius > 0:
            angle = np.linspace(0, 2 * np.pi, 181)
            r = k * record.radius
            self.ball.setData(r * np.cos(angle), r * np.sin(angle))
            self.ball.show()
        for name, (a, b) in {
            "w_before": (o, record.w_before),
            "shrink": (o, record.shrink),
            "push": (record.shrink, record.shrink + record.push),
            "w_after": (o, record.w_after),
        }.items():
            x, y = arrow(k * a, k * b, head)
            self.vectors[name].setData(x, y)
            self.vectors[name].setVisible(len(x) > 0)

    def _show_residuals(self, record, X, marked) -> None:
        """Each marked point (x, y) of a 1-D regression (the plane: x the input, y the
        target) to f(x) before the step, the part beyond the tube f ± ε solid."""
        rows = {int(i): j for j, i in enumerate(record.samples)}
        dotted, solid = [], []
        for i in marked:
            j = rows[int(i)]
            x, y = float(X[i, 0]), float(X[i, 1])
            f, eps = float(record.scores[j, 0]), float(record.epsilon or 0.0)
            dotted += [(x, y), (x, f), (np.nan, np.nan)]
            if abs(y - f) > eps:
                solid += [(x, y), (x, f + np.sign(y - f) * eps), (np.nan, np.nan)]
        for item, pts in ((self.residual, dotted), (self.outside, solid)):
            if pts:
                xy = np.array(pts)
                item.setData(xy[:, 0], xy[:, 1])
                item.show()


def arrows_drawn(record) -> bool:
    """Whether the plane draws the update as vectors: linear binary and one-class models in
    the plane's two coordinates (a regression's w moves the curve, not a boundary: its step
    is the residual to the tube; a 1-D input has a scalar w)."""
    return (
        record is not None
        and record.w_before is not None
        and record.kind in ("binary", "one-class")
        and len(record.w_before) == 2
    )
