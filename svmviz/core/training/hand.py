"""A boundary moved by hand: two handles in the plane give a binary linear model (w, b).

h₀ lies on the line f = 0 and h₁ on the margin line f = +1, straight across from it, so
h₁ − h₀ points along w and is 1/‖w‖ long:

    w = (h₁ − h₀) / ‖h₁ − h₀‖²,   b = −⟨w, h₀⟩.

Dragging h₀ translates the line (h₁ goes with it); dragging h₁ turns the line about h₀ and
widens or narrows the margin. With bias ``none`` the line passes through the origin: h₀
slides along it (its place along the line changes nothing) and h₁ sets the direction and
the width with h₀ kept at the same place along the line. The hand-made model is the run's
model with (w, b) put in, its objective what ``svmviz train`` reports for that model
(:func:`svmviz.core.objectives.model_objective`; a hard margin's scaled by 1/λ as the solver
does). No Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.model_io import Model
from svmviz.core.objectives import model_objective


@dataclass(frozen=True)
class Handles:
    """h₀ on f = 0 and h₁ on f = +1 (each a point (x, y) of the plane)."""

    h0: tuple[float, float]
    h1: tuple[float, float]

    def weights(self, bias: str) -> tuple[np.ndarray, float]:
        """(w, b) of the handles (b = 0 with bias ``none``)."""
        h0, h1 = np.asarray(self.h0, dtype=float), np.asarray(self.h1, dtype=float)
        d = h1 - h0
        w = d / float(d @ d)
        return w, 0.0 if bias == "none" else float(-(w @ h0))


def refusal(config: SolverConfig, n_classes: int, dims: int) -> str | None:
    """Why the boundary of ``config``'s problem on ``n_classes`` classes of ``dims``-D
    points cannot be moved by hand (None: it can): a binary linear classifier in the
    plane only."""
    if config.kind != "svc" or config.problem != "svc":
        return f"{config.problem} is not a plain classifier (its line has other meanings)"
    if not config.kernel.is_linear:
        return f"the {config.kernel.name} kernel's boundary is a curve, not a line"
    if n_classes != 2:
        return f"{n_classes} classes have one line each (it is for two classes)"
    if dims != 2:
        return f"the points are {dims}-D (the plane shows 2-D points)"
    return None


def handles_of(w, b: float, centre, bias: str, fallback=(1.0, 0.0)) -> Handles:
    """The handles of the model (w, b): h₀ where the points' ``centre`` projects onto the
    line f = 0 (with bias ``none``: onto the line through the origin), h₁ across the margin
    from it. A model with w = 0 has no line yet: ``fallback`` is taken as w's direction
    (unit length), the line through the centre (or the origin); so is a w too large or too
    small for two handles in the plane (a diverged run: h₁ would fall on h₀)."""
    w = np.asarray(w, dtype=float)
    c = np.asarray(centre, dtype=float)
    if bias == "none":
        b = 0.0
    if not np.any(w) or not np.all(np.isfinite(w)):
        w = np.asarray(fallback, dtype=float)
        w = w / np.linalg.norm(w)
        b = 0.0 if bias == "none" else -float(w @ c)
    with np.errstate(all="ignore"):  # (checked below)
        n2 = w @ w  # (numpy floats: a division by 0 is inf, not an exception)
        h0 = c - (w @ c + b) / n2 * w
        h1 = h0 + w / n2
        d2 = (h1 - h0) @ (h1 - h0)
        placed = np.all(np.isfinite(h0)) and d2 > 0 and np.isfinite(np.float64(1.0) / d2)
    if not placed:  # a diverged or vanishing w: h₁ on h₀, or far off; no line to move
        return handles_of(np.zeros_like(c), 0.0, centre, bias, fallback)
    return Handles(tuple(h0), tuple(h1))


def drag(h: Handles, which: int, to, bias: str, least: float) -> Handles:
    """The handles after handle ``which`` (0 or 1) is dragged to ``to``; h₁ stays at least
    ``least`` from h₀ (a margin of zero width has ‖w‖ = ∞)."""
    h0, h1, p = (np.asarray(v, dtype=float) for v in (h.h0, h.h1, to))
    d = h1 - h0
    r = float(np.linalg.norm(d))
    u = d / r
    v = np.array([-u[1], u[0]])  # along the line
    if which == 0:
        if bias == "none":  # slides along the line through the origin
            h0 = float(p @ v) * v
        else:
            h0 = p
        return Handles(tuple(h0), tuple(h0 + d))
    if bias != "none":
        d = p - h0
        r = float(np.linalg.norm(d))
        if r < least:
            d = (d / r if r > 0 else u) * least
        return Handles(tuple(h0), tuple(h0 + d))
    # bias none: h₀ = s·v stays at the same place s along the turned line, and p = s·v + r·u
    # with r ≥ least: p is (r, s) turned by u's angle
    s = float(h0 @ v)
    r = float(np.sqrt(max(float(p @ p) - s * s, least * least)))
    angle = np.arctan2(p[1], p[0]) - np.arctan2(s, r)
    u = np.array([np.cos(angle), np.sin(angle)])
    v = np.array([-u[1], u[0]])
    return Handles(tuple(s * v), tuple(s * v + r * u))


def hand_model(template: Model, w, b: float) -> Model:
    """The run's ``template`` model (its λ, loss, bias mode, classes) with (w, b) put in."""
    return replace(
        template,
        coef=np.asarray(w, dtype=float).reshape(1, -1).copy(),
        intercept=np.array([0.0 if template.bias == "none" else float(b)]),
        extra={"hand": True},
    )


def hand_objective(model: Model, X, y, margin: str = "soft") -> dict:
    """Objective, mean loss, error and ‖w‖ of the hand-made ``model`` on the training points
    (X, y) as the solver's history reports them (a hard margin's objective is its soft
    one scaled by 1/λ: the solver's ``objective_scale_``)."""
    found = model_objective(model, X, y)
    if margin == "hard":
        found["objective"] /= model.lam
    return found
