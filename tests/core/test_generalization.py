"""Generalization (001): the split, the learning curve and the complexity sweep."""

import math

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import (
    TEST,
    TRAIN,
    UNUSED,
    Split,
    complexity_sweep,
    error_on,
    fit,
    learning_curve,
    learning_sizes,
    point_keys,
    split_parts,
    subset,
    sweep_config,
    sweep_problem,
    sweep_values,
    training_order,
)
from svmviz.core.objectives import errors
from svmviz.core.solvers import Solver


def test_split_is_stratified_and_keeps_a_training_point_per_class(blobs3):
    parts = split_parts(blobs3.X, blobs3.y, Split(0.3, seed=5))
    for k in range(3):
        n_k = int(np.sum(blobs3.y == k))
        assert np.sum(parts[blobs3.y == k] == TEST) == round(0.3 * n_k)
    # a class of one point keeps it for training, even at 90%
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 1.0]])
    y = np.array([0, 1, 1, 1])
    parts = split_parts(X, y, Split(0.9, seed=0))
    assert parts[0] == TRAIN
    assert np.sum(parts[1:] == TRAIN) == 1


def test_split_is_reproducible_depends_on_the_seed_and_is_off_at_zero(blobs2):
    a = split_parts(blobs2.X, blobs2.y, Split(0.25, seed=1))
    assert np.array_equal(a, split_parts(blobs2.X, blobs2.y, Split(0.25, seed=1)))
    assert not np.array_equal(a, split_parts(blobs2.X, blobs2.y, Split(0.25, seed=2)))
    assert not split_parts(blobs2.X, blobs2.y, Split()).any()


def test_split_is_stable_under_an_edit(blobs2):
    """Adding a point moves at most one old point of its class between the sets (the
    per-point keys come from the coordinates, not from the point's position in the list)."""
    split = Split(0.3, seed=3)
    before = split_parts(blobs2.X, blobs2.y, split)
    X = np.vstack([blobs2.X, [[0.123, -0.456]]])
    y = np.append(blobs2.y, 0)
    after = split_parts(X, y, split)[:-1]
    assert np.sum(before != after) <= 1
    # deleting a point: the others' keys stay
    keys = point_keys(blobs2.X, 3)
    assert np.array_equal(point_keys(blobs2.X[1:], 3), keys[1:])


def test_split_validation():
    for bad in (-0.1, 0.95, math.nan, "a"):
        with pytest.raises(InputError, match="test fraction"):
            Split(bad)
    with pytest.raises(InputError, match="training-set size"):
        Split(0.2, size=1)


def test_training_order_interleaves_the_classes(blobs3):
    order = training_order(blobs3.X, blobs3.y, seed=0)
    assert sorted(order) == list(range(len(blobs3.y)))
    for n in (3, 10, 30):
        counts = np.bincount(blobs3.y[order[:n]], minlength=3)
        assert counts.min() >= n // 3 - 1
        assert counts.max() <= n // 3 + 1


def test_size_limit_keeps_exactly_the_first_n_training_points(blobs2):
    split = Split(0.2, seed=4, size=30)
    parts = split_parts(blobs2.X, blobs2.y, split)
    assert np.sum(parts == TRAIN) == 30
    assert np.sum(parts == TEST) == np.sum(split_parts(blobs2.X, blobs2.y, Split(0.2, 4)) == TEST)
    order = training_order(blobs2.X, blobs2.y, 4)
    pool = order[parts[order] != TEST]
    assert set(np.flatnonzero(parts == TRAIN)) == set(pool[:30])
    assert np.all(parts[pool[30:]] == UNUSED)


def test_subset_refuses_a_missing_class(blobs3):
    with pytest.raises(InputError, match="no training point of class"):
        subset(blobs3, np.flatnonzero(blobs3.y != 2))
    sub = subset(blobs3, np.arange(0, 150, 2))
    assert sub.classes == blobs3.classes
    assert len(sub.y) == 75


def test_fit_equals_the_solver_run_to_its_budget_and_error_on_counts(blobs2):
    config = SolverConfig(iterations=3000, seed=2)
    index = np.arange(0, 160, 2)
    model = fit(config, subset(blobs2, index))
    solver = Solver(config).reset(subset(blobs2, index))
    solver.step(3000)
    assert np.array_equal(model.coef, solver.model().coef)
    rest = np.arange(1, 160, 2)
    F = model.decision_function(blobs2.X[rest])
    manual = np.mean((F > 0).astype(int) != blobs2.y[rest])
    assert error_on(model, blobs2, rest) == pytest.approx(manual)
    assert math.isnan(error_on(model, blobs2, np.arange(0)))


def test_fit_stops_when_asked(blobs2):
    assert fit(SolverConfig(iterations=100000), blobs2, stop=lambda: True) is None


def test_learning_curve_fits_the_first_n_points_and_matches_loading_that_size(moons):
    config = SolverConfig(kernel=Kernel("rbf", gamma=1.0), iterations=4000)
    parts = split_parts(moons.X, moons.y, Split(0.3, seed=1))
    n_pool = int(np.sum(parts != TEST))
    sizes = learning_sizes(n_pool)
    assert sizes[0] == 4
    assert sizes[-1] == n_pool
    assert np.all(np.diff(sizes) > 0)
    points = list(learning_curve(config, moons, parts, 1, sizes))
    assert [p.value for p in points] == list(sizes)
    # the point at n is the model trained on what the window trains with Split(size=n)
    n = int(sizes[4])
    loaded = split_parts(moons.X, moons.y, Split(0.3, seed=1, size=n))
    train, test = np.flatnonzero(loaded == TRAIN), np.flatnonzero(loaded == TEST)
    model = fit(config, subset(moons, train))
    assert points[4].train_error == error_on(model, moons, train)
    assert points[4].test_error == error_on(model, moons, test)
    # with every training point the training error is the solver's own
    full = fit(config, subset(moons, np.flatnonzero(parts == TRAIN)))
    F = full.decision_function(moons.X[parts == TRAIN])
    assert points[-1].train_error == pytest.approx(errors(F, moons.y[parts == TRAIN]))


def test_learning_curve_stops_early(moons):
    parts = split_parts(moons.X, moons.y, Split(0.3, seed=1))
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 3

    points = list(
        learning_curve(SolverConfig(iterations=20000), moons, parts, 1, [10, 20, 40], stop)
    )
    assert len(points) < 3


def test_gamma_sweep_shows_overfitting(moons):
    """A huge RBF γ fits the training points and fails on the test points; a moderate one
    generalizes (the U of the complexity sweep)."""
    config = SolverConfig(kernel=Kernel("rbf", gamma=1.0), lam=0.001, iterations=20000)
    parts = split_parts(moons.X, moons.y, Split(0.3, seed=2))
    points = list(complexity_sweep(config, moons, parts, "gamma", [1.0, 1000.0]))
    moderate, huge = points
    assert huge.train_error <= 0.02
    assert huge.test_error > moderate.test_error + 0.1
    assert moderate.test_error < 0.2


def test_sweep_values_configs_and_problems():
    config = SolverConfig(lam=0.01, kernel=Kernel("rbf", gamma=2.0))
    lam = sweep_values(config, "lam")
    assert len(lam) == 11
    assert lam[5] == pytest.approx(0.01)
    assert lam[0] == pytest.approx(0.01 / 10**2.5)
    assert sweep_values(config, "gamma")[5] == pytest.approx(2.0)
    assert list(sweep_values(config, "degree")) == list(range(1, 9))
    assert sweep_config(config, "gamma", 0.5).kernel.gamma == 0.5
    assert sweep_config(config, "lam", 0.5).lam == 0.5
    assert sweep_config(SolverConfig(kernel=Kernel("poly")), "degree", 4.0).kernel.degree == 4
    assert sweep_problem(config, "gamma") is None
    assert "poly" in sweep_problem(config, "degree")
    assert "hard margin" in sweep_problem(SolverConfig(margin="hard", algorithm="gd"), "lam")
    with pytest.raises(InputError, match="rbf"):
        two = Dataset(np.zeros((2, 2)), np.array([0, 1]), ("a", "b"))
        list(complexity_sweep(SolverConfig(), two, np.zeros(2, dtype=np.int8), "gamma", [1.0]))


def test_a_failing_fit_is_a_point_with_its_reason(blobs2):
    """A step size that diverges gives NaN errors and says why, and the sweep goes on."""
    config = SolverConfig(algorithm="sgd", schedule="constant", eta=1e6, lam=1.0, iterations=2000)
    parts = split_parts(blobs2.X, blobs2.y, Split(0.3, seed=0))
    points = list(complexity_sweep(config, blobs2, parts, "lam", [1.0, 10.0]))
    assert len(points) == 2
    assert all(math.isnan(p.test_error) and "diverged" in p.problem for p in points), [
        (p.test_error, p.problem) for p in points
    ]


def test_a_regression_and_a_one_class_model_are_measured_by_their_own_error():
    """A regression's learning curve is its mean absolute error, a one-class model's its
    share of outliers (the 0-1 error of their all-zero labels would mean nothing)."""
    from svmviz.core.generate import generate
    from svmviz.core.lesson.generalization import error_on, fit

    X, _ = generate("sine", n=60, noise=0.1, seed=1)
    data = Dataset.regression(X[:, :1], X[:, 1])
    config = SolverConfig(problem="epsilon-svr", kernel=Kernel("rbf"), iterations=3000)
    model = fit(config, data)
    index = np.arange(0, 60, 3)
    r = data.target[index] - model.decision_function(data.X[index])
    assert error_on(model, data, index) == pytest.approx(np.mean(np.abs(r)))
    assert 0 < error_on(model, data, index) < 0.3

    points = Dataset.points(generate("blobs", n=60, seed=2)[0])
    config = SolverConfig(problem="one-class", nu=0.2, kernel=Kernel("rbf"), iterations=3000)
    model = fit(config, points)
    f = model.decision_function(points.X)
    assert error_on(model, points, np.arange(60)) == pytest.approx(np.mean(f < 0))
    assert 0.05 < error_on(model, points, np.arange(60)) < 0.35


@pytest.mark.parametrize("lam", [1e-50, 1e6])
def test_a_sweep_at_the_ends_of_lambdas_range_stays_within_it(lam):
    """A sweep of λ centred on the largest λ the settings take (or the smallest) tries
    only values the settings take (it tried 3e8, and every run was refused)."""
    from svmviz.core.lesson.generalization import sweep_config, sweep_values

    config = SolverConfig(lam=lam)
    values = sweep_values(config, "lam")
    assert len(values) >= 5 and lam in values
    for v in values:
        sweep_config(config, "lam", v)
