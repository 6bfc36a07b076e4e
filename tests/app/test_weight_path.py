"""The run's path in weight space, as the training runner records it (Snapshot.path): each
recorded point is the iterate and the output the solver has at that t, run alone from the
same seed; a step back truncates the path, a restart or a new job starts a new one."""

import numpy as np
import pytest

from svmviz.app.controls import Controls
from svmviz.app.runner import TrainingRunner
from svmviz.app.snapshot import Job
from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.frame import data_extent
from svmviz.core.pictures.weight_path import points
from svmviz.core.solvers import Solver
from svmviz.core.training.setup import problem_key, reference_or_reason


class References:
    def request(self, generation, config, data):
        return problem_key(config, data), None

    def lookup(self, key):
        return None

    def stop(self):
        pass


class Gui:
    def __init__(self):
        self.snaps = []
        self.controls = Controls(
            notify=lambda: self.snaps.append(self.controls.take()),
            fail=lambda generation, message: pytest.fail(message),
            clock=lambda: 0.0,
            sleep=lambda seconds: None,
        )


def run(data, **settings):
    gui = Gui()
    runner = TrainingRunner(gui.controls, References())
    config = SolverConfig(iterations=300, seed=4).replace(**settings)
    runner.start(Job(1, config, data, data_extent(data.X), grid=16))
    return gui, runner, config


def alone(config, data, t):
    """A solver of ``config`` stepped to ``t`` on its own."""
    solver = Solver(config).reset(data)
    if t:
        solver.step(t)
    return solver


def assert_is_the_run(path, config, data):
    assert path.t == sorted(set(path.t)), "once per t, in order"
    for t, iterate, output in zip(path.t, path.iterate, path.output, strict=True):
        s = alone(config, data, t)
        params, _ = s.iterate()
        np.testing.assert_array_equal(iterate, params[:, :2])
        np.testing.assert_array_equal(output, s.model().coef)


@pytest.mark.parametrize(
    "settings",
    [dict(), dict(bias="regularized", loss="logistic"), dict(algorithm="sgd", average="last")],
    ids=["pegasos-hinge", "regularized-logistic", "sgd-last"],
)
def test_the_path_is_the_solvers_iterates_at_the_recorded_t(blobs2, settings):
    gui, runner, config = run(blobs2, **settings)
    for n in (1, 1, 5, 20, 1):
        runner.step(n)
    path = gui.snaps[-1].path
    # every frame's t, and on the way of Step 5 and Step 20 (each a point of the run)
    assert {0, 1, 2, 7, 27, 28} <= set(path.t) and path.t[-1] == 28
    assert len(path.t) > 6
    assert_is_the_run(path, config, blobs2)
    assert points(path).shape == (len(path.t), 2)
    assert np.any(points(path)[-1] != 0), "the weights moved"


def test_multiclass_paths_hold_every_row(blobs3):
    gui, runner, config = run(blobs3, multiclass="weston_watkins")
    runner.step(3)
    runner.step(10)
    path = gui.snaps[-1].path
    assert path.iterate[-1].shape == (3, 2)
    assert_is_the_run(path, config, blobs3)
    np.testing.assert_array_equal(points(path, 2)[-1], path.iterate[-1][2])


def test_a_step_back_truncates_and_a_restart_starts_again(blobs2):
    gui, runner, config = run(blobs2)
    for _ in range(6):
        runner.step(1)
    before = gui.snaps[-1].path
    runner.seek(3)  # a step back (replayed from the seed)
    path = gui.snaps[-1].path
    assert path.t == [0, 1, 2, 3]
    assert before.t == [0, 1, 2, 3, 4, 5, 6], "a snapshot's path is never written again"
    runner.step(2)
    assert gui.snaps[-1].path.t == [0, 1, 2, 3, 5]
    assert_is_the_run(gui.snaps[-1].path, config, blobs2)
    runner.restart()
    assert gui.snaps[-1].path.t == [0]


def test_no_path_for_a_kernel_model(blobs2):
    gui, runner, _ = run(blobs2, kernel=Kernel("rbf", gamma=1.0))
    runner.step(4)
    assert gui.snaps[-1].path is None


def test_the_optimum_is_where_the_landscape_is_least(blobs2):
    # (the view marks w* from the reference: its weights are the slice's minimum)
    from svmviz.core.pictures.landscape import grid_around, landscape

    config = SolverConfig(bias="none")
    ref, _ = reference_or_reason(config, blobs2)
    w1, w2 = grid_around(ref.model, 0, n=41)
    land = landscape(ref.model, blobs2, w1, w2)
    j, i = np.unravel_index(np.argmin(land.values), land.values.shape)
    step = w1[1] - w1[0]
    assert abs(w1[i] - ref.model.coef[0, 0]) <= step
    assert abs(w2[j] - ref.model.coef[0, 1]) <= step
    assert land.values.min() >= ref.objective - 1e-9


def test_the_drawn_points_follow_the_path_as_it_grows_thins_and_truncates():
    from svmviz.core.pictures.weight_path import Points, frozen, truncate
    from svmviz.core.training.race import MAX_PATH, Path

    rng = np.random.default_rng(0)
    path, drawn = Path(), Points(1)
    for t in range(MAX_PATH + 50):
        path.add(t, rng.normal(size=(2, 2)), rng.normal(size=(2, 2)))
        if t % 97 == 0 or t > MAX_PATH - 3:
            np.testing.assert_array_equal(drawn.of(frozen(path)), points(path, 1))
    truncate(path, 100)
    np.testing.assert_array_equal(drawn.of(frozen(path)), points(path, 1))
    other = Path()
    other.add(0, np.zeros((2, 2)), np.zeros((2, 2)))
    np.testing.assert_array_equal(drawn.of(other), np.zeros((1, 2)))


def test_a_job_that_catches_up_draws_its_path_from_its_start(blobs2):
    """After an edit the job trains to where the run was before its first frame: its path
    still starts at w = 0 and has points on the way (each chunk), each the run's iterate."""
    gui = Gui()
    runner = TrainingRunner(gui.controls, References())
    config = SolverConfig(iterations=3000, seed=4)
    runner.start(Job(1, config, blobs2, data_extent(blobs2.X), grid=16, catch_up=2000))
    path = gui.snaps[-1].path
    assert gui.snaps[-1].t == 2000 and len(gui.snaps) == 1
    assert path.t[0] == 0 and path.t[-1] == 2000 and len(path.t) > 3
    assert_is_the_run(path, config, blobs2)


def test_step_n_draws_the_way_not_a_jump(blobs2):
    """Step N (300 iterations in one command) records the path on the way, spaced in
    log t, each point the run's iterate; the model at the end is the run's at t = 300."""
    gui, runner, config = run(blobs2)
    runner.step(300)
    path = gui.snaps[-1].path
    assert gui.snaps[-1].t == 300 and path.t[0] == 0 and path.t[-1] == 300
    assert len(path.t) > 10
    assert_is_the_run(path, config, blobs2)
    np.testing.assert_array_equal(gui.snaps[-1].model.coef, alone(config, blobs2, 300).model().coef)
