"""The per-iteration plots: the objective against the exact optimum (log-log), and the mean
loss, the training error and the margin width 2/‖w‖ (log t), in the problem's words
(``show_problem``): a regression's training and test mean absolute error instead of the 0-1
error (no margin), ν-SVR's ε as it is learned, a one-class model's share of outliers beside
ν, and ρ (with ν-SVC's margin 2ρ/‖w‖) where the problem learns it.

The iteration axis spans the budget T from the start, and the value axes move only when a
curve leaves them (in whole decades for the objective, with slack for the loss panel):
re-ranging an axis re-renders its ticks, which costs more than the curves themselves, and
a plot that re-ranges on every update is painted twice.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.lesson.generalization import TRAIN
from svmviz.core.lesson.scores import mean_absolute_error
from svmviz.core.problems import words
from svmviz.core.telemetry import HeldRows
from svmviz.ui import style

MIN_DECADES = 3  # of the log axes


def loss_axis_top(t, *curves) -> float:
    """The loss panel's upper limit: the curves after the first iterations (the hinge loss
    of the first Pegasos steps can be 20× its final value and would flatten everything)."""
    late = t > max(10.0, 0.02 * t[-1])
    if not late.any():  # stepping through the first iterations: show them all
        late = np.ones_like(late)
    values = np.concatenate([c[late] for c in curves])
    top = np.nanmax(values) if np.isfinite(values).any() else 1.0
    return float(max(1.0, 1.1 * top))


class Legend(pg.LegendItem):
    """pyqtgraph's legend, its entries laid out again in order after one is removed: its
    grid keeps the cells of the entries before, so an entry added later landed after a gap
    (the race's runs gone: "F(wₜ)" alone at the right, "exact optimum F*" a row below)."""

    def removeItem(self, item) -> None:
        super().removeItem(item)
        for i in range(self.layout.count() - 1, -1, -1):
            self.layout.removeAt(i)
        for sample, label in self.items:
            self._addItemToLayout(sample, label)
        self.updateSize()


def legend_above(plot, columns: int, text_size: str = "10pt") -> pg.LegendItem:
    """A legend in the plot's title row, above the axes, where it hides no data; items
    added to the plot with a ``name`` join it."""
    legend = Legend(frame=False, colCount=columns, labelTextSize=text_size)
    item = plot.getPlotItem()
    item.layout.removeItem(item.titleLabel)
    item.titleLabel.hide()
    item.layout.addItem(legend, 0, 0, 1, 3)  # from the left edge: room in a narrow column
    item.legend = legend  # PlotItem.plot(name=...) adds to it
    return legend


def scale_plot_text(plot, k: float, sides=("left", "bottom")) -> None:
    """A plot's tick labels, axis titles and legend (if any) at ``k`` times their normal
    size (presentation mode; k = 1 restores them)."""
    font = QtGui.QFont()
    font.setPointSize(round(9 * k))
    item = plot.getPlotItem()
    for side in sides:
        axis = item.getAxis(side)
        axis.setStyle(tickFont=font)
        axis.setLabel(axis.labelText, **{"font-size": f"{round(10 * k)}pt"})
    legend = item.legend
    if legend is not None:
        if not hasattr(legend, "columns"):
            legend.columns = legend.columnCount
        # larger text in a narrow column: one entry a row, so that nothing is cut
        legend.setColumnCount(legend.columns if k == 1 else 1)
        size = f"{round(10 if k == 1 else 9 * k)}pt"  # (at most 9·k: it fits the column)
        legend.setLabelTextSize(size)
        for _, label in legend.items:
            label.setText(label.text, size=size)


def decades(lo: float, hi: float) -> tuple[float, float]:
    """The smallest range of whole decades (log10 units) holding [lo, hi] (both > 0), and at
    least MIN_DECADES (with fewer, pyqtgraph labels every minor tick and the axis is a blur)."""
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    b = max(b, a + 1)
    return float(min(a, b - MIN_DECADES)), float(b)


class DecadeAxis(pg.AxisItem):
    """A log axis labelled at whole decades only: on a tall axis pyqtgraph puts every minor
    tick in one level and labels 2·10², 3·10², … on top of each other in large type."""

    def logTickStrings(self, values, scale, spacing):
        strings = super().logTickStrings(values, scale, spacing)
        return [s if abs(v - round(v)) < 1e-9 else "" for v, s in zip(values, strings, strict=True)]


def _log_plot() -> pg.PlotWidget:
    axes = {side: DecadeAxis(side) for side in ("left", "bottom")}
    return pg.PlotWidget(axisItems=axes, enableMenu=False)


class CurvePanel(QtWidgets.QSplitter):
    """The objective plot above the loss / error / margin-width plot."""

    def __init__(self, parent=None):
        super().__init__(QtCore.Qt.Orientation.Vertical, parent)
        self.objective_plot = _log_plot()
        self.objective_plot.setLogMode(x=True, y=True)
        self.objective_plot.setLabel("bottom", "iteration t")
        self.objective_plot.setLabel("left", "objective F(w)")
        legend_above(self.objective_plot, 2)
        self.objective = self.objective_plot.plot(
            pen=pg.mkPen(style.class_color(0), width=2), name="F(wₜ)"
        )
        self.optimum = self.objective_plot.plot(
            pen=pg.mkPen(style.class_color(1), width=2, style=QtCore.Qt.PenStyle.DashLine),
            name="exact optimum F*",
        )
        # suboptimality mode: F(w_t) − F* with the rates of the texts as guides
        self.guides = {
            "pegasos": self.objective_plot.plot(
                pen=pg.mkPen((90, 90, 90), width=2, style=QtCore.Qt.PenStyle.DashLine)
            ),
            "sqrt": self.objective_plot.plot(
                pen=pg.mkPen((90, 90, 90), width=2, style=QtCore.Qt.PenStyle.DotLine)
            ),
        }
        self.suboptimality = False
        self.loss_plot = _log_plot()
        self.loss_plot.setLogMode(x=True, y=False)
        self.loss_plot.setLabel("bottom", "iteration t")
        legend_above(self.loss_plot, 2)  # (two columns fit the window's side column)
        self.loss_curves = {
            name: self.loss_plot.plot(pen=pg.mkPen(color, width=2, style=dash), name=label)
            for name, label, color, dash in (
                ("loss", "hinge loss", style.class_color(0), QtCore.Qt.PenStyle.SolidLine),
                ("error", "training error", style.ERROR_COLOR, QtCore.Qt.PenStyle.SolidLine),
                ("width", "margin 2/‖w‖", style.class_color(2), QtCore.Qt.PenStyle.DashLine),
            )
        }
        # the support vectors (as ringed: svmviz.core.lesson.support) over time, a share of the m
        # training points
        self.support = self.loss_plot.plot(
            pen=pg.mkPen(style.class_color(3), width=2, style=QtCore.Qt.PenStyle.DotLine)
        )
        self._named = set()  # the optional curves (support vectors, test error) in the legend
        # a train/test split: the test error, sampled as training goes
        self.test_error = self.loss_plot.plot(
            pen=pg.mkPen(style.ERROR_COLOR, width=2, style=QtCore.Qt.PenStyle.DashDotLine)
        )
        # the problem's own numbers: ρ and ε as they are learned, ν (a one-class model's
        # bound on its share of outliers), the training MAE of a regression
        self.offset_curves = {
            name: self.loss_plot.plot(pen=pg.mkPen(color, width=2, style=dash))
            for name, color, dash in (
                ("rho", style.class_color(4), QtCore.Qt.PenStyle.SolidLine),
                ("epsilon", style.class_color(4), QtCore.Qt.PenStyle.DashLine),
                ("nu", (90, 90, 90), QtCore.Qt.PenStyle.DotLine),
            )
        }
        self.kind = "svc"
        self.problem = "svc"
        self._mae: list = []  # (t − t0, training MAE) of a regression, at the curves' pace
        for plot in (self.objective_plot, self.loss_plot):
            for side in ("left", "bottom"):
                plot.getAxis(side).enableAutoSIPrefix(False)  # no "(x1e+27)" on the label
            # the last tick's label (10³…) inside the widget, not cut at its right edge
            plot.getPlotItem().layout.setContentsMargins(0, 0, 12, 0)
            plot.getPlotItem().getViewBox().disableAutoRange()
            plot.getPlotItem().getViewBox().setMouseEnabled(x=False, y=False)
        self.addWidget(self.objective_plot)
        self.addWidget(self.loss_plot)
        self._x = None
        self._obj_y = None
        self.objective_range = (0.01, 10.0)  # what run 1's curve spans (show_history)
        self.scale = 1.0  # of text and a race's curves (presentation mode)
        self._linear = False  # the objective on a linear axis (it reaches 0 or below)
        self._loss_top = None
        self._warm_label = False
        # the last history's rows drawn: show_history and show_problem draw the same frame's
        # history (the scan for its exact rows is O(rows), on the GUI thread)
        self._last_pick: tuple[np.ndarray, int, tuple[np.ndarray, np.ndarray]] | None = None
        self._held = HeldRows()  # (the rows of run 1's objective found so far)
        self.set_budget(1000)
        self._range_objective(0.01, 10.0)  # until there is a curve
        self._range_loss(1.0)

    def set_scale(self, k: float) -> None:
        """Tick and legend text ``k`` times its size (presentation mode)."""
        self.scale = k
        for plot in (self.objective_plot, self.loss_plot):
            scale_plot_text(plot, k)

    def set_budget(self, iterations: int) -> None:
        """The iteration axes span 1..T (at least 1..1000)."""
        # (at least MIN_DECADES: with fewer, pyqtgraph labels every minor tick)
        x = (0.0, max(float(MIN_DECADES), math.log10(max(int(iterations), 10))))
        if x != self._x:
            self._x = x
            for plot in (self.objective_plot, self.loss_plot):
                plot.setXRange(*x, padding=0.02)

    def _label_x(self, warm: bool) -> None:
        if warm != self._warm_label:
            self._warm_label = warm
            # (a warm start, or a start w₀ set by hand: both begin at t₀)
            label = "iterations since the start at t₀, t − t₀" if warm else "iteration t"
            for plot in (self.objective_plot, self.loss_plot):
                plot.setLabel("bottom", label)

    def set_suboptimality(self, on: bool) -> None:
        """Plot F(w_t) − F* (log-log) with the O(log t/(λt)) guide of Pegasos (002) and the
        O(1/√t) guide of plain subgradient descent, instead of F(w_t) and F*."""
        self.suboptimality = bool(on)
        legend = self.objective_plot.getPlotItem().legend
        for item in (self.objective, self.optimum, *self.guides.values()):
            legend.removeItem(item)
        if on:
            legend.addItem(self.objective, "F(wₜ) − F*")
            legend.addItem(self.guides["pegasos"], "log t/(λt)")
            legend.addItem(self.guides["sqrt"], "1/√t")
            self.objective_plot.setLabel("left", "F(w) − F*")
        else:
            legend.addItem(self.objective, "F(wₜ)")
            legend.addItem(self.optimum, "exact optimum F*")
            self.objective_plot.setLabel("left", "objective F(w)")
        self._obj_y = None

    def clear(self) -> None:
        for item in (
            self.objective,
            self.optimum,
            *self.guides.values(),
            *self.loss_curves.values(),
        ):
            item.setData([], [])
        self.show_support([], [])
        self.show_test_error([], [])
        self._mae = []
        for name, item in self.offset_curves.items():
            self._show_optional(item, name, np.zeros(0), np.zeros(0))
        # a new run starts on the default axes (not those of a run that diverged to 1e150)
        self._set_linear(False)
        self._range_objective(0.01, 10.0)
        self._loss_top = None
        self._range_loss(1.0)

    def show_test_error(self, t, error) -> None:
        """The test error of a train/test split at the iterations ``t`` it was measured at
        (empty without a split: no legend entry); the problem's error (svmviz.app.split)."""
        t, error = np.asarray(t, float), np.asarray(error, float)
        keep = t >= 1  # (log axis)
        label = {"regression": "test MAE", "one-class": "test outliers / m"}.get(
            self.kind, "test error"
        )
        self._show_optional(self.test_error, label, t[keep], error[keep])

    def _label(self, item, text: str) -> None:
        label = self.loss_plot.getPlotItem().legend.getLabel(item)
        if label is not None and label.text != text:
            label.setText(text)

    def show_problem(self, snap, parts=None) -> None:
        """The curves in the words of ``snap``'s problem (after show_history): a regression's
        training mean absolute error (sampled here, at the curves' pace, from the frame's
        residuals t − f) instead of the 0-1 error and no margin width; a one-class model's
        share of outliers against ν; ρ and ε where the problem learns them (history columns
        "rho", "epsilon"), and ν-SVC's margin 2ρ/‖w‖."""
        model, history = snap.model, snap.history
        kind, problem = model.kind, model.problem
        if (kind, problem) != (self.kind, self.problem):
            self.kind, self.problem = kind, problem
            self._mae = []
        name = (model.loss or "mean").replace("epsilon_", "ε-")
        self._label(self.loss_curves["loss"], f"{words(name).replace('_', ' ')} loss")
        error_label = {"regression": "training MAE", "one-class": "outliers / m"}.get(
            kind, "training error"
        )
        self._label(self.loss_curves["error"], error_label)
        rows_t, pick = self._picked(history)
        n = len(rows_t)
        t = rows_t[pick].astype(float)
        width = self.loss_curves["width"]
        if kind == "regression":
            self._sample_mae(snap, parts)
            ts, mae = np.array(self._mae, dtype=float).T if self._mae else (t[:0], t[:0])
            self.loss_curves["error"].setData(ts, mae, connect="finite")
            width.setData([], [])
        elif kind == "one-class":
            width.setData([], [])
        elif "rho" in history and n:
            norm = history["norm"][pick]
            rho = history["rho"][pick]
            margin = np.where(norm > 0, 2.0 * rho / np.maximum(norm, 1e-300), np.nan)
            width.setData(t, margin, connect="finite")
        legend = self.loss_plot.getPlotItem().legend
        if (kind == "svc") != (legend.getLabel(width) is not None):  # a tube is not a margin
            if kind == "svc":
                legend.addItem(width, "")
            else:
                legend.removeItem(width)
        self._label(width, "margin 2ρ/‖w‖" if "rho" in history else "margin 2/‖w‖")
        for name, label in (("rho", "ρ"), ("epsilon", "ε (learned)")):
            column = history.get(name) if n else None
            if column is None:
                self._show_optional(self.offset_curves[name], label, t[:0], t[:0])
            else:
                self._show_optional(self.offset_curves[name], label, t, column[pick])
        nu = model.nu if kind == "one-class" and model.nu is not None and n else None
        if nu is None:
            self._show_optional(self.offset_curves["nu"], "ν", t[:0], t[:0])
        else:
            span = np.array([1.0, max(float(t[-1]), 2.0)])
            self._show_optional(self.offset_curves["nu"], "ν", span, np.array([nu, nu]))

    def _picked(self, history: dict) -> tuple[np.ndarray, np.ndarray]:
        """:func:`_picked`, once per history (a frame's: its objective column, as long)."""
        obj = history["objective"]
        last = self._last_pick
        if last is None or last[0] is not obj or last[1] != len(obj):
            last = self._last_pick = (obj, len(obj), _picked(history, self._held))
        return last[2]

    def _sample_mae(self, snap, parts) -> None:
        """The training MAE of ``snap`` (a regression), from its frame's residuals."""
        r = np.asarray(snap.frame.margins, dtype=float)
        if parts is not None and len(parts) == len(r):
            r = r[parts == TRAIN]
        t = float(snap.t - snap.t0)
        while self._mae and self._mae[-1][0] >= t:  # a step back: its future goes
            self._mae.pop()
        if t >= 1:
            self._mae.append((t, mean_absolute_error(r)))
        if len(self._mae) > 4096:
            self._mae = self._mae[:256] + self._mae[257::2]

    def show_support(self, t, share) -> None:
        """The number of support vectors over the iterations, divided by m (empty for a
        loss without them, which then has no legend entry for it)."""
        self._show_optional(
            self.support, "support vectors / m", np.asarray(t, float), np.asarray(share, float)
        )

    def _show_optional(self, item, label: str, x: np.ndarray, y: np.ndarray) -> None:
        """A curve of the loss panel that is in its legend only while it has points."""
        named = len(x) > 0
        if named != (item in self._named):
            legend = self.loss_plot.getPlotItem().legend
            if named:
                self._named.add(item)
                legend.addItem(item, label)
            else:
                self._named.discard(item)
                legend.removeItem(item)
        item.setData(x, y)

    def show_history(self, history: dict, optimum: float | None, t0: int = 0) -> None:
        """Draw the telemetry rows written so far (log-sampled) and the optimum F*.

        Row j is iteration t0 + t[j] (column t: rows of long runs are thinned); the curves
        are drawn against the iterations since the (warm) start, so that the axis still spans
        the budget."""
        obj = history["objective"]
        n = len(obj)
        if n == 0:
            self.clear()
            return
        self._label_x(warm=t0 > 0)
        rows_t, pick = self._picked(history)
        t = rows_t[pick].astype(float)
        # one-class (−ρ) and ν-SVC (−νρ) have objectives ≤ 0: off a log axis, on a linear one
        linear = not self.suboptimality and (
            bool((obj[pick] <= 0).any()) or (optimum is not None and optimum <= 0)
        )
        self._set_linear(linear)
        f = obj[pick] if linear else np.maximum(obj[pick], 1e-300)
        self.objective.setData(t, f)
        loss = history["loss"][pick]
        self.loss_curves["loss"].setData(t, loss)
        self.loss_curves["error"].setData(t, history["error"][pick])
        norm = history["norm"][pick]
        width = np.where(norm > 0, 2.0 / np.maximum(norm, 1e-300), np.nan)
        self.loss_curves["width"].setData(t, width, connect="finite")
        if self.suboptimality and optimum is not None:
            f = self._show_gap(t, obj[pick] - optimum)
        else:
            for guide in self.guides.values():
                guide.setData([], [])
        finite = f[np.isfinite(f)]
        lo = float(finite.min()) if finite.size else 1.0
        hi = float(finite.max()) if finite.size else 1.0
        if optimum is not None and not self.suboptimality:
            f_star = optimum if linear else max(optimum, 1e-300)
            self.optimum.setData([1, max(n, 2)], [f_star, f_star])
            lo = min(lo, f_star)
        else:
            self.optimum.setData([], [])
        self.objective_range = (lo, hi)
        self._range_objective(lo, hi)
        # (the curves of the problem in force: show_problem draws them after this)
        shown = [loss] if self.kind != "svc" else [loss, width]
        shown += [history[c][pick] for c in ("rho", "epsilon") if c in history]
        top = loss_axis_top(t, *shown)
        if self.kind == "regression" and self._mae:
            top = max(top, 1.1 * max(v for _, v in self._mae[len(self._mae) // 4 :]))
        self._range_loss(top)

    def include_objective(self, lo: float, hi: float) -> None:
        """The objective axis over [lo, hi] (run 1's range and a race's other curves)."""
        self._range_objective(lo, hi)

    def _show_gap(self, t: np.ndarray, gap: np.ndarray) -> np.ndarray:
        """F(w_t) − F* and the guides through it at t_a (the rates fix the shape, not the
        constant: λ, G and B only scale it)."""
        gap = np.where(gap > 0, gap, np.nan)  # at the optimum (to rounding): off the log axis
        self.objective.setData(t, gap, connect="finite")
        ok = np.flatnonzero(np.isfinite(gap) & (t >= max(10.0, t[-1] / 1000.0)))
        if ok.size == 0:
            for guide in self.guides.values():
                guide.setData([], [])
            return gap
        a = ok[0]
        ta, ga = t[a], gap[a]
        tt = t[a:]
        self.guides["pegasos"].setData(tt, ga * (np.log(tt + 1) / tt) / (np.log(ta + 1) / ta))
        self.guides["sqrt"].setData(tt, ga * np.sqrt(ta / tt))
        return gap

    def _set_linear(self, linear: bool) -> None:
        if linear != self._linear:
            self._linear = linear
            self.objective_plot.setLogMode(x=True, y=not linear)
            self._obj_y = None
            if self._x is not None:  # (pyqtgraph auto-ranges both axes on a new log mode)
                self.objective_plot.setXRange(*self._x, padding=0.02)

    def _range_objective(self, lo: float, hi: float) -> None:
        if self._linear:
            span = max(hi - lo, 1e-12 * max(abs(lo), abs(hi), 1.0))
            y = (lo - 0.05 * span, hi + 0.05 * span)
        else:
            y = decades(max(lo, 1e-300), max(hi, lo, 1e-300))
        if y != self._obj_y:
            self._obj_y = y
            self.objective_plot.setYRange(*y, padding=0.02)

    def _range_loss(self, top: float) -> None:
        # move only when the curves leave the axis or use less than 60% of it
        if self._loss_top is None or top > self._loss_top or top < 0.6 * self._loss_top:
            self._loss_top = top
            self.loss_plot.setYRange(0.0, top, padding=0.02)


def _picked(history: dict, held: HeldRows) -> tuple[np.ndarray, np.ndarray]:
    """(the iteration of each row, the rows a curve draws): log-sampled among the rows that
    hold the exact objective (the window records it at checkpoints and frames; ``held``:
    those found so far)."""
    obj = history["objective"]
    n = len(obj)
    rows_t = history["t"] if "t" in history else np.arange(1, n + 1)
    return rows_t, held.samples(rows_t, obj) if n else np.zeros(0, dtype=np.int64)
