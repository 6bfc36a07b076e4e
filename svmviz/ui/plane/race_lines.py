"""A race's other runs on the plane (svmviz.ui.views.registry.race_view): runs 2–4's boundaries and,
lighter, their margins in their colours (RACE_COLORS) and dashes, named in the plane's legend
by what differs. The decision plot owns one :class:`RaceLines`."""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6 import QtCore

from svmviz.core.palette import RACE_COLORS
from svmviz.ui import style
from svmviz.ui.plane.items import Sample, polylines

DASHES = {
    "solid": QtCore.Qt.PenStyle.SolidLine,
    "dash": QtCore.Qt.PenStyle.DashLine,
    "dot": QtCore.Qt.PenStyle.DotLine,
    "dashdot": QtCore.Qt.PenStyle.DashDotLine,
}
MARGIN_ALPHA = 110  # a companion's margins: its colour, lighter (its boundary is opaque)
COMPANIONS = len(RACE_COLORS) - 1


def pen(color: str, dash: str, width: float, alpha: int = 255) -> QtCore.QObject:
    """A run's pen (a margin's: ``alpha`` < 255), flat caps so that dots stay dots."""
    c = pg.mkColor(color)
    c.setAlpha(alpha)
    p = pg.mkPen(c, width=width, style=DASHES[dash])
    p.setCapStyle(QtCore.Qt.PenCapStyle.FlatCap)
    return p


def run_name(k: int, label: str) -> str:
    """A run's legend name: "run 2: SGD" (k counts from 1)."""
    return f"run {k}: {html.escape(label, quote=False)}"


class RaceLines(QtCore.QObject):
    """The companions' lines on ``plot`` (a DecisionPlot: its scale and legend), hidden
    without a race."""

    def __init__(self, plot):
        super().__init__(plot)
        self.plot = plot
        self.boundaries = [pg.PlotCurveItem(connect="finite") for _ in range(COMPANIONS)]
        self.margins = [pg.PlotCurveItem(connect="finite") for _ in range(COMPANIONS)]
        for item in (*self.boundaries, *self.margins):
            item.setZValue(3)  # over the regions and run 1's lines, under the points
            item.hide()
            plot.addItem(item)
        self.race = None  # the RaceFrame drawn
        # each item pair's contours drawn: a kernel race redraws one run's lines a frame
        # (svmviz.app.race_runner), the others come as the same dicts and are not set again
        self._drawn: list = [None] * COMPANIONS
        self._styles: tuple = ()
        self._key = None  # the legend's entries drawn
        self.set_scale(1.0)

    def show(self, race) -> bool:
        """Draw ``race`` (a RaceFrame; None: no race); whether the legend changes."""
        self.race = race
        runs = () if race is None else race.runs
        for i, (b, m) in enumerate(zip(self.boundaries, self.margins, strict=True)):
            if i < len(runs) and runs[i].contours is not self._drawn[i]:
                run = runs[i]
                b.setData(*polylines(run.contours["boundary"]))
                m.setData(*polylines(run.contours["margin"]))
                self._drawn[i] = run.contours
            b.setVisible(i < len(runs))
            m.setVisible(i < len(runs) and bool(runs[i].contours["margin"]))
        styles = () if race is None else tuple((r.color, r.dash) for r in runs)
        if styles != self._styles:
            self._styles = styles
            self._pens()
        key = self.legend_key()
        changed, self._key = key != self._key, key
        return changed

    def legend_key(self):
        return None if self.race is None else (tuple(self.race.labels), self._styles)

    def legend_entries(self) -> list[tuple[object, str]]:
        """One entry per run, its boundary above its margins: run 1 (the plane's own black
        lines) first."""
        race = self.race
        if race is None:
            return []
        k = self.plot.scale
        entries: list[tuple[object, str]] = [
            (
                Sample(self.plot.boundary, k, below=self.plot.margin),
                run_name(1, race.label) + " (f = 0 above its margins)",
            )
        ]
        for i, run in enumerate(race.runs):
            below = self.margins[i] if run.contours["margin"] else None
            entries.append((Sample(self.boundaries[i], k, below=below), run_name(i + 2, run.label)))
        return entries

    def lines(self) -> list:
        """Its items drawn, for the legend's placement."""
        return [item for item in (*self.boundaries, *self.margins) if item.isVisible()]

    def set_scale(self, k: float) -> None:
        self.scale = k
        self._pens()

    def _pens(self) -> None:
        k = getattr(self, "scale", 1.0)
        for i, (color, dash) in enumerate(self._styles):
            self.boundaries[i].setPen(pen(color, dash, style.LINE_WIDTH * k))
            self.margins[i].setPen(pen(color, dash, 2 * k, MARGIN_ALPHA))
