"""The 3-D surface: its heights are the model's f at the grid points and at the points,
for every kernel and problem, with the reference planes each problem draws."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.frame import data_extent, make_frame
from svmviz.core.pictures.surface import MAX, frame_values, surface
from svmviz.core.solvers import Solver

rng = np.random.default_rng(5)
X = rng.normal(size=(60, 2))
TWO = Dataset.from_labels(X, (X[:, 0] ** 2 + X[:, 1] > 0.5).astype(int))
THREE = Dataset.from_labels(X, np.digitize(X[:, 0] + 0.3 * X[:, 1], [-0.5, 0.5]))
TARGET = Dataset.regression(X, np.sin(X[:, 0]) - 0.5 * X[:, 1] + 0.1 * rng.normal(size=60))
POINTS = Dataset.points(X + 2.0)
KERNELS = [Kernel("linear"), Kernel("poly", gamma=0.5, degree=2, coef0=1.0), Kernel("rbf", 0.7)]


def trained(data, kernel, **settings):
    cfg = SolverConfig(iterations=150, seed=2, kernel=kernel).replace(**settings)
    solver = Solver(cfg).reset(data)
    solver.step(150)
    return solver.model()


def grid_points(s):
    gx, gy = np.meshgrid(s.xs, s.ys)
    return np.column_stack([gx.ravel(), gy.ravel()])


def check_heights(model, data, pick, **kw):
    s = surface(model, data.X, data_extent(data.X), n=17, **kw)
    assert s.heights.shape == (17, 17)
    F = model.decision_function(grid_points(s))
    expected = pick(F).reshape(17, 17)
    scale = np.ptp(expected)
    assert scale > 1e-3  # a real surface, not a flat one
    np.testing.assert_allclose(s.heights, expected, rtol=1e-5, atol=1e-5 * scale)
    np.testing.assert_allclose(s.point_heights, pick(model.decision_function(data.X)))
    return s


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_binary_heights_are_f_with_the_margin_planes(kernel):
    model = trained(TWO, kernel)
    s = check_heights(model, TWO, lambda F: F)
    assert s.planes == (1.0, 0.0, -1.0)
    assert s.tube is None and s.shown == "f"


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_multiclass_heights_are_the_max_or_a_chosen_class(kernel):
    model = trained(THREE, kernel)
    s = check_heights(model, THREE, lambda F: F.max(axis=1), cls=MAX)
    assert s.planes == (0.0,) and s.shown == "max_k f_k"
    for k in range(3):
        s = check_heights(model, THREE, lambda F, k=k: F[:, k], cls=k)
        assert s.shown == f"f_k of class {model.classes[k]}"


def test_nu_svc_planes_are_at_rho():
    model = trained(TWO, KERNELS[2], problem="nu-svc", nu=0.4)
    s = check_heights(model, TWO, lambda F: F)
    assert model.rho > 0
    assert s.planes == pytest.approx((model.rho, 0.0, -model.rho))


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_regression_heights_and_the_tube_around_them(kernel):
    model = trained(TARGET, kernel, problem="epsilon-svr", epsilon=0.2)
    s = check_heights(model, TARGET, lambda F: F, target=TARGET.target)
    assert s.planes == () and s.tube == pytest.approx(0.2)
    np.testing.assert_array_equal(s.point_targets, TARGET.target)


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_one_class_heights_and_the_zero_plane(kernel):
    model = trained(POINTS, kernel, problem="one-class", nu=0.3)
    s = check_heights(model, POINTS, lambda F: F)
    assert s.planes == (0.0,)


def test_one_input_and_a_bad_class_are_refused():
    x1 = Dataset.regression(X[:, :1], X[:, 0])
    model = trained(x1, KERNELS[2], problem="epsilon-svr", epsilon=0.1)
    with pytest.raises(InputError, match="two coordinates"):
        surface(model, x1.X, (-1, 1, -1, 1))
    model = trained(THREE, KERNELS[0])
    with pytest.raises(InputError, match="out of range"):
        surface(model, THREE.X, (-1, 1, -1, 1), cls=3)


@pytest.mark.parametrize(
    "data, settings",
    [
        (TWO, {}),
        (POINTS, {"problem": "one-class", "nu": 0.3}),
        (TARGET, {"problem": "epsilon-svr", "epsilon": 0.2}),
    ],
)
def test_f_at_the_points_is_read_back_from_the_frames_margins(data, settings):
    model = trained(data, Kernel("rbf", 0.7), **settings)
    frame = make_frame(model, data, data_extent(data.X), n=20)
    np.testing.assert_allclose(
        frame_values(frame, model, data.y), model.decision_function(data.X), atol=1e-12
    )


def test_a_multiclass_frame_cannot_give_f_back():
    model = trained(THREE, Kernel("rbf", 0.7))
    assert frame_values(make_frame(model, THREE, data_extent(X), n=20), model, THREE.y) is None
