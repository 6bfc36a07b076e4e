"""A job with a start w₀: its first frame is w₀, steps go on from t0, and seek and restart
replay the run from w₀ bit for bit (the runner driven synchronously, tests/app/test_runner)."""

import numpy as np

from svmviz.app.snapshot import Job
from svmviz.core.config import SolverConfig
from svmviz.core.pictures.frame import data_extent
from svmviz.core.training.start import Start, start_t0

W0, B0 = np.array([[1.5, -0.5]]), np.array([0.25])


def start_job(data, generation=1, start=None, **config):
    cfg = SolverConfig(**{"algorithm": "pegasos", "lam": 0.05, "iterations": 400, **config})
    return Job(generation, cfg, data, data_extent(data.X), grid=16, start=start)


def a_start(data):
    return Start(W0, B0, start_t0(len(data.y)), data.classes)


def test_the_first_frame_is_w0_and_the_steps_are_sized_from_t0(runner, gui, blobs2):
    start = a_start(blobs2)
    runner.start(start_job(blobs2, start=start, average="last"))
    snap = gui.last
    assert (snap.t, snap.t0) == (start.t0, start.t0)
    assert snap.start == start
    np.testing.assert_array_equal(snap.model.coef, W0)
    np.testing.assert_array_equal(snap.model.intercept, B0)
    runner.step(1)
    w1 = gui.last.model.coef[0]
    assert gui.last.t == start.t0 + 1
    assert np.dot(w1, W0[0]) > 0.5 * np.dot(W0[0], W0[0]), "the first step keeps w₀"


def test_seek_and_restart_replay_a_start_job_bit_for_bit(runner, gui, blobs2):
    start = a_start(blobs2)
    runner.start(start_job(blobs2, start=start))
    t0 = start.t0
    runner.step(30)
    at30 = gui.last
    runner.step(25)
    assert gui.last.t == t0 + 55
    runner.seek(t0 + 30)
    again = gui.last
    assert again.t == t0 + 30
    np.testing.assert_array_equal(again.model.coef, at30.model.coef)
    np.testing.assert_array_equal(again.model.intercept, at30.model.intercept)
    np.testing.assert_array_equal(again.history["objective"], at30.history["objective"])
    np.testing.assert_array_equal(again.step.samples, at30.step.samples)
    runner.seek(0)  # before the start: the start
    assert gui.last.t == t0 and gui.last.step is None
    np.testing.assert_array_equal(gui.last.model.coef, W0)
    runner.restart()
    runner.step(30)
    np.testing.assert_array_equal(gui.last.model.coef, at30.model.coef)
    np.testing.assert_array_equal(gui.last.history["objective"], at30.history["objective"])


def test_a_warm_start_still_cannot_seek_but_a_start_job_after_it_can(runner, gui, blobs2):
    runner.start(start_job(blobs2))
    runner.step(40)
    runner.start(Job(2, runner.job.config, blobs2, data_extent(blobs2.X), grid=16, warm=True))
    n = len(gui.frames)
    runner.seek(45)
    assert len(gui.frames) == n, "a warm start's past is another job's"
    runner.start(start_job(blobs2, generation=3, start=a_start(blobs2)))
    runner.seek(a_start(blobs2).t0 + 3)
    assert gui.last.t == a_start(blobs2).t0 + 3


def test_a_start_that_does_not_fit_fails_the_job_with_a_message(runner, gui, blobs3):
    runner.start(start_job(blobs3, start=Start(W0, B0, 10)))
    assert gui.failures and "does not fit" in gui.failures[-1][1]
