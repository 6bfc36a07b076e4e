"""The weight-space view's readouts in words: what is held of the model (its bias, the other
classes' rows), and F of the model shown (or of a boundary moved by hand) beside F*."""

from __future__ import annotations

import numpy as np

from svmviz.ui.views.weight_items import at


def held_words(model, k: int, hold: str, land, names) -> str:
    """What is held while row ``k``'s two weights vary (``land``: the landscape drawn, whose
    slice may hold another b; ``names``: the classes' names)."""
    if model.bias == "none":
        held = "No bias: f = ⟨w, x⟩ (b = 0)."
    elif hold == "none":
        held = f"b = 0 held (the model's b is {float(model.intercept[k]):.3g})."
    elif hold == "profiled":
        held = "b profiled: at each w the best b (the exact bias)."
    else:
        b = float(model.intercept[k])
        if land is not None and land.bias is not None and land.hold == "slice":
            b = land.bias
        held = f"b held at {b:.3g} (slice through the current b)."
    if model.coef.shape[0] > 1:
        name = names[k] if k < len(names) else model.classes[k]
        held += f" w of {name} varies, the other rows held."
    return held


def value_words(snap, model, k: int, land, pending: bool) -> str:
    """F of the model shown (``land`` gives it where the run does not), F* and whether the
    landscape is ``pending``."""
    obj = snap.history.get("objective")
    value = float(obj[-1]) if obj is not None and len(obj) and not snap.iterate else None
    hand = snap.status == "hand"  # (a boundary moved by hand: its own F, not the run's)
    if hand:
        value = snap.model.extra.get("objective")
    if value is None and land is not None:
        value = at(land, model.coef[k])
    name = "F(your w)" if hand else "F(model)"
    finite = value is not None and np.isfinite(value)
    text = f"{name} = {value:.4g}" if finite else f"{name} = …"
    if snap.reference is not None and snap.reference.objective is not None:
        text += f" · F* = {snap.reference.objective:.4g}"
    elif snap.reference_pending:
        text += " · F* being computed"
    if pending:
        text += " · F(w) being computed…"
    return text
