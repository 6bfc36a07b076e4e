"""Weight space as the plane's dual (svmviz.core.pictures.weight_dual): each point's line is where
its margin term reaches its kink; a hard margin's feasible region has w* as its point nearest 0,
touched only by the support vectors' lines."""

from dataclasses import replace

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.objectives import zero_one_cost
from svmviz.core.pictures.weight_dual import (
    clip,
    feasible,
    nearest_to_origin,
    point_lines,
    why_no_lines,
)
from svmviz.core.training.reference import exact_optimum

BOX = (-6.0, 6.0, -6.0, 6.0)


def two_classes(m=20, seed=0):
    rng = np.random.default_rng(seed)
    X = np.vstack(
        [rng.normal([2.0, 1.5], 0.5, (m // 2, 2)), rng.normal([-1.5, -1], 0.5, (m // 2, 2))]
    )
    return Dataset.from_labels(X, np.array([1] * (m // 2) + [0] * (m // 2)))


def three_classes(seed=1):
    rng = np.random.default_rng(seed)
    centres = [[3.0, 0.0], [-1.5, 2.6], [-1.5, -2.6]]
    X = np.vstack([rng.normal(c, 0.4, (7, 2)) for c in centres])
    return Dataset.from_labels(X, np.repeat([0, 1, 2], 7))


def on_lines(lines, n=5):
    """Points sampled along each line's segment in BOX: (line j, point) pairs."""
    seg = clip(lines, BOX)
    t = np.linspace(0.0, 1.0, n)
    for j in np.flatnonzero(np.isfinite(seg[:, 0, 0])):
        for w in seg[j, 0] + t[:, None] * (seg[j, 1] - seg[j, 0]):
            yield j, w


def with_row(model, k, w):
    coef = model.coef.copy()
    coef[k] = w
    return replace(model, coef=coef)


def test_each_binary_line_is_where_the_margin_is_one():
    data = two_classes()
    model = exact_optimum(SolverConfig(lam=0.1), data).model
    lines = point_lines(model, data)
    assert len(lines.offset) == len(data.y)
    s = np.where(data.y == 1, 1.0, -1.0)
    count = 0
    for j, w in on_lines(lines):
        i = lines.owner[j]
        assert s[i] * (data.X[i] @ w + model.intercept[0]) == pytest.approx(1.0, abs=1e-9)
        count += 1
    assert count >= 5 * len(data.y) // 2  # (most lines cross the box)


def test_the_hard_margin_region_is_nearest_0_at_w_star_touched_by_the_support_vectors():
    data = two_classes()
    ref = exact_optimum(SolverConfig(margin="hard"), data)
    w_star = ref.model.coef[0]
    lines = point_lines(ref.model, data)  # (b on its slice: b*)
    polygon = feasible(lines, BOX)
    assert len(polygon) >= 3
    assert np.all(lines.values(polygon.mean(axis=0)) >= 0)  # every constraint holds inside
    nearest = nearest_to_origin(polygon)
    np.testing.assert_allclose(nearest, w_star, rtol=1e-6, atol=1e-6 * np.linalg.norm(w_star))
    # the lines through w* are the support vectors' (y_i f(x_i) = 1), and only theirs
    s = np.where(data.y == 1, 1.0, -1.0)
    active = s * ref.model.decision_function(data.X) <= 1 + 1e-6
    touching = np.zeros(len(data.y), bool)
    touching[lines.owner[np.abs(lines.values(w_star)) <= 1e-6]] = True
    assert touching.any()
    np.testing.assert_array_equal(touching, active)


def test_the_crammer_singer_row_k_lines_and_the_hard_margin_region():
    data = three_classes()
    ref = exact_optimum(SolverConfig(margin="hard"), data)
    model = ref.model
    cost = zero_one_cost(3)
    for k in range(3):
        lines = point_lines(model, data, k)
        for j, w in on_lines(lines, 3):  # the point's term for row k at its kink
            i = lines.owner[j]
            F = with_row(model, k, w).decision_function(data.X)[i]
            y = int(data.y[i])
            others = [r for r in range(3) if r != k]
            best = max(cost[y, r] + F[r] for r in others)
            assert cost[y, k] + F[k] == pytest.approx(best, abs=1e-9)
        nearest = nearest_to_origin(feasible(lines, BOX))
        np.testing.assert_allclose(nearest, model.coef[k], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("problem", ["epsilon-svr", "one-class", "nu-svc"])
def test_the_other_problems_lines(problem):
    data = two_classes()
    if problem == "epsilon-svr":
        rng = np.random.default_rng(3)
        data = Dataset.regression(data.X, data.X @ [0.5, -0.3] + rng.normal(0, 0.2, len(data.y)))
    elif problem == "one-class":
        data = Dataset.points(data.X)
    config = SolverConfig(problem=problem, nu=0.3, epsilon=0.1)
    model = exact_optimum(config, data).model
    lines = point_lines(model, data)
    for j, w in on_lines(lines, 3):
        i = lines.owner[j]
        f = data.X[i] @ w + model.intercept[0]
        if problem == "epsilon-svr":
            assert abs(data.target[i] - f) == pytest.approx(model.epsilon, abs=1e-9)
        elif problem == "one-class":
            assert f == pytest.approx(0.0, abs=1e-9)
        else:
            s = 1.0 if data.y[i] == 1 else -1.0
            assert s * f == pytest.approx(model.rho, abs=1e-9)


def test_no_lines_without_a_kink():
    data = two_classes()
    model = exact_optimum(SolverConfig(loss="logistic", lam=0.1), data).model
    assert point_lines(model, data) is None
    assert "logistic" in why_no_lines(model, "slice")
    hinge = exact_optimum(SolverConfig(lam=0.1), data).model
    assert point_lines(hinge, data, hold="profiled") is None


def test_clip_and_an_empty_region():
    data = Dataset.from_labels(np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1, 0]))
    model = exact_optimum(SolverConfig(lam=0.1), data).model
    lines = point_lines(model, data)  # w₁ ≥ 1 − b and w₁ ≤ −1 − b: nothing holds both
    assert len(feasible(lines, BOX)) == 0
    seg = clip(lines, BOX)
    np.testing.assert_allclose(seg[:, :, 1], [[-6.0, 6.0], [-6.0, 6.0]])
    assert nearest_to_origin(np.zeros((0, 2))) is None
