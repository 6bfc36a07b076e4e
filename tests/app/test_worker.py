"""The training worker: off the GUI thread, throttled, cancellable, generation-tagged.

The training itself (steps, seek, pace, split, frames) is tested without a thread in
test_runner.py; these tests are about the thread wrapper and the controller."""

import threading
import time

import numpy as np
import pytest

pytest.importorskip("PySide6.QtCore")

from svmviz.app.worker import TrainingController
from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.frame import data_extent


@pytest.fixture
def controller(qtbot):
    c = TrainingController()
    yield c
    c.shutdown()


def submit(qtbot, controller, data, **kw):
    cfg = SolverConfig(**kw)
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
        controller.submit(cfg, data, data_extent(data.X))
    return sig.args[0]


def test_first_snapshot_is_w_zero_and_the_reference_follows_by_itself(qtbot, controller, blobs2):
    snap = submit(qtbot, controller, blobs2)
    assert snap.t == 0
    assert snap.status == "ready"
    assert snap.generation == controller.generation
    assert len(snap.history["objective"]) == 0
    assert snap.reference is None
    assert snap.reference_pending  # computed beside the training
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
        pass  # idle: the optimum's arrival publishes a frame by itself
    snap = sig.args[0]
    assert snap.t == 0
    assert not snap.reference_pending
    assert snap.reference is not None
    assert snap.reference.objective > 0
    # the same problem again (undo, or back to a setting): the optimum comes with the frame
    again = submit(qtbot, controller, blobs2, algorithm="sgd", seed=3)
    assert again.reference is snap.reference
    assert not again.reference_pending


def test_no_frame_waits_for_a_slow_optimum_and_a_drag_computes_only_the_last(
    qtbot, controller, blobs2, monkeypatch
):
    import svmviz.app.reference_runner as runner
    from svmviz.core.data import Dataset

    computed = []
    slow = runner.reference_or_reason

    def slow_reference(config, data):
        computed.append(float(data.X[0, 0]))
        time.sleep(1.0)
        return slow(config, data)

    monkeypatch.setattr(runner, "reference_or_reason", slow_reference)
    for k in range(5):  # a drag: one job per mouse move, each replacing the last
        moved = Dataset(blobs2.X + np.array([0.01 * k, 0.0]), blobs2.y, blobs2.classes)
        controller.submit(SolverConfig(), moved, data_extent(moved.X))
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
        pass
    assert sig.args[0].reference_pending, "the first frame came before the optimum"
    qtbot.waitUntil(lambda: controller.latest.reference is not None, timeout=30000)
    assert computed == [pytest.approx(blobs2.X[0, 0] + 0.04)]  # only the last position


def test_the_first_optimum_waits_until_the_controller_takes_a_frame(
    qtbot, controller, blobs2, monkeypatch
):
    """The optimum's first computation (its imports hold the GIL a tenth of a second) does
    not share the GUI thread's time with the window's first frame."""
    import svmviz.app.reference_runner as runner

    computing = threading.Event()
    exact = runner.reference_or_reason
    monkeypatch.setattr(runner, "SETTLE_SECONDS", 0.0)
    monkeypatch.setattr(runner, "reference_or_reason", lambda c, d: computing.set() or exact(c, d))
    controller.submit(SolverConfig(), blobs2, data_extent(blobs2.X))
    assert not computing.wait(0.5), "computed while the GUI thread had taken no frame"
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000):
        pass
    qtbot.waitUntil(lambda: controller.latest.reference is not None, timeout=30000)
    assert computing.is_set()


def test_step_gives_exactly_n_iterations(qtbot, controller, blobs2):
    submit(qtbot, controller, blobs2)
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
        controller.step(7)
    assert sig.args[0].t == 7
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
        controller.step(1)
    assert sig.args[0].t == 8
    assert not sig.args[0].history["objective"].flags.writeable


def test_play_runs_to_the_budget_with_frames_in_order(qtbot, controller, blobs2):
    submit(qtbot, controller, blobs2, iterations=200000)
    ts = []
    controller.snapshot_ready.connect(lambda s: ts.append(s.t))
    controller.play()
    qtbot.waitUntil(lambda: bool(ts) and ts[-1] == 200000, timeout=60000)
    assert not controller.playing
    assert ts == sorted(ts)
    assert controller.latest.status == "budget"


def test_pause_stops_and_play_continues(qtbot, controller, blobs2):
    submit(qtbot, controller, blobs2, iterations=10**7)
    controller.play()
    qtbot.waitUntil(lambda: controller.latest is not None and controller.latest.t > 1000)
    controller.pause()
    qtbot.wait(200)
    t_paused = controller.latest.t
    qtbot.wait(200)
    assert controller.latest.t == t_paused
    controller.play()
    qtbot.waitUntil(lambda: controller.latest.t > t_paused, timeout=10000)
    controller.pause()


def test_a_new_job_replaces_the_old_and_stale_frames_are_dropped(qtbot, controller, blobs2):
    submit(qtbot, controller, blobs2, iterations=10**7)
    controller.play()
    qtbot.waitUntil(lambda: controller.latest is not None and controller.latest.t > 0)
    seen = []
    controller.snapshot_ready.connect(lambda s: seen.append(s.generation))
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
        gen = controller.submit(SolverConfig(kernel=Kernel("rbf")), blobs2, data_extent(blobs2.X))
    assert sig.args[0].generation == gen
    assert sig.args[0].t == 0
    qtbot.wait(100)
    assert set(seen) == {gen}
    assert controller.latest.t == 0  # the old run stopped


def test_hard_margin_failure_is_reported(qtbot, controller, blobs2):
    with qtbot.waitSignal(controller.failed, timeout=30000) as sig:
        controller.submit(SolverConfig(margin="hard"), blobs2, data_extent(blobs2.X))
    assert "not separable" in sig.args[0]


def test_shutdown_during_training_joins_the_thread(qtbot, blobs2):
    from svmviz.app.worker import running_threads

    c = TrainingController()
    with qtbot.waitSignal(c.snapshot_ready, timeout=30000):
        c.submit(SolverConfig(iterations=10**7), blobs2, data_extent(blobs2.X))
    c.play()
    qtbot.wait(100)
    c.shutdown()
    assert running_threads() == []


def test_slow_motion_is_exactly_n_iterations_per_frame(qtbot, controller, blobs2):
    from svmviz.core.kernels import Kernel as K

    submit(qtbot, controller, blobs2, kernel=K("rbf"), iterations=10**6)
    controller.set_speed(7)
    seen = []
    controller.snapshot_ready.connect(lambda s: seen.append(s.t))
    controller.play()
    qtbot.wait(1000)
    controller.pause()
    qtbot.wait(100)
    steps = np.diff(seen)
    steps = steps[steps > 0]  # pausing publishes the current state once more
    assert len(steps) >= 5
    # every frame the GUI drew is a multiple of 7 iterations after the previous one (frames
    # the GUI was too busy to take are skipped by the mailbox, never merged into bigger steps)
    assert np.all(steps % 7 == 0)
    assert steps.min() == 7


@pytest.mark.parametrize("per_frame", [1, 10])
def test_slow_play_explains_each_frames_last_step(qtbot, controller, blobs2, per_frame):
    """Playing slowly, the step inspector follows: every frame carries its last step."""
    submit(qtbot, controller, blobs2, iterations=10**6)
    frames = []
    controller.snapshot_ready.connect(frames.append)
    controller.set_speed(per_frame)
    controller.play()
    qtbot.waitUntil(lambda: len(frames) >= 5, timeout=30000)
    controller.pause()
    for snap in frames[:5]:
        assert snap.step is not None
        assert snap.step.t == snap.t
    assert frames[4].t >= 5 * per_frame


def test_play_at_the_budget_plays_the_run_again_from_w_zero(qtbot, controller, blobs2):
    submit(qtbot, controller, blobs2, iterations=40)
    controller.set_speed(10)  # (at full speed the frame at w = 0 would be skipped: latest wins)
    controller.play()
    qtbot.waitUntil(lambda: controller.latest.status == "budget", timeout=30000)
    qtbot.wait(200)  # (the loop's last frame: the same state once more)
    end = controller.latest
    seen = []
    controller.snapshot_ready.connect(lambda s: seen.append(s.t))
    controller.play()
    assert controller.playing
    qtbot.waitUntil(
        lambda: controller.latest is not end and controller.latest.status == "budget", timeout=30000
    )
    assert seen[0] <= 10
    assert not controller.playing  # from w = 0, to the budget again
    assert controller.latest.history["objective"][-1] == end.history["objective"][-1]


def test_settings_reach_a_playing_loop(qtbot, controller, blobs2):
    """Speed, iterate and extent change while the loop runs (through the shared controls:
    a queued slot would wait for the loop to end)."""
    from svmviz.core.training.pace import Speed

    submit(qtbot, controller, blobs2, algorithm="sgd", iterations=10**7)
    controller.set_speed(1)
    assert controller.speed == Speed(1)
    assert not controller.full_speed
    controller.play()
    qtbot.waitUntil(lambda: controller.latest.t >= 3, timeout=30000)
    controller.show_iterate(True)
    controller.set_extent((-1, 1, -2, 2))
    assert controller.showing_iterate
    qtbot.waitUntil(lambda: controller.latest.iterate, timeout=30000)
    extent = (-1.0, 1.0, -2.0, 2.0)
    qtbot.waitUntil(lambda: controller.latest.frame.extent == extent, timeout=30000)
    assert controller.playing
    controller.set_speed(0)
    assert controller.full_speed
    t = controller.latest.t
    qtbot.waitUntil(lambda: controller.latest.t > t + 1000, timeout=30000)
    controller.pause()


def test_once_stopped_the_reference_runner_notifies_nothing(blobs2, monkeypatch):
    """An optimum still being computed when its window shuts down says nothing after
    stop() returns: its receiver may be deleted by then (a signal emitted to it crashed
    a test worker)."""
    import svmviz.app.reference_runner as runner

    computing, go_on = threading.Event(), threading.Event()
    exact = runner.reference_or_reason

    def slow(config, data):
        computing.set()
        go_on.wait(10)
        return exact(config, data)

    monkeypatch.setattr(runner, "SETTLE_SECONDS", 0.0)
    monkeypatch.setattr(runner, "reference_or_reason", slow)
    told = []
    references = runner.ReferenceRunner(told.append)
    references.request(1, SolverConfig(), blobs2)
    assert computing.wait(10)
    references.stop()
    go_on.set()
    references._thread.join(10)
    assert not references._thread.is_alive() and told == []
