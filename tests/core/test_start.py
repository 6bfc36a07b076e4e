"""A start w₀: its validation, its dict form, and a solver put there (steps go on from t0)."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver
from svmviz.core.training.start import Start, apply_start, start_t0


def test_a_start_round_trips_through_its_dict():
    s = Start(np.array([[0.25, -1.5]]), np.array([0.125]), 40, ("a", "b"))
    again = Start.from_dict(s.to_dict())
    assert again == s
    assert again.W.shape == (1, 2) and not again.W.flags.writeable


@pytest.mark.parametrize(
    "d, words",
    [
        ({"W": [[1.0, "x"]], "b": [0.0], "t0": 5}, "rows of finite numbers"),
        ({"W": [[1.0, 2.0], [1.0]], "b": [0.0, 0.0], "t0": 5}, "same length"),
        ({"W": [[1.0, 2.0]], "b": [0.0, 1.0], "t0": 5}, "one number per row"),
        ({"W": [[1.0, 2.0]], "b": [0.0], "t0": 0}, "t0 must be a whole number from 1"),
        ({"W": [[1.0, 2.0]], "b": [0.0], "t0": 2.5}, "t0 must be a whole number"),
        ({"W": [[1e300, 2.0]], "b": [0.0], "t0": 3}, "at most"),
        ({"W": [[1.0, 2.0]], "b": [0.0], "t0": 3, "extra": 1}, "the start must be"),
        ({"W": [[1.0, 2.0]], "b": [0.0], "t0": 3, "classes": ["a"]}, "classes must name"),
    ],
)
def test_a_bad_start_says_what_is_wrong(d, words):
    with pytest.raises(InputError, match=words) as err:
        Start.from_dict(d, "lesson.json")
    assert str(err.value).startswith("lesson.json: ")


def test_a_start_says_when_the_problem_changed_under_it(blobs2, blobs3):
    s = Start(np.ones((1, 2)), np.zeros(1), 10, blobs2.classes)
    assert s.misfit(SolverConfig(), blobs2) is None
    assert "kernel is rbf" in s.misfit(SolverConfig(kernel=Kernel("rbf")), blobs2)
    assert "classes changed" in s.misfit(SolverConfig(), blobs3)


def test_t0_is_one_pass_over_the_points():
    assert start_t0(100) == 100
    assert start_t0(0) == 1
    from svmviz.core.limits import BOUNDS

    assert start_t0(2**31 + 5) == BOUNDS["t0"].high


@pytest.mark.parametrize("bias", ["free", "regularized", "none"])
def test_a_solver_at_a_start_has_w0_and_its_first_pegasos_step_keeps_it(blobs2, bias):
    cfg = SolverConfig(algorithm="pegasos", lam=0.1, bias=bias, iterations=500, average="last")
    w0, b0 = np.array([[0.8, -0.6]]), np.array([0.3])
    t0 = start_t0(len(blobs2.y))
    s = Solver(cfg).reset(blobs2)
    apply_start(s, Start(w0, b0, t0, blobs2.classes))
    assert (s.t_, s.t0_) == (t0, t0)
    m = s.model()
    np.testing.assert_array_equal(m.coef, w0)
    np.testing.assert_array_equal(m.intercept, b0 if bias != "none" else [0.0])
    s.step(1)
    w1 = s.model().coef[0]
    # the step shrinks w₀ by 1 − η λ = 1 − 1/(t0 + 1) and adds at most η·‖x‖: not a wipe
    shrink = 1.0 - 1.0 / (t0 + 1)
    push = np.max(np.linalg.norm(blobs2.X, axis=1)) / (cfg.lam * (t0 + 1))
    assert np.linalg.norm(w1 - shrink * w0[0]) <= push + 1e-12
    assert np.linalg.norm(w1) > 0.5 * np.linalg.norm(w0)


def test_a_start_that_does_not_fit_the_solver_is_refused(blobs2, blobs3):
    s = Solver(SolverConfig()).reset(blobs3)
    with pytest.raises(InputError, match="does not fit"):
        apply_start(s, Start(np.ones((1, 2)), np.zeros(1), 5))
    k = Solver(SolverConfig(kernel=Kernel("rbf"))).reset(blobs2)
    with pytest.raises(InputError, match="linear models"):
        apply_start(k, Start(np.ones((1, 2)), np.zeros(1), 5))
