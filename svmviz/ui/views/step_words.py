"""A step in one line of words a class can follow from the back: presentation mode's step
line (svmviz.ui.window.presentation) and the race's line per run in the step inspector
(svmviz.ui.views.race_view)."""

from __future__ import annotations

import numpy as np

from svmviz.core.lesson.explain import margin_case
from svmviz.core.solvers import losses

# where a sampled point of a regression or one-class lies when it pushes w, and when not
PLACES = {
    "regression": ("outside the tube, f moves toward its target", "inside the tube, no push"),
    "one-class": ("outside the region (f < 0), w moves toward it", "inside the region, no push"),
}


def step_summary(record, name_of, class_names=(), kind: str = "svc") -> str:
    """One line: what the last step did, in words a class can follow from the back
    (``name_of(i)``: the class name of point i; ``kind``: the problem's, SolverConfig.kind).
    Where a binary point lies is said by its y f(x): misclassified, inside the margin or
    outside it (a loss without a margin, the logistic: the weight it pulls w by); a
    regression's by the tube, one-class's by the region."""
    if record is None:
        return ""
    k, t, eta = record.batch, record.t, f"η = {record.eta:.3g}"
    if k > 1:
        n = int(record.violated.sum())
        if n == 0:
            return f"Step {t}: none of the {k} points pushes w: w only shrinks ({eta})"
        classified = record.binary or record.yhat is not None  # (not regression, one-class)
        wrong = f", {int((record.margins < 0).sum())} misclassified" if classified else ""
        return f"Step {t}: {n} of {k} points push w{wrong} ({eta})"
    i, z, pushed = int(record.samples[0]), float(record.margins[0]), bool(record.violated[0])
    name = name_of(i)
    what = "it pushes w" if pushed else "no push, w only shrinks"
    if record.binary:
        if len(losses.MODULES[record.loss].LEVELS) == 1 and record.weights is not None:
            # no margin (logistic): every point pulls w, by its loss term's weight
            side = "misclassified" if z < 0 else "on its side"
            pull = abs(float(record.weights[0, 0]))  # 1/(1 + e^(y f))
            return (
                f"Step {t}: point {i} ({name}), y f(x) = {z:.3g}: {side}, "
                f"it pulls w by {pull:.2g} ({eta})"
            )
        where = margin_case(z, record.margin)
        return f"Step {t}: point {i} ({name}), y f(x) = {z:.3g}: {where}, {what} ({eta})"
    if record.yhat is None:  # regression, one-class
        if kind in PLACES:
            what = PLACES[kind][0 if pushed else 1]
        return f"Step {t}: point {i}: {what} ({eta})"
    if record.loss != "crammer_singer":  # every class that has a term moves
        moved = np.flatnonzero(record.weights[0]) if record.weights is not None else []
        if record.probabilities is not None:  # softmax: each w_k by 1[k = y] − p_k
            p = float(record.probabilities[0, int(record.true_class[0])])
            return f"Step {t}: point {i} ({name}), p(its class) = {p:.2f}: every w_k moves ({eta})"
        if len(moved) == 0:
            return f"Step {t}: point {i} ({name}) is outside every margin: w only shrinks ({eta})"
        others = ", ".join(class_names[k] if k < len(class_names) else str(k) for k in moved)
        return f"Step {t}: point {i} ({name}): the rows of {others} move ({eta})"
    if pushed:
        yhat = int(record.yhat[0])
        rival = class_names[yhat] if 0 <= yhat < len(class_names) else str(yhat)
        where = "misclassified, " if z < 0 else ""
        return f"Step {t}: point {i} ({name}) {where}not ahead of {rival} by Δ: both move ({eta})"
    return f"Step {t}: point {i} ({name}) beats every class by Δ: w only shrinks ({eta})"


def race_step_words(race) -> str:
    """The other runs' last steps in a few words, for presentation mode's step line
    (" · run 2 pushes · run 3 shrinks": w, by a loss term or by λ only); "" without a race
    or a step."""
    words = []
    for k, run in enumerate(() if race is None else race.runs, start=2):
        r = run.step
        if r is None:
            continue
        pushed = int(np.count_nonzero(r.violated))
        if r.batch > 1:
            what = f"{pushed}/{r.batch} push"
        elif r.binary and len(losses.MODULES[r.loss].LEVELS) == 1:  # (every point pulls)
            what = "pulls"
        else:
            what = "pushes" if pushed else "shrinks"
        words.append(f"run {k} {what}")
    return "".join(f" · {w}" for w in words)
