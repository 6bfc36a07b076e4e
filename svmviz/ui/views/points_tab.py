"""Reading the model point by point: a table of y f(x), slack ξ and α per point, coloured by
role (on the margin, inside it, misclassified), in the columns and roles of the problem in
force (a regression's residual and tube, one-class's f(x) and outliers), and the histogram
of the margins under the loss in force and the 0-1 loss (004), a multiclass point's loss
terms per class."""

from __future__ import annotations

import html
import time
from typing import NamedTuple

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.lesson.explain import point_terms
from svmviz.core.lesson.generalization import PART_NAMES
from svmviz.core.pictures.margins import ROLE_NAMES, point_roles, role_kind, support_mask
from svmviz.core.solvers import feasible, losses
from svmviz.ui import style
from svmviz.ui.views.curves import legend_above
from svmviz.ui.views.reading import Pace, Reading
from svmviz.ui.views.step_view import rich

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


class PointTerms(NamedTuple):
    """One point's loss terms for the Margins tab (multiclass): its index, class name, the
    class names in the order of the outputs, each class's term and the point's loss."""

    i: int
    name: str
    classes: tuple
    terms: np.ndarray
    loss: float
    sampled: bool  # the step's sampled point (else the one selected)


# each multiclass loss's term per class k as CS231n's demo lists them (point_terms), and the
# loss made of them; keyed by the loss module's NAME
TERM_WORDS = {
    "weston_watkins": ("max(0, Δ(k, y) + f<sub>k</sub> − f<sub>y</sub>)", "L = their sum"),
    "crammer_singer": ("Δ(k, y) + f<sub>k</sub> − f<sub>y</sub>", "L = their max"),
    "ovr": ("max(0, 1 − s<sub>k</sub> f<sub>k</sub>)", "L = their sum"),
    "softmax": ("p<sub>k</sub>", "L = −log p<sub>y</sub>"),
}
HIST_RANGE = 3.0  # the margins' axis of the classifiers: z in [−3, 3]


class MarginHistogram(pg.PlotWidget):
    """The training points' margins in the units of the problem in force, and its loss as a
    function of them (004): a classifier's y f(x) under its loss (hinge, squared hinge,
    logistic; ν-SVC's hinge at ρ) and the 0-1 loss; a regression's residuals y − f(x) under
    the ε-insensitive loss; one-class's f(x) under its loss. The loss curves are the loss
    module's own ``losses`` over the axis. A multiclass loss is not a function of one
    margin: under its histogram of f_y − max f_k, one point's terms per class (the selected
    point, else the step's sampled one) as CS231n's linear-classifier demo lists them."""

    def __init__(self, parent=None):
        super().__init__(parent, enableMenu=False)
        self.setLabel("left", "points")
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.1, brush=pg.mkBrush("#56B4E9"))
        self.addItem(self.bars)
        item = self.getPlotItem()
        item.showAxis("right")
        self.loss_view = pg.ViewBox()
        item.scene().addItem(self.loss_view)
        item.getAxis("right").linkToView(self.loss_view)
        item.getAxis("right").setLabel("loss")
        self.loss_view.setXLink(item)
        item.vb.sigResized.connect(self._align)
        self.hinge = pg.PlotCurveItem(pen=pg.mkPen("k", width=2))  # the loss in force
        dash = pg.mkPen(style.ERROR_COLOR, width=2, style=QtCore.Qt.PenStyle.DashLine)
        self.zero_one = pg.PlotCurveItem(pen=dash)  # its error: 0-1, outside the tube, outlier
        for curve in (self.hinge, self.zero_one):
            self.loss_view.addItem(curve)
        # one entry a row: a loss's formula is too long for half of the side column
        self.legend = legend_above(self, 1)
        item.getAxis("bottom").enableAutoSIPrefix(False)  # (residuals are in the data's units)
        # a multiclass point's terms, in a row under the axis
        self.terms = pg.LabelItem(justify="left", size="9pt")
        self.terms.setText("")
        self._terms_shown = False
        self.problem = None  # (loss NAME, its parameters) drawn
        self.span = HIST_RANGE
        self.set_problem(losses.MODULES["hinge"], None)
        self.show_margins(np.zeros(0))

    def _align(self) -> None:
        """The loss axis' view over the histogram's (pyqtgraph's two-axes pattern)."""
        vb = self.getPlotItem().vb
        self.loss_view.setGeometry(vb.sceneBoundingRect())
        self.loss_view.linkedViewChanged(vb, self.loss_view.XAxis)

    # ------------------------------------------------------------------ the problem
    def set_problem(self, module, model, span: float = HIST_RANGE) -> None:
        """Axis words, loss curve and legend of the loss ``module`` (its parameters ρ, ε, ν
        from ``model``, svmviz.core.model_io.Model, or defaults), over z in [−span, span]."""
        params = _Params(model)
        key = (module.NAME, params.rho, params.epsilon, params.nu, span)
        if key == self.problem:
            return
        self.problem, self.span, self.module = key, span, module
        title = f"loss ℓ = {rich(module.FORMULA)}"
        z = np.linspace(-span, span, 1201)
        kind = module.KIND
        if kind == "regression":  # ℓ of the residual r = y − f: target r, f = 0
            bottom = "residual r = y − f(x)"
            loss = module.losses(params, np.zeros_like(z), None, z)
            error, error_name = np.abs(z) > params.epsilon, "outside the tube [|r| &gt; ε]"
        elif kind == "one-class":
            bottom = "f(x) = ⟨w, φ(x)⟩ − ρ"
            loss = module.losses(params, z, None, None)
            error, error_name = z < 0, "outlier [f(x) &lt; 0]"
        elif kind == "binary":  # y = +1: the curve over z = y f(x)
            bottom = "margin z = y f(x)"
            if params.rho is not None and "rho" in getattr(module, "OFFSETS", ()):
                bottom += f", margin at ρ = {params.rho:.3g}"
            loss = module.losses(params, z, np.ones(z.size, dtype=np.int64), None)
            error, error_name = z < 0, "0-1 loss [y f(x) &lt; 0]"
        else:  # multiclass: its loss needs every score; the 0-1 loss of the margin only
            bottom = "margin f<sub>y</sub> − max<sub>k≠y</sub> f<sub>k</sub>"
            loss = None
            error, error_name = z < 0, "0-1 loss [margin &lt; 0]"
        self.setLabel("bottom", bottom)
        self.legend.clear()
        self.legend.addItem(self.bars, "points per bin")
        if loss is not None:
            self.hinge.setData(z, loss)
            self.legend.addItem(self.hinge, title)
        self.hinge.setVisible(loss is not None)
        self.zero_one.setData(z, error.astype(float))
        self.legend.addItem(self.zero_one, error_name)
        top = 4.0 if kind in ("binary", "multiclass") else max(1.0, float(np.max(loss)))
        self.loss_view.setYRange(0, top, padding=0)
        self.setXRange(-span, span, padding=0)
        self._show_terms_row(kind == "multiclass")
        if kind == "multiclass":
            self._set_terms(
                f"<i>{html.escape(module.TITLE)}: select a point (Points tab) or Step to "
                "see its loss terms per class</i>"
            )

    def _set_terms(self, text: str) -> None:
        self.terms.setText(text)
        self._wrap_terms()

    def _wrap_terms(self) -> None:
        """The terms' row wrapped to the widget's width (a label widens the plot else)."""
        self.terms.item.setTextWidth(max(120.0, self.width() - 16.0))
        self.terms.updateMin()

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if hasattr(self, "terms"):  # (Qt resizes the view before __init__ made it)
            self._wrap_terms()

    def _show_terms_row(self, shown: bool) -> None:
        if shown == self._terms_shown:
            return
        layout = self.getPlotItem().layout
        if shown:
            layout.addItem(self.terms, 4, 0, 1, 3)
        else:
            layout.removeItem(self.terms)
            self.terms.setParentItem(None)
            self.scene().removeItem(self.terms)
        self._terms_shown = shown

    # ------------------------------------------------------------------ the numbers
    def show_margins(
        self, margins: np.ndarray, module=None, model=None, point: PointTerms | None = None
    ) -> None:
        """The histogram of ``margins`` (Frame.margins: y f, f_y − max f_k, y − f or
        f − ρ) under the loss ``module`` (default: the hinge) with ``model``'s parameters;
        ``point``: a multiclass point's terms (:meth:`point_of`)."""
        values = margins[np.isfinite(margins)]
        module = module if module is not None else losses.MODULES["hinge"]
        span = HIST_RANGE
        if module.KIND in ("regression", "one-class"):  # their units are the data's
            level = _Params(model).epsilon if module.KIND == "regression" else 0.0
            top = float(np.quantile(np.abs(values), 0.98)) if values.size else 1.0
            span = _round_span(max(1.2 * top, 2.0 * (level or 0.0), 1e-3))
        self.set_problem(module, model, span)
        z = np.clip(values, -span, span)
        counts, edges = np.histogram(z, bins=60, range=(-span, span))
        centers = 0.5 * (edges[:-1] + edges[1:])
        self.bars.setOpts(x=centers, height=counts, width=edges[1] - edges[0])
        self.setYRange(0, max(1, counts.max()) * 1.1, padding=0)
        if module.KIND == "multiclass" and point is not None:
            self._set_terms(terms_text(module, point))
        self._align()

    @staticmethod
    def point_of(module, model, X, classes_of, selected, step) -> PointTerms | None:
        """The point whose terms the tab lists: the first selected one (its scores from
        ``model``), else the step's first sample (the scores it was stepped with); None for
        a loss that is not multiclass. ``classes_of[i]``: point i's output index (−1:
        none)."""
        if module.KIND != "multiclass" or model is None:
            return None
        names = tuple(model.classes)
        cost = model.cost if model.cost is not None else 1.0 - np.eye(len(names))
        if selected is not None and len(selected) and int(selected[0]) < len(X):
            i = int(selected[0])
            y = int(classes_of[i])
            f = model.decision_function(X[i])[0]
            sampled = False
        elif step is not None and step.scores is not None and step.true_class is not None:
            i, y, f = int(step.samples[0]), int(step.true_class[0]), step.scores[0]
            sampled = True
        else:
            return None
        if not 0 <= y < len(names):
            return None
        terms = point_terms(module.NAME, f, y, cost)
        params = _Params(model)
        params.cost = cost
        F = np.asarray(f, float)[None, :]
        loss = float(module.losses(params, F, np.array([y]), None)[0])
        return PointTerms(i, names[y], names, terms, loss, sampled)


class _Params:
    """A model's ρ, ε and ν for the loss curves (None where the model has none yet)."""

    def __init__(self, model):
        self.rho = getattr(model, "rho", None)
        self.epsilon = getattr(model, "epsilon", None)
        self.nu = getattr(model, "nu", None)
        self.cost = getattr(model, "cost", None)
        if self.epsilon is None:
            self.epsilon = 0.0
        if self.nu is None:
            self.nu = 1.0
        if self.rho is None:
            self.rho = 0.0


def _round_span(v: float) -> float:
    """A span of the axis that changes in steps (1, 2 or 5 times a power of ten), so that
    the histogram's bins keep still while training."""
    exp = np.floor(np.log10(v))
    for m in (1.0, 2.0, 5.0, 10.0):
        if m * 10**exp >= v:
            return float(m * 10**exp)
    return float(10 ** (exp + 1))


def terms_text(module, point: PointTerms) -> str:
    """One point's loss terms per class, in words (HTML)."""
    what, total = TERM_WORDS.get(module.NAME, ("term", "L"))
    which = "sampled in this step" if point.sampled else "selected"
    parts = []
    for k, v in enumerate(point.terms):
        name = html.escape(str(point.classes[k]))
        mark = " (y)" if name == html.escape(point.name) else ""
        parts.append(f"{name}{mark}: {v:.3g}")
    return (
        f"point {point.i} ({which}, y = {html.escape(point.name)}): {what} per class k — "
        + ", ".join(parts)
        + f"; {total} = <b>{point.loss:.3g}</b>"
    )


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


def margins_reading(histogram: MarginHistogram) -> Reading:
    """The Margins tab as a reading: the training margins under the loss in force (its
    module), and a multiclass point's terms (the first point selected, else the step's
    sampled one)."""

    def show(snap, router) -> None:
        p = router.session.points
        if len(snap.frame.margins) != len(p):
            return
        present = router.present
        module = losses.module_for(router.session.config, max(2, len(snap.model.classes)))
        outputs = np.full(max(int(p.y.max(initial=0)), int(present.max(initial=0))) + 1, -1)
        outputs[present] = np.arange(len(present))
        point = histogram.point_of(
            module, snap.model, p.X, outputs[p.y], router.session.selection, snap.step
        )
        margins = snap.frame.margins[router.state.training_mask(len(p))]
        histogram.show_margins(margins, module, snap.model, point)

    def clear() -> None:  # no model: no margins (not the last run's)
        histogram.show_margins(np.zeros(0))
        histogram._set_terms("")

    return Reading(show, Pace.VISIBLE, histogram.viewport(), clear)
