"""The Margins tab: the histogram of the training margins under the loss in force and the 0-1
loss (004), and a multiclass point's loss terms per class."""

from __future__ import annotations

import html
from typing import NamedTuple

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from svmviz.core.lesson.explain import point_terms
from svmviz.core.solvers import losses
from svmviz.ui import style
from svmviz.ui.views.curves import legend_above
from svmviz.ui.views.reading import Pace, Reading
from svmviz.ui.views.rich_text import rich


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
