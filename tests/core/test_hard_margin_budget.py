"""A hard margin at its default settings ends feasible, with its margin min y f/‖w‖ within
1% (HARD_GAP) of the maximum, on linear and kernel data, binary and multiclass: its budget
grows (a budget at a time) while the margin the last exact step would give is further than
that, and that step (b re-centred, w rescaled so that min y f = 1) leaves no margin
constraint broken."""

import numpy as np
from sklearn.datasets import make_blobs, make_circles

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.fit import hard_margin_line, summary, train
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import feasible
from svmviz.core.solvers.hard_margin import HARD_GAP


def circles(seed):
    X, y = make_circles(400, noise=0.05, factor=0.5, random_state=seed)
    return Dataset.from_labels(X, y)


def _margin(model, data) -> float:
    """min y f/‖w‖ (multiclass: min (f_y − max other f)/‖w‖) of the model on the data."""
    F = model.decision_function(data.X)
    return feasible.least_margin(F, data.y) / np.sqrt(model.norm2())


def _check_feasible_and_near(result, data):
    solver, ref, model = result.solver, result.reference, result.model
    step = solver.exact_step_
    assert step is not None and step.iteration == solver.t_
    margin = _margin(model, data)
    assert (1 - HARD_GAP) * ref.margin <= margin <= ref.margin * (1 + 1e-6)
    assert np.isclose(step.margin, margin)
    F = model.decision_function(data.X)
    assert feasible.broken(F, data.y, solver.problem_.cost) == 0
    assert np.isclose(feasible.least_margin(F, data.y), 1.0)  # min y f = 1
    assert "breaks" not in hard_margin_line(model, data, ref.margin)
    assert model.extra["exact_step"]["scale"] == step.scale
    return step


def test_the_hard_margin_is_feasible_and_within_one_percent_on_kernel_data():
    # svmviz's own circles, as `svmviz train circles.csv --margin hard --kernel rbf --gamma 5`
    X, y = generate("circles", 400)
    data = Dataset.from_labels(X, y)
    result = train(SolverConfig(margin="hard", kernel=Kernel("rbf", gamma=5.0)), data)
    step = _check_feasible_and_near(result, data)
    assert step.broken_before > 0  # (the stochastic output broke constraints before it)
    assert "last exact step" in summary(result, data, "circles")


def test_the_hard_margin_grows_its_budget_until_the_margin_is_near():
    data = circles(2)
    result = train(SolverConfig(margin="hard", kernel=Kernel("rbf", gamma=5.0)), data)
    solver = result.solver
    _check_feasible_and_near(result, data)
    assert solver.budget_ > solver.config.iterations  # (these data need more than one)
    assert solver.t_ == solver.budget_
    assert "budget grew" in summary(result, data, "circles")


def test_the_hard_margin_is_feasible_and_within_one_percent_on_linear_data():
    X, y = generate("separable", 200)
    data = Dataset.from_labels(X, y)
    _check_feasible_and_near(train(SolverConfig(margin="hard"), data), data)


def test_a_multiclass_hard_margin_is_feasible_and_within_one_percent():
    X, y = make_blobs(90, centers=[[-3, 0], [3, 0], [0, 4]], cluster_std=0.6, random_state=0)
    data = Dataset.from_labels(X, y)
    for kernel in (Kernel(), Kernel("rbf", gamma=0.5)):
        _check_feasible_and_near(train(SolverConfig(margin="hard", kernel=kernel), data), data)


def test_the_exact_step_re_centres_b_between_the_closest_points():
    """Scores 3, 4 (class 1) and −1, 0 (class 0) with b = 0: the best b is −1.5 (the middle
    of 0 and 3), t = 1.5; without a free bias b stays and t = min y f = 0."""
    F, y = np.array([3.0, 4.0, -1.0, 0.0]), np.array([1, 1, 0, 0])
    b, t = feasible.recentred(F, y, None, np.zeros(1), True)
    assert np.allclose(b, [-1.5]) and t == 1.5
    b, t = feasible.recentred(F, y, None, np.zeros(1), False)
    assert np.allclose(b, [0.0]) and t == 0.0


def test_a_soft_margin_keeps_its_budget_and_takes_no_exact_step():
    data = circles(2)
    config = SolverConfig(kernel=Kernel("rbf", gamma=5.0), lam=1e-4, iterations=2000)
    result = train(config, data)
    assert result.solver.t_ == result.solver.budget_ == 2000
    assert np.isfinite(result.objective)
    assert result.solver.exact_step_ is None
