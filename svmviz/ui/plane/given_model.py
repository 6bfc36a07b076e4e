"""A fitted model given from Python (``svmviz.show(X, y, model=...)``: an
svmviz.core.pictures.overlay.Overlay) drawn over the decision plot, fixed while svmviz's own solver
trains underneath: its boundary and margins (curve and tube, contours) over the view,
redrawn once a pan or a zoom comes to rest, its support vectors ringed, and its entries in
the plane's legend, which say when the points are no longer the ones it was fitted on.
svmviz.ui.plane.decision_plot creates one and asks it for its legend entries.

:func:`overlay_words` names the lines of any model drawn over the plane: the exact
optimum's legend entry uses it too.
"""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6 import QtCore

from svmviz.ui import style
from svmviz.ui.plane.items import Marks, Sample, polylines

# reddish purple (Paul Tol's), apart from the classes' first colours, the black boundary,
# the grey margins and the optimum's green
GIVEN_COLOR = "#AA3377"
GIVEN_RING = style.POINT_SIZE + 18  # around the window's own rings (at most POINT_SIZE + 14)


def overlay_words(kind: str, has_margin: bool) -> str:
    """What the lines of a model drawn over the plane are (the exact optimum's, a given
    model's), in the legend, for a frame of ``kind``."""
    if kind == "regression":
        return "curve, tube"
    if kind == "regression2d":
        return "contours"
    return "boundary, margins" if kind == "svc" and has_margin else "boundary"


class GivenModel(QtCore.QObject):
    """The given model's items on ``plot`` (a DecisionPlot: its view, extent, grid size,
    scale and points are read here): ``boundary``, ``margin`` and ``rings``, hidden while
    ``overlay`` is None."""

    def __init__(self, plot):
        super().__init__(plot)
        self.plot = plot
        self.boundary = pg.PlotCurveItem(connect="finite")
        self.margin = pg.PlotCurveItem(connect="finite")
        self.rings = Marks(size=GIVEN_RING, brush=None, symbol="o")
        for item in self.items():
            item.setZValue(4)
            item.hide()
            plot.addItem(item)
        self.overlay = None  # the Overlay drawn (None: none)
        self._drawn = None  # (overlay, extent) of the lines drawn last
        # its lines follow the view once a pan or a zoom comes to rest, as the regions do
        self._timer = QtCore.QTimer(self, singleShot=True, interval=50)
        self._timer.timeout.connect(self.draw)
        plot.view.sigRangeChanged.connect(self._timer.start)

    def items(self) -> tuple:
        return (self.boundary, self.margin, self.rings)

    def set(self, overlay) -> bool:
        """Draw ``overlay`` (None: none); whether it is another than the one drawn (the
        legend then changes)."""
        other = overlay is not self.overlay
        self.overlay = overlay
        self.draw()
        return other

    @QtCore.Slot()
    def draw(self) -> None:
        """Its lines over the plot's current view (when it changed)."""
        overlay = self.overlay
        if overlay is None:
            for item in self.items():
                item.hide()
            self._drawn = None
            return
        extent = self.plot.view_extent()
        if self._drawn == (overlay, extent):
            return
        self._drawn = (overlay, extent)
        frame = overlay.frame(extent, self.plot.grid_size())
        self.boundary.setData(
            *polylines(frame.contours["boundary"] + frame.contours.get("levels", []))
        )
        self.margin.setData(*polylines(frame.contours["margin"]))
        self.rings.setData(overlay.rings[:, 0], overlay.rings[:, 1])
        for item in self.items():
            item.show()

    def legend_key(self):
        """What its legend entries depend on: the model, and whether it fits the points."""
        overlay = self.overlay
        return None if overlay is None else (overlay, overlay.fits(self.plot.session.points))

    def legend_entries(self) -> list[tuple[object, str]]:
        """Its legend entries, (sample, label): its lines (the boundary above its margins
        where it has them), and its support vectors where it has them; said when the points
        are no longer the ones it was fitted on."""
        overlay = self.overlay
        if overlay is None:
            return []
        base, k = overlay.base, self.plot.scale
        name = html.escape(overlay.name)
        lines = overlay_words(base.kind, base.level > 0)
        if not overlay.fits(self.plot.session.points):
            lines += " (fitted on other points)"
        # (a classifier's margins, a 1-D tube's edges: a second line in the entry)
        below = self.margin if base.kind in ("svc", "regression") and base.level > 0 else None
        entries: list[tuple[object, str]] = [
            (Sample(self.boundary, k, below=below), f"{name}: {lines}")
        ]
        if len(overlay.rings):
            entries.append((Sample(self.rings, k, on_point=True), f"{name}: support vectors"))
        return entries

    def set_scale(self, k: float) -> None:
        """Its lines and rings ``k`` times their width and size."""
        dash, dot = QtCore.Qt.PenStyle.DashLine, QtCore.Qt.PenStyle.DotLine
        self.boundary.setPen(pg.mkPen(GIVEN_COLOR, width=3 * k, style=dash))
        self.margin.setPen(pg.mkPen(GIVEN_COLOR, width=2 * k, style=dot))
        self.rings.setPen(pg.mkPen(GIVEN_COLOR, width=2 * k))
        self.rings.setSize(GIVEN_RING * k)
