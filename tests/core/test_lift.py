"""The lift for the 3-D view: the points at φ(x), the plane ⟨w, φ⟩ + b = 0 that is the
model's f (exactly for three coordinates), and a mesh on that plane."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.feature_map import feature_map
from svmviz.core.pictures.lift import lift
from svmviz.core.solvers import Solver

CIRCLES = Dataset.from_labels(*generate("circles", n=80, noise=0.08, seed=5))
BLOBS = Dataset.from_labels(*generate("blobs", n=60, classes=3, seed=1))


def trained(kernel, data=CIRCLES):
    solver = Solver(SolverConfig(iterations=300, seed=4, kernel=kernel)).reset(data)
    solver.step(300)
    return solver.model()


def test_homogeneous_lift_is_exact_and_the_points_are_phi():
    kernel = Kernel("poly", gamma=0.8, degree=2, coef0=0.0)
    model = trained(kernel)
    lifted = lift(model, CIRCLES.X)
    np.testing.assert_array_equal(lifted.points, feature_map(kernel, CIRCLES.X))
    assert lifted.names == ("x₁²", "x₁x₂", "x₂²") and lifted.share == 1.0
    assert "exact" in lifted.words
    np.testing.assert_allclose(lifted.side(), model.decision_function(CIRCLES.X), atol=1e-9)
    assert np.mean((lifted.side() > 0) == (CIRCLES.y == 1)) > 0.95


def test_six_coordinate_lift_shows_three_and_says_how_much():
    kernel = Kernel("poly", gamma=1.0, degree=2, coef0=1.0)
    model = trained(kernel)
    lifted = lift(model, CIRCLES.X)
    assert 0.0 < lifted.share <= 1.0 and "1" not in lifted.names
    assert f"{100 * lifted.share:.1f}% of ‖w‖²" in lifted.words
    assert all(name in lifted.words for name in lifted.names)


def test_multiclass_lift_is_the_chosen_class_plane():
    kernel = Kernel("poly", gamma=0.5, degree=2, coef0=0.0)
    model = trained(kernel, BLOBS)
    F = model.decision_function(BLOBS.X)
    for k in range(3):
        np.testing.assert_allclose(lift(model, BLOBS.X, k).side(), F[:, k], atol=1e-9)


def test_linear_lift_is_the_plane_with_a_zero_third_coordinate():
    model = trained(Kernel("linear"))
    lifted = lift(model, CIRCLES.X)
    np.testing.assert_array_equal(lifted.points[:, 2], 0.0)
    np.testing.assert_allclose(lifted.side(), model.decision_function(CIRCLES.X), atol=1e-9)


def test_rbf_has_no_lift_and_says_why():
    model = trained(Kernel("rbf", gamma=1.0))
    with pytest.raises(InputError, match="infinite"):
        lift(model, CIRCLES.X)
