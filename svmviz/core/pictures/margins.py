"""Each point's margin and role: where a model puts the points of a frame relative to its
margin lines (or tube, or boundary), how near a level counts as on it, and which points
are THE support vectors of svmviz. Every view, file and lesson reads roles from here, so
that the plane, the points' table and the words agree.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.data import Dataset
from svmviz.core.model_io import Model

# a point counts as on the margin within this share of its level (and never less than this
# much: see tolerance): an iterate near the optimum puts the support vectors at 1.00x, and
# they should be marked
MARGIN_TOLERANCE = 0.01

ROLE_NAMES = {
    "svc": (
        "outside the margin",
        "support vector (on the margin)",
        "support vector (inside the margin)",
        "support vector (misclassified)",
    ),
    # a classifier whose loss draws no margin (logistic, softmax): right or wrong only
    "scores": ("classified correctly", "misclassified"),
    "regression": (
        "inside the tube",
        "support vector (on the tube's edge)",
        "support vector (outside the tube)",
    ),
    "regression2d": (
        "inside the tube",
        "support vector (on the tube's edge)",
        "support vector (outside the tube)",
    ),
    "one-class": (
        "inlier",
        "support vector (on the boundary)",
        "support vector (outlier)",
    ),
}


ROLES = ROLE_NAMES["svc"]


def role_kind(kind: str, level: float) -> str:
    """The key of ROLE_NAMES for a frame of ``kind`` at margin ``level``: "scores" for a
    classifier without margin lines (level 0), else ``kind``."""
    return "scores" if kind == "svc" and level <= 0.0 else kind


def tolerance(level: float, kind: str = "svc", unit: float = 1.0) -> float:
    """How near a level a point counts as on it: a classifier's margin within
    MARGIN_TOLERANCE of its level (1, or ν-SVC's ρ, whatever its scale); one-class's
    boundary f = 0 within MARGIN_TOLERANCE of ``unit`` (its ρ: f = ⟨w, φ(x)⟩ − ρ is in
    units of ρ); a tube's edge within MARGIN_TOLERANCE of the larger of ε and 1 (in the
    targets' units: a tube ε = 0.1 wide)."""
    if kind == "svc" and level > 0.0:
        return MARGIN_TOLERANCE * float(level)
    if kind == "one-class":
        return MARGIN_TOLERANCE * abs(float(unit))
    return MARGIN_TOLERANCE * max(float(level), 1.0)


def margin_unit(model: Model) -> float:
    """The ``unit`` of :func:`tolerance` for ``model``: one-class's ρ (1 when unknown)."""
    rho = model.rho if model.kind == "one-class" else None
    return 1.0 if rho is None or not np.isfinite(rho) else float(rho)


def point_roles(
    margins: np.ndarray, kind: str = "svc", level: float = 1.0, unit: float = 1.0
) -> np.ndarray:
    """Each point's role, an index into ``ROLE_NAMES[role_kind(kind, level)]``.

    svc, by z = y f(x) (binary) or f_y − max_{k≠y} f_k: 0 outside the margin (z > level),
    1 on it (within :func:`tolerance`: a support vector of the optimum), 2 inside it
    (0 ≤ z < level), 3 misclassified (z < 0); without margin lines (level 0) 0 right,
    1 wrong (z < 0). Regression, by the residual r = t − f(x): 0 inside the tube
    (|r| < ε), 1 on its edge (|r| = ε), 2 outside (|r| > ε). One-class, by f(x): 0 inlier,
    1 on the boundary (f = 0), 2 outlier (f < 0).
    """
    margins = np.asarray(margins, dtype=float)
    tol = tolerance(level, kind, unit)
    roles = np.zeros(len(margins), dtype=np.int64)
    if kind in ("regression", "regression2d"):
        distance = np.abs(margins) - level
        roles[np.abs(distance) <= tol] = 1
        roles[distance > tol] = 2
    elif kind == "one-class":
        roles[np.abs(margins) <= tol] = 1
        roles[margins < -tol] = 2
    elif level <= 0.0:
        roles[margins < 0] = 1
    else:
        roles[np.abs(margins - level) <= tol] = 1
        roles[(margins >= 0) & (margins < level - tol)] = 2
        roles[margins < 0] = 3
    return roles


def support_mask(
    margins: np.ndarray, kind: str = "svc", level: float = 1.0, unit: float = 1.0
) -> np.ndarray:
    """THE support vectors of svmviz, every view's and file's: the points whose margin (or
    tube) condition is active or violated at the model shown, by f at the points (never
    by α, kernel and linear alike). svc z ≤ level (z = y f, or f_y − max_{k≠y} f_k;
    level 1, or ρ for ν-SVC): on the margin, inside it or misclassified; regression
    |t − f| ≥ ε: on the tube's edge or outside; one-class f ≤ 0: on the boundary or
    outside; each within :func:`tolerance`. A loss without margin lines (logistic,
    softmax: level 0) has none: every point has a gradient weight, none is singled out.
    ``unit``: one-class's ρ (:func:`tolerance`). Its words:
    :func:`svmviz.core.lesson.support.rule`."""
    tol = tolerance(level, kind, unit)
    if kind in ("regression", "regression2d"):
        return np.abs(margins) >= level - tol
    if kind == "one-class":
        return margins <= tol
    if level <= 0.0:
        return np.zeros(len(margins), dtype=bool)
    return margins <= level + tol


def problem_module(model: Model):
    """The loss module of ``model``'s problem (svmviz.core.solvers.losses.MODULES): its
    LEVELS, OFFSETS and words."""
    from svmviz.core.solvers.losses import MODULES

    return MODULES[model.problem if model.problem != "svc" else model.loss]


def margin_lines(model: Model) -> list[float]:
    """The margin lines of an svc ``model``, as values of f (binary) or of
    f_y − max_{k≠y} f_k (multiclass): the nonzero LEVELS of its loss module, in units of ρ
    for a problem that learns ρ (ν-SVC: f = ±ρ); none for logistic and softmax."""
    module = problem_module(model)
    unit = float(model.rho) if "rho" in getattr(module, "OFFSETS", ()) else 1.0
    return sorted((unit * float(v) for v in module.LEVELS if v != 0), reverse=True)


def margin_level(model: Model) -> float:
    """The margin level of ``model`` in the units of its frame's margins: ε for
    regression (learned by ν-SVR), 0 for one-class; for svc the largest margin line
    (:func:`margin_lines`: 1, ρ for ν-SVC, 0 without one)."""
    if model.kind == "regression":
        return float(model.epsilon or 0.0)
    if model.kind == "one-class":
        return 0.0
    return max((abs(v) for v in margin_lines(model)), default=0.0)


def point_margins(F: np.ndarray, data: Dataset, kind: str, level: float):
    """(margins, wrong) of the points of ``data`` from f at them (``F``), in the units of
    a frame of ``kind`` at margin ``level`` (see :class:`.frame.Frame`)."""
    y = data.y
    if kind in ("regression", "regression2d"):
        margins = np.asarray(data.target, dtype=float) - F
        return margins, np.abs(margins) > level
    if kind == "one-class":
        margins = np.asarray(F, dtype=float)
        return margins, margins < 0
    if F.ndim == 1:
        return np.where(y == 1, 1.0, -1.0) * F, (F > 0) != (y == 1)
    fy = F[np.arange(len(y)), y]
    Fo = F.copy()
    Fo[np.arange(len(y)), y] = -np.inf
    return fy - Fo.max(axis=1), np.argmax(F, axis=1) != y
