"""The training runner, driven synchronously: no QThread, no event loop, a fake clock.

Orange tests its MDS runner the same way (``run_mds(…, state)`` with a state object the
test controls): here the state is the real :class:`Controls`, whose mailbox a fake GUI
empties as soon as a snapshot is posted, and the exact optimum comes when the test says so.
"""

from dataclasses import FrozenInstanceError

import numpy as np
import pytest

from svmviz.app.controls import Controls
from svmviz.app.play_loop import (
    CHUNK_SECONDS,
    FRAME_SECONDS,
    MAX_CHUNK,
    SLOW_SECONDS,
    frame_due,
    next_cap,
    next_chunk,
)
from svmviz.app.runner import TrainingRunner
from svmviz.app.snapshot import TO_THE_END, Job, Snapshot
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import TEST, TRAIN, UNUSED
from svmviz.core.objectives import errors
from svmviz.core.pictures.frame import data_extent, plane_points
from svmviz.core.pictures.margins import point_roles, tolerance
from svmviz.core.training.pace import DECADE_SECONDS, DEFAULT, INSTANT, Speed
from svmviz.core.training.setup import problem_key, reference_or_reason


class FakeReferences:
    """The exact optimum when the test computes it (``arrive``), never in a thread."""

    def __init__(self):
        self.results = {}
        self.requested = []  # (generation, key) of each request
        self.stopped = False

    def request(self, generation, config, data):
        key = problem_key(config, data)
        self.requested.append((generation, key))
        return key, self.results.get(key)

    def lookup(self, key):
        return self.results.get(key)

    def arrive(self, config, data):
        self.results[problem_key(config, data)] = reference_or_reason(config, data)

    def stop(self):
        self.stopped = True


class FakeGui:
    """Takes each snapshot the moment it is posted; keeps the fake clock."""

    def __init__(self, on_frame=None):
        self.now = 0.0
        self.frames = []  # (fake time, snapshot) of each snapshot taken
        self.failures = []  # (generation, message)
        self.on_frame = on_frame  # called after each frame taken (a test's hand on the GUI)
        self.controls = Controls(
            notify=self.take,
            fail=lambda generation, message: self.failures.append((generation, message)),
            clock=lambda: self.now,
            sleep=self.sleep,
        )

    def sleep(self, seconds):
        self.now += max(seconds, 0.0)

    def take(self):
        self.frames.append((self.now, self.controls.take()))
        if self.on_frame is not None:
            self.on_frame(self)

    @property
    def snaps(self):
        return [s for _, s in self.frames]

    @property
    def last(self):
        return self.frames[-1][1]


def job(data, generation=1, grid=16, parts=None, warm=False, catch_up=0, explain=False, **config):
    cfg = SolverConfig(**config)
    return Job(
        generation,
        cfg,
        data,
        data_extent(data.X),
        grid=grid,
        warm=warm,
        parts=parts,
        catch_up=catch_up,
        explain=explain,
    )


def f(snap, data):
    return snap.model.decision_function(data.X)


def test_a_job_starts_at_w_zero_with_one_frame_and_the_optimum_pending(runner, gui, blobs2):
    runner.start(job(blobs2))
    assert len(gui.frames) == 1, "a job publishes exactly its first frame"
    snap = gui.last
    assert isinstance(snap, Snapshot)
    assert (snap.generation, snap.t, snap.t0, snap.status) == (1, 0, 0, "ready")
    assert np.all(f(snap, blobs2) == 0), "w = 0 at the start"
    assert snap.reference is None
    assert snap.reference_pending
    assert snap.optimum is None
    assert snap.step is None
    assert snap.test_error is None
    assert len(snap.history["objective"]) == 0
    assert not snap.history["objective"].flags.writeable, "the history is shared, read-only"
    assert snap.frame.extent == data_extent(blobs2.X)
    with pytest.raises(FrozenInstanceError):
        snap.t = 3


def test_the_optimum_arriving_while_idle_publishes_a_frame(runner, gui, references, blobs2):
    j = job(blobs2)
    runner.start(j)
    runner.reference_done(j.generation)  # (the notice can come before the result: no harm)
    assert gui.last.reference is None
    assert gui.last.reference_pending
    references.arrive(j.config, blobs2)
    runner.reference_done(99)  # another job's optimum: no frame
    assert len(gui.frames) == 2
    runner.reference_done(j.generation)
    snap = gui.last
    assert len(gui.frames) == 3
    assert snap.t == 0
    assert snap.reference is not None
    assert snap.reference.objective > 0
    assert not snap.reference_pending
    assert snap.reference_error is None
    assert snap.optimum is not None
    assert snap.optimum.extent == snap.frame.extent
    # the same problem again (undo, or back to a setting): the optimum comes with the frame
    runner.start(job(blobs2, generation=2, algorithm="sgd", seed=3))
    assert gui.last.reference is snap.reference
    assert not gui.last.reference_pending


def test_step_gives_exactly_n_iterations_the_last_explained(runner, gui, blobs2):
    runner.start(job(blobs2))
    runner.step(1)
    assert gui.last.t == 1
    assert gui.last.step is not None
    assert gui.last.step.t == 1
    runner.step(7)
    assert gui.last.t == 8
    assert gui.last.step.t == 8
    assert gui.last.status == "running"
    assert list(gui.last.history["t"])[-1] == 8
    assert [s.t for s in gui.snaps] == [0, 1, 8], "one frame per command"


def test_a_job_after_an_edit_shows_its_model_where_the_run_was(runner, gui, blobs2):
    """An edit after the end: the new job's first frame is its run's end (the same model
    as playing it through), never w = 0; paused while stepping: the same iteration, its
    step explained, as a seek shows it."""
    runner.start(job(blobs2, iterations=300, algorithm="sgd", seed=4))
    runner.state.set_speed(INSTANT)
    runner.play()
    played = gui.last
    assert (played.t, played.status) == (300, "budget")
    before = len(gui.frames)
    runner.start(
        job(blobs2, generation=2, iterations=300, algorithm="sgd", seed=4, catch_up=TO_THE_END)
    )
    assert len(gui.frames) == before + 1, "no frame of w = 0 or of the way there"
    first = gui.last
    assert (first.generation, first.t, first.status) == (2, 300, "budget")
    np.testing.assert_array_equal(f(first, blobs2), f(played, blobs2))
    np.testing.assert_array_equal(first.history["objective"], played.history["objective"])

    runner.start(job(blobs2, generation=3, iterations=300, catch_up=40, explain=True))
    caught = gui.last
    assert (caught.generation, caught.t, caught.status) == (3, 40, "running")
    assert caught.step is not None and caught.step.t == 40
    runner.seek(40)
    np.testing.assert_array_equal(f(gui.last, blobs2), f(caught, blobs2))
    np.testing.assert_array_equal(gui.last.step.margins, caught.step.margins)

    runner.start(job(blobs2, generation=4, iterations=300, catch_up=40))  # paused in play
    assert (gui.last.t, gui.last.step) == (40, None)


def test_a_catch_up_cancelled_by_a_newer_job_publishes_nothing(runner, gui, blobs2, monkeypatch):
    runner.state.stop(2)  # job 2 was submitted while job 1 waited in the queue
    runner.start(job(blobs2, iterations=10**6, catch_up=TO_THE_END))
    assert gui.frames == []
    asked = []
    real = gui.controls.is_interruption_requested

    def newer_edit_after_three_chunks():
        asked.append(1)
        return len(asked) > 3 or real()

    monkeypatch.setattr(gui.controls, "is_interruption_requested", newer_edit_after_three_chunks)
    runner.start(job(blobs2, generation=2, iterations=10**6, catch_up=TO_THE_END))
    assert gui.frames == []
    assert 0 < runner.solver.t_ < 10**6


def test_seek_back_replays_exactly_what_stepping_forward_showed(runner, gui, blobs2):
    runner.start(job(blobs2, kernel=Kernel("rbf")))
    runner.step(30)
    at30 = gui.last
    runner.step(20)
    assert gui.last.t == 50
    runner.seek(30)
    again = gui.last
    assert again.t == 30
    np.testing.assert_array_equal(f(again, blobs2), f(at30, blobs2))
    np.testing.assert_array_equal(again.history["objective"], at30.history["objective"])
    np.testing.assert_array_equal(again.alpha, at30.alpha)
    assert again.step.t == 30
    np.testing.assert_array_equal(again.step.samples, at30.step.samples)
    runner.seek(0)
    assert gui.last.t == 0
    assert gui.last.step is None
    runner.seek(10**9)  # past the budget: to the budget
    assert gui.last.t == 50000
    assert gui.last.status == "budget"


def test_the_log_pace_on_a_fake_clock_shows_the_first_steps_one_by_one(runner, gui, blobs2):
    """t = 1 … 10 each in a frame of its own with its step explained, many frames before
    t = 100, and each decade of iterations in about the same (fake) time."""
    runner.start(job(blobs2, iterations=10**5))
    gui.controls.set_speed(DEFAULT)
    runner.play()
    ts = [s.t for s in gui.snaps]
    assert ts[:11] == list(range(11)), ts[:11]
    assert ts[-1] == 10**5
    assert ts == sorted(ts)
    for snap in gui.snaps[1:11]:
        assert snap.step is not None and snap.step.t == snap.t, "the inspector follows"
    assert sum(t < 100 for t in ts) > 40  # (at 60 frames a second: about 70)
    first = {k: next(now for now, s in gui.frames if s.t >= 10**k) for k in range(6)}
    for k in range(5):
        assert first[k + 1] - first[k] == pytest.approx(DECADE_SECONDS, abs=2 * FRAME_SECONDS)
    # a frame with more than one step carries none (it would explain only the last)
    pairs = zip(gui.snaps, gui.snaps[1:], strict=False)
    assert all(b.step is None for a, b in pairs if b.t - a.t > 1)


def test_slow_motion_is_n_iterations_a_frame_on_its_own_clock(runner, gui, blobs2):
    runner.start(job(blobs2, iterations=70))
    gui.controls.set_speed(Speed(7))
    runner.play()
    ts = [s.t for s in gui.snaps]
    assert ts == [0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 70], "the end is published again"
    assert all(s.step.t == s.t for s in gui.snaps[1:-2]), "each frame's last step explained"
    assert gui.snaps[-2].step is None and gui.last.step is None, "no marks stay at the end"
    times = np.diff([now for now, _ in gui.frames[1:-1]])
    np.testing.assert_allclose(times, SLOW_SECONDS)
    assert gui.last.status == "budget"


def test_full_speed_plays_to_the_budget_and_play_at_the_end_plays_again(runner, gui, blobs2):
    runner.start(job(blobs2, iterations=20000))
    gui.controls.set_speed(INSTANT)
    runner.play()
    end = gui.last
    ts = [s.t for s in gui.snaps]
    assert end.t == 20000
    assert end.status == "budget"
    assert ts == sorted(ts)
    assert all(s.step is None for s in gui.snaps[1:]), "no step explained at full speed"
    gui.frames.clear()
    runner.play()  # at the end: from w = 0 again, the same run (its seed)
    assert gui.snaps[0].t == 0
    assert gui.last.t == 20000
    assert gui.last.history["objective"][-1] == end.history["objective"][-1]


def test_a_split_trains_on_its_part_and_samples_the_test_error(runner, gui, blobs2):
    rng = np.random.default_rng(1)
    parts = rng.choice([TRAIN, TRAIN, TEST, UNUSED], size=len(blobs2.y)).astype(np.int8)
    train, test = np.flatnonzero(parts == TRAIN), np.flatnonzero(parts == TEST)
    runner.start(job(blobs2, parts=parts, kernel=Kernel("rbf"), iterations=3000))
    snap = gui.last
    assert len(snap.frame.margins) == len(blobs2.y), "frames cover every point"
    t, err = snap.test_error
    assert list(t) == [0]
    assert err[0] == errors(f(snap, blobs2)[test], blobs2.y[test])
    runner.step(20)
    snap = gui.last
    assert set(snap.frame.support) <= set(train), "support vectors among the training points"
    assert snap.alpha.shape == (len(blobs2.y),)
    assert np.all(snap.alpha[parts != TRAIN] == 0)
    assert set(snap.step.samples) <= set(train), "a step's samples: the job's indices"
    t, err = snap.test_error
    assert list(t) == [0, 20]
    assert err[-1] == errors(f(snap, blobs2)[test], blobs2.y[test])
    gui.controls.set_speed(INSTANT)
    runner.play()
    t, _ = gui.last.test_error
    assert t[-1] == 3000 and len(t) > 5 and np.all(np.diff(t) > 0), "sampled as it trains"
    runner.seek(10)
    t, _ = gui.last.test_error
    assert list(t) == [0, 10], "a seek back forgets the samples of the future it replays"


def test_a_job_that_cannot_start_reports_why(runner, gui, blobs2):
    runner.start(job(blobs2, margin="hard"))
    assert gui.frames == []
    assert len(gui.failures) == 1
    generation, message = gui.failures[0]
    assert generation == 1
    assert "not separable" in message


def test_a_defect_in_set_up_is_reported_as_an_internal_error(runner, gui, blobs2, monkeypatch):
    import sys

    from svmviz.core.solvers import Solver

    def broken(self, *args, **kwargs):
        raise RuntimeError("boom")

    hooked = []
    monkeypatch.setattr(Solver, "reset", broken)
    monkeypatch.setattr(sys, "excepthook", lambda *info: hooked.append(info[0]))
    runner.start(job(blobs2))
    assert gui.failures == [(1, "internal error (RuntimeError: boom)")]
    assert hooked == [RuntimeError], "the defect is also reported as an exception"
    assert gui.frames == []


def test_a_cancel_stops_play_with_no_further_frame(blobs2, references):
    gui = FakeGui(on_frame=lambda g: len(g.frames) == 4 and g.controls.stop(2))
    runner = TrainingRunner(gui.controls, references)
    runner.start(job(blobs2, iterations=10**6))
    gui.controls.set_speed(Speed(1))
    runner.play()
    assert [s.t for s in gui.snaps] == [0, 1, 2, 3], "nothing after the cancel"
    runner.step(5)
    runner.seek(1)
    runner.publish()
    assert len(gui.frames) == 4, "a cancelled job publishes nothing more"
    runner.start(job(blobs2, generation=1))  # queued before the newest one: skipped
    assert len(gui.frames) == 4
    runner.start(job(blobs2, generation=2))  # the newest: runs
    assert gui.last.generation == 2
    assert gui.last.t == 0


def test_a_pause_stops_play_and_publishes_where_it_stopped(blobs2, references):
    gui = FakeGui(on_frame=lambda g: len(g.frames) == 4 and g.controls.pause())
    runner = TrainingRunner(gui.controls, references)
    runner.start(job(blobs2, iterations=10**6))
    gui.controls.set_speed(Speed(1))
    runner.play()
    assert [s.t for s in gui.snaps] == [0, 1, 2, 3, 3], "the state once more, then nothing"
    gui.controls.resume()
    gui.on_frame = lambda g: len(g.frames) == 7 and g.controls.pause()
    runner.play()
    assert [s.t for s in gui.snaps[5:]] == [4, 5, 5], "play goes on from there"


def test_the_view_settings_apply_to_the_next_frame(runner, gui, blobs2):
    runner.start(job(blobs2, algorithm="sgd", average="uniform"))
    runner.step(50)
    output = gui.last
    gui.controls.set_show_iterate(True)
    gui.controls.set_extent((-1, 1, -2, 2))
    runner.publish()
    snap = gui.last
    assert snap.iterate
    assert not output.iterate
    assert snap.frame.extent == (-1.0, 1.0, -2.0, 2.0)
    assert not np.array_equal(f(snap, blobs2), f(output, blobs2)), "w_t is not the average"


def test_a_warm_start_goes_on_from_the_last_job_and_cannot_seek(runner, gui, blobs2):
    runner.start(job(blobs2, lam=0.01))
    runner.step(40)
    runner.start(job(blobs2, generation=2, warm=True, lam=0.02))
    snap = gui.last
    assert (snap.generation, snap.t, snap.t0) == (2, 40, 40)
    runner.seek(3)
    assert len(gui.frames) == 3, "its past is another job's: no seek"


def test_the_mailbox_keeps_the_latest_and_notifies_once_until_taken():
    notified = []
    controls = Controls(notify=lambda: notified.append(1))
    a, b = object(), object()
    controls.emit(a)
    controls.emit(b)
    assert notified == [1]
    assert controls.frame_pending()
    assert controls.peek() is b
    assert controls.take() is b
    assert not controls.frame_pending()
    controls.emit(a)
    assert notified == [1, 1]


def test_the_play_loops_decisions():
    assert next_chunk(8, 0.0) == 16
    assert next_chunk(MAX_CHUNK, 0.0) == MAX_CHUNK
    assert next_chunk(8, CHUNK_SECONDS) == 8
    assert next_chunk(8, 3 * CHUNK_SECONDS) == 4
    assert next_chunk(1, 1.0) == 1
    assert next_cap(4, 4, 0.0) == 8 and next_cap(4, 3, 0.0) == 4, "doubles only when used"
    assert next_cap(4, 4, 2 * FRAME_SECONDS) == 2
    assert next_cap(1, 1, 1.0) == 1
    # frames: at most two a refresh; as much training between two as the last one took
    assert not frame_due(0.4 * FRAME_SECONDS, 0.001) and frame_due(FRAME_SECONDS / 2, 0.001)
    assert frame_due(0.011, 0.010) and not frame_due(0.009, 0.010)


def test_stop_ends_the_optimum_computations(runner, references):
    runner.stop()
    assert references.stopped


# ---------------------------------------------------------------------- the other problems
# A regression on 1-D and 2-D inputs and the one-class SVM, trained on the job's data set as
# the window hands it over (Dataset.regression, Dataset.points): the frames follow the model
# (svmviz.core.pictures.frame).
PROBLEM_RNG = np.random.default_rng(11)
X1 = PROBLEM_RNG.uniform(-3, 3, (40, 1))
SINE = Dataset.regression(X1, np.sin(X1[:, 0]) + 0.2 * PROBLEM_RNG.normal(size=40))
X2 = PROBLEM_RNG.normal(size=(40, 2))
PLANE = Dataset.regression(X2, X2[:, 0] - 0.5 * X2[:, 1] ** 2)
TWO_BLOBS = [PROBLEM_RNG.normal(c, 0.5, (20, 2)) for c in (-1.5, 1.5)]
BLOBS = Dataset.points(np.vstack(TWO_BLOBS))


def problem_job(data, parts=None, **config):
    extent = data_extent(plane_points(data))
    return Job(1, SolverConfig(iterations=400, **config), data, extent, grid=24, parts=parts)


@pytest.mark.parametrize(
    "data, config, kind",
    [
        (
            SINE,
            dict(problem="epsilon-svr", epsilon=0.2, kernel=Kernel("rbf", gamma=1.0)),
            "regression",
        ),
        (SINE, dict(problem="nu-svr", nu=0.5), "regression"),
        (PLANE, dict(problem="epsilon-svr", epsilon=0.1, kernel=Kernel("rbf")), "regression2d"),
        (BLOBS, dict(problem="one-class", nu=0.2), "one-class"),
        (BLOBS, dict(problem="one-class", nu=0.2, kernel=Kernel("rbf")), "one-class"),
    ],
)
def test_frames_of_every_problem_follow_the_model(runner, gui, references, data, config, kind):
    runner.start(problem_job(data, **config))
    runner.step(400)
    snap = gui.last
    assert not gui.failures
    frame, model = snap.frame, snap.model
    assert snap.t == 400 and frame.kind == kind
    F = model.decision_function(data.X)
    if kind == "one-class":
        assert frame.level == 0.0
        np.testing.assert_allclose(frame.margins, F, atol=1e-9)
        np.testing.assert_array_equal(frame.wrong, F < 0)
        np.testing.assert_array_equal(
            frame.support, np.flatnonzero(F <= tolerance(0, "one-class", model.rho))
        )
    else:
        eps = model.epsilon  # (ν-SVR: learned)
        assert frame.level == eps and eps > 0
        r = data.target - F
        np.testing.assert_allclose(frame.margins, r, atol=1e-9)
        np.testing.assert_array_equal(frame.wrong, np.abs(r) > eps)
        roles = point_roles(frame.margins, kind, eps)
        np.testing.assert_array_equal(roles == 2, np.abs(r) > eps + tolerance(eps, "regression"))
    if kind == "regression":
        xs = np.linspace(*snap.frame.extent[:2], 24)
        np.testing.assert_allclose(frame.curve[:, 1], model.decision_function(xs[:, None]))
    else:
        assert frame.region.shape == (24, 24)
    # the exact optimum's frame: the same kind, its own curves
    references.arrive(runner.job.config, data)
    runner.reference_done(1)
    assert gui.last.optimum is not None and gui.last.optimum.kind == kind


def test_the_windows_history_is_exact_at_its_checkpoints_and_frames(runner, gui, blobs2):
    """The window records the exact objective at the checkpoints and at each frame, not at
    every step (an O(m) pass each for a loss without a screen): the rows it holds are the
    every-step run's (the loop's to the last digit), and a frame's rows are not written
    again."""
    from svmviz.core.solvers import Solver, rules

    config = dict(loss="logistic", seed=3)
    runner.start(job(blobs2, **config))
    frames = []
    for n in (5, 30, 70, 130, 300):
        runner.step(n - runner.solver.t_)
        frames.append({c: v.copy() for c, v in gui.last.history.items()})
        assert not gui.last.history["objective"].flags.writeable
    history = gui.last.history
    t, objective = history["t"], history["objective"]
    held = np.isfinite(objective)
    checkpoint = np.array([rules.python().is_checkpoint(int(v)) for v in t])
    np.testing.assert_array_equal(held, checkpoint | np.isin(t, [5, 30, 70, 130, 300]))
    every = Solver(SolverConfig(**config)).reset(blobs2)
    every.step(300)
    exact = every.history_["objective"]
    np.testing.assert_array_equal(objective[checkpoint], exact[checkpoint])  # (the loop's)
    np.testing.assert_allclose(objective[held], exact[held], rtol=1e-12)  # (the frames')
    assert gui.last.model.extra["objective"] == objective[-1]
    for before in frames:  # (what a frame showed stays as it was)
        rows = len(before["t"])
        np.testing.assert_array_equal(history["objective"][:rows], before["objective"])
