"""The hard margin's last exact step: the solver's output made feasible.

Stochastic steps leave a hard margin's output a little off: a few points inside the margin
(y f < 1) and b off the middle, so the band drawn holds points and min y f/‖w‖ is below the
maximum. For the output's w, the exact step takes the b that maximizes t = min_i y_i f(x_i)
(the middle between the classes' closest points, 001 "Hard SVM": the margin of a
direction), then divides w and b by t, so that min y f = 1 and every margin constraint
holds; the geometric margin is then t/‖w‖, the best b gives for this w. Multiclass
(Crammer–Singer): the biases that maximize t = min (f_y − f_k)/Δ(y, k), a linear program
in K + 1 numbers. Without a free bias (none, or inside w) only the division is done.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# what the window and `svmviz train` say of it
# a margin constraint counts as met within this: below it a slack is rounding (the exact
# step leaves y f = 1 − 2.2e-16 at support vectors), and the Points tab shows it as 0
TOLERANCE = 1e-9
WORDS = "b re-centred between the classes' closest points and w rescaled so that min y f = 1"


class ExactStep(NamedTuple):
    """The last exact step of a hard margin's output (:func:`recentred`)."""

    iteration: int  # the iteration after which it was taken
    scale: float  # t: w and b were divided by it
    bias_before: tuple  # b of the output before the step
    bias: tuple  # b after it (the re-centred b, divided by t)
    margin_before: float  # min y f/‖w‖ (multiclass: min (f_y − max other f)/‖w‖) before
    margin: float  # ... after: t/‖w‖ for the 0-1 cost
    broken_before: int  # margin constraints the output broke before

    def to_dict(self) -> dict:
        """For the model file (numbers and lists only)."""
        d = self._asdict()
        d["bias_before"] = list(self.bias_before)
        d["bias"] = list(self.bias)
        return d


def recentred(F, y, cost, b, free: bool) -> tuple[np.ndarray, float]:
    """(b′, t): the bias and the least constraint ratio t of the scores ``F`` (with the bias
    ``b``; (m,) binary, (m, K) multiclass) of the classes ``y``: with a ``free`` bias, b′
    maximizes t; else b′ = b. t ≤ 0: no b makes this w separate the data."""
    F = np.asarray(F, dtype=float)
    b = np.asarray(b, dtype=float)
    if F.ndim == 1:
        s = np.where(y == 1, 1.0, -1.0)
        if not free:
            return b.copy(), float(np.min(s * F))
        F0 = F - b[0]
        lo, hi = float(F0[s > 0].min()), float(F0[s < 0].max())
        return np.array([-(lo + hi) / 2.0]), (lo - hi) / 2.0
    F0 = F - b
    if free:
        b = _multiclass_bias(F0, y, cost)
    return b.copy(), _least_ratio(F0 + b, y, cost)


def _least_ratio(F, y, cost) -> float:
    """min over i and k ≠ y_i of (f_{y_i} − f_k)/Δ(y_i, k)."""
    rows = np.arange(F.shape[0])
    gap = (F[rows, y][:, None] - F) / np.where(cost[y] > 0, cost[y], np.inf)
    gap[rows, y] = np.inf
    return float(gap.min())


def _multiclass_bias(F0, y, cost) -> np.ndarray:
    """The biases that maximize min (f_y − f_k)/Δ(y, k) for the scores F0 without them:
    maximize t s.t. t Δ(y, k) − b_y + b_k ≤ D(y, k) = min_{i in y} F0_iy − F0_ik, b_0 = 0
    (the scores are invariant to a common shift)."""
    from scipy.optimize import linprog

    K = F0.shape[1]
    rows, bounds = [], []
    for c in np.unique(y):
        Fc = F0[y == c]
        D = (Fc[:, c][:, None] - Fc).min(axis=0)
        for k in range(K):
            if k != c and cost[c, k] > 0:
                row = np.zeros(K + 1)
                row[c], row[k], row[K] = -1.0, 1.0, cost[c, k]
                rows.append((row, D[k]))
    bounds = [(0.0, 0.0)] + [(None, None)] * (K - 1) + [(None, None)]
    objective = np.zeros(K + 1)
    objective[K] = -1.0
    A = np.array([r for r, _ in rows])
    rhs = np.array([d for _, d in rows])
    result = linprog(objective, A_ub=A, b_ub=rhs, bounds=bounds, method="highs")
    if not result.success:
        return np.zeros(K)
    return np.asarray(result.x[:K], dtype=float)


def least_margin(F, y) -> float:
    """min_i y_i f(x_i) (binary, y ∈ {0, 1}) or min_i f_{y_i} − max_{k≠y_i} f_k."""
    F = np.asarray(F, dtype=float)
    if F.ndim == 1:
        return float(np.min(np.where(y == 1, 1.0, -1.0) * F))
    rows = np.arange(F.shape[0])
    others = F.copy()
    others[rows, y] = -np.inf
    return float(np.min(F[rows, y] - others.max(axis=1)))


def broken(F, y, cost, tol: float = TOLERANCE) -> int:
    """How many points break their margin constraint: y f < 1 (binary), or
    f_y − f_k < Δ(y, k) for some k (multiclass) by more than ``tol``."""
    F = np.asarray(F, dtype=float)
    if F.ndim == 1:
        return int(np.count_nonzero(1.0 - np.where(y == 1, 1.0, -1.0) * F > tol))
    rows = np.arange(F.shape[0])
    slack = (cost[y] + F - F[rows, y][:, None]).max(axis=1)
    return int(np.count_nonzero(slack > tol))
