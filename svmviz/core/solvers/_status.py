"""What a solver's status says to the user, and what to change when a run diverged."""

from __future__ import annotations

from svmviz.core.solvers import rules

STATUS_TEXT = {
    "ready": "ready",
    "running": "running",
    "budget": "stopped: iteration budget reached",
    "objective": "stopped: the objective stopped changing (tolerance reached)",
    "weights": "stopped: w stopped changing (tolerance reached)",
    "diverged": "stopped: diverged (the objective or ‖w‖ became too large); lower the step size",
}


def advice(lam: float, eta: float, schedule: int, r2: float, linear: bool) -> str:
    """What to change after a divergence with λ, η₀ and ``schedule`` (a code of
    :mod:`.rules`) on data whose largest ‖x‖² (or k(x, x)) is ``r2``."""
    scale = f"‖x‖² up to {r2:.3g}" if linear else f"k(x, x) up to {r2:.3g}"
    if schedule == rules.PEGASOS:
        lower = "" if linear else " or lower γ"
        return f"scale the coordinates down{lower} ({scale}: too large for the step 1/(λt))"
    rule = "η₀" if schedule == rules.CONSTANT else "η₀ (of η₀/t, η₀/√t)"
    factor = rules.python().shrink_factor(eta, lam)
    if abs(factor) > 1:
        return (
            f"lower {rule} = {eta:g} below 2/λ = {2 / lam:.3g} or choose Pegasos "
            f"(each step multiplies w by 1 − ηλ = {factor:.3g})"
        ).replace("= -", "= −")
    return (
        f"lower {rule} = {eta:g} below about {1 / max(r2, 1e-300):.3g} or choose "
        f"Pegasos (the steps are too large for {scale})"
    )
