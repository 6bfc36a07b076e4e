"""The solver panel's λ slider: a logarithmic scale from 10^LAM_MIN_EXP to 10^LAM_MAX_EXP
with λ = 0 at its left end, and the λ field's tooltips (a λ setting, or the λ a hard
margin is solved with)."""

from __future__ import annotations

import math

from svmviz.core.config import HARD_MARGIN_LAM, HARD_MARGIN_LAM_RULE

# the λ slider: position 0 is λ = 0, then LAM_STEPS_PER_DECADE steps a decade from 10^-6
LAM_MIN_EXP, LAM_MAX_EXP, LAM_STEPS_PER_DECADE = -6, 2, 10
LAM_TIP = "λ ≥ 0 exactly (0: no regularization, gd and sgd only)"
HARD_LAM_TIP = (
    f"hard margin: λ is {HARD_MARGIN_LAM}, the λ whose soft problem has the hard "
    f"margin's solution ({HARD_MARGIN_LAM_RULE}); shown once the exact solution "
    "is known. Your λ comes back with a soft margin."
)


def lam_position(lam: float) -> int:
    """The λ slider's position for ``lam`` (0: λ = 0; clamped to the slider's ends)."""
    if lam <= 0:
        return 0
    steps = (LAM_MAX_EXP - LAM_MIN_EXP) * LAM_STEPS_PER_DECADE
    pos = (math.log10(lam) - LAM_MIN_EXP) * LAM_STEPS_PER_DECADE
    return 1 + int(round(min(max(pos, 0), steps)))


def lam_at(position: int) -> float:
    """The λ of a slider position (lam_position's inverse on the slider's stops)."""
    if position <= 0:
        return 0.0
    return 10 ** (LAM_MIN_EXP + (position - 1) / LAM_STEPS_PER_DECADE)
