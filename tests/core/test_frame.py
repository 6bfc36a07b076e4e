import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.frame import grid_values, make_frame
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver


@pytest.mark.parametrize("data_name", ["moons", "blobs3"])
@pytest.mark.parametrize("bias", ["free", "regularized"])
def test_factorized_rbf_grid_equals_direct_evaluation(request, data_name, bias):
    data = request.getfixturevalue(data_name)
    s = Solver(SolverConfig(kernel=Kernel("rbf", gamma=0.7), bias=bias, iterations=500))
    s.reset(data).step(500)
    model = s.model()
    xs, ys = np.linspace(-3, 3, 37), np.linspace(-2, 2.5, 29)
    gx, gy = np.meshgrid(xs, ys)
    direct = model.decision_function(np.column_stack([gx.ravel(), gy.ravel()]))
    np.testing.assert_allclose(grid_values(model, xs, ys), direct, rtol=1e-10, atol=1e-12)


def test_frame_contours_regions_and_margins(moons):
    s = Solver(SolverConfig(iterations=3000)).reset(moons)
    s.step(3000)
    model = s.model()
    frame = make_frame(model, moons.X, moons.y, (-3, 3, -3, 3), n=80)
    assert frame.region.shape == (80, 80) and set(np.unique(frame.region)) == {0, 1}
    assert frame.contours["boundary"] and frame.contours["margin"]
    signs = np.where(moons.y == 1, 1.0, -1.0)
    np.testing.assert_allclose(frame.margins, signs * model.decision_function(moons.X))
    for line in frame.contours["boundary"]:  # the boundary is where f = 0
        np.testing.assert_allclose(model.decision_function(line), 0, atol=1e-6)


def test_linear_levels_are_exact_segments_clipped_to_the_view(separable):
    s = Solver(SolverConfig(iterations=2000)).reset(separable)
    s.step(2000)
    model = s.model()
    extent = (-3.0, 3.0, -2.5, 2.5)
    frame = make_frame(model, separable.X, separable.y, extent, n=60)
    (seg,) = frame.contours["boundary"]
    assert seg.shape == (2, 2)
    np.testing.assert_allclose(model.decision_function(seg), 0.0, atol=1e-9)
    assert len(frame.contours["margin"]) == 2
    for seg, c in zip(frame.contours["margin"], (1.0, -1.0), strict=True):
        np.testing.assert_allclose(model.decision_function(seg), c, atol=1e-9)
    for seg in frame.contours["boundary"] + frame.contours["margin"]:
        # both ends on the rectangle's border
        on_x = np.isclose(seg[:, 0], -3.0) | np.isclose(seg[:, 0], 3.0)
        on_y = np.isclose(seg[:, 1], -2.5) | np.isclose(seg[:, 1], 2.5)
        assert np.all(on_x | on_y)


def test_level_line_misses_and_axis_parallel():
    from svmviz.core.frame import level_line

    box = (0.0, 1.0, 0.0, 1.0)
    assert level_line(np.array([1.0, 0.0]), -5.0, 0.0, box) == []  # x = 5: outside
    assert level_line(np.array([0.0, 0.0]), 0.0, 0.0, box) == []  # w = 0: no line
    (seg,) = level_line(np.array([0.0, 2.0]), -1.0, 0.0, box)  # y = 0.5
    np.testing.assert_allclose(sorted(seg[:, 0]), [0.0, 1.0])
    np.testing.assert_allclose(seg[:, 1], [0.5, 0.5])
