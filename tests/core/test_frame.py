import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.frame import grid_values, make_frame
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
    # single precision: within 1e-6 of the largest value f can take (Σ|α_i| + |b|)
    scale = np.abs(model.dual_coef).sum() + np.abs(model.intercept).max()
    np.testing.assert_allclose(grid_values(model, xs, ys), direct, rtol=0, atol=1e-6 * scale)


def test_frame_contours_regions_and_margins(moons):
    s = Solver(SolverConfig(iterations=3000)).reset(moons)
    s.step(3000)
    model = s.model()
    frame = make_frame(model, moons, (-3, 3, -3, 3), n=80)
    assert frame.region.shape == (80, 80)
    assert set(np.unique(frame.region)) == {0, 1}
    assert frame.contours["boundary"]
    assert frame.contours["margin"]
    signs = np.where(moons.y == 1, 1.0, -1.0)
    np.testing.assert_allclose(frame.margins, signs * model.decision_function(moons.X))
    for line in frame.contours["boundary"]:  # the boundary is where f = 0
        np.testing.assert_allclose(model.decision_function(line), 0, atol=1e-6)


def test_linear_levels_are_exact_segments_clipped_to_the_view(separable):
    s = Solver(SolverConfig(iterations=2000)).reset(separable)
    s.step(2000)
    model = s.model()
    extent = (-3.0, 3.0, -2.5, 2.5)
    frame = make_frame(model, separable, extent, n=60)
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
    from svmviz.core.pictures.lines import level_line

    box = (0.0, 1.0, 0.0, 1.0)
    assert level_line(np.array([1.0, 0.0]), -5.0, 0.0, box) == []  # x = 5: outside
    assert level_line(np.array([0.0, 0.0]), 0.0, 0.0, box) == []  # w = 0: no line
    (seg,) = level_line(np.array([0.0, 2.0]), -1.0, 0.0, box)  # y = 0.5
    np.testing.assert_allclose(sorted(seg[:, 0]), [0.0, 1.0])
    np.testing.assert_allclose(seg[:, 1], [0.5, 0.5])


def _distance_to_polyline(points, poly):
    a, b = poly[:-1], poly[1:]
    ab = b - a
    t = np.clip(((points[:, None, :] - a) * ab).sum(-1) / np.maximum((ab**2).sum(-1), 1e-300), 0, 1)
    nearest = a + t[..., None] * ab
    return np.sqrt(((points[:, None, :] - nearest) ** 2).sum(-1)).min(axis=1)


def test_simplify_keeps_every_vertex_within_tolerance_and_closed_loops_closed():
    from svmviz.core.pictures.lines import simplify_lines

    t = np.linspace(0, 2 * np.pi, 400)
    loop = np.column_stack([np.cos(t) * (1 + 0.3 * np.cos(5 * t)), np.sin(t)])
    loop[-1] = loop[0]
    straight = np.column_stack([np.linspace(0, 1, 50), np.linspace(0, 2, 50)])
    out, line = simplify_lines([loop, straight], 0.01)
    assert 10 < len(out) < 150  # fewer vertices
    np.testing.assert_array_equal(out[0], out[-1])  # still closed
    assert _distance_to_polyline(loop, out).max() <= 0.01 + 1e-12
    assert len(line) <= 8
    assert _distance_to_polyline(straight, line).max() < 1e-9
    np.testing.assert_array_equal(line[[0, -1]], straight[[0, -1]])  # the ends stay


def test_kernel_frame_curves_stay_on_the_level_sets(moons):
    s = Solver(SolverConfig(kernel=Kernel("rbf", gamma=1.0), iterations=3000)).reset(moons)
    s.step(3000)
    model = s.model()
    frame = make_frame(model, moons, (-3, 3, -3, 3), n=160)
    for line in frame.contours["boundary"]:
        # every vertex is on f = 0 up to interpolation on the (coarser) contour grid
        assert np.abs(model.decision_function(line)).max() < 0.05
        assert len(line) >= 2


def test_point_roles_and_slack_segments(separable):
    from svmviz.core.pictures.lines import slack_segments
    from svmviz.core.pictures.margins import MARGIN_TOLERANCE, point_roles

    z = np.array([2.0, 1.0 + MARGIN_TOLERANCE / 2, 0.5, 0.0, -0.3])
    assert point_roles(z).tolist() == [0, 1, 2, 2, 3]
    w, b = np.array([2.0, 0.0]), -1.0  # f = 2 x₁ − 1; margins at x₁ = 0 and x₁ = 1
    X = np.array([[0.25, 3.0], [2.0, 0.0], [0.75, -1.0]])
    y = np.array([-1.0, 1.0, -1.0])
    start, end = slack_segments(w, b, X, y)
    np.testing.assert_allclose(start, X[[0, 2]])  # ξ = 0.5 and 1.5; the second has none
    np.testing.assert_allclose(end, [[0.0, 3.0], [0.0, -1.0]])  # onto f = −1 (x₁ = 0)
    np.testing.assert_allclose(np.linalg.norm(end - start, axis=1), [0.5 / 2, 1.5 / 2])


def test_point_alpha_rings_a_kernel_model_s_support_vectors(moons):
    """A model drawn without its solver (svmviz.plot) rings the points that are its support
    vectors by |α|, as the solver's training_alpha does."""
    from svmviz.core.pictures.frame import point_alpha

    s = Solver(SolverConfig(kernel=Kernel("rbf", gamma=0.7), iterations=800, seed=1))
    s.reset(moons).step(800)
    np.testing.assert_allclose(point_alpha(s.model(), moons.X), s.training_alpha())
    assert point_alpha(s.model(), moons.X[:, ::-1]).sum() < s.training_alpha().sum()
    linear = Solver(SolverConfig(iterations=50)).reset(moons)
    linear.step(50)
    assert point_alpha(linear.model(), moons.X) is None
