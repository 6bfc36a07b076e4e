"""Weight space as the plane's dual: each training point as a line in the (w₁, w₂) plane of
the weight-space view (svmviz.ui.views.weight_space), the other parts of the model held as the
landscape holds them (svmviz.core.pictures.landscape: b at its slice or 0, the other rows of a
multiclass W).

A point's line is where its loss term reaches its kink in row k's weights, the set
{w : ⟨w, x_i⟩ = c_i}, with the side where the term's row-k part is inactive
(``side`` · (⟨w, x_i⟩ − c_i) ≥ 0):

- binary svc (hinge, squared hinge): its margin constraint y_i(⟨w, x_i⟩ + b) = 1 (ρ for
  ν-SVC);
- one-class: ⟨w, x_i⟩ = ρ (f = 0);
- regression: the tube's two edges t_i − ⟨w, x_i⟩ − b = ±ε, the inside between them;
- multiclass, row k varying, the other rows held: Crammer–Singer, where f_k meets the
  largest other term of the point's max (y_i = k: f_k = max_{r≠k} Δ(k, r) + f_r; else
  Δ(y_i, k) + f_k = max_{r≠k} Δ(y_i, r) + f_r); Weston–Watkins, each of its hinges that
  has f_k in it (y_i = k: one per other class); one-vs-rest, row k's binary margin.

The logistic and softmax losses have no kink (every point weighs in everywhere): no lines,
and :func:`why_no_lines` says so; nor does a profiled b (it moves with w: the sets are not
lines). The hard margin's feasible region is the intersection of the inactive sides, a
convex polygon once clipped to the view's box (clipped one half-plane at a time). Plain
numpy, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from svmviz.core.data import Dataset
from svmviz.core.model_io import Model
from svmviz.core.objectives import zero_one_cost
from svmviz.core.pictures.margins import problem_module


@dataclass(frozen=True)
class Lines:
    """The lines ⟨w, normal_j⟩ = offset_j, each of the point ``owner[j]`` (an index into the
    data given), with its inactive side (``side`` ±1); ``words``: what a line is."""

    normal: np.ndarray  # (n, 2)
    offset: np.ndarray  # (n,)
    side: np.ndarray  # (n,)
    owner: np.ndarray  # (n,) int
    words: str

    def values(self, w) -> np.ndarray:
        """side · (⟨w, normal⟩ − offset) of each line at ``w`` (≥ 0: inactive)."""
        return self.side * (self.normal @ np.asarray(w, dtype=float) - self.offset)


def why_no_lines(model: Model, hold: str) -> str | None:
    """Why ``model``'s points have no lines in weight space (one line), or None."""
    module = problem_module(model)
    if not module.KINK:
        return f"No point lines: the {module.TITLE} has no margin (no kink)."
    if hold == "profiled":
        return "No point lines: with b profiled, each point's margin set is not a line."
    return None


def point_lines(model: Model, data: Dataset, k: int = 0, hold: str = "slice") -> Lines | None:
    """The lines of ``data``'s points for row ``k`` of ``model`` (see the module), or None
    when :func:`why_no_lines` says why there are none. Points at x = 0 have none."""
    if why_no_lines(model, hold) is not None:
        return None
    if hold == "none" and model.bias != "none":  # (as the landscape: every b at 0)
        model = replace(model, intercept=np.zeros_like(model.intercept), bias="none")
    X = np.asarray(data.X, dtype=float)
    w = model.coef[k]
    F = model.decision_function(X).reshape(len(X), -1)
    rest = F[:, k] - X @ w  # f_k without its ⟨w_k, x⟩: b_k (held)
    y = np.asarray(data.y)
    idx = np.arange(len(X))
    if model.kind == "regression":
        t, eps = np.asarray(data.target, dtype=float), float(model.epsilon or 0.0)
        owner = np.concatenate([idx, idx])
        offset = np.concatenate([t - eps - rest, t + eps - rest])
        side = np.concatenate([np.ones(len(X)), -np.ones(len(X))])
        words = "a tube edge |t − f| = ε"
    elif model.kind == "one-class":
        owner, offset, side = idx, -rest, np.ones(len(X))
        words = "f = 0 (⟨w, x⟩ = ρ)"
    elif F.shape[1] == 1:
        s = np.where(y == 1, 1.0, -1.0)
        level = float(model.rho) if model.problem == "nu-svc" else 1.0
        owner, offset, side = idx, s * level - rest, s
        words = "its margin y·f = " + ("ρ" if model.problem == "nu-svc" else "1")
    else:
        owner, offset, side, words = _multiclass(model, F, y, k, rest)
    keep = np.any(X[owner] != 0.0, axis=1)
    return Lines(X[owner][keep], offset[keep], side[keep], owner[keep].astype(int), words)


def _multiclass(model: Model, F, y, k, rest):
    K = F.shape[1]
    cost = zero_one_cost(K) if model.cost is None else np.asarray(model.cost, dtype=float)
    idx = np.arange(len(y))
    others = [r for r in range(K) if r != k]
    if model.loss == "ovr":
        s = np.where(y == k, 1.0, -1.0)
        return idx, s - rest, s, "row k's margin ±f_k = 1"
    if model.loss == "weston_watkins":
        owner, offset, side = [], [], []
        mine = np.flatnonzero(y == k)
        for r in others:  # y_i = k: f_k ≥ Δ(k, r) + f_r for each other r
            owner.append(mine)
            offset.append(cost[k, r] + F[mine, r] - rest[mine])
            side.append(np.ones(len(mine)))
        theirs = np.flatnonzero(y != k)  # y_i ≠ k: Δ(y_i, k) + f_k ≤ f_{y_i}
        owner.append(theirs)
        offset.append(F[theirs, y[theirs]] - cost[y[theirs], k] - rest[theirs])
        side.append(-np.ones(len(theirs)))
        words = "a hinge of its loss with f_k in it"
        return np.concatenate(owner), np.concatenate(offset), np.concatenate(side), words
    # Crammer–Singer: the max over r ≠ k of Δ(y_i, r) + f_r (r = y_i: f_y) against row k's
    M = np.max(cost[y][:, others] + F[:, others], axis=1)
    mine = y == k
    offset = np.where(mine, M - rest, M - cost[y, k] - rest)
    side = np.where(mine, 1.0, -1.0)
    return idx, offset, side, "f_k = its largest other term"


def clip(lines: Lines, box) -> np.ndarray:
    """Each line's segment inside ``box`` (w₁ min, w₁ max, w₂ min, w₂ max), (n, 2, 2);
    NaN where a line misses the box."""
    x0, x1, y0, y1 = (float(v) for v in box)
    a = lines.normal
    n2 = np.einsum("ij,ij->i", a, a)
    p = a * (lines.offset / n2)[:, None]  # the line's point nearest 0
    d = np.column_stack([-a[:, 1], a[:, 0]]) / np.sqrt(n2)[:, None]
    lo = np.full(len(a), -np.inf)
    hi = np.full(len(a), np.inf)
    for axis, (low, high) in enumerate(((x0, x1), (y0, y1))):
        with np.errstate(divide="ignore", invalid="ignore"):
            t1 = (low - p[:, axis]) / d[:, axis]
            t2 = (high - p[:, axis]) / d[:, axis]
        flat = d[:, axis] == 0
        inside = (p[:, axis] >= low) & (p[:, axis] <= high)
        t1 = np.where(flat, np.where(inside, -np.inf, np.inf), t1)
        t2 = np.where(flat, np.where(inside, np.inf, -np.inf), t2)
        lo = np.maximum(lo, np.minimum(t1, t2))
        hi = np.minimum(hi, np.maximum(t1, t2))
    out = np.stack([p + lo[:, None] * d, p + hi[:, None] * d], axis=1)
    out[~(lo < hi)] = np.nan
    return out


def feasible(lines: Lines, box) -> np.ndarray:
    """The region where every line's inactive side holds (a hard margin's feasible set),
    clipped to ``box``: a convex polygon (N, 2), empty when there is none. Clipped one
    half-plane at a time, the one that cuts deepest first; the half-planes that hold at
    every vertex are dropped (so a few clips, not one per point)."""
    x0, x1, y0, y1 = (float(v) for v in box)
    poly = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    a, c, s = lines.normal, lines.offset, lines.side
    while len(a) and len(poly):
        v = s[:, None] * (a @ poly.T - c[:, None])  # (lines, vertices)
        if np.any(np.all(v < 0, axis=1)):
            return np.zeros((0, 2))  # (a half-plane that misses the polygon)
        cuts = np.any(v < 0, axis=1)
        if not cuts.any():
            break
        a, c, s, v = a[cuts], c[cuts], s[cuts], v[cuts]
        j = int(np.argmin(v.min(axis=1)))
        poly = _clip_polygon(poly, v[j])
        a, c, s = np.delete(a, j, axis=0), np.delete(c, j), np.delete(s, j)
    return poly


def _clip_polygon(poly: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The part of the convex ``poly`` where the half-plane's value ``v`` (at each vertex,
    linear between them) is ≥ 0."""
    out = []
    for p, q, vp, vq in zip(poly, np.roll(poly, -1, axis=0), v, np.roll(v, -1), strict=True):
        if vp >= 0:
            out.append(p)
        if (vp >= 0) != (vq >= 0):
            out.append(p + (vp / (vp - vq)) * (q - p))
    return np.array(out).reshape(-1, 2)


def nearest_to_origin(polygon: np.ndarray) -> np.ndarray | None:
    """The point of a convex ``polygon`` nearest to w = 0 (None: empty polygon)."""
    if len(polygon) == 0:
        return None
    if len(polygon) >= 3:
        edges = np.roll(polygon, -1, axis=0) - polygon
        cross = edges[:, 0] * -polygon[:, 1] - edges[:, 1] * -polygon[:, 0]
        if np.all(cross >= 0) or np.all(cross <= 0):
            return np.zeros(2)
    best, dist = polygon[0], float(np.inf)
    for p, q in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
        e = q - p
        t = float(np.clip(-(p @ e) / max(float(e @ e), 1e-300), 0.0, 1.0))
        c = p + t * e
        if float(c @ c) < dist:
            best, dist = c, float(c @ c)
    return best
