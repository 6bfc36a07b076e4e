"""Frames of every problem (svmviz.core.pictures.frame): the kind, the margin level, the curves and
regions, and each point's margin, support and role, against direct numpy computations of
the same model."""

import numpy as np
import pytest

from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import make_frame, plane_points, reframe
from svmviz.core.pictures.lines import tube_segments
from svmviz.core.pictures.margins import ROLE_NAMES, ROLES, point_roles, role_kind, tolerance

RNG = np.random.default_rng(7)
X1 = np.sort(RNG.uniform(-3, 3, 30))[:, None]
T1 = np.sin(X1[:, 0]) + 0.3 * RNG.normal(size=30)
X2 = RNG.normal(size=(40, 2))
T2 = X2[:, 0] - X2[:, 1] ** 2
BLOBS = np.vstack([RNG.normal(-1.5, 0.6, (20, 2)), RNG.normal(1.5, 0.6, (20, 2))])
LABELS = np.repeat([0, 1], 20)


def rbf_model(X, problem="svc", classes=(), K=1, b=0.1, **numbers):
    """A kernel model with every point a support vector (random coefficients)."""
    coef = np.random.default_rng(3).normal(size=(K, len(X))) * 0.6
    return Model(
        classes=classes,
        kernel=Kernel("rbf", gamma=0.8),
        lam=0.01,
        bias="free",
        intercept=np.full(K, b),
        support_vectors=X,
        dual_coef=coef,
        problem=problem,
        **numbers,
    )


def linear_model(w, b, problem="svc", classes=("a", "b"), **numbers):
    return Model(
        classes=classes,
        kernel=Kernel(),
        lam=0.01,
        bias="free",
        intercept=np.atleast_1d(np.asarray(b, dtype=float)),
        coef=np.atleast_2d(np.asarray(w, dtype=float)),
        problem=problem,
        **numbers,
    )


@pytest.mark.parametrize(
    "problem, numbers",
    [("epsilon-svr", {"epsilon": 0.25}), ("nu-svr", {"epsilon": 0.4, "nu": 0.5})],
)
def test_a_1d_regression_is_its_curve_and_tube_with_residual_margins(problem, numbers):
    data = Dataset.regression(X1, T1)
    model = rbf_model(X1, problem, **numbers)
    extent = (-4.0, 4.0, -3.0, 3.0)
    frame = make_frame(model, data, extent, n=50)
    eps = numbers["epsilon"]  # (ν-SVR's learned ε, as the model holds it)
    assert (frame.kind, frame.level, frame.loss) == ("regression", eps, problem)
    assert frame.region.size == 0  # no region: the tube is the curve's band
    xs = np.linspace(-4, 4, 50)
    f = model.decision_function(xs[:, None])
    np.testing.assert_allclose(frame.curve, np.column_stack([xs, f]))
    (curve,) = frame.contours["boundary"]
    upper, lower = frame.contours["margin"]
    np.testing.assert_allclose(upper[:, 1] - curve[:, 1], eps)
    np.testing.assert_allclose(curve[:, 1] - lower[:, 1], eps)
    r = T1 - model.decision_function(X1)
    np.testing.assert_allclose(frame.margins, r)
    np.testing.assert_array_equal(frame.target, T1)
    tol = tolerance(eps, "regression")
    np.testing.assert_array_equal(frame.support, np.flatnonzero(np.abs(r) >= eps - tol))
    np.testing.assert_array_equal(frame.wrong, np.abs(r) > eps)
    roles = point_roles(frame.margins, frame.kind, frame.level)
    expected = np.where(np.abs(r) > eps + tol, 2, np.where(np.abs(r) >= eps - tol, 1, 0))
    np.testing.assert_array_equal(roles, expected)
    assert {0, 2} <= set(roles.tolist())  # (the data have points inside and outside)


def test_tube_segments_reach_the_tube_edge_and_measure_the_loss():
    model = rbf_model(X1, "epsilon-svr", epsilon=0.2)
    data = Dataset.regression(X1, T1)
    frame = make_frame(model, data, (-4, 4, -3, 3), n=20)
    P = plane_points(data)
    np.testing.assert_array_equal(P, np.column_stack([X1[:, 0], T1]))
    starts, ends = tube_segments(P, frame.margins, frame.level)
    outside = np.flatnonzero(np.abs(frame.margins) > 0.2)
    assert len(outside) and len(starts) == len(outside)
    np.testing.assert_array_equal(starts, P[outside])
    f = model.decision_function(X1[outside])
    side = np.sign(T1[outside] - f)
    np.testing.assert_allclose(ends[:, 0], X1[outside, 0])  # straight up or down
    np.testing.assert_allclose(ends[:, 1], f + side * 0.2)  # onto the tube's edge
    loss = np.maximum(0, np.abs(T1 - model.decision_function(X1)) - 0.2)[outside]
    np.testing.assert_allclose(np.abs(ends[:, 1] - starts[:, 1]), loss)


def test_a_2d_regression_is_a_colour_map_of_f_with_contours():
    data = Dataset.regression(X2, T2)
    model = rbf_model(X2, "epsilon-svr", epsilon=0.1)
    extent = (-3.0, 3.0, -2.0, 2.0)
    frame = make_frame(model, data, extent, n=40)
    assert (frame.kind, frame.level) == ("regression2d", 0.1)
    lo, hi = frame.value_range
    assert (lo, hi) == (T2.min(), T2.max())
    xs, ys = np.linspace(-3, 3, 40), np.linspace(-2, 2, 40)
    gx, gy = np.meshgrid(xs, ys)
    F = model.decision_function(np.column_stack([gx.ravel(), gy.ravel()])).reshape(40, 40)
    expected = np.round(255 * np.clip((F - lo) / (hi - lo), 0, 1))
    assert np.abs(frame.region.astype(int) - expected).max() <= 1  # (float32 grid)
    assert len(frame.value_levels) >= 3
    assert all(lo < v < hi for v in frame.value_levels)
    assert frame.contours["levels"]
    for line in frame.contours["levels"]:  # each contour is on one of the levels
        fl = model.decision_function(line)
        gap = np.abs(fl[:, None] - np.array(frame.value_levels)[None, :]).min(axis=1)
        assert gap.max() < 0.05 * (hi - lo)
    r = T2 - model.decision_function(X2)
    np.testing.assert_allclose(frame.margins, r)
    np.testing.assert_array_equal(frame.wrong, np.abs(r) > 0.1)


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_one_class_shades_f_at_least_zero_and_marks_the_outliers(kernel):
    data = Dataset.points(BLOBS)
    if kernel == "linear":
        model = linear_model([0.4, 0.3], -0.2, "one-class", classes=(), nu=0.3, rho=0.2)
    else:
        model = rbf_model(BLOBS, "one-class", b=-0.3, nu=0.3, rho=0.3)
        model = Model(**{**model.__dict__, "dual_coef": np.abs(model.dual_coef)})
    extent = (-3.0, 3.0, -3.0, 3.0)
    frame = make_frame(model, data, extent, n=40)
    assert (frame.kind, frame.level, frame.loss) == ("one-class", 0.0, "one-class")
    xs = np.linspace(-3, 3, 40)
    gx, gy = np.meshgrid(xs, xs)
    F = model.decision_function(np.column_stack([gx.ravel(), gy.ravel()])).reshape(40, 40)
    sure = np.abs(F) > 1e-5  # (float32 grid: the cells right on f = 0 may go either way)
    np.testing.assert_array_equal(frame.region[sure], (F >= 0)[sure])
    assert set(np.unique(frame.region)) == {0, 1}
    assert frame.contours["boundary"] and not frame.contours["margin"]
    for line in frame.contours["boundary"]:
        assert np.abs(model.decision_function(line)).max() < 0.05
    f = model.decision_function(BLOBS)
    np.testing.assert_allclose(frame.margins, f)
    np.testing.assert_array_equal(frame.wrong, f < 0)
    tol = tolerance(0, "one-class", model.rho)  # (1% of ρ: f is in units of ρ)
    assert frame.unit == model.rho and tol == pytest.approx(0.01 * model.rho)
    np.testing.assert_array_equal(frame.support, np.flatnonzero(f <= tol))
    roles = point_roles(frame.margins, "one-class", 0.0, frame.unit)
    np.testing.assert_array_equal(roles == 2, f < -tol)
    np.testing.assert_array_equal(roles == 0, f > tol)
    assert ROLE_NAMES["one-class"][2].endswith("(outlier)")


def test_nu_svc_margins_are_at_plus_minus_rho():
    data = Dataset(BLOBS, LABELS, ("a", "b"))
    model = linear_model([1.0, 0.5], 0.1, "nu-svc", nu=0.4, rho=0.6)
    extent = (-3.0, 3.0, -3.0, 3.0)
    frame = make_frame(model, data, extent, n=30)
    assert (frame.kind, frame.level, frame.loss) == ("svc", 0.6, "nu-svc")
    (boundary,) = frame.contours["boundary"]
    np.testing.assert_allclose(model.decision_function(boundary), 0, atol=1e-9)
    assert len(frame.contours["margin"]) == 2
    for seg, c in zip(frame.contours["margin"], (0.6, -0.6), strict=True):
        np.testing.assert_allclose(model.decision_function(seg), c, atol=1e-9)
    z = np.where(LABELS == 1, 1, -1) * model.decision_function(BLOBS)
    np.testing.assert_allclose(frame.margins, z)
    np.testing.assert_array_equal(frame.support, np.flatnonzero(z <= 0.6 + tolerance(0.6)))
    roles = point_roles(frame.margins, "svc", frame.level)
    np.testing.assert_array_equal(roles == 0, z > 0.6 + tolerance(0.6))
    np.testing.assert_array_equal(roles == 3, z < 0)


@pytest.mark.parametrize(
    "loss, K, lines",
    [
        ("hinge", 1, 2),
        ("squared_hinge", 1, 2),
        ("logistic", 1, 0),
        ("crammer_singer", 3, 1),
        ("weston_watkins", 3, 1),
        ("softmax", 3, 0),
    ],
)
def test_the_margin_lines_come_from_the_loss_module(loss, K, lines):
    """Hinge family: f = ±1 (multiclass f_y − max f_k = 1); the logistic and softmax losses
    draw no margin, and their roles are right or wrong only."""
    from svmviz.core.solvers.losses import MODULES

    classes = ("a", "b", "c")[: max(K, 2)]
    y = np.arange(len(BLOBS)) % len(classes)
    data = Dataset(BLOBS, y, classes)
    model = Model(**{**rbf_model(BLOBS, classes=classes, K=K).__dict__, "loss": loss})
    frame = make_frame(model, data, (-3.0, 3.0, -3.0, 3.0), n=40)
    assert frame.loss == loss
    has_margin = any(v != 0 for v in MODULES[loss].LEVELS)
    assert frame.level == (1.0 if has_margin else 0.0)
    assert bool(frame.contours["margin"]) == (lines > 0)
    F = model.decision_function(BLOBS)
    if K == 1:
        z = np.where(y == 1, 1, -1) * F
    else:
        Fo = F.copy()
        Fo[np.arange(len(y)), y] = -np.inf
        z = F[np.arange(len(y)), y] - Fo.max(axis=1)
    np.testing.assert_allclose(frame.margins, z)
    roles = point_roles(frame.margins, frame.kind, frame.level)
    names = ROLE_NAMES[role_kind(frame.kind, frame.level)]
    if has_margin:
        assert names == ROLES
        np.testing.assert_array_equal(frame.support, np.flatnonzero(z <= 1 + tolerance(1)))
    else:
        assert names == ("classified correctly", "misclassified")
        np.testing.assert_array_equal(roles, (z < 0).astype(int))


def test_reframe_keeps_the_points_and_draws_the_grid_anew():
    data = Dataset.regression(X1, T1)
    model = rbf_model(X1, "epsilon-svr", epsilon=0.2)
    frame = make_frame(model, data, (-4, 4, -3, 3), n=30)
    other = rbf_model(X1, "epsilon-svr", b=0.5, epsilon=0.3)
    again = reframe(frame, other, (-2, 2, -1, 1), n=20)
    assert again.extent == (-2, 2, -1, 1)
    np.testing.assert_array_equal(again.margins, frame.margins)
    np.testing.assert_array_equal(again.support, frame.support)
    xs = np.linspace(-2, 2, 20)
    np.testing.assert_allclose(again.curve[:, 1], other.decision_function(xs[:, None]))
    np.testing.assert_allclose(again.contours["margin"][0][:, 1] - again.curve[:, 1], 0.3)


def test_point_roles_of_small_arrays_by_kind():
    tol = tolerance(1.0)
    assert point_roles(np.array([2.0, 1 + tol / 2, 0.5, -0.1])).tolist() == [0, 1, 2, 3]
    r = np.array([0.05, -0.2, 0.2 + tolerance(0.2, "regression") / 2, 0.5, -0.9])
    assert point_roles(r, "regression", 0.2).tolist() == [0, 1, 1, 2, 2]
    assert point_roles(r, "regression2d", 0.2).tolist() == [0, 1, 1, 2, 2]
    f = np.array([0.3, 0.0, -0.004, -0.2])
    assert point_roles(f, "one-class", 0.0).tolist() == [0, 1, 1, 2]
    assert point_roles(f, "one-class", 0.0, 0.2).tolist() == [0, 1, 2, 2]  # (ρ = 0.2)
    assert point_roles(np.array([0.5, -0.5, 3.0]), "svc", 0.0).tolist() == [0, 1, 0]
