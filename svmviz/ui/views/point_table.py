"""Reading the model point by point (the Points tab): a table of y f(x), slack ξ and α per
point, coloured by role (on the margin, inside it, misclassified), in the columns and roles
of the problem in force (a regression's residual and tube, one-class's f(x) and outliers)."""

from __future__ import annotations

import time

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.lesson.generalization import PART_NAMES
from svmviz.core.pictures.margins import ROLE_NAMES, point_roles, role_kind, support_mask
from svmviz.core.solvers import feasible
from svmviz.ui import style
from svmviz.ui.views.reading import Pace, Reading

ROLE_COLORS = ("#FFFFFF", "#D6EAF8", "#FCF3CF", "#F5B7B1")  # outside, on, inside, wrong
# each kind's row colours, by role (svmviz.core.pictures.margins.ROLE_NAMES): the support vectors on
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
# margin, 6: the loss's share of it), by svmviz.core.pictures.frame's kinds
KIND_COLUMNS = {
    "svc": {},
    "regression": {1: "target y", 3: "x", 4: "y", 5: "residual y − f", 6: "beyond ε"},
    "regression2d": {1: "target y", 5: "residual y − f", 6: "beyond ε"},
    "one-class": {1: "class (ignored)", 5: "f(x)", 6: "slack ξ"},
}
SET_COLUMN = 2
ROLE = 8  # the role column (its header counts the support vectors)
# the columns in the order shown: what the model makes of each point first (its margin,
# slack and α fit a narrow dock), its coordinates (drawn in the plane anyway) last
SHOWN_ORDER = (0, 1, 2, 5, 6, 7, 8, 3, 4)
DIGITS = 3  # significant digits of the numbers
POINT_SIZE = style.FONT_POINT_SIZE - 2  # a table's text: the columns that matter fit the dock


def cell_text(v) -> str:
    """A cell's text: numbers to DIGITS significant digits, those below the solver's
    tolerance (feasible.TOLERANCE: rounding, not slack) as 0; none as "–"."""
    if v is None:
        return "–"
    if not isinstance(v, float):
        return str(v)
    return "0" if abs(v) < feasible.TOLERANCE else f"{v:.{DIGITS}g}"


_DISPLAY = QtCore.Qt.ItemDataRole.DisplayRole
_BACKGROUND = QtCore.Qt.ItemDataRole.BackgroundRole
_SORT = QtCore.Qt.ItemDataRole.UserRole


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
        self.n_support = 0
        self.unit = 1.0  # one-class: ρ (svmviz.core.pictures.margins.tolerance)
        self.brushes = [QtGui.QBrush(QtGui.QColor(c)) for c in self.colors]
        self._texts: dict[int, tuple] = {}  # a row's cell texts, once asked (until new data)

    def set_data(self, labels, X, margins, alpha, parts=None, frame=None) -> bool:
        """``parts``: each point's part of a train/test split (None: all train); ``frame``
        (svmviz.core.pictures.frame.Frame) the problem's kind, margin level and targets (None: a
        hinge classifier's). Whether the rows are new (a reset: no row selected)."""
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
        self.unit = 1.0 if frame is None else frame.unit
        self.roles = point_roles(margins, kind, level, self.unit)
        self.names = ROLE_NAMES[role_kind(kind, level)]
        colors = KIND_COLORS[role_kind(kind, level)]
        if colors is not self.colors:
            self.colors = colors
            self.brushes = [QtGui.QBrush(QtGui.QColor(c)) for c in colors]
        self._texts = {}
        header = self.headerData(ROLE, QtCore.Qt.Orientation.Horizontal)
        self.n_support = self.support_count()
        if same_rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(labels) - 1, len(COLUMNS) - 1))
            # (a header changed re-fits the stretched last column: the rows painted again)
            if self.headerData(ROLE, QtCore.Qt.Orientation.Horizontal) != header:
                self.headerDataChanged.emit(QtCore.Qt.Orientation.Horizontal, ROLE, ROLE)
        else:
            self.endResetModel()
        return not same_rows

    def rowCount(self, parent=QtCore.QModelIndex()):  # noqa: B008 (Qt override)
        return 0 if parent.isValid() else len(self.labels)

    def columnCount(self, parent=QtCore.QModelIndex()):  # noqa: B008 (Qt override)
        return len(COLUMNS)

    def headerData(self, section, orientation, role=QtCore.Qt.ItemDataRole.DisplayRole):
        horizontal = orientation == QtCore.Qt.Orientation.Horizontal
        if role == QtCore.Qt.ItemDataRole.DisplayRole and horizontal:
            if section == ROLE and (self.kind != "svc" or self.level > 0):
                return f"{self.columns[section]} ({self.n_support} support vectors)"
            return self.columns[section]
        return None

    def value(self, i: int, c: int):
        return self.row_values(i)[c]

    def row_values(self, i: int) -> tuple:
        """Row ``i``'s values, column by column (what sorting compares)."""
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
        )

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
        name = self.names[self.roles[i]]
        if self.parts is not None and self.parts[i]:  # only training points support it
            return name.replace("support vector", "not trained on")
        return name

    def support_count(self) -> int:
        """The rows that are support vectors (svmviz.core.pictures.margins.support_mask: as
        the plane rings them), training points only."""
        mask = support_mask(self.margins, self.kind, self.level, self.unit)
        if self.parts is not None:
            mask &= self.parts == 0
        return int(np.count_nonzero(mask))

    def data(self, index, role=_DISPLAY):
        # (a repaint asks seven roles of every cell shown: the others return at once, a
        # row's texts are made once, its brush is one of the roles')
        if role == _DISPLAY:
            i = index.row()
            texts = self._texts.get(i)
            if texts is None:
                texts = self._texts[i] = tuple(cell_text(v) for v in self.row_values(i))
            return texts[index.column()]
        if role == _BACKGROUND:
            return self.brushes[self.roles[index.row()]]
        if role == _SORT:
            return self.value(index.row(), index.column())
        return None


class PointTable(QtWidgets.QTableView):
    """Selecting rows selects the points in the plane (``selected`` is emitted, with the
    session's point set the rows show: the session ignores rows drawn before an edit);
    ``show_selection`` marks the session's selection without emitting."""

    selected = QtCore.Signal(object, object)  # row indices, the session's Points of the rows

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
        self.points = None  # the session's Points the rows show
        self._quiet = False  # the rows selected from the session (not the user's choice)
        self._marked: tuple | None = None  # the session's selection the rows show, if known
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
        # (the role column's header counts the support vectors)
        samples = ("999", "class 10", "training", number, number, number, "0.123", "0.123")
        samples += ("role (999 support vectors)",)
        for c, text in enumerate(samples):
            width = max(metrics.horizontalAdvance(text), metrics.horizontalAdvance(COLUMNS[c]))
            self.setColumnWidth(c, width + (24 if c == ROLE else 10))  # (a sort arrow)
        self.verticalHeader().setMinimumSectionSize(metrics.height())
        self.verticalHeader().setDefaultSectionSize(metrics.height() + 6)

    def changeEvent(self, event):
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._fit_columns()

    def show_points(self, labels, X, margins, alpha, parts=None, frame=None, points=None) -> None:
        """Every point's row; ``frame`` (svmviz.core.pictures.frame.Frame): the problem's columns
        and roles (None: a hinge classifier's); ``points``: the session's Points the rows
        are (row i: point i)."""
        self._quiet = True  # (new rows clear the selection: the session's stays)
        try:
            if self.model_.set_data(labels, X, margins, alpha, parts, frame):
                self._marked = None
        finally:
            self._quiet = False
        self.points = points
        split = self.model_.parts is not None
        if self.isColumnHidden(SET_COLUMN) == split:  # the set column: with a split only
            self.setColumnHidden(SET_COLUMN, not split)

    def show_selection(self, indices) -> None:
        """Select the rows of the points ``indices`` (those the table has), without
        emitting ``selected``."""
        indices = tuple(int(i) for i in indices)
        if indices == self._marked:
            return
        n = self.model_.rowCount()
        proxy = self.model()
        chosen = QtCore.QItemSelection()
        for i in (i for i in indices if 0 <= i < n):
            row = proxy.mapFromSource(self.model_.index(i, 0)).row()
            chosen.select(proxy.index(row, 0), proxy.index(row, len(COLUMNS) - 1))
        flags = QtCore.QItemSelectionModel.SelectionFlag
        self._quiet = True
        try:
            self.selectionModel().select(chosen, flags.ClearAndSelect | flags.Rows)
        finally:
            self._quiet = False
        self._marked = indices

    def _on_selection(self, *_):
        if not self._quiet:
            self._marked = None  # (the user's rows: the session may ignore them)
            proxy = self.model()
            rows = {proxy.mapToSource(ix).row() for ix in self.selectionModel().selectedRows()}
            self.selected.emit(np.array(sorted(rows), dtype=np.int64), self.points)


PLAYING_SECONDS = 1.0  # the least time between two refreshes of the rows while playing


def points_reading(table: PointTable) -> Reading:
    """The Points tab as a reading of the training (svmviz.ui.views.reading): its rows at most
    every PLAYING_SECONDS while playing (a refresh of a thousand rows costs the plane
    frames; nobody reads them at full speed), every frame otherwise."""
    last = [-PLAYING_SECONDS]

    def show(snap, router) -> None:
        p = router.session.points
        if len(snap.frame.margins) != len(p):
            return  # points edited since; the restarted job's frame follows
        now = time.perf_counter()
        if router.controller.playing and now - last[0] < PLAYING_SECONDS:
            return  # (the next pass, or the pause's, shows the newest)
        last[0] = now
        labels = [router.session.classes[int(k)] for k in p.y]
        table.show_points(
            labels, p.X, snap.frame.margins, snap.alpha, router.state.parts, snap.frame, p
        )
        table.show_selection(router.session.selection)

    def clear() -> None:  # no model: no rows (not the last run's)
        table.show_points([], np.zeros((0, 2)), np.zeros(0), None)

    return Reading(show, Pace.VISIBLE, table.viewport(), clear)
