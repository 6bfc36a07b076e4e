"""The session's points and a data set: a data set's points as the session keeps them (the
classes in their slots), the data set a problem reads from them, and what a switch of the
problem does to them (and says). Functions of the points alone, beside the session that
holds them (:mod:`.session`).
"""

from __future__ import annotations

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.edits import DEFAULT_NAMES, Points
from svmviz.core.palette import CLASS_COLORS, MAX_CLASSES


def dataset_of(points: Points, kind: str) -> Dataset | None:
    """``points`` as a problem of ``kind`` reads them; None when they make no problem.

    svc: the classes present (two or more). one-class: every point, unlabelled.
    Regression: the 2-D points and their targets when they carry them; otherwise the
    plane's x as the input (m×1) and its y as the target."""
    p = points
    if kind == "one-class":
        return Dataset.points(np.array(p.X)) if len(p) else None
    if kind == "regression":
        if len(p) < 2:
            return None
        if p.target is not None:
            return Dataset.regression(np.array(p.X), np.array(p.target))
        return Dataset.regression(np.array(p.X[:, :1]), np.array(p.X[:, 1]))
    present = np.unique(p.y)
    if present.size < 2:
        return None
    index = np.full(MAX_CLASSES, -1, dtype=np.int64)
    index[present] = np.arange(present.size)
    return Dataset(np.array(p.X), index[p.y], tuple(p.names[k] for k in present))


def points_of(data: Dataset) -> Points:
    """A data set's points as the session keeps them: the classes in their slots; a
    regression's targets with 2-D inputs, or with 1-D inputs the plane's (x, target)."""
    names = _slot_names(data)
    keep = data.y < MAX_CLASSES
    X, y = data.X[keep], data.y[keep]
    if data.target is None:
        return Points.of(X[:, :2], y, names, CLASS_COLORS)
    target = np.asarray(data.target, dtype=float)[keep]
    if X.shape[1] == 1:
        return Points.of(np.column_stack([X[:, 0], target]), y, names, CLASS_COLORS)
    return Points.of(X[:, :2], y, names, CLASS_COLORS, target)


def switch_points(points: Points, old: SolverConfig, new: SolverConfig) -> Points | None:
    """The points a switch from ``old``'s problem to ``new``'s leaves (None: the same).
    Coordinates and classes always stay; the targets of a 2-D regression cannot carry over
    to another kind of problem, and are dropped (Undo brings them back)."""
    if points.target is not None and new.kind != "regression":
        return points.with_xy(points.X, points.y)
    return None


def switch_notice(old: SolverConfig, new: SolverConfig, before: Points, after: Points) -> str:
    """What a switch from ``old``'s problem to ``new``'s did to the points, in words ("" when
    there is nothing to say)."""
    if old.kind == new.kind:
        return ""
    if before.target is not None and after.target is None:
        return (
            f"{new.problem}: the targets of the points cannot carry over and are dropped "
            "(Undo brings them back); their coordinates stay"
        )
    if after.target is not None:
        return f"{new.problem}: the points' 2-D coordinates are the inputs, their targets again"
    if new.kind == "regression":
        return (
            f"{new.problem}: each point's first coordinate becomes the input x and its second "
            "the target y"
        )
    if old.kind == "regression":
        return (
            f"{new.problem}: each point's (x, target) becomes its coordinates again, "
            "with the class it was placed with"
        )
    if new.kind == "one-class":
        return f"{new.problem}: the points keep their coordinates; their classes are ignored"
    return f"{new.problem}: the points keep their coordinates and their classes"


def _slot_names(data: Dataset) -> list:
    """The data's class names in the first slots, default names after them (never one that
    repeats a data class: the data may have a class called "class 3")."""
    K = min(data.n_classes, MAX_CLASSES)
    names = list(DEFAULT_NAMES)
    names[:K] = data.classes[:K]
    for k in range(K, MAX_CLASSES):
        j = 2
        while names[k] in names[:K]:
            names[k] = f"{DEFAULT_NAMES[k]} ({j})"
            j += 1
    return names
