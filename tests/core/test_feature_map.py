"""The lift: φ's inner products are the kernel, and the plane ⟨w, φ⟩ + b = 0 in feature
space is the model's f, so it classifies every point as the model does."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.feature_map import (
    constant_coordinate,
    coordinate_names,
    feature_map,
    three_coordinates,
    weights_in_feature_space,
)
from svmviz.core.solvers import Solver

rng = np.random.default_rng(11)
P = rng.normal(scale=1.5, size=(25, 2))

MAPPED = [
    Kernel("linear"),
    *(Kernel("poly", gamma=g, degree=2, coef0=c) for g in (0.3, 1.0, 2.5) for c in (0.0, 0.5, 2.0)),
    Kernel("poly", gamma=0.7, degree=1, coef0=1.5),
]


@pytest.mark.parametrize("kernel", MAPPED, ids=str)
def test_inner_products_are_the_kernel(kernel):
    Phi = feature_map(kernel, P)
    p = 6 if kernel.name == "poly" and kernel.degree == 2 and kernel.coef0 > 0 else 3
    assert Phi.shape == (25, p)
    assert len(coordinate_names(kernel)) == p
    np.testing.assert_allclose(Phi @ Phi.T, kernel.gram(P, P), rtol=1e-12, atol=1e-12)


def test_homogeneous_map_is_the_paraboloid_coordinates():
    Phi = feature_map(Kernel("poly", gamma=1.0, degree=2, coef0=0.0), P)
    x1, x2 = P[:, 0], P[:, 1]
    np.testing.assert_allclose(Phi, np.column_stack([x1**2, np.sqrt(2) * x1 * x2, x2**2]))
    assert coordinate_names(Kernel("poly", degree=2, coef0=0.0)) == ["x₁²", "x₁x₂", "x₂²"]
    assert coordinate_names(Kernel("poly", degree=2, coef0=1.0))[3:] == ["x₁", "x₂", "1"]


CIRCLES = Dataset.from_labels(*generate("circles", n=80, noise=0.08, seed=3))


def trained(kernel, data=CIRCLES, **settings):
    cfg = SolverConfig(iterations=400, seed=1, kernel=kernel).replace(**settings)
    solver = Solver(cfg).reset(data)
    solver.step(400)
    return solver.model()


@pytest.mark.parametrize(
    "kernel, settings",
    [
        (Kernel("poly", gamma=0.5, degree=2, coef0=0.0), {}),
        (Kernel("poly", gamma=1.0, degree=2, coef0=1.0), {}),
        (Kernel("poly", gamma=1.0, degree=2, coef0=1.0), {"bias": "regularized"}),
        (Kernel("linear"), {}),
        (Kernel("poly", gamma=0.5, degree=2, coef0=0.0), {"problem": "nu-svc", "nu": 0.3}),
    ],
    ids=str,
)
def test_the_plane_in_feature_space_is_f(kernel, settings):
    model = trained(kernel, **settings)
    w = weights_in_feature_space(model)
    b = float(model.intercept[0])
    for Z in (CIRCLES.X, rng.uniform(-2, 2, size=(40, 2))):
        f = model.decision_function(Z)
        np.testing.assert_allclose(feature_map(kernel, Z) @ w + b, f, rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(feature_map(kernel, Z) @ w + b > 0, model.predict_index(Z))


def test_circles_are_separated_by_a_plane_of_the_lift():
    model = trained(Kernel("poly", gamma=1.0, degree=2, coef0=0.0))
    w = weights_in_feature_space(model)
    side = feature_map(model.kernel, CIRCLES.X) @ w + model.intercept[0] > 0
    assert np.mean(side == (CIRCLES.y == 1)) > 0.95  # what a linear kernel cannot do


def test_multiclass_weights_one_row_per_class():
    data = Dataset.from_labels(*generate("blobs", n=60, classes=3, seed=2))
    kernel = Kernel("poly", gamma=0.5, degree=2, coef0=1.0)
    model = trained(kernel, data)
    W = weights_in_feature_space(model)
    assert W.shape == (3, 6)
    np.testing.assert_allclose(
        feature_map(kernel, data.X) @ W.T + model.intercept, model.decision_function(data.X)
    )


def test_given_phi_of_the_support_vectors_is_used():
    model = trained(Kernel("poly", gamma=0.5, degree=2, coef0=0.0))
    Phi = feature_map(model.kernel, model.support_vectors)
    np.testing.assert_allclose(
        weights_in_feature_space(model, Phi), weights_in_feature_space(model, 2 * Phi) / 2
    )


def test_three_coordinates_carry_most_of_w_and_fold_the_constant():
    kernel = Kernel("poly", gamma=1.0, degree=2, coef0=1.0)
    model = trained(kernel)
    Phi = feature_map(kernel, CIRCLES.X)
    w = weights_in_feature_space(model)
    b = float(model.intercept[0])
    three = three_coordinates(Phi, w, b, constant_coordinate(kernel))
    assert constant_coordinate(kernel) == -1
    assert len(three.index) == 3 and 5 not in three.index
    others = [j for j in range(5) if j not in three.index]
    assert min(abs(w[list(three.index)])) >= max(abs(w[others]))
    np.testing.assert_array_equal(three.points, Phi[:, list(three.index)])
    assert three.b == pytest.approx(b + w[5] * 1.0)
    assert three.share == pytest.approx(np.sum(w[list(three.index)] ** 2) / np.sum(w[:5] ** 2))
    rest = Phi[:, others] @ w[others]
    np.testing.assert_allclose(three.points @ three.w + three.b + rest, Phi @ w + b)


def test_three_coordinates_of_a_small_map_are_all_of_it():
    kernel = Kernel("poly", gamma=0.5, degree=2, coef0=0.0)
    Phi = feature_map(kernel, P)
    w = rng.normal(size=3)
    three = three_coordinates(Phi, w, 0.3, constant_coordinate(kernel))
    assert three.index == (0, 1, 2) and three.share == 1.0
    np.testing.assert_array_equal(three.points, Phi)


@pytest.mark.parametrize(
    "kernel, words",
    [
        (Kernel("rbf", gamma=0.5), "infinite"),
        (Kernel("poly", gamma=0.5, degree=3, coef0=1.0), "degree 3"),
        (Kernel("sigmoid"), "sigmoid"),
        (Kernel("poly", degree=2, coef0=-1.0), "coef0"),
    ],
    ids=str,
)
def test_kernels_without_a_small_map_say_why(kernel, words):
    with pytest.raises(InputError, match=words):
        feature_map(kernel, P)
    model = trained(kernel) if kernel.name == "rbf" else None
    if model is not None:
        with pytest.raises(InputError, match=words):
            weights_in_feature_space(model)
