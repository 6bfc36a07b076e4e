"""A boundary moved by hand: (w, b) from the two handles, the drags, and its objective as
the solver reports it."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.core.objectives import model_objective
from svmviz.core.solvers import Solver
from svmviz.core.training.hand import Handles, drag, hand_model, hand_objective, handles_of, refusal


def f(h: Handles, bias, x):
    w, b = h.weights(bias)
    return float(np.dot(w, x) + b)


def test_the_handles_give_w_along_h1_minus_h0_and_h0_on_the_line():
    h = Handles((1.0, 2.0), (1.0 + 0.3, 2.0 - 0.4))
    w, b = h.weights("free")
    d = np.array([0.3, -0.4])
    np.testing.assert_allclose(w, d / 0.25)
    assert b == pytest.approx(-np.dot(w, [1.0, 2.0]))
    assert f(h, "free", h.h0) == pytest.approx(0.0, abs=1e-12)
    assert f(h, "free", h.h1) == pytest.approx(1.0)
    assert 1 / np.linalg.norm(w) == pytest.approx(0.5), "h₁ is 1/‖w‖ from h₀"
    assert h.weights("none")[1] == 0.0


@pytest.mark.parametrize("bias", ["free", "regularized", "none"])
def test_the_handles_of_a_model_give_it_back(bias):
    w, b = np.array([0.7, -1.9]), 0.0 if bias == "none" else 0.45
    centre = np.array([2.0, 1.0])
    h = handles_of(w, b, centre, bias)
    w2, b2 = h.weights(bias)
    np.testing.assert_allclose(w2, w, rtol=1e-12)
    assert b2 == pytest.approx(b, abs=1e-12)
    # h₀ is the centre's projection onto the line: h₀ − centre is along w
    d = np.subtract(h.h0, centre)
    assert d[0] * w[1] - d[1] * w[0] == pytest.approx(0.0, abs=1e-12)


def test_w_zero_takes_the_fallback_direction_through_the_centre():
    h = handles_of([0.0, 0.0], 0.0, (1.0, 1.0), "free", fallback=(0.0, 2.0))
    w, b = h.weights("free")
    np.testing.assert_allclose(w, [0.0, 1.0])
    assert f(h, "free", (1.0, 1.0)) == pytest.approx(0.0)


def test_dragging_h0_translates_and_h1_turns_about_h0():
    h = Handles((0.0, 0.0), (1.0, 0.0))
    moved = drag(h, 0, (2.0, 3.0), "free", 0.01)
    np.testing.assert_allclose(moved.weights("free")[0], h.weights("free")[0])
    assert f(moved, "free", (2.0, 3.0)) == pytest.approx(0.0)
    turned = drag(h, 1, (0.0, 2.0), "free", 0.01)
    assert turned.h0 == h.h0
    np.testing.assert_allclose(turned.weights("free")[0], [0.0, 0.5])
    squeezed = drag(h, 1, (1e-6, 0.0), "free", 0.01)
    assert np.linalg.norm(np.subtract(squeezed.h1, squeezed.h0)) == pytest.approx(0.01)


def test_with_bias_none_the_line_keeps_through_the_origin():
    h = handles_of([1.0, 1.0], 0.0, (3.0, -1.0), "none")
    slid = drag(h, 0, (5.0, 5.0), "none", 0.01)
    assert f(slid, "none", (0.0, 0.0)) == 0.0
    np.testing.assert_allclose(slid.weights("none")[0], h.weights("none")[0])
    p = (4.0, 0.5)
    turned = drag(slid, 1, p, "none", 0.01)
    np.testing.assert_allclose(turned.h1, p, atol=1e-12)
    assert f(turned, "none", turned.h0) == pytest.approx(0.0, abs=1e-12)
    assert f(turned, "none", p) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "config",
    [
        SolverConfig(lam=0.05, iterations=300),
        SolverConfig(lam=0.05, iterations=300, bias="regularized", algorithm="sgd"),
        SolverConfig(lam=0.05, iterations=300, loss="squared_hinge"),
        SolverConfig(lam=0.02, iterations=300, loss="logistic", bias="none"),
    ],
)
def test_the_hand_objective_is_what_training_reports_for_that_model(blobs2, config):
    """A trained model rebuilt from its handles: the objective its history records (what
    `svmviz train` prints) equals the hand-made model's."""
    s = Solver(config).reset(blobs2)
    s.step(300)
    model = s.model()
    h = handles_of(model.coef[0], float(model.intercept[0]), blobs2.X.mean(axis=0), model.bias)
    w, b = h.weights(model.bias)
    hand = hand_model(model, w, b)
    found = hand_objective(hand, blobs2.X, blobs2.y)
    assert found["objective"] == pytest.approx(float(s.history_["objective"][-1]), rel=1e-9)
    assert found["error"] == pytest.approx(float(s.history_["error"][-1]))
    # and any other hand-made w: model_objective's λ/2‖w‖² + mean loss
    other = hand_model(model, [0.3, -2.0], 0.25)
    F = blobs2.X @ [0.3, -2.0] + (0.0 if model.bias == "none" else 0.25)
    expected = model_objective(other, blobs2.X, blobs2.y)["objective"]
    assert hand_objective(other, blobs2.X, blobs2.y)["objective"] == expected
    if config.loss == "hinge" and model.bias == "free":
        yy = np.where(blobs2.y == 1, 1.0, -1.0)
        by_hand = 0.5 * model.lam * (0.09 + 4.0) + np.mean(np.maximum(0, 1 - yy * F))
        assert expected == pytest.approx(by_hand)


def test_the_mode_is_for_two_classes_linear_in_the_plane():
    assert refusal(SolverConfig(), 2, 2) is None
    assert "kernel" in refusal(SolverConfig(kernel=Kernel("rbf")), 2, 2)
    assert "3 classes" in refusal(SolverConfig(), 3, 2)
    assert "3-D" in refusal(SolverConfig(), 2, 3)
    assert "epsilon-svr" in refusal(SolverConfig(problem="epsilon-svr"), 0, 1)


@pytest.mark.parametrize("w", [[1e200, 0.0], [3e100, -4e100], [1e-200, 0.0]])
def test_the_handles_of_a_diverged_or_vanishing_w_are_those_of_a_line(w):
    """A run diverged to ‖w‖ = 1e200 put h₁ = h₀ + w/‖w‖² on h₀ itself (1/‖w‖ below the
    resolution of h₀): its weights were 0/0 (the input monkey pressed H on a diverged run).
    Such a w, like w = 0, gives the handles of the fallback line, of finite (w, b)."""
    h = handles_of(np.array(w), 0.5, (1.0, 2.0), "free", fallback=(0.0, 1.0))
    with np.errstate(all="raise"):
        weights, b = h.weights("free")
    assert np.all(np.isfinite(weights)) and np.isfinite(b)
    assert np.linalg.norm(weights) < 1e100
