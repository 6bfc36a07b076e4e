"""A train/test split in the training worker; the curves computed in the background."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.app.curve_runner import CurveRunner
from svmviz.app.worker import TrainingController
from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import (
    TEST,
    TRAIN,
    Split,
    learning_curve,
    split_parts,
    subset,
)
from svmviz.core.objectives import errors
from svmviz.core.pictures.frame import data_extent
from svmviz.core.solvers import Solver


@pytest.fixture
def controller(qtbot):
    c = TrainingController()
    yield c
    c.shutdown()


def run(qtbot, controller, data, parts, config, n):
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000):
        controller.submit(config, data, data_extent(data.X), parts=parts)
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
        controller.step(n)
    return sig.args[0]


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=1.0)])
def test_worker_trains_on_the_training_part_only(qtbot, controller, moons, kernel):
    config = SolverConfig(kernel=kernel, iterations=5000, seed=3)
    parts = split_parts(moons.X, moons.y, Split(0.3, seed=1))
    train, test = np.flatnonzero(parts == TRAIN), np.flatnonzero(parts == TEST)
    snap = run(qtbot, controller, moons, parts, config, 700)
    direct = Solver(config).reset(subset(moons, train))
    direct.step(700)
    expected = direct.model()
    F = expected.decision_function(moons.X)
    assert np.allclose(snap.model.decision_function(moons.X), F, atol=1e-9)
    # the frame covers every point; support vectors are training points
    assert len(snap.frame.margins) == len(moons.y)
    assert np.all(parts[snap.frame.support] == TRAIN)
    sign = np.where(moons.y == 1, 1.0, -1.0)
    assert np.allclose(snap.frame.margins, sign * F, atol=1e-9)
    # the test error of the last sample is that of the model on the test points
    ts, errs = snap.test_error
    assert ts[-1] == 700
    assert errs[-1] == pytest.approx(errors(F[test], moons.y[test]))
    assert snap.history["error"][-1] == pytest.approx(errors(F[train], moons.y[train]))
    if not kernel.is_linear:
        assert len(snap.alpha) == len(moons.y)
        assert np.all(snap.alpha[test] == 0)


def test_worker_step_samples_are_indices_of_the_job_points(qtbot, controller, moons):
    parts = split_parts(moons.X, moons.y, Split(0.5, seed=2))
    snap = run(qtbot, controller, moons, parts, SolverConfig(), 1)
    for _ in range(5):
        with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
            controller.step(1)
        snap = sig.args[0]
        assert np.all(parts[snap.step.samples] == TRAIN)
    # a step back replays the same split
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
        controller.seek(3)
    assert sig.args[0].t == 3
    assert np.all(parts[sig.args[0].step.samples] == TRAIN)
    assert sig.args[0].test_error[0][-1] == 3


def test_worker_says_when_the_training_part_lacks_a_class(qtbot, controller, blobs3):
    parts = np.full(len(blobs3.y), TEST, dtype=np.int8)
    parts[blobs3.y != 2] = TRAIN
    with qtbot.waitSignal(controller.failed, timeout=30000) as sig:
        controller.submit(SolverConfig(), blobs3, data_extent(blobs3.X), parts=parts)
    assert "no training point of class" in sig.args[0]


def test_curve_runner_streams_points_and_cancels(qtbot, moons):
    runner = CurveRunner()
    try:
        parts = split_parts(moons.X, moons.y, Split(0.3, seed=1))
        config = SolverConfig(iterations=3000)
        got, progress = [], []
        runner.point_ready.connect(got.append)
        runner.progressed.connect(lambda d, t: progress.append((d, t)))
        with qtbot.waitSignal(runner.finished, timeout=60000) as sig:
            runner.start(lambda stop: learning_curve(config, moons, parts, 1, [5, 10, 40], stop), 3)
        assert sig.args[0] == ""
        assert [p.value for p in got] == [5, 10, 40]
        assert progress[-1] == (3, 3)
        # a long run, cancelled: "cancelled" at once, no point of it afterwards
        got.clear()
        slow = SolverConfig(algorithm="gd", iterations=10**6)
        runner.start(lambda stop: learning_curve(slow, moons, parts, 1, [60, 70, 80], stop), 3)
        qtbot.wait(100)
        with qtbot.waitSignal(runner.finished, timeout=5000) as sig:
            runner.cancel()
        assert sig.args[0] == "cancelled"
        assert not runner.running
        qtbot.wait(300)
        assert got == []
    finally:
        runner.shutdown()
