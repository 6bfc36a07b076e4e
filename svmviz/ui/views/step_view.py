"""The step inspector: one SGD step shown in the plane and written out with its numbers.

In the plane: the sampled point ringed; for linear binary and one-class models the previous
boundary ghosted and the update as vectors from the origin, w_t, its shrink (1 − η_t λ) w_t
and the push (η_t/k) Σ g_i x_i that add up to w_{t+1}; for a 1-D regression the sampled
point's residual to f and the part of it beyond the tube. In the panel: the loss in force in
its module's words (TITLE, FORMULA, STEP) and each sample's case with this step's numbers
(004's two cases of the hinge subgradient, the ε-insensitive subgradient's three, every
violating class of Weston–Watkins, the softmax probabilities, ...), Pegasos' step size
002/003, the full batch of 001, the multiclass argmax of 000/001, the α_i of kernel SGD 003
and the kernel trick with one pair's numbers (003: Lemma 16.3), and ρ and a learned ε before
and after.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from svmviz.core.config import HARD_MARGIN_LAM, NU_SCALED
from svmviz.core.lesson.explain import margin_case
from svmviz.core.lesson.explain_kernel import partner, point_name, why_kernel
from svmviz.core.palette import OPTIMUM_COLOR, STEP_COLORS
from svmviz.core.pictures.lines import level_line
from svmviz.core.solvers import losses, rules
from svmviz.core.sources import cite_html
from svmviz.ui import style

# the update's vectors (colorblind-safe; the legend is in the panel)
VECTOR_PENS = {
    "w_before": (STEP_COLORS["w_before"], QtCore.Qt.PenStyle.DashLine),
    "shrink": (STEP_COLORS["shrink"], QtCore.Qt.PenStyle.SolidLine),
    "push": (STEP_COLORS["push"], QtCore.Qt.PenStyle.SolidLine),
    "w_after": ("#000000", QtCore.Qt.PenStyle.SolidLine),
}
# the same hues, dark enough for text on the dock's grey (the lines' own are for the plane)
TEXT_COLORS = {"w_before": "#606060", "shrink": "#B8215A", "push": "#806300"}
RESIDUAL_COLOR = style.ERROR_COLOR  # beyond the tube: as the plane's segments outside it
ARROW_SHARE = 0.35  # the longest vector is drawn at most this share of the view's size
SURFACE_MENU = "View ▸ 3-D surface"  # where f is drawn over the plane (no lift: RBF, ...)


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
            pen=pg.mkPen(OPTIMUM_COLOR, width=2, style=QtCore.Qt.PenStyle.DashDotLine)
        )
        # a 1-D regression's sampled point: its residual to the curve f (dotted) and the
        # part of it outside the tube (solid), the distance its loss counts
        self.residual = pg.PlotCurveItem(
            pen=pg.mkPen("#555555", width=2, style=QtCore.Qt.PenStyle.DotLine), connect="finite"
        )
        self.outside = pg.PlotCurveItem(pen=pg.mkPen(RESIDUAL_COLOR, width=4), connect="finite")
        self.items = [
            self.ghost,
            self.ball,
            *self.vectors.values(),
            self.residual,
            self.outside,
            self.sampled,
        ]
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
        """Draw ``record`` (svmviz.core.lesson.explain.StepRecord) over the points ``X``."""
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
        if record.kind == "regression" and record.inputs == 1:
            self._show_residuals(record, X, marked)
        if not arrows_drawn(record):
            return  # kernel, multiclass or regression: the panel tells the rest
        # the boundary before the step: f = 0 (one-class: ⟨w, x⟩ = ρ)
        level = record.rho if record.kind == "one-class" else 0.0
        lines = level_line(record.w_before, record.b_before, level, extent)
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

    def _show_residuals(self, record, X, marked) -> None:
        """Each marked point (x, y) of a 1-D regression (the plane: x the input, y the
        target) to f(x) before the step, the part beyond the tube f ± ε solid."""
        rows = {int(i): j for j, i in enumerate(record.samples)}
        dotted, solid = [], []
        for i in marked:
            j = rows[int(i)]
            x, y = float(X[i, 0]), float(X[i, 1])
            f, eps = float(record.scores[j, 0]), float(record.epsilon or 0.0)
            dotted += [(x, y), (x, f), (np.nan, np.nan)]
            if abs(y - f) > eps:
                solid += [(x, y), (x, f + np.sign(y - f) * eps), (np.nan, np.nan)]
        for item, pts in ((self.residual, dotted), (self.outside, solid)):
            if pts:
                xy = np.array(pts)
                item.setData(xy[:, 0], xy[:, 1])
                item.show()


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


def rich(words: str) -> str:
    """A loss module's plain words (FORMULA, STEP) as rich text: "f_y′" with its index as a
    subscript, "e^(…)" with its exponent as a superscript, the rest escaped."""
    text = html.escape(words, quote=False)
    text = re.sub(r"\^\(((?:[^()]|\([^()]*\))*)\)", r"<sup>\1</sup>", text)
    return re.sub(r"_([^\s(),<>|/]+)", r"<sub>\1</sub>", text)


def _num(v) -> str:
    """A number as the panel prints it (the tests format theirs the same way)."""
    return f"{float(v):.4g}"


def _term(v) -> str:
    """A number as a term after an operator: a negative one in parentheses."""
    return f"({_num(v)})" if float(v) < 0 else _num(v)


def arrows_drawn(record) -> bool:
    """Whether the plane draws the update as vectors: linear binary and one-class models in
    the plane's two coordinates (a regression's w moves the curve, not a boundary: its step
    is the residual to the tube; a 1-D input has a scalar w)."""
    return (
        record is not None
        and record.w_before is not None
        and record.kind in ("binary", "one-class")
        and len(record.w_before) == 2
    )


class _Sample:
    """One sampled example of a record, with the words the rows need."""

    def __init__(self, record, j, labels, X, class_names, batch):
        self.record, self.j = record, j
        self.i = int(record.samples[j])
        self.z = float(record.margins[j])
        self.v = bool(record.violated[j])
        self.name = html.escape(labels[self.i]) if self.i < len(labels) else "?"
        # (a 1-D regression's plane holds (x, y): its input is the first coordinate)
        one_d = record.kind == "regression" and record.inputs == 1
        self.x = "?" if self.i >= len(X) else _vec(X[self.i, :1] if one_d else X[self.i])
        self.class_names = class_names
        self.eta = "η" if batch == 1 else "(η/k)"  # the factor of one sample's term
        self.phi = "x<sub>i</sub>" if record.linear else "φ(x<sub>i</sub>)"

    def cls(self, k) -> str:
        k = int(k)
        names = self.class_names
        return html.escape(names[k]) if 0 <= k < len(names) else str(k)

    def score(self, k: int = 0) -> float:
        return float(self.record.scores[self.j, k])

    def weight(self, k: int = 0) -> float:
        return float(self.record.weights[self.j, k])


def _binary_head(s: _Sample) -> str:
    return (
        f"sample i = {s.i} ({s.name}), x<sub>i</sub> = {s.x}: "
        f"y<sub>i</sub> f(x<sub>i</sub>) = {_num(s.z)}"
    )


def _hinge(s: _Sample, r) -> str:
    where = margin_case(s.z, 1.0)
    if s.v:
        case = f"&lt; 1, {where}: hinge term, the point pushes w " + cite_html(
            "004: the case z < 1"
        )
    else:
        case = f"≥ 1, {where}: no hinge term, only the shrink " + cite_html("004: the case z ≥ 1")
    return f"{_binary_head(s)} {case}"


def _nu_svc(s: _Sample, r) -> str:
    where = margin_case(s.z, r.rho)
    if s.v:
        case = (
            f"≤ ρ = {_num(r.rho)}, {where}: a margin error, w moves toward "
            "y<sub>i</sub> x<sub>i</sub>"
        )
    else:
        case = f"&gt; ρ = {_num(r.rho)}, {where}: no term, only the shrink"
    return f"{_binary_head(s)} {case}"


def _squared_hinge(s: _Sample, r) -> str:
    where = margin_case(s.z, 1.0)
    if s.v:
        case = (
            f"&lt; 1, {where}: weight 2·(1 − y f) = 2·(1 − {_num(s.z)}) = "
            f"<b>{_num(abs(s.weight()))}</b>, w moves toward y<sub>i</sub> x<sub>i</sub> "
            "by that much"
        )
    else:
        case = f"≥ 1, {where}: no term, only the shrink"
    return f"{_binary_head(s)} {case}"


def _logistic(s: _Sample, r) -> str:
    where = "misclassified" if s.z < 0 else "on the right side"
    return (
        f"{_binary_head(s)} ({where}): weight 1/(1 + e<sup>y f</sup>) = 1/(1 + "
        f"e<sup>{_num(s.z)}</sup>) = <b>{_num(abs(s.weight()))}</b>, w moves toward "
        "y<sub>i</sub> x<sub>i</sub> by that much (every point has a term)"
    )


def _regression(s: _Sample, r) -> str:
    eps = _num(r.epsilon)
    learned = " (learned)" if r.loss == "nu-svr" else ""
    head = (
        f"sample i = {s.i}, x<sub>i</sub> = {s.x}: residual r = y − f(x) = "
        f"{_num(r.targets[s.j])} − {_term(s.score())} = <b>{_num(s.z)}</b>"
    )
    if s.weight() > 0:
        case = (
            f"r &gt; ε = {eps}{learned}: above the tube, f moves up: w += {s.eta} φ(x<sub>i</sub>)"
        )
    elif s.weight() < 0:
        case = (
            f"r &lt; −ε = −{eps}{learned}: below the tube, f moves down: "
            f"w −= {s.eta} φ(x<sub>i</sub>)"
        )
    else:
        case = f"|r| ≤ ε = {eps}{learned}: inside the tube, no term, only the shrink"
    return f"{head}; {case}"


def _one_class(s: _Sample, r) -> str:
    head = (
        f"sample i = {s.i}, x<sub>i</sub> = {s.x}: ⟨w, φ(x<sub>i</sub>)⟩ = <b>{_num(s.score())}</b>"
    )
    rho = _num(r.rho)
    if s.v:
        case = (
            f"≤ ρ = {rho} (f = ⟨w, φ⟩ − ρ = {_num(s.z)}): outside the region or on its edge, "
            f"term 1/ν = 1/{r.nu:.3g} = <b>{_num(s.weight())}</b>: w moves toward "
            f"φ(x<sub>i</sub>) by {s.eta}/ν"
        )
    else:
        case = f"&gt; ρ = {rho} (f = {_num(s.z)}): inside the region, no term, only the shrink"
    return f"{head} {case}"


def _multiclass_head(s: _Sample) -> str:
    runner = s.cls(s.record.runner_up[s.j])
    wrong = ", misclassified" if s.z < 0 else ""
    return (
        f"sample i = {s.i} (y = {s.name}): f<sub>y</sub> − max f<sub>k≠y</sub> = {_num(s.z)} "
        f"(runner-up {runner}{wrong})"
    )


def _crammer_singer(s: _Sample, r) -> str:
    if s.v:
        yh = s.cls(r.yhat[s.j])
        case = (
            f"ŷ = argmax<sub>y′</sub> Δ(y′, y) + f<sub>y′</sub> − f<sub>y</sub> = "
            f"<b>{yh}</b> with Δ = {r.cost[s.j]:.3g} &gt; its score gap: "
            f"w<sub>{s.name}</sub> += {s.eta} {s.phi}, w<sub>{yh}</sub> −= "
            f"{s.eta} {s.phi} " + cite_html("000", "001")
        )
    else:
        case = "y beats every ŷ by at least Δ(ŷ, y): no update " + cite_html("000")
    return f"{_multiclass_head(s)}; {case}"


def _indent(text: str) -> str:
    return "&nbsp;&nbsp;&nbsp;" + text


def _weston_watkins(s: _Sample, r) -> str:
    y = _true_class(s, r)
    fy = s.score(y)
    rows = [_multiclass_head(s) + "; each class y′ ≠ y:"]
    n = 0
    for k in range(r.scores.shape[1]):
        if k == y:
            continue
        term = float(r.class_terms[s.j, k])
        delta = term - (s.score(k) - fy)
        text = (
            f"y′ = {s.cls(k)}: Δ(y′, y) + f<sub>y′</sub> − f<sub>y</sub> = {delta:.3g} + "
            f"{_term(s.score(k))} − {_term(fy)} = <b>{_num(term)}</b>"
        )
        if term > 0:
            n += 1
            text += f" &gt; 0, it violates: w<sub>{s.cls(k)}</sub> −= {s.eta} {s.phi}"
        else:
            text += " ≤ 0: no term"
        rows.append(_indent(text))
    if n:
        rows.append(_indent(f"w<sub>{s.name}</sub> += {n}·{s.eta} {s.phi}"))
    return "<br>".join(rows)


def _true_class(s: _Sample, r) -> int:
    """The sample's class (its index in the multiclass outputs)."""
    return int(r.true_class[s.j])


def _ovr(s: _Sample, r) -> str:
    y = _true_class(s, r)
    rows = [_multiclass_head(s) + "; each class k, s<sub>k</sub> = +1 for k = y, −1 else:"]
    for k in range(r.scores.shape[1]):
        sign = 1 if k == y else -1
        term = float(r.class_terms[s.j, k])
        text = (
            f"k = {s.cls(k)}: 1 − s<sub>k</sub> f<sub>k</sub> = 1 − ({sign:+d})·"
            f"{_term(s.score(k))} = <b>{_num(term)}</b>"
        )
        if term > 0:
            move = "+=" if sign > 0 else "−="
            text += f" &gt; 0, inside its margin: w<sub>{s.cls(k)}</sub> {move} {s.eta} {s.phi}"
        else:
            text += " ≤ 0: no term"
        rows.append(_indent(text))
    return "<br>".join(rows)


def _softmax(s: _Sample, r) -> str:
    y = _true_class(s, r)
    rows = [
        _multiclass_head(s)
        + "; each class k: p<sub>k</sub> and the weight 1[k = y] − p<sub>k</sub>:"
    ]
    for k in range(r.scores.shape[1]):
        p = float(r.probabilities[s.j, k])
        text = (
            f"k = {s.cls(k)}: f<sub>k</sub> = {_num(s.score(k))}, "
            f"p<sub>k</sub> = <b>{_num(p)}</b>, "
            f"weight {'1' if k == y else '0'} − {_num(p)} = <b>{_num(s.weight(k))}</b>: "
            f"w<sub>{s.cls(k)}</sub> += {s.eta}·({_num(s.weight(k))}) {s.phi}"
        )
        rows.append(_indent(text))
    return "<br>".join(rows)


def _generic(s: _Sample, r) -> str:
    """A loss with no words of its own here: its margin and its term's weights."""
    weights = ", ".join(_num(g) for g in r.weights[s.j])
    return (
        f"sample i = {s.i} ({s.name}), x<sub>i</sub> = {s.x}: margin {_num(s.z)}; "
        f"weight −∂ℓ/∂f = {weights}" + ("" if s.v else ": no term")
    )


# each loss's words for one sample, by its module's NAME (a loss without an entry gets the
# generic row: its margin and weights)
SAMPLE_ROWS = {
    "hinge": _hinge,
    "nu-svc": _nu_svc,
    "squared_hinge": _squared_hinge,
    "logistic": _logistic,
    "epsilon-svr": _regression,
    "nu-svr": _regression,
    "one-class": _one_class,
    "crammer_singer": _crammer_singer,
    "weston_watkins": _weston_watkins,
    "ovr": _ovr,
    "softmax": _softmax,
}


def _header(record, config, module, pegasos: bool) -> list[str]:
    lam, eta, t = record.lam, record.eta, record.t
    if pegasos:
        step = f"η = 1/(λ(t+1)) = 1/({lam:.3g}·{t + 1}) = {eta:.4g} &nbsp;" + cite_html(
            "002: Pegasos", "003"
        )
    else:
        step = f"η<sub>t</sub> = {eta:.4g} &nbsp;({record.schedule} schedule)"
    if config.problem in NU_SCALED:
        reg = f"½‖w‖² (λ = {lam:.3g}), ν = {config.nu:.3g}"
    else:
        said = f" ({HARD_MARGIN_LAM} for the hard margin)" if config.margin == "hard" else ""
        reg = f"λ = {lam:.3g}{said}"
    return [
        f"<b>Step t = {t}</b> &nbsp; {config.algorithm}, {reg}",
        step,
        f"<b>{html.escape(module.TITLE)}</b>: ℓ = {rich(module.FORMULA)}",
        f"<i>{rich(module.STEP)}</i>",
    ]


def _offset_rows(record) -> list[str]:
    """ρ and a learned ε, before and after the step (the offsets follow w exactly)."""
    rows = []
    if record.rho is not None:
        rows.append(
            "ρ after the step (set exactly for w<sub>t+1</sub>): "
            f"<b>{_change(np.array([record.rho]), np.array([record.rho_after]))}</b>"
        )
    if record.loss == "nu-svr" and record.epsilon is not None:
        rows.append(
            "ε after the step (learned: at the optimum ν bounds the share outside the tube): "
            f"<b>{_change(np.array([record.epsilon]), np.array([record.epsilon_after]))}</b>"
        )
    return rows


def _kernel_rows(record, pegasos: bool) -> list[str]:
    lam, t = record.lam, record.t
    R = rules.python()
    if losses.MODULES[record.loss].COUNTS:
        rows = [
            f"kernel SGD {cite_html('003')}: β<sub>i</sub> += y<sub>i</sub> for a violating "
            "sample; α = β/(λt), f(x) = Σ<sub>j</sub> α<sub>j</sub> K(x<sub>j</sub>, x)"
        ]
    else:
        rows = [
            f"kernel SGD {cite_html('003')}: α<sub>i</sub> ← (1 − ηλ) α<sub>i</sub> + (η/k) "
            "g<sub>i</sub>, g<sub>i</sub> the weight of its term above; f(x) = "
            "Σ<sub>j</sub> α<sub>j</sub> K(x<sub>j</sub>, x)"
        ]
    for j, i in enumerate(record.samples[:5]):
        a0, a1 = record.alpha_before[:, j], record.alpha_after[:, j]
        if np.array_equal(a0, a1):
            continue
        text = f"α<sub>{int(i)}</sub>: {_change(a0, a1)}"
        if pegasos and losses.MODULES[record.loss].COUNTS:  # β⁽ᵗ⁾ before step t, β⁽ᵗ⁺¹⁾ after it
            b0, b1 = R.pegasos_beta(a0, lam, t), R.pegasos_beta(a1, lam, t + 1)
            text += f" &nbsp; β<sub>{int(i)}</sub>: {_change(np.round(b0, 6), np.round(b1, 6))}"
        rows.append(text)
    return rows


def _pair_rows(record, X, kernel, alpha, train) -> list[str]:
    """Why ⟨φ(x_i), φ(x_j)⟩ = k(x_i, x_j) with this step's numbers (003: Lemma 16.3), for
    the sample x_i and the point of its largest term in f(x_i) (the nearest while no other
    α is nonzero): the kernel trick a kernel step relies on, on points the plane shows."""
    X = np.asarray(X)
    i = int(record.samples[0]) if record.samples.size else len(X)
    if kernel is None or record.inputs != 2 or X.ndim != 2 or X.shape[1] != 2 or i >= len(X):
        return []
    found = partner(kernel, X, i, alpha, train)
    if found is None:
        return []
    j, by_alpha = found
    a, b = point_name(i), point_name(j)
    which = f"its largest term in f({a})" if by_alpha else "the nearest point, no other α yet"
    sample = "the sample" if record.batch == 1 else "the first sample"
    words = why_kernel(kernel, X[i], X[j], (a, b))
    words = words.replace("the 3-D view", f"the 3-D view ({SURFACE_MENU})", 1)
    return [
        f"<b>Kernel trick</b> for {a} ({sample}) and {b} ({which}): "
        + html.escape(words, quote=False)
    ]


def _linear_rows(record, config, iterate_shown: bool) -> list[str]:
    """w before and after a single-output linear step, and its parts."""
    shrink_factor = rules.python().shrink_factor(record.eta, record.lam)
    drawn = arrows_drawn(record)

    def colored(name, text):
        return f'<span style="color:{TEXT_COLORS[name]}">{text}</span>' if drawn else text

    words = rich(losses.MODULES[record.loss].WEIGHT) or "−∂ℓ<sub>i</sub>/∂f"
    if record.loss == "hinge":
        formula = "Σ<sub>violating</sub> y<sub>i</sub> x<sub>i</sub>"
        push = "(η/k) Σ y<sub>i</sub> x<sub>i</sub>"
    else:
        formula = f"Σ g<sub>i</sub> x<sub>i</sub></b>, g<sub>i</sub> = {words}<b>"
        push = "(η/k) Σ g<sub>i</sub> x<sub>i</sub>"
    push_text = f"{push} = {_vec(record.push)}" if record.violated.any() else "0 (no term)"
    one_class = record.kind == "one-class"
    b0 = "" if one_class else f", b = {record.b_before:.4g}"
    b1 = "" if one_class else f", b = {record.b_after:.4g}"
    rows = [
        f"<b>w<sub>t+1</sub> = (1 − ηλ) w<sub>t</sub> + (η/k) {formula}</b>",
        colored("w_before", f"w<sub>t</sub> = {_vec(record.w_before)}") + b0,
        colored(
            "shrink",
            f"shrink (1 − ηλ) w<sub>t</sub> = {shrink_factor:.4g} · w<sub>t</sub> = "
            f"{_vec(record.shrink)}",
        ),
        colored("push", f"push {push_text}"),
        f"<b>w<sub>t+1</sub> = {_vec(record.w_after)}</b>{b1}"
        + (" (projected onto ‖w‖ ≤ B)" if record.projected else ""),
    ]
    if record.radius > 0:
        rows.append(
            f'<span style="color:{OPTIMUM_COLOR}">projection ball ‖w‖ ≤ B = {record.radius:.4g}'
            + (
                f" = 1/√λ: w* lies in it {cite_html('002: Pegasos')}"
                if config.radius is None
                else ""
            )
            + (" (dash-dotted circle)" if drawn else "")
            + "</span>"
        )
    if config.bias == "free" and not one_class:
        if losses.MODULES[record.loss].DESCENT_BIAS:
            rows.append("b: not regularized, a full-batch subgradient step towards its best")
        else:
            rows.append("b: not regularized, set to its best value for w<sub>t+1</sub>")
    if config.average != "last" and not iterate_shown:
        dotted = "; dotted: the iterate's boundary before the step" if drawn else ""
        rows.append(
            f"<i>the step moves the iterate w<sub>t</sub>; the plane shows the averaged output "
            f"w̄ (Output w̄: {config.average}; View ▸ Last iterate shows w<sub>t</sub>){dotted}</i>"
        )
    return rows


def describe(
    record,
    config,
    labels,
    X,
    class_names=(),
    iterate_shown=False,
    *,
    kernel=None,
    alpha=None,
    train=None,
) -> str:
    """The rule of ``config``'s algorithm and loss with the numbers of ``record``, as HTML
    (``labels``: the class name of each point, ``X`` the points, ``class_names`` the
    problem's classes in the order of the multiclass outputs). The loss's title, formula
    and step come from its module (:func:`losses.module_for`). A kernel step also says why
    ⟨φ, φ⟩ = k for one pair: ``kernel`` the model's (default: the config's), ``alpha`` |α|
    of every point and ``train`` which points train (None: all)."""
    if record is None:
        return (
            "<i>Press Step (→) to see one update explained: the sampled point, its loss "
            "term with this step's numbers and the update of w.</i>"
        )
    n_classes = 3 if record.kind == "multiclass" else 2
    module = losses.module_for(config, n_classes)
    pegasos = record.schedule == "pegasos"  # the schedule the solver chose (rules)
    rows = _header(record, config, module, pegasos)
    k = record.batch
    if k == len(X) and config.algorithm == "gd":
        n_terms = int(record.violated.sum())
        rows.append(
            f"full batch {cite_html('001')}: all m = {k} examples; {n_terms} with a loss term "
            "(ringed with a square)"
        )
    write = SAMPLE_ROWS.get(module.NAME, _generic)
    for j in range(k):
        if k > 6 and j == 5:
            rows.append(f"… and {k - 5} more")
            break
        rows.append(write(_Sample(record, j, labels, X, class_names, k), record))
    rows += _offset_rows(record)
    if not record.linear:
        rows += _kernel_rows(record, pegasos)
        rows += _pair_rows(record, X, kernel or config.kernel, alpha, train)
    elif record.W_before is not None:  # linear multiclass: the rows that changed
        factor = rules.python().shrink_factor(record.eta, record.lam)
        same = np.isclose(record.W_after, factor * record.W_before, rtol=1e-9, atol=1e-12)
        rows.append(f"every w<sub>k</sub> shrinks by (1 − ηλ) = {factor:.4g}")
        for c in np.flatnonzero(~same.all(axis=1)):
            name = html.escape(class_names[c]) if c < len(class_names) else str(c)
            rows.append(f"w<sub>{name}</sub>: {_change(record.W_before[c], record.W_after[c])}")
    elif record.w_before is not None:
        rows += _linear_rows(record, config, iterate_shown)
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
        self, record, config, labels, X, scale=1.0, class_names=(), iterate_shown=False, **pair
    ) -> None:
        """Show ``record`` (None: the hint); ``pair``: :func:`describe`'s kernel, alpha and
        train."""
        text = describe(record, config, labels, X, class_names, iterate_shown, **pair)
        if arrows_drawn(record) and scale < 1.0:
            text += f"<br><i>(vectors drawn from the origin at {scale:.2g}× their length)</i>"
        self.setText(text)
