"""The step inspector's panel: one SGD step written out with its numbers. The loss in force in
its module's words (TITLE, FORMULA, STEP) and each sample's case with this step's numbers
(svmviz.ui.views.sample_words), Pegasos' step size 002/003, the full batch of 001, the
multiclass rows that changed, the α_i of kernel SGD 003 and the kernel trick with one pair's
numbers (003: Lemma 16.3), ρ and a learned ε before and after, and a linear model's update
in the colours of its vectors on the plane (svmviz.ui.plane.step_arrows).
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtWidgets

from svmviz.core.config import HARD_MARGIN_LAM, NU_SCALED
from svmviz.core.lesson.explain_kernel import partner, point_name, why_kernel
from svmviz.core.palette import OPTIMUM_COLOR
from svmviz.core.solvers import losses, rules
from svmviz.core.sources import cite_html
from svmviz.ui.plane.step_arrows import arrows_drawn
from svmviz.ui.views.rich_text import change, rich, vec
from svmviz.ui.views.sample_words import sample_row

# the same hues, dark enough for text on the dock's grey (the lines' own are for the plane)
TEXT_COLORS = {"w_before": "#606060", "shrink": "#B8215A", "push": "#806300"}
SURFACE_MENU = "View ▸ 3-D surface"  # where f is drawn over the plane (no lift: RBF, ...)


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
            f"<b>{change(np.array([record.rho]), np.array([record.rho_after]))}</b>"
        )
    if record.loss == "nu-svr" and record.epsilon is not None:
        rows.append(
            "ε after the step (learned: at the optimum ν bounds the share outside the tube): "
            f"<b>{change(np.array([record.epsilon]), np.array([record.epsilon_after]))}</b>"
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
        text = f"α<sub>{int(i)}</sub>: {change(a0, a1)}"
        if pegasos and losses.MODULES[record.loss].COUNTS:  # β⁽ᵗ⁾ before step t, β⁽ᵗ⁺¹⁾ after it
            b0, b1 = R.pegasos_beta(a0, lam, t), R.pegasos_beta(a1, lam, t + 1)
            text += f" &nbsp; β<sub>{int(i)}</sub>: {change(np.round(b0, 6), np.round(b1, 6))}"
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

    module = losses.MODULES[record.loss]
    words = rich(module.WEIGHT) or "−∂ℓ<sub>i</sub>/∂f"
    if module.PUSH:  # (the hinge's: a sum of y_i x_i)
        formula, total = (rich(part) for part in module.PUSH)
        push = f"(η/k) {total}"
    else:
        formula = f"Σ g<sub>i</sub> x<sub>i</sub></b>, g<sub>i</sub> = {words}<b>"
        push = "(η/k) Σ g<sub>i</sub> x<sub>i</sub>"
    push_text = f"{push} = {vec(record.push)}" if record.violated.any() else "0 (no term)"
    one_class = record.kind == "one-class"
    b0 = "" if one_class else f", b = {record.b_before:.4g}"
    b1 = "" if one_class else f", b = {record.b_after:.4g}"
    rows = [
        f"<b>w<sub>t+1</sub> = (1 − ηλ) w<sub>t</sub> + (η/k) {formula}</b>",
        colored("w_before", f"w<sub>t</sub> = {vec(record.w_before)}") + b0,
        colored(
            "shrink",
            f"shrink (1 − ηλ) w<sub>t</sub> = {shrink_factor:.4g} · w<sub>t</sub> = "
            f"{vec(record.shrink)}",
        ),
        colored("push", f"push {push_text}"),
        f"<b>w<sub>t+1</sub> = {vec(record.w_after)}</b>{b1}"
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
    for j in range(k):
        if k > 6 and j == 5:
            rows.append(f"… and {k - 5} more")
            break
        rows.append(sample_row(module.NAME, record, j, labels, X, class_names, k))
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
            rows.append(f"w<sub>{name}</sub>: {change(record.W_before[c], record.W_after[c])}")
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
