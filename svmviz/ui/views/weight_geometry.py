"""The weight-space view's geometry, numbers only: the grid over the axes' box widened to
the view's shape, whether a point has left the axes, the keys that say when a landscape
must be asked for anew, and the step's vectors in weight space. Apart from the view
(svmviz.ui.views.weight_space) so that its widget code reads as what it shows."""

from __future__ import annotations

import numpy as np

from svmviz.app.landscape_runner import held_part

INNER = 0.02  # a point this share of the side inside the axes' edge has left them
ASPECT_STEP = 0.15  # of log(width/height): the grid (not the axes) takes the view's shape


def step_parts(record, k: int) -> dict | None:
    """The step's vectors in weight space: for a single-output linear model the shrink
    w_t → (1 − η_t λ) w_t and the push on to (1 − η_t λ) w_t + push (and the projection
    back onto the ball, when there was one); for a multiclass one, row k's move."""
    if record is None or not record.linear:
        return None
    if record.shrink is not None and record.w_before is not None and len(record.w_before) == 2:
        pushed = record.shrink + record.push
        parts = {"shrink": (record.w_before, record.shrink), "push": (record.shrink, pushed)}
        if record.projected:
            parts["projected"] = (pushed, record.w_after)
        return parts
    if record.W_before is not None and record.W_before.shape[1] == 2 and k < len(record.W_before):
        return {"push": (record.W_before[k], record.W_after[k])}
    return None


def grid_key(w1, w2) -> tuple:
    return (float(w1[0]), float(w1[-1]), len(w1), float(w2[0]), float(w2[-1]), len(w2))


def held_vector(model, k: int, hold: str) -> np.ndarray:
    coef, bias, rho, eps = held_part(model, k, hold)
    extra = [v for v in (rho, eps) if v is not None]
    return np.array([*coef, *bias, *extra], dtype=float)


def widened(box, aspect: float, n: int):
    """An ``n`` × ``n`` grid over the square ``box`` widened to ``aspect`` (w₁ side over
    w₂ side), rounded up to a step of ASPECT_STEP in its log: a view a little reshaped
    keeps its grid (and its landscape)."""
    x0, x1, y0, y1 = box
    steps = np.log(min(max(aspect, 1e-3), 1e3)) / ASPECT_STEP
    r = float(np.exp(ASPECT_STEP * (np.ceil(steps) if steps > 0 else np.floor(steps))))
    axis = np.linspace(-1.0, 1.0, n)
    cx, cy, hx, hy = 0.5 * (x0 + x1), 0.5 * (y0 + y1), 0.5 * (x1 - x0), 0.5 * (y1 - y0)
    return cx + max(r, 1.0) * hx * axis, cy + max(1.0 / r, 1.0) * hy * axis


def inside(grid, keep) -> bool:
    w1, w2 = grid
    m1, m2 = INNER * (w1[-1] - w1[0]), INNER * (w2[-1] - w2[0])
    for w in keep:
        x, y = float(w[0]), float(w[1])
        if not (w1[0] + m1 <= x <= w1[-1] - m1 and w2[0] + m2 <= y <= w2[-1] - m2):
            return False
    return True
