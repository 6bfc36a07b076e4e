"""The step inspector: one SGD step shown in the plane and written out with its numbers.

In the plane (linear binary models): the sampled point ringed, the previous boundary
ghosted, and the update as vectors from the origin, w_t, its shrink (1 − η_t λ) w_t and the
push (η_t/k) Σ y_i x_i that add up to w_{t+1}. In the panel: the rule of the current
algorithm with this step's numbers substituted (004's two cases of the hinge subgradient,
Pegasos' step size 002/003, the full batch of 001, the multiclass argmax of 000/001, the β_i
of kernel SGD 003).
"""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from svmviz.core.config import HARD_MARGIN_LAM
from svmviz.core.explain import margin_case
from svmviz.core.frame import level_line
from svmviz.core.solvers import rules
from svmviz.core.sources import cite_html
from svmviz.ui import style

# the update's vectors (colorblind-safe; the legend is in the panel)
VECTOR_PENS = {
    "w_before": ("#999999", QtCore.Qt.PenStyle.DashLine),
    "shrink": ("#CC79A7", QtCore.Qt.PenStyle.SolidLine),
    "push": ("#E69F00", QtCore.Qt.PenStyle.SolidLine),
    "w_after": ("#000000", QtCore.Qt.PenStyle.SolidLine),
}
# the same hues, dark enough for text on the dock's grey (the lines' own are for the plane)
TEXT_COLORS = {"w_before": "#6B6B6B", "shrink": "#A3447A", "push": "#8F6200"}
ARROW_SHARE = 0.35  # the longest vector is drawn at most this share of the view's size


def arrow(start, end, head: float):
    """(x, y) of a shaft from ``start`` to ``end`` with a head of length ``head``, NaN-broken."""
    start, end = np.asarray(start, float), np.asarray(end, float)
    v = end - start
    n = float(np.hypot(*v))
    if n == 0.0:
        return np.array([]), np.array([])
    u = v / n
    h = min(head, 0.5 * n)
    c, s = np.cos(np.radians(25)), np.sin(np.radians(25))
    left = end - h * np.array([c * u[0] - s * u[1], s * u[0] + c * u[1]])
    right = end - h * np.array([c * u[0] + s * u[1], -s * u[0] + c * u[1]])
    pts = [start, end, [np.nan, np.nan], left, end, right]
    xy = np.array(pts)
    return xy[:, 0], xy[:, 1]


class StepOverlay:
    """The inspector's items on the decision plot (created once, hidden between steps)."""

    def __init__(self, plot):
        self.plot = plot
        self.sampled = pg.ScatterPlotItem(
            size=style.POINT_SIZE + 22, symbol="s", brush=None, pen=pg.mkPen("#000000", width=3)
        )
        self.ghost = pg.PlotCurveItem(
            pen=pg.mkPen((90, 90, 90), width=2, style=QtCore.Qt.PenStyle.DotLine),
            connect="finite",
        )
        self.vectors = {
            name: pg.PlotCurveItem(pen=pg.mkPen(color, width=3, style=dash), connect="finite")
            for name, (color, dash) in VECTOR_PENS.items()
        }
        # the projection ball ‖w‖ ≤ B (002), in the same scale as the vectors
        self.ball = pg.PlotCurveItem(
            pen=pg.mkPen("#009E73", width=2, style=QtCore.Qt.PenStyle.DashDotLine)
        )
        self.items = [self.ghost, self.ball, *self.vectors.values(), self.sampled]
        for item in self.items:
            item.setZValue(20)
            plot.addItem(item)
        self.scale = 1.0
        self.hide()

    def hide(self) -> None:
        for item in self.items:
            item.hide()
        self.plot.show_step_marks(None)

    def show(self, record, X: np.ndarray, extent) -> None:
        """Draw ``record`` (svmviz.core.explain.StepRecord) over the points ``X``."""
        for item in self.items:
            item.hide()
        if record is None:
            self.plot.show_step_marks(None)
            return
        batch = record.batch < len(X)
        marked = record.samples if batch else record.samples[record.violated]
        marked = marked[marked < len(X)]
        self.sampled.setData(X[marked, 0], X[marked, 1])
        self.sampled.show()
        label = "sampled in this step" if batch else "with a loss term in this step"
        self.plot.show_step_marks((self.sampled, label))
        if record.w_before is None or len(record.w_before) != 2:
            return  # kernel, multiclass or 1-D regression: the panel tells the rest
        lines = level_line(record.w_before, record.b_before, 0.0, extent)
        if lines:
            self.ghost.setData(lines[0][:, 0], lines[0][:, 1])
            self.ghost.show()
        x0, x1, y0, y1 = extent
        size = min(x1 - x0, y1 - y0)
        vecs = [record.w_before, record.shrink, record.w_after, record.shrink + record.push]
        longest = max(float(np.hypot(*v)) for v in vecs)
        if record.radius > 0:
            longest = max(longest, record.radius)
        self.scale = min(1.0, ARROW_SHARE * size / longest) if longest > 0 else 1.0
        k = self.scale
        head = 0.03 * size
        o = np.zeros(2)
        if record.radius > 0:
            angle = np.linspace(0, 2 * np.pi, 181)
            r = k * record.radius
            self.ball.setData(r * np.cos(angle), r * np.sin(angle))
            self.ball.show()
        for name, (a, b) in {
            "w_before": (o, record.w_before),
            "shrink": (o, record.shrink),
            "push": (record.shrink, record.shrink + record.push),
            "w_after": (o, record.w_after),
        }.items():
            x, y = arrow(k * a, k * b, head)
            self.vectors[name].setData(x, y)
            self.vectors[name].setVisible(len(x) > 0)


def _vec(v, digits: int = 3) -> str:
    """A vector as "(a, b)"; one number without parentheses."""
    parts = [f"{float(c):.{digits}g}" for c in np.atleast_1d(v)]
    return parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"


def _change(before, after) -> str:
    """The change "before → after", with as many digits as it takes to tell the two apart
    (a step of kernel SGD changes α by little: 3 digits printed "(0.653) → (0.653)");
    "unchanged" when they are equal."""
    if np.array_equal(before, after):
        return f"{_vec(before)} (unchanged)"
    for digits in range(3, 18):
        a, b = _vec(before, digits), _vec(after, digits)
        if a != b:
            break
    return f"{a} → {b}"


def describe(record, config, labels, X, class_names=(), iterate_shown=False) -> str:
    """The rule of ``config``'s algorithm with the numbers of ``record``, as HTML
    (``labels``: the class name of each point, ``X`` the points, ``class_names`` the
    problem's classes in the order of the multiclass outputs)."""
    if record is None:
        return (
            "<i>Press Step (→) to see one update explained: the sampled point, its margin, "
            "the case of the hinge subgradient and the update of w with its numbers.</i>"
        )
    lam, eta, t = record.lam, record.eta, record.t
    R = rules.python()
    pegasos = record.schedule == "pegasos"  # the schedule the solver chose (rules)
    if pegasos:
        step = f"η = 1/(λ(t+1)) = 1/({lam:.3g}·{t + 1}) = {eta:.4g} &nbsp;" + cite_html(
            "002: Pegasos", "003"
        )
    else:
        step = f"η<sub>t</sub> = {eta:.4g} &nbsp;({record.schedule} schedule)"
    said = f" ({HARD_MARGIN_LAM} for the hard margin)" if config.margin == "hard" else ""
    rows = [f"<b>Step t = {t}</b> &nbsp; {config.algorithm}, λ = {lam:.3g}{said}", step]
    k = record.batch
    if k == len(X) and config.algorithm == "gd":
        n_viol = int(record.violated.sum())
        rows.append(
            f"full batch {cite_html('001')}: all m = {k} examples; {n_viol} with a hinge term "
            "(ringed with a square)"
        )
    for j, (i, z, v) in enumerate(
        zip(record.samples, record.margins, record.violated, strict=True)
    ):
        if k > 6 and j == 5:
            rows.append(f"… and {k - 5} more")
            break
        name = html.escape(labels[int(i)]) if int(i) < len(labels) else "?"
        xi = _vec(X[int(i)]) if int(i) < len(X) else "?"
        if record.binary:
            level = "1" if record.margin == 1.0 else f"ρ = {record.margin:.4g}"
            where = margin_case(float(z), record.margin)
            case = (
                f"&lt; {level}, {where}: hinge term, the point pushes w "
                + cite_html("004: the case z < 1")
                if v
                else f"≥ {level}, {where}: no hinge term, only the shrink "
                + cite_html("004: the case z ≥ 1")
            )
            rows.append(
                f"sample i = {int(i)} ({name}), x<sub>i</sub> = {xi}: "
                f"margin y<sub>i</sub> f(x<sub>i</sub>) = {z:.4g} {case}"
            )
        elif record.runner_up is None:  # regression, one-class (no class to compare)
            what = "the point pushes w" if v else "no push, only the shrink"
            rows.append(f"sample i = {int(i)}, x<sub>i</sub> = {xi}: value {z:.4g}: {what}")
        else:

            def cls(k):
                k = int(k)
                return html.escape(class_names[k]) if 0 <= k < len(class_names) else str(k)

            runner = cls(record.runner_up[j])
            if v:
                yh = int(record.yhat[j])
                case = (
                    f"ŷ = argmax<sub>y′</sub> Δ(y′, y) + f<sub>y′</sub> − f<sub>y</sub> = "
                    f"<b>{cls(yh)}</b> with Δ = {record.cost[j]:.3g} &gt; its score gap: "
                    f"w<sub>{name}</sub> += η x<sub>i</sub>, w<sub>{cls(yh)}</sub> −= "
                    "η x<sub>i</sub> " + cite_html("000", "001")
                )
            else:
                case = "y beats every ŷ by at least Δ(ŷ, y): no update " + cite_html("000")
            rows.append(
                f"sample i = {int(i)} (y = {name}): f<sub>y</sub> − max f<sub>k≠y</sub> "
                f"= {z:.4g} (runner-up {runner}{', misclassified' if z < 0 else ''}); {case}"
            )
    if not record.linear:
        rows.append(
            f"kernel SGD {cite_html('003')}: β<sub>i</sub> += y<sub>i</sub> for a violating "
            "sample; α = β/(λt), f(x) = Σ<sub>j</sub> α<sub>j</sub> K(x<sub>j</sub>, x)"
        )
        for j, i in enumerate(record.samples[:5]):
            a0, a1 = record.alpha_before[:, j], record.alpha_after[:, j]
            if np.array_equal(a0, a1):
                continue
            text = f"α<sub>{int(i)}</sub>: {_change(a0, a1)}"
            if pegasos:  # β⁽ᵗ⁾ before step t, β⁽ᵗ⁺¹⁾ after it
                b0, b1 = R.pegasos_beta(a0, lam, t), R.pegasos_beta(a1, lam, t + 1)
                text += f" &nbsp; β<sub>{int(i)}</sub>: {_change(np.round(b0, 6), np.round(b1, 6))}"
            rows.append(text)
        return "<br>".join(rows)
    if record.W_before is not None:  # linear multiclass: the rows that changed
        factor = R.shrink_factor(eta, lam)
        same = np.isclose(record.W_after, factor * record.W_before, rtol=1e-9, atol=1e-12)
        changed = np.flatnonzero(~same.all(axis=1))
        rows.append(f"every w<sub>k</sub> shrinks by (1 − ηλ) = {factor:.4g}")
        for k in changed:
            name = html.escape(class_names[k]) if k < len(class_names) else str(k)
            rows.append(f"w<sub>{name}</sub>: {_change(record.W_before[k], record.W_after[k])}")
        return "<br>".join(rows)
    if record.w_before is None:
        return "<br>".join(rows)
    shrink_factor = R.shrink_factor(eta, lam)
    push_text = (
        f"(η/k) Σ y<sub>i</sub> x<sub>i</sub> = {_vec(record.push)}"
        if record.violated.any()
        else "0 (no violating sample)"
    )
    rows += [
        "<b>w<sub>t+1</sub> = (1 − ηλ) w<sub>t</sub> + (η/k) Σ<sub>violating</sub> "
        "y<sub>i</sub> x<sub>i</sub></b>",
        f'<span style="color:{TEXT_COLORS["w_before"]}">w<sub>t</sub> = '
        f"{_vec(record.w_before)}</span>, b = {record.b_before:.4g}",
        f'<span style="color:{TEXT_COLORS["shrink"]}">shrink (1 − ηλ) w<sub>t</sub> = '
        f"{shrink_factor:.4g} · w<sub>t</sub> = {_vec(record.shrink)}</span>",
        f'<span style="color:{TEXT_COLORS["push"]}">push {push_text}</span>',
        f"<b>w<sub>t+1</sub> = {_vec(record.w_after)}</b>, b = {record.b_after:.4g}"
        + (" (projected onto ‖w‖ ≤ B)" if record.projected else ""),
    ]
    if record.radius > 0:
        rows.append(
            f'<span style="color:#009E73">projection ball ‖w‖ ≤ B = {record.radius:.4g}'
            + (
                f" = 1/√λ: w* lies in it {cite_html('002: Pegasos')}"
                if config.radius is None
                else ""
            )
            + " (dash-dotted circle)</span>"
        )
    if config.bias == "free":
        rows.append("b: not regularized, set to its best value for w<sub>t+1</sub>")
    if config.average != "last" and not iterate_shown:
        rows.append(
            f"<i>the step moves the iterate w<sub>t</sub>; the plane shows the averaged output "
            f"w̄ (Output w̄: {config.average}; View ▸ Last iterate shows w<sub>t</sub>); "
            "dotted: the iterate's boundary before the step</i>"
        )
    return "<br>".join(rows)


class StepPanel(QtWidgets.QLabel):
    """The formula panel (a dock's widget)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        self.setMargin(8)
        self.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setToolTip(
            "the update rule of the current algorithm with this step's numbers; in the plane: "
            "the sampled point (square), the previous boundary (dotted) and the vectors "
            "w_t (dashed grey), (1 − ηλ)w_t (purple), the push (orange), w_t+1 (black)"
        )
        self.show_record(None, None, (), np.zeros((0, 2)))

    def show_record(
        self, record, config, labels, X, scale=1.0, class_names=(), iterate_shown=False
    ) -> None:
        text = describe(record, config, labels, X, class_names, iterate_shown)
        if record is not None and record.w_before is not None and scale < 1.0:
            text += f"<br><i>(vectors drawn from the origin at {scale:.2g}× their length)</i>"
        self.setText(text)
