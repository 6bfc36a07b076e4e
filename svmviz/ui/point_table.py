"""Reading the model point by point: a table of y f(x), slack ξ and α per point, coloured by
role (on the margin, inside it, misclassified), in the columns and roles of the problem in
force (a regression's residual and tube, one-class's f(x) and outliers), and the histogram
of the margins under the hinge and 0-1 losses (004)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.frame import ROLE_NAMES, point_roles, role_kind
from svmviz.core.generalization import PART_NAMES
from svmviz.ui import style
from svmviz.ui.curves import legend_above

ROLE_COLORS = ("#FFFFFF", "#D6EAF8", "#FCF3CF", "#F5B7B1")  # outside, on, inside, wrong
# each kind's row colours, by role (svmviz.core.frame.ROLE_NAMES): the support vectors on
# their level blue, the points the loss charges for (outside the tube, outliers) red
KIND_COLORS = {
    "svc": ROLE_COLORS,
    "scores": ("#FFFFFF", "#F5B7B1"),
    "regression": ("#FFFFFF", "#D6EAF8", "#F5B7B1"),
    "regression2d": ("#FFFFFF", "#D6EAF8", "#F5B7B1"),
    "one-class": ("#FFFFFF", "#D6EAF8", "#F5B7B1"),
}
COLUMNS = ("i", "class", "set", "x₁", "x₂", "y f(x)", "slack ξ", "α", "role")
# the columns that change with the problem (1: the label, 3, 4: the plane's axes, 5: the
# margin, 6: the loss's share of it), by svmviz.core.frame's kinds
KIND_COLUMNS = {
    "svc": {},
    "regression": {1: "target y", 3: "x", 4: "y", 5: "residual y − f", 6: "beyond ε"},
    "regression2d": {1: "target y", 5: "residual y − f", 6: "beyond ε"},
    "one-class": {1: "class (ignored)", 5: "f(x)", 6: "slack ξ"},
}
SET_COLUMN = 2
# the columns in the order shown: what the model makes of each point first (its margin,
# slack and α fit a narrow dock), its coordinates (drawn in the plane anyway) last
SHOWN_ORDER = (0, 1, 2, 5, 6, 7, 8, 3, 4)
DIGITS = 3  # significant digits of the numbers
POINT_SIZE = style.FONT_POINT_SIZE - 2  # a table's text: the columns that matter fit the dock


class PointModel(QtCore.QAbstractTableModel):
    """The rows from numpy arrays (no per-row objects: refreshed several times a second)."""

    def __init__(self):
        super().__init__()
        self.labels: list = []
        self.X = np.zeros((0, 2))
        self.margins = np.zeros(0)
        self.alpha = None
        self.roles = np.zeros(0, dtype=np.int64)
        self.parts = None
        self.kind, self.level = "svc", 1.0
        self.target = None  # a regression's targets
        self.columns = COLUMNS
        self.names, self.colors = ROLE_NAMES["svc"], ROLE_COLORS

    def set_data(self, labels, X, margins, alpha, parts=None, frame=None) -> None:
        """``parts``: each point's part of a train/test split (None: all train); ``frame``
        (svmviz.core.frame.Frame) the problem's kind, margin level and targets (None: a
        hinge classifier's)."""
        kind = "svc" if frame is None else frame.kind
        level = 1.0 if frame is None else frame.level
        columns = tuple(KIND_COLUMNS[kind].get(c, name) for c, name in enumerate(COLUMNS))
        same_rows = len(labels) == len(self.labels) and columns == self.columns
        if not same_rows:
            self.beginResetModel()
        self.labels, self.X, self.margins, self.alpha = labels, X, margins, alpha
        self.parts = parts if parts is not None and len(parts) == len(labels) else None
        self.kind, self.level, self.columns = kind, level, columns
        self.target = None if frame is None else frame.target
        self.roles = point_roles(margins, kind, level)
        self.names = ROLE_NAMES[role_kind(kind, level)]
        self.colors = KIND_COLORS[role_kind(kind, level)]
        if same_rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(labels) - 1, len(COLUMNS) - 1))
        else:
            self.endResetModel()

    def rowCount(self, parent=QtCore.QModelIndex()):  # noqa: B008 (Qt override)
        return 0 if parent.isValid() else len(self.labels)

    def columnCount(self, parent=QtCore.QModelIndex()):  # noqa: B008 (Qt override)
        return len(COLUMNS)

    def headerData(self, section, orientation, role=QtCore.Qt.ItemDataRole.DisplayRole):
        horizontal = orientation == QtCore.Qt.Orientation.Horizontal
        if role == QtCore.Qt.ItemDataRole.DisplayRole and horizontal:
            return self.columns[section]
        return None

    def value(self, i: int, c: int):
        z = float(self.margins[i])
        part = PART_NAMES[0 if self.parts is None else self.parts[i]]
        label = self.labels[i] if self.target is None else float(self.target[i])
        return (
            i,
            label,
            part,
            float(self.X[i, 0]),
            float(self.X[i, 1]),
            z,
            self.slack(z),
            None if self.alpha is None else float(self.alpha[i]),
            self.role_text(i),
        )[c]

    def slack(self, z: float) -> float | None:
        """The point's share of the loss's margin: ξ = max(0, level − z) (level 1, or ρ);
        a regression's distance outside the tube |r| − ε; one-class's ξ = max(0, −f);
        none for a loss without margin lines (logistic, softmax)."""
        if self.kind in ("regression", "regression2d"):
            return max(0.0, abs(z) - self.level)
        if self.kind == "one-class":
            return max(0.0, -z)
        return max(0.0, self.level - z) if self.level > 0 else None

    def role_text(self, i: int) -> str:
        role = self.roles[i]
        if role in (1, 2) and self.kind != "svc" and self.parts is not None and self.parts[i]:
            return self.names[role].replace("support vector", "not trained on")
        if role == 1 and self.kind == "svc" and self.level > 0:
            if self.parts is not None and self.parts[i] != 0:
                return "on the margin (not trained on)"  # only training points support it
        return self.names[role]

    def data(self, index, role=QtCore.Qt.ItemDataRole.DisplayRole):
        i, c = index.row(), index.column()
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            v = self.value(i, c)
            if v is None:
                return "–"
            return f"{v:.{DIGITS}g}" if isinstance(v, float) else str(v)
        if role == QtCore.Qt.ItemDataRole.BackgroundRole:
            return QtGui.QBrush(QtGui.QColor(self.colors[self.roles[i]]))
        if role == QtCore.Qt.ItemDataRole.UserRole:  # for sorting
            return self.value(i, c)
        return None


class PointTable(QtWidgets.QTableView):
    """Selecting rows selects the points in the plane (``selected`` is emitted)."""

    selected = QtCore.Signal(object)  # indices

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model_ = PointModel()
        proxy = QtCore.QSortFilterProxyModel(self)
        proxy.setSourceModel(self.model_)
        proxy.setSortRole(QtCore.Qt.ItemDataRole.UserRole)
        # no re-sort at every refresh (a sort asks the model thousands of times, in Python):
        # rows keep their order while training and are sorted again by a header click
        proxy.setDynamicSortFilter(False)
        self.setModel(proxy)
        self.setSortingEnabled(True)
        self.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().hide()
        header = self.horizontalHeader()
        header.setStretchLastSection(True)
        for shown, column in enumerate(SHOWN_ORDER):
            header.moveSection(header.visualIndex(column), shown)
        self.setToolTip(
            "every point: its set (training, test or unused), its margin y f(x) (multiclass: "
            "f_y − max f_k), slack ξ = max(0, 1 − "
            "y f), coefficient α (kernels), role; blue: on the margin, yellow: inside, red: "
            "misclassified; a regression: target, residual y − f and its distance beyond "
            "the tube (red: outside); one-class: f(x) (red: outliers); "
            "click a header to sort (again), select rows to mark the points"
        )
        self.selectionModel().selectionChanged.connect(self._on_selection)
        font = QtGui.QFont()  # (only the size: the family follows the window's)
        font.setPointSize(POINT_SIZE)
        self.setFont(font)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """Column widths for the longest usual text at the current font (measured, not
        resized to the contents: that asks every row on every refresh), and rows one line
        of text high."""
        metrics = self.fontMetrics()
        number = "−0.0123"  # (DIGITS significant digits)
        samples = ("999", "class 10", "training", number, number, number, "0.123", "0.123")
        for c, text in enumerate(samples):
            width = max(metrics.horizontalAdvance(text), metrics.horizontalAdvance(COLUMNS[c]))
            self.setColumnWidth(c, width + 10)
        self.verticalHeader().setMinimumSectionSize(metrics.height())
        self.verticalHeader().setDefaultSectionSize(metrics.height() + 6)

    def changeEvent(self, event):
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._fit_columns()

    def show_points(self, labels, X, margins, alpha, parts=None, frame=None) -> None:
        """Every point's row; ``frame`` (svmviz.core.frame.Frame): the problem's columns
        and roles (None: a hinge classifier's)."""
        self.model_.set_data(labels, X, margins, alpha, parts, frame)
        split = self.model_.parts is not None
        if self.isColumnHidden(SET_COLUMN) == split:  # the set column: with a split only
            self.setColumnHidden(SET_COLUMN, not split)

    def _on_selection(self, *_):
        proxy = self.model()
        rows = {proxy.mapToSource(ix).row() for ix in self.selectionModel().selectedRows()}
        self.selected.emit(np.array(sorted(rows), dtype=np.int64))


class MarginHistogram(pg.PlotWidget):
    """The margins z = y f(x) of the training points, and the losses as functions of z:
    hinge max(0, 1 − z) and 0-1 [z < 0] (004)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setMenuEnabled(False)
        self.setLabel("bottom", "margin z = y f(x)")
        self.setLabel("left", "points")
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.1, brush=pg.mkBrush("#56B4E9"))
        self.addItem(self.bars)
        self.getPlotItem().showAxis("right")
        self.loss_view = pg.ViewBox()
        self.getPlotItem().scene().addItem(self.loss_view)
        self.getPlotItem().getAxis("right").linkToView(self.loss_view)
        self.getPlotItem().getAxis("right").setLabel("loss")
        self.loss_view.setXLink(self.getPlotItem())
        self.getPlotItem().vb.sigResized.connect(self._align)
        z = np.linspace(-3, 3, 601)
        self.hinge = pg.PlotCurveItem(z, np.maximum(0, 1 - z), pen=pg.mkPen("k", width=2))
        dash = pg.mkPen(style.ERROR_COLOR, width=2, style=QtCore.Qt.PenStyle.DashLine)
        self.zero_one = pg.PlotCurveItem(np.array([-3, 0, 0, 3]), np.array([1, 1, 0, 0]), pen=dash)
        for item in (self.hinge, self.zero_one):
            self.loss_view.addItem(item)
        self.loss_view.setYRange(0, 4, padding=0)
        legend = legend_above(self, 2)  # (two columns fit the window's side column)
        legend.addItem(self.bars, "points per bin")
        legend.addItem(self.hinge, "hinge max(0, 1 − z)")
        legend.addItem(self.zero_one, "0-1 loss [z &lt; 0]")  # the label is HTML
        self.setXRange(-3, 3, padding=0)

    def _align(self) -> None:
        """The loss axis' view over the histogram's (pyqtgraph's two-axes pattern)."""
        vb = self.getPlotItem().vb
        self.loss_view.setGeometry(vb.sceneBoundingRect())
        self.loss_view.linkedViewChanged(vb, self.loss_view.XAxis)

    def show_margins(self, margins: np.ndarray) -> None:
        z = np.clip(margins[np.isfinite(margins)], -3, 3)
        counts, edges = np.histogram(z, bins=60, range=(-3, 3))
        centers = 0.5 * (edges[:-1] + edges[1:])
        self.bars.setOpts(x=centers, height=counts, width=edges[1] - edges[0])
        self.setYRange(0, max(1, counts.max()) * 1.1, padding=0)
        self._align()
