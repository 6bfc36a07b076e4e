"""What the weight-space view draws over the landscape (svmviz.ui.views.weight_space): F(w) as an
image with iso lines, the level set of the current F, the exact optimum w*, the paths of
the iterate and of the output, the current step's shrink and push arrows (the step
inspector's vectors, svmviz.ui.plane.step_arrows, drawn where they live), the projection ball,
the hand-set w and a race's paths. pyqtgraph items on one plot, created once."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from svmviz.core.palette import OPTIMUM_COLOR
from svmviz.core.pictures.landscape import Landscape
from svmviz.ui.plane.step_arrows import VECTOR_PENS, arrow
from svmviz.ui.views.spot_item import SpotItem

# the landscape in greys (low F light): the class colours stay the points' and the lines'
LOW, HIGH = "#FFFFFF", "#8A8A8A"
ISO_COLOR = "#6E6E6E"
LEVEL_COLOR = "#6A3D9A"  # the level set {F = F(w)} through the model (no class's colour)
HAND_COLOR = "#D55E00"
ISO_LEVELS = 8  # iso lines over the grid
HEAD_SHARE = 0.035  # an arrow head, of the grid's side
DOT = QtCore.Qt.PenStyle.DotLine
DASH = QtCore.Qt.PenStyle.DashLine


def iso_levels(values: np.ndarray, n: int = ISO_LEVELS) -> np.ndarray:
    """``n`` levels between the grid's least F and its largest, denser near the least
    (where the optimum is): F_min + (F_max − F_min) q² for q evenly spaced in (0, 1)."""
    lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
    q = np.linspace(0.0, 1.0, n + 2)[1:-1]
    return lo + (hi - lo) * q**2


def contour_xy(gen, levels) -> tuple[np.ndarray, np.ndarray]:
    """The contours of ``gen`` (a contourpy generator of a landscape) at ``levels``, as one
    NaN-broken polyline (x, y)."""
    parts = []
    for v in np.atleast_1d(levels):
        for line in gen.lines(float(v)):
            parts.append(line)
            parts.append(np.array([[np.nan, np.nan]]))
    if not parts:
        return np.array([]), np.array([])
    xy = np.vstack(parts)
    return xy[:, 0], xy[:, 1]


def show_curve(item: pg.PlotCurveItem, x, y) -> None:
    """``item`` drawn through (x, y), hidden when empty: an empty curve still has its
    bounds and its paint asked for at every repaint (several a drawing)."""
    if len(x) == 0:
        if item.isVisible():
            item.setData([], [])
            item.hide()
        return
    item.setData(x, y)
    item.show()


def at(land: Landscape, w) -> float:
    """F at ``w`` read off the grid (bilinear; NaN outside it)."""
    x, y = float(w[0]), float(w[1])
    w1, w2 = land.w1, land.w2
    if not (w1[0] <= x <= w1[-1] and w2[0] <= y <= w2[-1]):
        return float("nan")
    i = min(int(np.searchsorted(w1, x, side="right")) - 1, len(w1) - 2)
    j = min(int(np.searchsorted(w2, y, side="right")) - 1, len(w2) - 2)
    tx = (x - w1[i]) / (w1[i + 1] - w1[i])
    ty = (y - w2[j]) / (w2[j + 1] - w2[j])
    v = land.values
    return float(
        (1 - tx) * (1 - ty) * v[j, i]
        + tx * (1 - ty) * v[j, i + 1]
        + (1 - tx) * ty * v[j + 1, i]
        + tx * ty * v[j + 1, i + 1]
    )


class WeightItems:
    """The items on ``plot`` (a pyqtgraph PlotItem), in drawing order."""

    def __init__(self, plot):
        self.plot = plot
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setColorMap(pg.ColorMap([0.0, 1.0], [LOW, HIGH]))
        self.iso = pg.PlotCurveItem(pen=pg.mkPen(ISO_COLOR, width=1), connect="finite")
        self.level = pg.PlotCurveItem(
            pen=pg.mkPen(LEVEL_COLOR, width=2, style=DASH), connect="finite"
        )
        self.ball = pg.PlotCurveItem(
            pen=pg.mkPen(OPTIMUM_COLOR, width=2, style=QtCore.Qt.PenStyle.DashDotLine)
        )
        self.output = pg.PlotCurveItem(pen=pg.mkPen("#000000", width=3, style=DASH))
        self.iterate = pg.PlotCurveItem(pen=pg.mkPen("#555555", width=1.5))
        self.vectors = {
            name: pg.PlotCurveItem(pen=pg.mkPen(VECTOR_PENS[name][0], width=3), connect="finite")
            for name in ("shrink", "push")
        }
        self.projected = pg.PlotCurveItem(
            pen=pg.mkPen("#000000", width=2, style=DOT), connect="finite"
        )
        self.optimum = SpotItem(  # (over the model's dot, which shows through)
            size=26,
            symbol="star",
            brush=pg.mkBrush(pg.mkColor(OPTIMUM_COLOR + "78")),  # (alpha 120)
            pen=pg.mkPen("#0B5022", width=2),  # (a darker OPTIMUM_COLOR)
        )
        self.current = SpotItem(
            size=10, symbol="o", brush=pg.mkBrush("#000000"), pen=pg.mkPen("#FFFFFF", width=1.5)
        )
        self.hand = SpotItem(
            size=16, symbol="d", brush=pg.mkBrush(HAND_COLOR), pen=pg.mkPen("#000000", width=1)
        )
        self.race: list = []  # one curve per race run
        self._contours = (None, None)  # (landscape, its contour generator)
        self._radius = -1.0  # the ball's drawn (none yet)
        for z, item in enumerate(
            [
                self.image,
                self.iso,
                self.level,
                self.ball,
                self.iterate,
                self.output,
                *self.vectors.values(),
                self.projected,
                self.hand,
                self.current,
                self.optimum,
            ]
        ):
            item.setZValue(z - 10)
            plot.addItem(item, ignoreBounds=isinstance(item, SpotItem))  # (its bounds: pixels)
        self.hand.hide()
        # the landscape and its iso lines change with a new landscape, not with each drawing
        # of the path and the marks over them: painted from pixmaps until then
        for item in (self.image, self.iso):
            item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)

    @staticmethod
    def legend_html(averaged: bool, hand: bool = False, lines: str = "", hard: bool = False) -> str:
        """One line of rich text naming the marks (below the plot: no key over the
        landscape); ``lines``: what a point's line is, or why there are none (words with no
        line mark: they start "No"); ``hard``: the feasible region is shaded."""

        def mark(color: str, glyph: str, words: str) -> str:
            return f'<span style="color:{color}"><b>{glyph}</b></span>&nbsp;{words}'

        parts = [mark("#555555", "—", "w<sub>t</sub>")]
        if averaged:
            parts.append(mark("#000000", "- -", "w̄<sub>t</sub>"))
        parts += [
            mark("#000000", "●", "your w (by hand)" if hand else "model"),
            mark(OPTIMUM_COLOR, "★", "w*"),
            mark(LEVEL_COLOR, "- -", "F = F(your w)" if hand else "F = F(model)"),
        ]
        if lines.startswith("No"):
            parts.append(lines)
        elif lines:
            parts.append(mark("#4A6A8A", "—", f"a point: {lines}"))
            if hard:
                parts.append(mark(OPTIMUM_COLOR, "▮", "feasible (dotted: 0 to its nearest point)"))
        return "<small>" + " &nbsp; ".join(parts) + "</small>"

    def show_landscape(self, land: Landscape | None) -> None:
        """The image and its iso lines (None: none)."""
        if land is None:
            self.image.hide()
            show_curve(self.iso, [], [])
            return
        v = land.values
        lo, hi = float(np.nanmin(v)), float(np.nanmax(v))
        # shaded by √(F − F_min): the basin's shape shows, not only its far walls
        shade = np.sqrt(np.clip(v - lo, 0.0, None) / max(hi - lo, 1e-300))
        self.image.setImage(shade, levels=(0.0, 1.0), autoLevels=False)
        d1 = (land.w1[-1] - land.w1[0]) / (len(land.w1) - 1)
        d2 = (land.w2[-1] - land.w2[0]) / (len(land.w2) - 1)
        self.image.setRect(
            QtCore.QRectF(
                land.w1[0] - d1 / 2, land.w2[0] - d2 / 2, d1 * len(land.w1), d2 * len(land.w2)
            )
        )
        self.image.show()
        show_curve(self.iso, *contour_xy(self._generator(land), iso_levels(v)))

    def _generator(self, land: Landscape):
        """The contour generator of ``land``, made once per landscape (the level set is
        drawn at every drawing, the landscape changes a few times a second at most)."""
        import contourpy

        if self._contours[0] is not land:
            self._contours = (land, contourpy.contour_generator(land.w1, land.w2, land.values))
        return self._contours[1]

    def show_level(self, land: Landscape | None, value: float) -> None:
        if land is None or not np.isfinite(value):
            show_curve(self.level, [], [])
        else:
            show_curve(self.level, *contour_xy(self._generator(land), [value]))

    def show_paths(self, iterate: np.ndarray, output: np.ndarray | None) -> None:
        """The iterates' path, and the outputs' when they differ (averaging)."""
        show_curve(self.iterate, iterate[:, 0], iterate[:, 1])
        if output is None:
            show_curve(self.output, [], [])
        else:
            show_curve(self.output, output[:, 0], output[:, 1])

    def show_point(self, item: SpotItem, w) -> None:
        if w is None:
            item.hide()
        else:
            item.setData([float(w[0])], [float(w[1])])
            item.show()

    def show_ball(self, radius: float) -> None:
        if radius == self._radius:  # (as drawn: the same circle)
            return
        self._radius = radius
        if radius <= 0:
            show_curve(self.ball, [], [])
            return
        angle = np.linspace(0, 2 * np.pi, 241)
        show_curve(self.ball, radius * np.cos(angle), radius * np.sin(angle))

    def show_step(self, parts: dict | None, side: float) -> None:
        """The step's vectors: ``parts`` maps "shrink", "push" and "projected" to (start,
        end) in weight space; ``side``: the grid's side (the heads' size)."""
        parts = parts or {}
        head = HEAD_SHARE * side
        for name in ("shrink", "push", "projected"):
            item = self.projected if name == "projected" else self.vectors[name]
            show_curve(item, *(arrow(*parts[name], head) if name in parts else ([], [])))

    def show_race(self, paths: list, colors: list, styles: list) -> None:
        """One curve per run (N×2 points), in its colour and line style."""
        while len(self.race) > len(paths):  # (kept between frames: setData, not re-added)
            self.plot.removeItem(self.race.pop())
        while len(self.race) < len(paths):
            item = pg.PlotCurveItem()
            item.setZValue(-2)
            self.plot.addItem(item)
            self.race.append(item)
        for item, xy, color, dash in zip(self.race, paths, colors, styles, strict=True):
            item.setData(xy[:, 0], xy[:, 1], pen=pg.mkPen(color, width=2.5, style=dash))

    def clear(self) -> None:
        self.show_landscape(None)
        self.show_level(None, float("nan"))
        empty = np.zeros((0, 2))
        self.show_paths(empty, None)
        self.show_ball(0.0)
        self.show_step(None, 1.0)
        for item in (self.optimum, self.current):
            item.hide()
