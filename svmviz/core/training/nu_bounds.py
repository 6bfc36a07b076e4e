"""What ν bounds, in numbers: the share of the points beyond the margin (ν-SVC's margin
errors, y f < ρ; one-class's outliers, f < 0; ν-SVR's points outside the tube, |t − f| > ε)
is at most ν, and the share of support vectors (on the margin or beyond it) at least ν.
Both hold at the optimum only (the ν-property of Schölkopf et al.): an iterate, and an
averaged output above all, may break either, so the window gives the model's own shares
and the optimum's beside ν.

At the exact optimum the points on the margin sit on it to the solver's precision: they
are counted within EXACT_TOLERANCE of it (the plane's band of svmviz.core.pictures.margins.tolerance
is for an iterate near the optimum, not at it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.data import Dataset
from svmviz.core.model_io import Model

EXACT_TOLERANCE = 1e-6  # relative to the margin's scale (ρ, ε or 1, the largest)


@dataclass(frozen=True)
class NuShares:
    """A model's shares of the points beyond its margin and of its support vectors, beside
    the ν it was trained with."""

    nu: float
    beyond: float
    support: float

    def holds(self) -> bool:
        """Whether ν bounds both: beyond ≤ ν ≤ support."""
        return self.beyond <= self.nu <= self.support


def nu_shares(model: Model, data: Dataset, F: np.ndarray | None = None) -> NuShares | None:
    """The shares of a ν problem's ``model`` on ``data`` (``F``: f at the points, when
    known), counted within EXACT_TOLERANCE of the margin; None for a problem without ν."""
    if model.nu is None or model.kind not in ("svc", "regression", "one-class"):
        return None
    F = np.asarray(model.decision_function(data.X) if F is None else F, dtype=float)
    if F.ndim != 1 or not len(F):
        return None
    if model.kind == "regression":
        level = float(model.epsilon or 0.0)
        beyond = np.abs(np.asarray(data.target, dtype=float) - F) - level
    elif model.kind == "one-class":
        level, beyond = float(model.rho or 0.0), -F
    else:  # ν-SVC: y f below ρ
        level = float(model.rho or 0.0)
        beyond = level - np.where(data.y == 1, 1.0, -1.0) * F
    tol = EXACT_TOLERANCE * max(abs(level), 1.0)
    return NuShares(float(model.nu), float(np.mean(beyond > tol)), float(np.mean(beyond >= -tol)))
