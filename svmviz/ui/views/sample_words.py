"""Each loss's words for one sampled example of a step, with the step's numbers (HTML): the
hinge subgradient's two cases (004), the ε-insensitive subgradient's three, every violating
class of Weston–Watkins, the softmax probabilities, ... keyed by the loss module's NAME. A loss
without words of its own gets the generic row (its margin and its term's weights), so a new
loss needs no entry here."""

from __future__ import annotations

import html

from svmviz.core.lesson.explain import margin_case
from svmviz.core.sources import cite_html
from svmviz.ui.views.rich_text import num, term, vec


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
        self.x = "?" if self.i >= len(X) else vec(X[self.i, :1] if one_d else X[self.i])
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
        f"y<sub>i</sub> f(x<sub>i</sub>) = {num(s.z)}"
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
            f"≤ ρ = {num(r.rho)}, {where}: a margin error, w moves toward "
            "y<sub>i</sub> x<sub>i</sub>"
        )
    else:
        case = f"&gt; ρ = {num(r.rho)}, {where}: no term, only the shrink"
    return f"{_binary_head(s)} {case}"


def _squared_hinge(s: _Sample, r) -> str:
    where = margin_case(s.z, 1.0)
    if s.v:
        case = (
            f"&lt; 1, {where}: weight 2·(1 − y f) = 2·(1 − {num(s.z)}) = "
            f"<b>{num(abs(s.weight()))}</b>, w moves toward y<sub>i</sub> x<sub>i</sub> "
            "by that much"
        )
    else:
        case = f"≥ 1, {where}: no term, only the shrink"
    return f"{_binary_head(s)} {case}"


def _logistic(s: _Sample, r) -> str:
    where = "misclassified" if s.z < 0 else "on the right side"
    return (
        f"{_binary_head(s)} ({where}): weight 1/(1 + e<sup>y f</sup>) = 1/(1 + "
        f"e<sup>{num(s.z)}</sup>) = <b>{num(abs(s.weight()))}</b>, w moves toward "
        "y<sub>i</sub> x<sub>i</sub> by that much (every point has a term)"
    )


def _regression(s: _Sample, r) -> str:
    eps = num(r.epsilon)
    learned = " (learned)" if r.loss == "nu-svr" else ""
    head = (
        f"sample i = {s.i}, x<sub>i</sub> = {s.x}: residual r = y − f(x) = "
        f"{num(r.targets[s.j])} − {term(s.score())} = <b>{num(s.z)}</b>"
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
        f"sample i = {s.i}, x<sub>i</sub> = {s.x}: ⟨w, φ(x<sub>i</sub>)⟩ = <b>{num(s.score())}</b>"
    )
    rho = num(r.rho)
    if s.v:
        case = (
            f"≤ ρ = {rho} (f = ⟨w, φ⟩ − ρ = {num(s.z)}): outside the region or on its edge, "
            f"term 1/ν = 1/{r.nu:.3g} = <b>{num(s.weight())}</b>: w moves toward "
            f"φ(x<sub>i</sub>) by {s.eta}/ν"
        )
    else:
        case = f"&gt; ρ = {rho} (f = {num(s.z)}): inside the region, no term, only the shrink"
    return f"{head} {case}"


def _multiclass_head(s: _Sample) -> str:
    runner = s.cls(s.record.runner_up[s.j])
    wrong = ", misclassified" if s.z < 0 else ""
    return (
        f"sample i = {s.i} (y = {s.name}): f<sub>y</sub> − max f<sub>k≠y</sub> = {num(s.z)} "
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
        value = float(r.class_terms[s.j, k])
        delta = value - (s.score(k) - fy)
        text = (
            f"y′ = {s.cls(k)}: Δ(y′, y) + f<sub>y′</sub> − f<sub>y</sub> = {delta:.3g} + "
            f"{term(s.score(k))} − {term(fy)} = <b>{num(value)}</b>"
        )
        if value > 0:
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
        value = float(r.class_terms[s.j, k])
        text = (
            f"k = {s.cls(k)}: 1 − s<sub>k</sub> f<sub>k</sub> = 1 − ({sign:+d})·"
            f"{term(s.score(k))} = <b>{num(value)}</b>"
        )
        if value > 0:
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
            f"k = {s.cls(k)}: f<sub>k</sub> = {num(s.score(k))}, "
            f"p<sub>k</sub> = <b>{num(p)}</b>, "
            f"weight {'1' if k == y else '0'} − {num(p)} = <b>{num(s.weight(k))}</b>: "
            f"w<sub>{s.cls(k)}</sub> += {s.eta}·({num(s.weight(k))}) {s.phi}"
        )
        rows.append(_indent(text))
    return "<br>".join(rows)


def _generic(s: _Sample, r) -> str:
    """A loss with no words of its own here: its margin and its term's weights."""
    weights = ", ".join(num(g) for g in r.weights[s.j])
    return (
        f"sample i = {s.i} ({s.name}), x<sub>i</sub> = {s.x}: margin {num(s.z)}; "
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


def sample_row(name: str, record, j: int, labels, X, class_names, batch: int) -> str:
    """The words of sample ``j`` of ``record`` under the loss ``name`` (its module's NAME;
    ``labels``: the class name of each point, ``batch`` the step's k)."""
    write = SAMPLE_ROWS.get(name, _generic)
    return write(_Sample(record, j, labels, X, class_names, batch), record)
