"""The iterations an animation shows, and the replay that steps a solver to them."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.errors import InputError
from svmviz.core.solvers import Solver
from svmviz.core.training.replay import frame_iterations, replay


@pytest.mark.parametrize("spacing", ["log", "linear"])
@pytest.mark.parametrize("last", [1, 2, 7, 40, 1000, 50_000, 10**7])
@pytest.mark.parametrize("frames", [2, 3, 40, 500])
def test_as_many_frames_as_asked_from_1_to_the_last(spacing, last, frames):
    t = frame_iterations(last, frames, spacing)
    assert len(t) == min(frames, last)  # (iterations that round alike are not merged away)
    assert t[0] == 1 and t[-1] == last
    assert np.all(np.diff(t) > 0)


def test_log_spacing_is_the_log_t_pace():
    """One at a time while an even step in log t is under one iteration, then evenly in
    log t: the ratios of the later frames are all alike."""
    t = frame_iterations(50_000, 40)
    assert list(t[:5]) == [1, 2, 3, 4, 5]
    ratios = t[20:] / t[19:-1]
    assert np.ptp(ratios) < 0.01 * ratios.mean()
    with pytest.raises(InputError, match="spacing must be one of"):
        frame_iterations(10, 5, "cubic")


def test_replay_steps_to_each_iteration_as_one_run_does(separable):
    config = SolverConfig(iterations=300, seed=3)
    seen = [(s.t_, s.model().coef.copy()) for s in replay(config, separable, None, [1, 20, 300])]
    assert [t for t, _ in seen] == [1, 20, 300]
    one = Solver(config).reset(separable)
    one.step(300)
    np.testing.assert_array_equal(seen[-1][1], one.model().coef)


def test_a_run_from_a_start_is_replayed_from_it(separable):
    """A run that began at a start w₀ (t₀) is replayed from it, its iterations counted from
    t₀: each picture is the iterate the window showed at t₀ + t."""
    from svmviz.core.training.start import Start, apply_start, start_t0

    config = SolverConfig(iterations=300, seed=3, lam=0.05)
    start = Start(np.array([[2.0, -1.0]]), np.array([0.5]), start_t0(len(separable.y)),
                  separable.classes)  # fmt: skip
    seen = [(s.t_, s.model().coef.copy()) for s in replay(config, separable, None, [1, 20], start)]
    assert [t for t, _ in seen] == [start.t0 + 1, start.t0 + 20]
    one = Solver(config).reset(separable)
    apply_start(one, start)
    one.step(20)
    np.testing.assert_array_equal(seen[-1][1], one.model().coef)
    from_zero = Solver(config).reset(separable)
    from_zero.step(start.t0 + 20)
    assert not np.allclose(from_zero.model().coef, seen[-1][1])
