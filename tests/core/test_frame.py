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
