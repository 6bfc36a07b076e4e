"""The 3-D view's box: data coordinates mapped into the cube the camera looks at.

The decision surface keeps the plane's aspect (x₁ and x₂ scaled alike, so the circles stay
round) and z = 0 in the middle; its height is scaled so that the margins' levels and most
of f fit, and the few heights beyond (an RBF spike) are clipped, not allowed to flatten
the rest. The lift fills the cube along each axis: an axis-wise affine map keeps a plane a
plane and each point on its side of it. Pure numpy; svmviz.ui.views.surface_items draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.pictures.lift import Lift
from svmviz.core.pictures.surface import Surface

HEIGHT = 0.7  # the box's half-height for the surface's level ``reach`` (its half-width: 1)
QUANTILE = 0.98  # of |f| over the grid and the points: the height the box shows in full
CAP = 4.0  # … but at most CAP times the margins' level, which must stay apart to be seen
CLIP = 1.6  # heights beyond CLIP · reach are drawn at it


@dataclass(frozen=True)
class Box:
    """p ↦ (p − ``center``) · ``scale``, each of the three coordinates; heights (data
    units) beyond ±``clip`` drawn at it (None: none clipped)."""

    center: np.ndarray
    scale: np.ndarray
    clip: float | None = None

    def to_box(self, P) -> np.ndarray:
        """Points (n × 3, or one) in box coordinates, heights clipped first."""
        P = np.array(P, dtype=float)
        if self.clip is not None:
            P[..., 2] = np.clip(P[..., 2], -self.clip, self.clip)
        return (P - self.center) * self.scale

    def heights(self, Z) -> np.ndarray:
        """Heights alone (any shape) in box coordinates."""
        Z = np.asarray(Z, dtype=float)
        if self.clip is not None:
            Z = np.clip(Z, -self.clip, self.clip)
        return (Z - self.center[2]) * self.scale[2]


def reach(s: Surface) -> float:
    """The height the surface's box shows in full: the margins' levels (the tube's ε) and
    the QUANTILE of |f| over the grid and the points, at most CAP times the largest level
    (1 when all are 0)."""
    levels = [abs(p) for p in s.planes]
    if s.tube is not None:
        levels.append(float(s.tube))
    values = np.abs(np.concatenate([s.heights.ravel(), s.point_heights.ravel()]))
    if s.point_targets is not None:
        values = np.concatenate([values, np.abs(s.point_targets.ravel())])
    finite = values[np.isfinite(values)]
    top = float(np.quantile(finite, QUANTILE)) if finite.size else 0.0
    level = max(levels, default=0.0)
    r = max(top, level) if level <= 0 else min(max(top, level), CAP * level)
    return r if r > 0 else 1.0


def surface_box(s: Surface) -> Box:
    """The box of the decision surface ``s``: x₁, x₂ alike, z = 0 at the middle."""
    xs, ys = s.xs, s.ys
    center = np.array([(xs[0] + xs[-1]) / 2, (ys[0] + ys[-1]) / 2, 0.0])
    half = max(abs(xs[-1] - xs[0]), abs(ys[-1] - ys[0]), 1e-12) / 2
    r = reach(s)
    return Box(center, np.array([1 / half, 1 / half, HEIGHT / r]), CLIP * r)


def lift_box(lifted: Lift) -> Box:
    """The box of the lift: each axis its points' span, scaled to [−1, 1] (a coordinate
    that is constant, as the linear kernel's third, stays at 0)."""
    P = np.atleast_2d(lifted.points)
    lo, hi = P.min(axis=0), P.max(axis=0)
    half = (hi - lo) / 2
    scale = np.where(half > 1e-12, 1 / np.where(half > 1e-12, half, 1.0), 1.0)
    return Box((lo + hi) / 2, scale)


def _rgb(color: str) -> np.ndarray:
    """ "#rrggbb" as three floats in [0, 1]."""
    return np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], dtype=float) / 255


def surface_colors(s: Surface, kind: str, colors, alpha: float = 1.0) -> np.ndarray:
    """The surface's vertex colours, (ny, nx, 4), as the plane paints its regions:
    ``colors`` the class colour ("#rrggbb") of each model output (one-class: the inliers'
    then the outliers'); deeper where |f| is larger (a binary f's sign picks the class, a
    multiclass surface the winner's); regression one hue, deeper with the height."""
    Z = s.heights
    depth = np.clip(np.abs(Z) / reach(s), 0.0, 1.0)[..., None]
    palette = np.array([_rgb(c) for c in colors])
    if kind == "regression":
        base = np.broadcast_to(palette[0], Z.shape + (3,))
        depth = ((Z - Z.min()) / max(float(np.ptp(Z)), 1e-12))[..., None]
    elif s.winner is not None:
        base = palette[s.winner]
    elif kind == "one-class":
        base = palette[np.where(Z >= 0, 0, min(1, len(palette) - 1))]
    else:
        base = palette[(Z > 0).astype(int)]
    share = 0.25 + 0.65 * depth  # of the class colour; the rest white
    out = np.empty(Z.shape + (4,))
    out[..., :3] = share * base + (1 - share)
    out[..., 3] = alpha
    return out


def plane_in_box(lifted: Lift, box: Box) -> np.ndarray | None:
    """The lift's plane ⟨w, p⟩ + b = 0 cut to the box [−1, 1]³, in box coordinates: the
    polygon's corners in order around it (k × 3, k from 3 to 6), or None when the plane
    misses the box (or w = 0). In box coordinates q = (p − c)·s the plane is
    ⟨w/s, q⟩ + ⟨w, c⟩ + b = 0; its corners are where it crosses the cube's 12 edges."""
    w = np.asarray(lifted.w, dtype=float) / box.scale
    b = float(lifted.b + np.dot(lifted.w, box.center))
    if not np.any(w):
        return None
    corners = np.array([[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)])
    side = corners @ w + b
    found = []
    for i in range(8):
        for j in range(i + 1, 8):
            if np.count_nonzero(corners[i] != corners[j]) != 1:
                continue  # not an edge
            si, sj = side[i], side[j]
            if si == 0.0:
                found.append(corners[i])
            if si * sj < 0:
                found.append(corners[i] + si / (si - sj) * (corners[j] - corners[i]))
    if len(found) < 3:
        return None
    P = np.unique(np.round(np.array(found), 12), axis=0)
    if len(P) < 3:
        return None
    mid = P.mean(axis=0)
    n = w / np.linalg.norm(w)
    u = np.cross(n, [1.0, 0.0, 0.0] if abs(n[0]) < 0.9 else [0.0, 1.0, 0.0])
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    angle = np.arctan2((P - mid) @ v, (P - mid) @ u)
    return P[np.argsort(angle)]
