"""Generalization (001): a train/test split, a learning curve and a complexity sweep.

001 bounds the gap between the true risk and the training error (by ‖w‖ and the data's
radius, not by the dimension); here it is measured instead: the points are split into a
training set and a held-out test set, and the 0-1 error on both is reported

* per iteration of the training (the window samples the test error as it draws),
* against the training-set size n (a learning curve: the first n training points in a fixed,
  class-interleaved order, so each set holds the previous one),
* against one knob of the problem's complexity (λ, the RBF γ or the polynomial degree).

The split is stable under edits: each point's place in the order comes from a hash of its
coordinates and the split's seed, so adding, moving or deleting one point moves at most one
other point between the sets of its class. It is stratified: each class keeps its share of
test points, and at least one training point.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError, shown
from svmviz.core.limits import BOUNDS
from svmviz.core.objectives import errors
from svmviz.core.training.setup import run_to_end

MAX_TEST_FRACTION = 0.9
TRAIN, TEST, UNUSED = 0, 1, 2  # a point's part in a split (UNUSED: beyond the size limit)
PART_NAMES = ("training", "test", "unused")
SWEEPS = {  # parameter -> (label, kernels it applies to)
    "lam": ("λ", None),
    "gamma": ("γ (RBF)", ("rbf",)),
    "degree": ("degree (polynomial)", ("poly",)),
}


@dataclass(frozen=True)
class Split:
    """``fraction`` of each class held out for testing (0: no split), with ``seed``;
    ``size``: train on the first ``size`` training points only (None: all of them)."""

    fraction: float = 0.0
    seed: int = 0
    size: int | None = None

    def __post_init__(self):
        if not (isinstance(self.fraction, (int, float)) and math.isfinite(self.fraction)):
            raise InputError(f"the test fraction must be a number, not {shown(self.fraction)}")
        if not 0.0 <= self.fraction <= MAX_TEST_FRACTION:
            raise InputError(
                f"the test fraction must be between 0 and {MAX_TEST_FRACTION:g}, "
                f"not {self.fraction:g}"
            )
        if self.size is not None and (int(self.size) != self.size or self.size < 2):
            raise InputError(
                f"the training-set size must be a whole number ≥ 2, not {shown(self.size)}"
            )

    @property
    def active(self) -> bool:
        return self.fraction > 0 or self.size is not None


def point_keys(X: np.ndarray, seed: int) -> np.ndarray:
    """A pseudo-random number in [0, 1) per point, from its coordinates and ``seed``
    (splitmix64 over the float64 bits): the same point always gets the same key."""
    bits = np.ascontiguousarray(X, dtype=np.float64).view(np.uint64).reshape(len(X), -1)
    start = (int(seed) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    h = np.full(len(X), start, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(bits.shape[1]):
            h = _mix(h ^ bits[:, j])
    return (h >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def _mix(z: np.ndarray) -> np.ndarray:
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def training_order(X: np.ndarray, y: np.ndarray, seed: int) -> np.ndarray:
    """Every point's index, in a fixed order that interleaves the classes by their share
    (each prefix holds every class in about its proportion): within a class by key, then
    by rank / class size."""
    return _order(point_keys(X, seed), y)


def _order(keys: np.ndarray, y: np.ndarray) -> np.ndarray:
    position = np.empty(len(y))
    for k in np.unique(y):
        idx = np.flatnonzero(y == k)
        ranks = np.argsort(np.argsort(keys[idx], kind="stable"), kind="stable")
        position[idx] = (ranks + 0.5) / idx.size
    return np.lexsort((keys, position))


def split_parts(X: np.ndarray, y: np.ndarray, split: Split) -> np.ndarray:
    """Each point's part: TRAIN, TEST or UNUSED (int8). Per class, round(fraction·n_k)
    points with the largest keys are held out (at most n_k − 1); with a ``size``, training
    points after the first ``size`` of :func:`training_order` are UNUSED."""
    parts = np.zeros(len(y), dtype=np.int8)
    if len(y) == 0 or not split.active:
        return parts
    keys = point_keys(X, split.seed)
    for k in np.unique(y):
        idx = np.flatnonzero(y == k)
        n_test = min(int(round(split.fraction * idx.size)), idx.size - 1)
        if n_test > 0:
            parts[idx[np.argsort(keys[idx], kind="stable")[-n_test:]]] = TEST
    if split.size is not None:
        order = _order(keys, y)
        train = order[parts[order] == TRAIN]
        parts[train[split.size :]] = UNUSED
    return parts


def subset(data: Dataset, index: np.ndarray) -> Dataset:
    """The points ``index`` of ``data``, with the same classes (so a model trained on them
    numbers the classes as ``data`` does); raises InputError when a class has no point."""
    y = data.y[index]
    missing = [c for k, c in enumerate(data.classes) if not np.any(y == k)]
    if missing:
        raise InputError(
            f"no training point of class {', '.join(missing)}: hold out fewer points for "
            "testing, use a larger training set or add points"
        )
    target = None if data.target is None else data.target[index]  # (a regression's)
    return Dataset(data.X[index], y, data.classes, target)


def error_on(model, data: Dataset, index: np.ndarray) -> float:
    """The error of ``model`` (trained on a :func:`subset` of ``data``) on the points
    ``index`` of ``data``, as its problem measures it: the 0-1 error, a regression's mean
    absolute error, a one-class model's share of outliers (f < 0); NaN when there are
    none."""
    if index.size == 0:
        return math.nan
    F = model.decision_function(data.X[index])
    if data.target is not None:
        return float(np.mean(np.abs(data.target[index] - F)))
    if not data.classes:
        return float(np.mean(F < 0))
    return errors(F, data.y[index])


def fit(config: SolverConfig, data: Dataset, stop=None):
    """Train ``config`` on ``data`` to its budget (or its stopping rule): the output model,
    or None when ``stop()`` turned true on the way (:func:`svmviz.core.training.setup.run_to_end`,
    what the estimators of :mod:`svmviz.estimators` run too)."""
    solver = run_to_end(config, data, stop)
    if solver is None:
        return None
    if solver.status_ == "diverged":
        raise InputError("diverged (the step size is too large for these data)")
    return solver.model()


@dataclass(frozen=True)
class CurvePoint:
    """One point of a learning curve or sweep: the knob's value and the two errors (NaN
    when the fit failed, with the reason in ``problem``)."""

    value: float
    train_error: float
    test_error: float
    problem: str | None = None


def learning_sizes(n_train: int, count: int = 10) -> np.ndarray:
    """Training-set sizes for a learning curve: about ``count`` log-spaced whole numbers
    from 2 (or 4) up to ``n_train``."""
    if n_train < 2:
        return np.zeros(0, dtype=np.int64)
    lo = min(4, n_train)
    sizes = np.unique(np.round(np.geomspace(lo, n_train, count)).astype(np.int64))
    return sizes


def sweep_values(config: SolverConfig, param: str, count: int = 11) -> np.ndarray:
    """The values a complexity sweep tries: λ and γ on a log grid of 5 decades centred on
    the current value (within their ranges in BOUNDS), the degree 1..8."""
    if param == "degree":
        return np.arange(1, 9, dtype=float)
    current = config.lam if param == "lam" else config.kernel.gamma
    centre = math.log10(current) if current > 0 else -2.0
    bound = BOUNDS[param]
    return np.unique(np.clip(np.logspace(centre - 2.5, centre + 2.5, count), bound.low, bound.high))


def sweep_config(config: SolverConfig, param: str, value: float) -> SolverConfig:
    """``config`` with the knob ``param`` set to ``value``."""
    if param == "lam":
        return config.replace(lam=float(value))
    v = int(value) if param == "degree" else float(value)
    return config.replace(kernel=dataclasses.replace(config.kernel, **{param: v}))


def sweep_problem(config: SolverConfig, param: str) -> str | None:
    """Why ``param`` cannot be swept for ``config`` (None when it can)."""
    if param not in SWEEPS:
        return f"unknown sweep parameter {param!r}"
    label, kernels = SWEEPS[param]
    if kernels is not None and config.kernel.name not in kernels:
        return f"{label} applies to the {' or '.join(kernels)} kernel only"
    if param == "lam" and config.margin == "hard":
        return "a hard margin has no λ to sweep (it is the limit λ → 0)"
    return None


def evaluate(
    config: SolverConfig,
    data: Dataset,
    train: np.ndarray,
    test: np.ndarray,
    value: float,
    stop=None,
) -> CurvePoint | None:
    """Fit on the points ``train`` and measure the error on ``train`` and ``test`` (None
    when stopped)."""
    try:
        model = fit(config, subset(data, train), stop)
    except InputError as exc:
        return CurvePoint(float(value), math.nan, math.nan, str(exc))
    if model is None:
        return None
    return CurvePoint(float(value), error_on(model, data, train), error_on(model, data, test))


def learning_curve(config, data: Dataset, parts: np.ndarray, seed: int, sizes, stop=None):
    """Yield a CurvePoint per training-set size n in ``sizes`` (see :func:`learning_sizes`):
    trained on the first n non-test points in :func:`training_order`, tested on the TEST
    points. Ends early when ``stop()`` turns true."""
    order = training_order(data.X, data.y, seed)
    pool = order[parts[order] != TEST]
    test = np.flatnonzero(parts == TEST)
    for n in sizes:
        p = evaluate(config, data, np.sort(pool[: int(n)]), test, float(n), stop)
        if p is None:
            return
        yield p


def complexity_sweep(config, data: Dataset, parts: np.ndarray, param: str, values, stop=None):
    """Yield a CurvePoint per value of ``param`` ("lam", "gamma" or "degree"; see
    :func:`sweep_values`), trained on the TRAIN points and tested on the TEST points."""
    problem = sweep_problem(config, param)
    if problem is not None:
        raise InputError(problem)
    train, test = np.flatnonzero(parts == TRAIN), np.flatnonzero(parts == TEST)
    for v in values:
        try:
            cfg = sweep_config(config, param, v)
        except InputError as exc:
            yield CurvePoint(float(v), math.nan, math.nan, str(exc))
            continue
        p = evaluate(cfg, data, train, test, float(v), stop)
        if p is None:
            return
        yield p
