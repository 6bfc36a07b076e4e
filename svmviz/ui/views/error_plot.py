"""Training and test error against one knob (a learning curve's size, a sweep's λ, γ or
degree), the plot the Generalization tab shows twice."""

from __future__ import annotations

import math
import sys

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from svmviz.ui import style
from svmviz.ui.views.curves import legend_above

TRAIN_PEN = dict(color=style.class_color(0), width=2)
TEST_PEN = dict(color=style.class_color(1), width=2, style=QtCore.Qt.PenStyle.DashLine)


def log_ticks(lo: float, hi: float) -> list:
    """Ticks (log10 position, label) at 1, 2, 5 × 10^k within [lo, hi] (only 1 and 5 when
    that makes more than 8): pyqtgraph's own log ticks crowd an axis of under 3 decades."""
    ticks = []
    # (within a float's decades: 10.0**309 overflows)
    decades = range(max(math.floor(math.log10(lo)), -307), min(math.ceil(math.log10(hi)), 307) + 1)
    for mantissas in ((1, 2, 5), (1, 5), (1,)):
        ticks = [
            (math.log10(v), f"{v:g}")
            for k in decades
            for v in (m * 10.0**k for m in mantissas)
            if lo / 1.05 <= v <= hi * 1.05
        ]
        if len(ticks) <= 8:
            break
    return ticks


# what the curves measure, by problem kind (svmviz.core.lesson.generalization.error_on)
MEASURES = {"svc": "error", "regression": "MAE", "one-class": "outliers / m"}


class CurvePlot(pg.PlotWidget):
    """Training and test error against one knob, with the current setting marked; a click
    on a point emits ``picked(value)``."""

    picked = QtCore.Signal(float)

    def __init__(self, x_label: str, parent=None):
        super().__init__(parent, enableMenu=False)
        self.getPlotItem().hideButtons()  # the "A" (auto range) button
        self.setMouseEnabled(x=False, y=False)  # a click picks a point; no pan or zoom
        self.setToolTip("click a point to load that configuration and train it")
        self.setLabel("left", "error")
        self.setLabel("bottom", x_label)
        for side in ("left", "bottom"):
            self.getAxis(side).enableAutoSIPrefix(False)
        legend_above(self, 2)
        common = dict(symbolSize=10, symbolPen=None)
        self.train = self.plot(
            pen=pg.mkPen(**TRAIN_PEN),
            symbol="o",
            name="training error",
            symbolBrush=TRAIN_PEN["color"],
            **common,
        )
        self.test = self.plot(
            pen=pg.mkPen(**TEST_PEN),
            symbol="s",
            name="test error",
            symbolBrush=TEST_PEN["color"],
            **common,
        )
        for item in (self.train, self.test):
            item.sigPointsClicked.connect(self._on_click)
        self.current = pg.InfiniteLine(
            angle=90, pen=pg.mkPen((60, 60, 60), width=1, style=QtCore.Qt.PenStyle.DotLine)
        )
        self.current.hide()
        self.addItem(self.current)
        self.values = np.zeros(0)
        self.log_x = False
        self.getPlotItem().getViewBox().disableAutoRange()  # ranges follow the points only
        self.setYRange(0, 0.5, padding=0.05)

    def set_measure(self, kind: str) -> None:
        """The error of the problem in force (SolverConfig.kind): the 0-1 error, a
        regression's mean absolute error, a one-class model's share of outliers."""
        word = MEASURES.get(kind, "error")
        if self.getAxis("left").labelText != word:
            self.setLabel("left", word)
            legend = self.getPlotItem().legend
            for item, part in ((self.train, "training"), (self.test, "test")):
                label = legend.getLabel(item)
                if label is not None:
                    label.setText(f"{part} {word}")

    def set_log_x(self, on: bool) -> None:
        self.log_x = bool(on)
        self.setLogMode(x=self.log_x, y=False)

    def show_points(self, points) -> None:
        self.values = np.array([p.value for p in points], dtype=float)
        train = np.array([p.train_error for p in points], dtype=float)
        test = np.array([p.test_error for p in points], dtype=float)
        self.train.setData(self.values, train, connect="finite")
        self.test.setData(self.values, test, connect="finite")
        top = np.nanmax(np.concatenate([train, test, [0.1]]))
        self.setYRange(0, min(1.0, 1.15 * top), padding=0.02)
        if len(self.values):
            self._range_x(self.values.min(), self.values.max())

    def mark(self, value: float | None) -> None:
        """The dotted line at the current setting (None hides it)."""
        if value is None or value <= 0 and self.log_x:
            self.current.hide()
            return
        self.current.setValue(math.log10(value) if self.log_x else value)
        self.current.show()
        if not len(self.values):  # no curve yet: an axis around the current setting
            lo, hi = (value / 10, value * 10) if self.log_x else (1, 8)
            self._range_x(lo, hi)

    def _range_x(self, lo: float, hi: float) -> None:
        # (a setting near a float's ends: a decade beyond it is 0 or inf)
        lo, hi = max(lo, sys.float_info.min), min(hi, sys.float_info.max)
        if self.log_x:
            self.setXRange(math.log10(lo), math.log10(max(hi, lo * 1.01)), padding=0.05)
            self.getAxis("bottom").setTicks([log_ticks(lo, hi)])
        else:
            self.setXRange(lo, max(hi, lo + 1), padding=0.05)
            self.getAxis("bottom").setTicks(None)

    def _on_click(self, item, points, *_):
        if len(points):
            self.picked.emit(float(self.values[points[0].index()]))
