"""Synthetic 2-D data sets for the classroom, deterministic for a seed. Coordinates are
produced at the scale they are drawn at (roughly within [−3, 3]); nothing is rescaled later.

The regression kinds (:data:`REGRESSION_KINDS`) are points (x, target) of one class, as the
plane draws 1-D regression (libsvm's svm-toy): x the input, the second coordinate the target."""

from __future__ import annotations

import numpy as np

from svmviz.core.errors import InputError, finite_number, shown, whole_number
from svmviz.core.limits import MAX_POINTS
from svmviz.core.palette import MAX_CLASSES

CLASSIFICATION_KINDS = ("blobs", "separable", "xor", "moons", "circles", "spirals")
# a noisy sine, a line with a few far outliers, a step: targets over x in [−3, 3]
REGRESSION_KINDS = ("sine", "outliers", "step")
KINDS = CLASSIFICATION_KINDS + REGRESSION_KINDS
MAX_SCALE = 1e6  # the largest noise and margin (the points are drawn at a scale of about 3)


def generate(
    kind: str,
    n: int = 100,
    noise: float = 0.2,
    classes: int = 2,
    seed: int = 0,
    margin: float = 0.5,
):
    """(X, y) for ``kind``: ``n`` points in total, ``noise`` the standard deviation of the
    Gaussian jitter, ``classes`` for blobs and spirals, ``margin`` the gap of ``separable``.
    A regression kind gives points (x, target) with y all 0."""
    if kind not in KINDS:
        raise InputError(f"unknown data set {shown(kind)}; choose one of {', '.join(KINDS)}")
    if not whole_number(n) or not 2 <= n <= MAX_POINTS:
        raise InputError(
            f"the number of points must be a whole number from 2 to {MAX_POINTS:,}, not {shown(n)}"
        )
    if not finite_number(noise) or not 0 <= noise <= MAX_SCALE:
        raise InputError(f"the noise must be a number from 0 to {MAX_SCALE:g}, not {shown(noise)}")
    if not whole_number(classes) or not 2 <= classes <= MAX_CLASSES:
        raise InputError(
            f"the number of classes must be between 2 and {MAX_CLASSES}, not {shown(classes)}"
        )
    if not finite_number(margin) or not 0 <= margin <= MAX_SCALE:
        raise InputError(
            f"the margin must be a number from 0 to {MAX_SCALE:g}, not {shown(margin)}"
        )
    if not whole_number(seed) or seed < 0:
        raise InputError(f"the seed must be a whole number ≥ 0, not {shown(seed)}")
    rng = np.random.default_rng(int(seed))
    n, noise = int(n), float(noise) + 0.0  # (+ 0.0: -0.0 is a "scale < 0" to numpy)
    if kind in REGRESSION_KINDS:
        return _regression(kind, n, noise, rng)
    if kind == "blobs":
        angles = 2 * np.pi * np.arange(classes) / classes
        centres = 2.0 * np.column_stack([np.cos(angles), np.sin(angles)])
        y = np.arange(n) % classes
        X = centres[y] + rng.normal(0, 0.5 + noise, (n, 2))
    elif kind == "separable":
        # two classes on either side of a random line, at least ``margin`` away from it
        theta = rng.uniform(0, np.pi)
        normal = np.array([np.cos(theta), np.sin(theta)])
        y = np.arange(n) % 2
        along = rng.uniform(-2.5, 2.5, n)
        across = (margin + rng.exponential(0.6 + noise, n)) * np.where(y == 1, 1.0, -1.0)
        X = np.outer(along, [-normal[1], normal[0]]) + np.outer(across, normal)
    elif kind == "xor":
        X = rng.uniform(-2.5, 2.5, (n, 2))
        y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(np.int64)
        X = X + rng.normal(0, noise, (n, 2))
    elif kind == "moons":
        y = np.arange(n) % 2
        t = rng.uniform(0, np.pi, n)
        X = np.where(
            (y == 0)[:, None],
            np.column_stack([np.cos(t), np.sin(t)]),
            np.column_stack([1 - np.cos(t), 0.5 - np.sin(t)]),
        )
        X = 1.5 * (X - [0.5, 0.25]) + rng.normal(0, noise, (n, 2))
    elif kind == "circles":
        y = np.arange(n) % 2
        t = rng.uniform(0, 2 * np.pi, n)
        r = np.where(y == 0, 2.5, 1.0)
        X = np.column_stack([r * np.cos(t), r * np.sin(t)]) + rng.normal(0, noise, (n, 2))
    else:  # spirals
        y = np.arange(n) % classes
        t = rng.uniform(0.25, 1.0, n)
        angle = 3 * np.pi * t + 2 * np.pi * y / classes
        X = 2.8 * np.column_stack([t * np.cos(angle), t * np.sin(angle)])
        X = X + rng.normal(0, noise * 0.5, (n, 2))
    return np.asarray(X, dtype=float), np.asarray(y, dtype=np.int64)


def _regression(kind: str, n: int, noise: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """(x, target) points over x in [−3, 3]: a sine (svm-toy's demo), a line with every
    tenth point thrown far off it (what the ε-insensitive loss shrugs off), or a step."""
    x = np.sort(rng.uniform(-3.0, 3.0, n))
    if kind == "sine":
        t = 1.5 * np.sin(1.2 * x)
    elif kind == "outliers":
        t = 0.5 * x + 0.2
    else:  # step
        t = np.where(x < 0.0, -1.0, 1.0)
    t = t + rng.normal(0, noise, n)
    if kind == "outliers":
        far = np.arange(n) % 10 == 5
        t[far] += np.where(rng.uniform(size=int(far.sum())) < 0.5, -2.5, 2.5)
    return np.column_stack([x, t]), np.zeros(n, dtype=np.int64)
