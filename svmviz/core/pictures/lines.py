"""The plane's straight lines and segments, and the thinning of traced curves: a linear
model's level lines clipped to the view, the segments from points to a margin line or a
tube's edge (their slack), and the vertices a contour can do without.
"""

from __future__ import annotations

import numpy as np


def tube_segments(points: np.ndarray, residuals: np.ndarray, epsilon: float):
    """For 1-D regression: from each point (x_i, t_i) outside the ε-tube straight down or up
    to the tube's edge f(x_i) ± ε (its length |r_i| − ε, the point's loss): (starts, ends),
    each n×2."""
    idx = np.flatnonzero(np.abs(residuals) > epsilon)
    ends = points[idx].copy()
    ends[:, 1] -= residuals[idx] - np.sign(residuals[idx]) * epsilon
    return points[idx], ends


def slack_segments(
    coef: np.ndarray, intercept: float, X: np.ndarray, y_sign: np.ndarray, level: float = 1.0
):
    """For a linear binary model: from each point with slack ξ_i = max(0, level − y_i f(x_i))
    > 0 to the nearest point of its own margin line f = y_i·level (a segment of length
    ξ_i/‖w‖; level 1, or ρ for ν-SVC): (starts, ends), each n×2."""
    w = np.asarray(coef, dtype=float)
    n2 = float(w @ w)
    if n2 == 0.0:
        return np.zeros((0, 2)), np.zeros((0, 2))
    f = X @ w + intercept
    slack = np.maximum(0.0, level - y_sign * f)
    idx = np.flatnonzero(slack > 0)
    ends = X[idx] + ((level * y_sign[idx] - f[idx]) / n2)[:, None] * w
    return X[idx], ends


def simplify_lines(lines: list, tol: float, passes: int = 3) -> list:
    """Drop the vertices of the polylines that are not needed to stay within ``tol`` of them.

    Each pass removes interior vertices within tol/passes of the segment joining their two
    neighbours, never two neighbours in one pass, so every dropped vertex ends within tol of
    the result (a vectorized cousin of Ramer–Douglas–Peucker, over all lines at once: it
    runs per frame in the worker, where Python-level work holds up the GUI). Ends stay, so a
    closed line stays closed. Traced contours of a smooth f are near straight over many grid
    cells, and every vertex costs the GUI stroking time."""
    if not lines:
        return lines
    P = np.vstack(lines)
    ids = np.repeat(np.arange(len(lines)), [len(line) for line in lines])
    keep = np.ones(len(P), dtype=bool)
    limit = tol / passes
    for _ in range(passes):
        idx = np.flatnonzero(keep)
        if idx.size < 3:
            break
        q, lid = P[idx], ids[idx]
        a, m, b = q[:-2], q[1:-1], q[2:]
        interior = (lid[1:-1] == lid[:-2]) & (lid[1:-1] == lid[2:])
        interior[1::2] = False  # every other candidate: the neighbours of a dropped one stay
        ab = b - a
        t = np.clip(((m - a) * ab).sum(axis=1) / np.maximum((ab**2).sum(axis=1), 1e-300), 0, 1)
        gap = m - (a + t[:, None] * ab)
        drop = interior & (np.hypot(gap[:, 0], gap[:, 1]) < limit)
        if not drop.any():
            break
        keep[idx[1:-1][drop]] = False
    counts = np.bincount(ids[keep], minlength=len(lines))
    return np.split(P[keep], np.cumsum(counts)[:-1])


def level_line(w, b: float, c: float, extent) -> list:
    """The segment of the line ⟨w, x⟩ + b = c inside the rectangle ``extent``, as a list of
    one (2, 2) array (empty when the line misses the rectangle or w = 0)."""
    x0, x1, y0, y1 = extent
    w1, w2 = float(w[0]), float(w[1])
    r = c - b
    points = []
    if w2 != 0.0:  # crossings of the vertical sides
        for x in (x0, x1):
            y = (r - w1 * x) / w2
            if y0 <= y <= y1:
                points.append((x, y))
    if w1 != 0.0:  # crossings of the horizontal sides
        for y in (y0, y1):
            x = (r - w2 * y) / w1
            if x0 <= x <= x1:
                points.append((x, y))
    if len(points) < 2:
        return []
    P = np.array(points)
    # the two crossings farthest apart (a corner can be found twice)
    d = ((P[:, None, :] - P[None, :, :]) ** 2).sum(axis=-1)
    i, j = np.unravel_index(np.argmax(d), d.shape)
    if d[i, j] == 0.0:
        return []
    return [P[[i, j]]]
