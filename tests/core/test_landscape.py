"""The weight-space landscape: its values are the objective of the model with those
weights (model_objective, the one definition), for every loss it draws."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.objectives import model_objective
from svmviz.core.pictures.landscape import grid_around, landscape, weights
from svmviz.core.solvers import Solver

rng = np.random.default_rng(3)
X = rng.normal(size=(70, 2))
TWO = Dataset.from_labels(X, (X[:, 0] - 0.5 * X[:, 1] + 0.4 * rng.normal(size=70) > 0).astype(int))
THREE = Dataset.from_labels(X, np.digitize(X[:, 0] + 0.3 * X[:, 1], [-0.5, 0.5]))
TARGET = Dataset.regression(X, X[:, 0] - 0.5 * X[:, 1] + 0.2 * rng.normal(size=70))
POINTS = Dataset.points(X + 2.0)

CASES = [
    (dict(), TWO, 0),
    (dict(loss="squared_hinge"), TWO, 0),
    (dict(loss="logistic", bias="regularized"), TWO, 0),
    (dict(), THREE, 1),
    (dict(multiclass="weston_watkins"), THREE, 2),
    (dict(multiclass="ovr"), THREE, 0),
    (dict(multiclass="softmax", bias="regularized"), THREE, 1),
    (dict(problem="nu-svc", nu=0.4), TWO, 0),
    (dict(problem="one-class", nu=0.3), POINTS, 0),
    (dict(problem="epsilon-svr", epsilon=0.2), TARGET, 0),
    (dict(problem="nu-svr", nu=0.4), TARGET, 0),
]


def trained(settings, data):
    solver = Solver(SolverConfig(iterations=400, seed=1).replace(**settings)).reset(data)
    solver.step(400)
    return solver.model()


def with_row(model, k, w):
    coef = model.coef.copy()
    coef[k] = w
    return type(model)(**{**model.__dict__, "coef": coef, "extra": {}})


@pytest.mark.parametrize(
    "settings, data, k", CASES, ids=lambda v: str(v) if isinstance(v, dict) else ""
)
def test_values_are_the_objective_at_those_weights(settings, data, k):
    model = trained(settings, data)
    w1, w2 = grid_around(model, k, n=7)
    land = landscape(model, data, w1, w2, k)
    assert land.values.shape == (7, 7)
    for i, j in [(0, 0), (6, 2), (3, 3), (1, 5)]:
        other = with_row(model, k, [w1[i], w2[j]])
        expected = model_objective(other, data.X, data.y, data.target)["objective"]
        assert land.at(i, j) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_the_models_own_weights_give_its_objective():
    model = trained(dict(loss="logistic"), TWO)
    w = weights(model)
    land = landscape(model, TWO, np.array([w[0]]), np.array([w[1]]))
    assert land.at(0, 0) == pytest.approx(model.extra["objective"], rel=1e-9)


def test_without_a_bias_f_is_w_x():
    model = trained(dict(), TWO)
    w1, w2 = grid_around(model, n=5)
    land = landscape(model, TWO, w1, w2, hold="none")
    assert land.bias is None and land.hold == "none"
    zero_b = type(model)(**{**model.__dict__, "intercept": np.zeros(1), "bias": "none"})
    other = with_row(zero_b, 0, [w1[2], w2[4]])
    assert land.at(2, 4) == pytest.approx(model_objective(other, TWO.X, TWO.y)["objective"])


def test_only_linear_models_of_two_weights():
    kernel = Solver(SolverConfig(kernel=Kernel("rbf"), iterations=10)).reset(TWO)
    kernel.step(10)
    with pytest.raises(InputError, match="kernel"):
        landscape(kernel.model(), TWO, np.zeros(2), np.zeros(2))
    model = trained(dict(), THREE)
    with pytest.raises(InputError, match="class 4"):
        weights(model, 3)


def test_the_grid_holds_the_origin_the_weights_and_the_optimum():
    model = trained(dict(), TWO)
    other = with_row(model, 0, weights(model) * -2)
    w1, w2 = grid_around(model, optimum=other, n=9)
    for w in (np.zeros(2), weights(model), weights(other)):
        assert w1[0] < w[0] < w1[-1] and w2[0] < w[1] < w2[-1]


def test_the_grid_covers_the_path_and_the_optimum():
    model = trained({}, TWO)
    far = np.array([[9.0, -7.0], [3.0, 12.0]])
    w1, w2 = grid_around(model, 0, optimum=model, n=11, path=far)
    for x, y in [*far, model.coef[0], (0.0, 0.0)]:
        assert w1[0] < x < w1[-1] and w2[0] < y < w2[-1]
    assert len(w1) == len(w2) == 11


def test_a_profiled_b_is_the_best_b_at_each_w():
    model = trained({}, TWO)  # the binary hinge, b free
    w1, w2 = grid_around(model, 0, n=7)
    land = landscape(model, TWO, w1, w2, hold="profiled")
    assert land.bias is None and land.profile.shape == (7, 7)
    sign = np.where(TWO.y == 1, 1.0, -1.0)
    for i, j in [(0, 0), (6, 2), (3, 3), (1, 5)]:
        w = np.array([w1[i], w2[j]])
        # F is piecewise linear in b: its least value is at one of the breakpoints
        breaks = sign - TWO.X @ w
        values = []
        for b in breaks:
            other = type(model)(**{**with_row(model, 0, w).__dict__, "intercept": np.array([b])})
            values.append(model_objective(other, TWO.X, TWO.y)["objective"])
        assert land.at(i, j) == pytest.approx(min(values), rel=1e-12, abs=1e-12)
        at_b = type(model)(
            **{**with_row(model, 0, w).__dict__, "intercept": np.array([land.profile[j, i]])}
        )
        assert model_objective(at_b, TWO.X, TWO.y)["objective"] == pytest.approx(land.at(i, j))
    # never above the slice through any b
    assert np.all(land.values <= landscape(model, TWO, w1, w2).values + 1e-12)


def test_b_is_profiled_only_where_the_solver_profiles_it():
    with pytest.raises(InputError, match="profiled"):
        landscape(trained(dict(loss="logistic"), TWO), TWO, [0.0, 1.0], [0.0, 1.0], hold="profiled")
    with pytest.raises(InputError, match="profiled"):
        landscape(trained({}, THREE), THREE, [0.0, 1.0], [0.0, 1.0], hold="profiled")


def test_the_grid_takes_the_view_s_shape_and_still_holds_the_points(blobs2):
    solver = Solver(SolverConfig(iterations=50, seed=0)).reset(blobs2)
    solver.step(50)
    model = solver.model()
    square = grid_around(model, 0, None, 21)
    wide = grid_around(model, 0, None, 21, aspect=2.0)
    tall = grid_around(model, 0, None, 21, aspect=0.5)
    side = lambda g, i: g[i][-1] - g[i][0]  # noqa: E731
    assert side(square, 0) == pytest.approx(side(square, 1))
    assert side(wide, 0) == pytest.approx(2 * side(wide, 1))
    assert side(tall, 1) == pytest.approx(2 * side(tall, 0))
    assert side(wide, 1) == pytest.approx(side(square, 1))  # (only widened, never narrowed)
    for g in (square, wide, tall):
        for p in ((0.0, 0.0), model.coef[0]):
            assert g[0][0] < p[0] < g[0][-1] and g[1][0] < p[1] < g[1][-1]
