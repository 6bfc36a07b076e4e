"""How well the model does, drawn from a snapshot (svmviz.core.lesson.scores): the confusion
matrices of the training and the test points (with the Δ-weighted cost when Δ is set), a binary
model's ROC curve with its AUC and the operating point f = 0, a regression's residuals
against x, and a one-class model's shares of outliers and support vectors beside ν.

Everything comes from the decision values the snapshot already holds (the frame's margins,
and the model's f only where a margin cannot say the predicted class): nothing is trained.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.lesson import scores
from svmviz.core.lesson.generalization import TEST, TRAIN
from svmviz.core.pictures.margins import margin_unit
from svmviz.ui import style

OPERATING_COLOR = style.ERROR_COLOR


@dataclass(frozen=True)
class Readings:
    """What the Generalization tab shows of one snapshot (for the views and the tests)."""

    kind: str  # "svc", "regression" or "one-class"
    names: tuple = ()  # the classes (svc)
    train: np.ndarray | None = None  # the training points' confusion matrix (svc)
    test: np.ndarray | None = None  # the test points' (None without a test set)
    cost: np.ndarray | None = None  # Δ when set (svc multiclass)
    roc: scores.Roc | None = None  # binary: of the test set, or the training set without one
    roc_of: str = ""  # "test" or "training"
    x: np.ndarray | None = None  # regression: the abscissa of each point, its residual,
    residuals: np.ndarray | None = None
    x_label: str = "x"
    epsilon: float | None = None
    parts: np.ndarray | None = None  # each point's part (None: all train)
    shares: dict | None = None  # one-class: outliers, support vectors, test outliers
    nu: float | None = None
    mae: tuple = ()  # regression: (training MAE, test MAE or None)


def decision_values(snap, data) -> np.ndarray | None:
    """f at every point of the job's ``data`` from the snapshot: from the frame's margins
    (binary y f, a regression's residual, a one-class f) and, for a multiclass model, the
    model's f_k at the points whose margin does not say the predicted class (margin ≤ 0);
    None when the frame is of other points."""
    margins = np.asarray(snap.frame.margins, dtype=float)
    if len(margins) != len(data.y):
        return None
    model = snap.model
    if model.kind == "svc" and len(data.y) and data.y.max() >= len(model.classes):
        return None  # (as many points, of more classes: an edit made since)
    if model.kind == "regression":
        return data.target - margins  # r = t − f
    if model.kind == "one-class" or model.binary:
        if model.kind == "one-class":
            return margins
        return np.where(data.y == 1, 1.0, -1.0) * margins  # y f, y = ±1
    # multiclass: a positive margin f_y − max f_k means the prediction is y
    F = np.full((len(margins), len(model.classes)), -1.0)
    F[np.arange(len(margins)), data.y] = 0.0
    unsure = np.flatnonzero(~(margins > 0))
    if unsure.size:
        F[unsure] = model.decision_function(data.X[unsure])
    return F


def readings(snap, data, parts, cost) -> Readings | None:
    """The readings of ``snap`` on the job's ``data`` (``parts``: the split, None: every
    point trains; ``cost``: Δ over the classes, or None)."""
    F = decision_values(snap, data)
    if F is None:
        return None
    model = snap.model
    n = len(data.y)
    if parts is not None and len(parts) != n:
        return None
    train = np.arange(n) if parts is None else np.flatnonzero(parts == TRAIN)
    test = np.zeros(0, dtype=np.int64) if parts is None else np.flatnonzero(parts == TEST)
    if model.kind == "regression":
        r = data.target - F
        one_d = data.X.shape[1] == 1
        return Readings(
            "regression",
            x=data.X[:, 0] if one_d else F,
            residuals=r,
            x_label="x" if one_d else "fitted value f(x)",
            epsilon=model.epsilon,
            parts=parts,
            mae=(
                scores.mean_absolute_error(r[train]),
                scores.mean_absolute_error(r[test]) if test.size else None,
            ),
        )
    if model.kind == "one-class":
        shares = {
            "outliers": scores.outlier_share(F[train]),
            "support vectors": scores.support_share(F[train], margin_unit(model)),
        }
        if test.size:
            shares["test outliers"] = scores.outlier_share(F[test])
        return Readings("one-class", shares=shares, nu=model.nu, parts=parts)
    K = len(model.classes)
    matrix = scores.confusion(data.y[train], F[train], K)
    test_matrix = scores.confusion(data.y[test], F[test], K) if test.size else None
    roc, roc_of = None, ""
    if model.binary:
        pick, roc_of = (test, "test") if test.size else (train, "training")
        roc = scores.roc(data.y[pick], F[pick])
    return Readings(
        "svc",
        names=tuple(model.classes),
        train=matrix,
        test=test_matrix,
        cost=None if cost is None else np.asarray(cost, dtype=float),
        roc=roc,
        roc_of=roc_of,
        parts=parts,
    )


def matrix_summary(matrix: np.ndarray, cost: np.ndarray | None) -> str:
    """ "error 2.4%" (and "Δ-cost 0.031" with a cost matrix) of a confusion matrix."""
    total = int(matrix.sum())
    if not total:
        return "no points"
    error = 1.0 - np.trace(matrix) / total
    text = f"error {100 * error:.1f}%"
    if cost is not None:
        text += f" · Δ-cost {scores.weighted_cost(matrix, cost):.3g}"
    return text


def short_names(names) -> list[str]:
    """The class names without the start they share ("class 1", "class 2" → "1", "2"), at
    most 6 characters: a matrix's headers in a narrow column."""
    names = [str(n) for n in names]
    start = os.path.commonprefix(names) if len(names) > 1 else ""
    if any(len(n) == len(start) for n in names):
        start = ""
    return [
        n[len(start) :] if len(n) - len(start) <= 6 else n[len(start) :][:5] + "…" for n in names
    ]


class ConfusionTable(QtWidgets.QTableWidget):
    """One confusion matrix: a row per true class, a column per predicted class, each cell
    shaded by its share of the row (the diagonal in the class's colour)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        for header in (self.horizontalHeader(), self.verticalHeader()):
            header.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Stretch)
            header.setMinimumSectionSize(18)
        self.horizontalHeader().setToolTip("predicted class")
        self.verticalHeader().setToolTip("true class")
        self.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Ignored
        )
        self.setMinimumHeight(50)
        self.matrix = np.zeros((0, 0), dtype=np.int64)

    def show_matrix(self, matrix: np.ndarray, names: tuple) -> None:
        K = len(names)
        if self.rowCount() != K:
            self.setRowCount(K)
            self.setColumnCount(K)
        short = short_names(names)
        self.setHorizontalHeaderLabels(short)
        self.setVerticalHeaderLabels(short)
        self.matrix = np.asarray(matrix)
        rows = np.maximum(self.matrix.sum(axis=1, keepdims=True), 1)
        for i in range(K):
            for j in range(K):
                item = self.item(i, j)
                if item is None:
                    item = QtWidgets.QTableWidgetItem()
                    item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
                    self.setItem(i, j, item)
                count = int(self.matrix[i, j])
                item.setText(str(count))
                share = count / rows[i, 0]
                color = QtGui.QColor(style.class_color(i) if i == j else style.ERROR_COLOR)
                color.setAlphaF(0.08 + 0.6 * share if count else 0.0)
                item.setBackground(color)
                item.setToolTip(f"true {names[i]}, predicted {names[j]}: {count}")


class MatricesView(QtWidgets.QWidget):
    """The training and the test confusion matrices, side by side where the column is wide
    enough for them, one above the other otherwise."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.box = QtWidgets.QBoxLayout(QtWidgets.QBoxLayout.Direction.LeftToRight, self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.titles, self.tables = [], []
        for _ in ("training", "test"):
            column = QtWidgets.QVBoxLayout()
            title = QtWidgets.QLabel()  # (its own lines, never wrapped: a wrapped label
            table = ConfusionTable()  # beside a table is given one line's height and cut)
            column.addWidget(title)
            column.addWidget(table, 1)
            self.box.addLayout(column, 1)
            self.titles.append(title)
            self.tables.append(table)

    def resizeEvent(self, event):
        self._arrange()
        super().resizeEvent(event)

    def _arrange(self) -> None:
        K = max(2, self.tables[0].columnCount())
        side = self.width() >= 2 * (30 + 30 * K)  # (a header and ~30 px a column each)
        direction = QtWidgets.QBoxLayout.Direction
        self.box.setDirection(direction.LeftToRight if side else direction.TopToBottom)

    def show_readings(self, r: Readings) -> None:
        parts = ((r.train, "training"), (r.test, "test"))
        for (matrix, name), title, table in zip(parts, self.titles, self.tables, strict=True):
            if matrix is None:
                title.setText("test:\nnone held out")
                table.hide()
                continue
            table.show()
            title.setText(f"{name}:\n" + matrix_summary(matrix, r.cost).replace(" · ", "\n"))
            title.setToolTip(
                f"the {int(matrix.sum())} {name} points: a row per true class, a column per "
                "predicted class; Δ-cost: the mean of Δ(true, predicted)"
            )
            table.show_matrix(matrix, r.names)
        self._arrange()


def _small_plot(x_label: str, y_label: str) -> pg.PlotWidget:
    plot = pg.PlotWidget(enableMenu=False)
    plot.getPlotItem().hideButtons()
    plot.setMouseEnabled(x=False, y=False)
    plot.setLabel("bottom", x_label)
    plot.setLabel("left", y_label)
    for side in ("left", "bottom"):
        plot.getAxis(side).enableAutoSIPrefix(False)
    plot.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Ignored)
    plot.setMinimumHeight(90)
    return plot


class _TitledPlot(QtWidgets.QWidget):
    """A reading's page: a one-line title above a small plot (``self.title``,
    ``self.plot``)."""

    def _titled(self, x_label: str, y_label: str) -> QtWidgets.QVBoxLayout:
        column = QtWidgets.QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.title = QtWidgets.QLabel()
        self.title.setWordWrap(True)
        column.addWidget(self.title)
        self.plot = _small_plot(x_label, y_label)
        return column


class RocPlot(_TitledPlot):
    """A binary model's ROC curve, the chance diagonal, and the model at f = 0 on it."""

    def __init__(self, parent=None):
        super().__init__(parent)
        column = self._titled("false positive rate", "true positive rate")
        self.plot.setToolTip(
            "each point: the rates when f > threshold counts as the positive class; "
            "the red dot is the classifier's own threshold, f = 0"
        )
        for side in ("left", "bottom"):
            self.plot.getAxis(side).setTicks([[(v, f"{v:g}") for v in (0, 0.5, 1)]])
        self.plot.plot(
            [0, 1], [0, 1], pen=pg.mkPen((150, 150, 150), style=QtCore.Qt.PenStyle.DotLine)
        )
        self.curve = self.plot.plot(pen=pg.mkPen(style.class_color(0), width=2), name="ROC")
        self.point = self.plot.plot(
            pen=None,
            symbol="o",
            symbolSize=11,
            symbolBrush=OPERATING_COLOR,
            symbolPen=None,
            name="f = 0",
        )
        self.plot.setXRange(0, 1, padding=0.03)
        self.plot.setYRange(0, 1, padding=0.03)
        self.plot.setAspectLocked(False)
        column.addWidget(self.plot, 1)

    def show_roc(self, roc: scores.Roc | None, of: str) -> None:
        if roc is None:
            self.title.setText(f"no ROC: the {of} points are of one class")
            self.curve.setData([], [])
            self.point.setData([], [])
            return
        x, y = roc.point
        self.title.setText(f"AUC {roc.auc:.3f} ({of}) · dot: f = 0")
        self.title.setToolTip(
            f"the ROC curve of the {of} points; the model at f = 0 (the dot): "
            f"{100 * y:.0f}% true positives, {100 * x:.0f}% false positives"
        )
        self.curve.setData(roc.fpr, roc.tpr)
        self.point.setData([x], [y])


class ResidualPlot(_TitledPlot):
    """A regression's residuals t − f(x) against x (training points filled, test points
    hollow), with the tube's edges ±ε."""

    def __init__(self, parent=None):
        super().__init__(parent)
        column = self._titled("x", "residual t − f(x)")
        color = style.class_color(0)
        self.train = pg.ScatterPlotItem(size=7, pen=None, brush=color)
        self.test = pg.ScatterPlotItem(size=8, pen=pg.mkPen(color, width=1.5), brush=None)
        self.plot.addItem(self.train)
        self.plot.addItem(self.test)
        self.zero = pg.InfiniteLine(angle=0, pos=0.0, pen=pg.mkPen((60, 60, 60)))
        dash = pg.mkPen(style.class_color(1), width=1.5, style=QtCore.Qt.PenStyle.DashLine)
        self.edges = (pg.InfiniteLine(angle=0, pen=dash), pg.InfiniteLine(angle=0, pen=dash))
        for line in (self.zero, *self.edges):
            self.plot.addItem(line)
        column.addWidget(self.plot, 1)

    def show_readings(self, r: Readings) -> None:
        train_mae, test_mae = r.mae
        text = f"mean absolute error: training {train_mae:.3g}"
        if test_mae is not None:
            text += f", test {test_mae:.3g}"
        if r.epsilon is not None:
            text += f"; the tube's edges ±ε = ±{r.epsilon:.3g} dashed"
        self.title.setText(text)
        self.plot.setLabel("bottom", r.x_label)
        parts = r.parts
        test = np.zeros(len(r.x), bool) if parts is None else parts == TEST
        train = np.ones(len(r.x), bool) if parts is None else parts == TRAIN
        self.train.setData(r.x[train], r.residuals[train])
        self.test.setData(r.x[test], r.residuals[test])
        for line, sign in zip(self.edges, (1, -1), strict=True):
            line.setVisible(r.epsilon is not None)
            line.setValue(sign * (r.epsilon or 0.0))


class NuBars(_TitledPlot):
    """A one-class model's share of outliers and of support vectors as bars beside ν's line
    (at the optimum at most ν and at least ν: the model shown may break either)."""

    NAMES = ("outliers", "support vectors", "test outliers")

    def __init__(self, parent=None):
        super().__init__(parent)
        column = self._titled("", "share of the points")
        self.bars = pg.BarGraphItem(
            x=np.arange(3.0), height=np.zeros(3), width=0.6, brush=style.class_color(0)
        )
        self.plot.addItem(self.bars)
        self.nu = pg.InfiniteLine(
            angle=0, pen=pg.mkPen(OPERATING_COLOR, width=2, style=QtCore.Qt.PenStyle.DashLine)
        )
        self.plot.addItem(self.nu)
        self.plot.getAxis("bottom").setTicks(
            [[(k, n) for k, n in enumerate(("outliers", "SVs", "test outl."))]]
        )
        self.plot.setXRange(-0.5, 2.5, padding=0)
        self.plot.setYRange(0, 1, padding=0.02)
        column.addWidget(self.plot, 1)

    def show_readings(self, r: Readings) -> None:
        shares = r.shares or {}
        heights = [shares.get(name, 0.0) for name in self.NAMES]
        self.bars.setOpts(height=np.array(heights, dtype=float))
        self.nu.setValue(r.nu or 0.0)
        parts = [f"{name} {100 * shares[name]:.0f}%" for name in self.NAMES if name in shares]
        self.title.setText(
            f"At the optimum outliers ≤ ν = {r.nu:g} ≤ support vectors; here " + ", ".join(parts)
        )
        top = max([*heights, r.nu or 0.0, 0.1])
        self.plot.setYRange(0, min(1.0, 1.15 * top), padding=0.02)
