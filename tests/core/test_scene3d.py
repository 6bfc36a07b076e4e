"""The 3-D view's box: the surface and the lift mapped into the cube the camera sees, the
lift's plane cut to it, and the surface's colours as the plane's regions."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.palette import CLASS_COLORS
from svmviz.core.pictures.frame import data_extent
from svmviz.core.pictures.lift import lift
from svmviz.core.pictures.scene3d import (
    CAP,
    CLIP,
    HEIGHT,
    lift_box,
    plane_in_box,
    reach,
    surface_box,
    surface_colors,
)
from svmviz.core.pictures.surface import surface
from svmviz.core.solvers import Solver

CIRCLES = Dataset.from_labels(*generate("circles", n=80, noise=0.08, seed=5))
BLOBS = Dataset.from_labels(*generate("blobs", n=60, classes=3, seed=1))


def trained(kernel, data=CIRCLES, iterations=300):
    solver = Solver(SolverConfig(iterations=iterations, seed=4, kernel=kernel)).reset(data)
    solver.step(iterations)
    return solver.model()


@pytest.mark.parametrize(
    "kernel", [Kernel("rbf", gamma=1.0), Kernel("poly", gamma=1.0, degree=2, coef0=0.0)]
)
def test_the_surface_box_is_an_affine_map_that_keeps_the_aspect_and_z0(kernel):
    model = trained(kernel)
    s = surface(model, CIRCLES.X, data_extent(CIRCLES.X), n=30)
    box = surface_box(s)
    assert box.scale[0] == box.scale[1]  # circles stay round
    assert box.heights(0.0) == 0.0  # z = 0 in the middle
    r = reach(s)
    assert box.heights(r) == pytest.approx(HEIGHT)
    assert 1.0 <= r <= CAP * 1.0  # the margins' level shown, at most CAP of it
    Z = box.heights(s.heights)
    inside = np.abs(s.heights) <= box.clip
    np.testing.assert_allclose(Z[inside], s.heights[inside] * HEIGHT / r)  # f, scaled
    np.testing.assert_allclose(np.abs(Z[~inside]), CLIP * HEIGHT)  # beyond: cut at the clip
    corners = box.to_box([[s.xs[0], s.ys[0], 0.0], [s.xs[-1], s.ys[-1], 0.0]])
    assert np.abs(corners[:, :2]).max() == pytest.approx(1.0)


def test_the_reach_without_margins_is_the_quantile_of_f():
    model = trained(Kernel("rbf", gamma=0.5), BLOBS)  # multiclass: only the plane z = 0
    s = surface(model, BLOBS.X, data_extent(BLOBS.X), n=20)
    values = np.abs(np.concatenate([s.heights.ravel(), s.point_heights]))
    assert reach(s) == pytest.approx(np.quantile(values, 0.98))


def test_the_lift_box_fills_each_axis_and_keeps_each_point_on_its_side():
    model = trained(Kernel("poly", gamma=0.8, degree=2, coef0=0.0))
    lifted = lift(model, CIRCLES.X)
    box = lift_box(lifted)
    Q = box.to_box(lifted.points)
    np.testing.assert_allclose(Q.min(axis=0), -1.0)
    np.testing.assert_allclose(Q.max(axis=0), 1.0)
    # the plane in box coordinates: the same side for every point as f's sign
    w, b = lifted.w / box.scale, lifted.b + lifted.w @ box.center
    np.testing.assert_allclose(Q @ w + b, model.decision_function(CIRCLES.X), atol=1e-9)


@pytest.mark.parametrize("coef0", [0.0, 1.0])
def test_the_plane_cut_to_the_box_lies_on_the_plane_inside_the_cube(coef0):
    model = trained(Kernel("poly", gamma=0.8, degree=2, coef0=coef0))
    lifted = lift(model, CIRCLES.X)
    box = lift_box(lifted)
    polygon = plane_in_box(lifted, box)
    assert polygon is not None and 3 <= len(polygon) <= 6
    assert np.abs(polygon).max() <= 1.0 + 1e-12
    data = polygon / box.scale + box.center  # back in feature coordinates
    np.testing.assert_allclose(data @ lifted.w + lifted.b, 0.0, atol=1e-9 * np.abs(lifted.w).max())
    # a convex polygon in order: every turn the same way around the plane's normal
    n = lifted.w / box.scale
    turns = [
        np.dot(
            np.cross(polygon[i] - polygon[i - 1], polygon[(i + 1) % len(polygon)] - polygon[i]), n
        )
        for i in range(len(polygon))
    ]
    assert all(t > 0 for t in turns) or all(t < 0 for t in turns)


def test_a_plane_that_misses_the_box_has_no_polygon():
    model = trained(Kernel("poly", gamma=0.8, degree=2, coef0=0.0))
    lifted = lift(model, CIRCLES.X)
    far = type(lifted)(
        lifted.points, lifted.names, lifted.w, lifted.b + 1e6, lifted.share, lifted.words
    )
    assert plane_in_box(far, lift_box(lifted)) is None


def test_the_surface_colours_are_the_regions_classes():
    model = trained(Kernel("rbf", gamma=1.0))
    s = surface(model, CIRCLES.X, data_extent(CIRCLES.X), n=25)
    colors = surface_colors(s, "svc", CLASS_COLORS[:2])
    assert colors.shape == s.heights.shape + (4,)
    blue = np.array([int(CLASS_COLORS[0][i : i + 2], 16) for i in (1, 3, 5)]) / 255
    orange = np.array([int(CLASS_COLORS[1][i : i + 2], 16) for i in (1, 3, 5)]) / 255
    # a cell's colour lies between white and its class's colour: which one is f's sign
    for cell, color in ((s.heights > 0.5, orange), (s.heights < -0.5, blue)):
        rgb = colors[cell][:, :3]
        share = (1 - rgb) / (1 - color + 1e-12)  # white·(1 − a) + color·a, per channel
        spread = share.max(axis=1) - share.min(axis=1)
        assert cell.any() and np.all(spread < 1e-9)


def test_a_multiclass_surface_is_coloured_by_the_winner():
    model = trained(Kernel("rbf", gamma=0.5), BLOBS)
    s = surface(model, BLOBS.X, data_extent(BLOBS.X), n=20)
    np.testing.assert_array_equal(
        s.winner.ravel(),
        model.predict_index(np.stack(np.meshgrid(s.xs, s.ys), axis=-1).reshape(-1, 2)),
    )
    colors = surface_colors(s, "svc", CLASS_COLORS[:3])
    deepest = np.argmax(np.abs(s.heights))  # the winner's colour dominates its cell
    k = s.winner.ravel()[deepest]
    rgb = colors.reshape(-1, 4)[deepest, :3]
    target = np.array([int(CLASS_COLORS[k][i : i + 2], 16) for i in (1, 3, 5)]) / 255
    assert np.linalg.norm(rgb - target) < np.linalg.norm(rgb - 1.0)
