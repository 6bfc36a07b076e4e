"""A race in the training runner: the companion runs follow run 1 through steps, play,
seek, restart and edits, on the same samples, each equal to its run alone, bit for bit."""

import numpy as np
import pytest

from svmviz.app.snapshot import Job
from svmviz.core.config import SolverConfig
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.frame import data_extent
from svmviz.core.solvers import Solver, rules
from svmviz.core.training.pace import DEFAULT, INSTANT, Speed
from svmviz.core.training.race_setup import race_configs
from svmviz.core.training.setup import problem_key

BASE = SolverConfig(iterations=3000, seed=3)
VARIATIONS = [{"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"lam": 0.1}, {"loss": "logistic"}]
# a race of kernel runs: each frame contours their f (race_runner.contours)
RBF = BASE.replace(kernel=Kernel("rbf", gamma=1.0))
KERNEL_VARIATIONS = [{"lam": 0.1}, {"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"seed": 9}]


def race_job(data, base=BASE, variations=VARIATIONS, generation=1, **kw):
    return Job(
        generation,
        base,
        data,
        data_extent(data.X),
        grid=16,
        race=tuple(race_configs(base, variations)),
        **kw,
    )


def counted_contours(monkeypatch):
    """(the models whose lines are contoured from now on, the real contouring)."""
    from svmviz.app import race_runner

    drawn, contours = [], race_runner.contours
    monkeypatch.setattr(
        race_runner, "contours", lambda model, *a: drawn.append(model) or contours(model, *a)
    )
    return drawn, contours


def with_a_point(data):
    """``data`` and one more point of class 0 at its mean (an edit: a click)."""
    return type(data)(np.vstack([data.X, data.X.mean(axis=0)]), np.append(data.y, 0), data.classes)


def alone(config, data, t):
    solver = Solver(config).reset(data)
    solver.step(t)
    return solver


def assert_runs_alone(snap, data):
    """Every companion equals its run alone at the snapshot's t: model and history (the
    window's: exact at the checkpoints and frames, NaN between)."""
    assert snap.race is not None
    for run in snap.race.runs:
        assert run.t == snap.t
        solo = alone(run.config, data, snap.t)
        np.testing.assert_array_equal(run.model.coef, solo.model().coef)
        np.testing.assert_array_equal(run.model.intercept, solo.model().intercept)
        np.testing.assert_array_equal(run.history["t"], solo.history_["t"])
        objective = run.history["objective"]
        held = np.isfinite(objective)
        assert held[-1] and held.sum() >= min(len(held), rules.CHECKPOINT_DENSE)
        every = solo.history_["objective"]
        marks = np.array([rules.python().is_checkpoint(int(t)) for t in run.history["t"]])
        np.testing.assert_array_equal(objective[marks], every[marks])  # (the loop's)
        np.testing.assert_allclose(objective[held], every[held], rtol=1e-12)  # (frames')


def test_the_variations_override_the_base_and_are_checked():
    configs = race_configs(BASE, VARIATIONS)
    assert [c.algorithm for c in configs] == ["sgd", "pegasos", "pegasos"]
    assert configs[1].lam == 0.1 and configs[1].seed == BASE.seed
    with pytest.raises(InputError, match="1 to 3 more"):
        race_configs(BASE, VARIATIONS + [{"lam": 1.0}])
    with pytest.raises(InputError, match="one kind"):
        race_configs(BASE, [{"loss": "squared_hinge"}, {"problem": "epsilon-svr"}])
    with pytest.raises(InputError, match="run 2: unknown setting"):
        race_configs(BASE, [{"lamda": 1.0}])
    with pytest.raises(InputError, match="hard margin"):
        race_configs(BASE, [{"margin": "hard"}])


def test_steps_keep_every_run_at_t_on_the_same_samples(runner, gui, blobs2):
    runner.start(race_job(blobs2))
    first = gui.last
    assert [r.t for r in first.race.runs] == [0, 0, 0]
    assert first.race.labels == [
        "solver panel",
        "SGD, η ∝ 1/√t",
        "λ = 0.1",
        "logistic loss",
    ]
    runner.step(40)
    snap = gui.last
    assert snap.t == 40 and snap.race.same_samples
    sampled = [s.history_["sampled"] for s in runner.race.race.solvers]
    assert len(sampled) == 4 and len(sampled[0]) == 40
    assert all(np.array_equal(s, sampled[0]) for s in sampled)
    assert_runs_alone(snap, blobs2)
    # the single step is explained for every run, on the same sample as run 1's
    assert snap.step.t == 40
    for run in snap.race.runs:
        assert run.step is not None and run.step.t == 40
        np.testing.assert_array_equal(run.step.samples, snap.step.samples)
    assert len({r.color for r in snap.race.runs} | {snap.race.color}) == 4
    assert len({r.dash for r in snap.race.runs} | {snap.race.dash}) == 4


def test_seek_back_and_restart_replay_the_runs(runner, gui, blobs2):
    runner.start(race_job(blobs2))
    runner.step(50)
    at50 = gui.last
    runner.step(30)
    runner.seek(20)
    assert gui.last.t == 20
    assert_runs_alone(gui.last, blobs2)
    runner.seek(50)
    for a, b in zip(at50.race.runs, gui.last.race.runs, strict=True):
        np.testing.assert_array_equal(a.model.coef, b.model.coef)
        assert a.path.t[-1] == b.path.t[-1] == 50
    runner.restart()
    assert gui.last.t == 0 and [r.t for r in gui.last.race.runs] == [0, 0, 0]


def test_play_at_full_speed_and_in_slow_motion_keeps_the_runs_together(runner, gui, blobs2):
    runner.start(race_job(blobs2))
    gui.controls.set_speed(INSTANT)
    runner.play()
    end = gui.last
    assert end.t == BASE.iterations
    assert all(s.race.runs[0].t == s.t for s in gui.snaps)
    assert_runs_alone(end, blobs2)
    gui.frames.clear()
    runner.start(race_job(blobs2, generation=2, base=BASE.replace(iterations=21)))
    gui.controls.set_speed(Speed(7))
    runner.play()
    for snap in gui.snaps[1:-2]:
        assert all(r.step is not None and r.step.t == snap.t for r in snap.race.runs)
    assert_runs_alone(gui.last, blobs2)


def test_an_edit_retrains_every_run(runner, gui, blobs2):
    runner.start(race_job(blobs2))
    runner.step(200)
    fewer = type(blobs2)(blobs2.X[:-10], blobs2.y[:-10], blobs2.classes)
    runner.start(race_job(fewer, generation=2, catch_up=200))
    snap = gui.last
    assert snap.generation == 2 and snap.t == 200
    assert_runs_alone(snap, fewer)


def test_the_optima_are_shared_or_computed_one_at_a_time(runner, gui, references, blobs2):
    runner.start(race_job(blobs2))
    base = BASE
    references.arrive(base, blobs2)
    runner.reference_done(1)
    race = gui.last.race
    assert not race.common
    f_star = gui.last.reference.objective
    assert race.runs[0].objective == f_star  # the same problem: run 1's optimum
    assert race.runs[1].objective is None  # asked for, computed beside
    others = race_configs(base, VARIATIONS)
    for config in others[1:]:
        references.arrive(config, blobs2)
        runner.reference_done(1)
    for config, run in zip(others, gui.last.race.runs, strict=True):
        solo = references.lookup(problem_key(config, blobs2))
        assert run.objective == solo[0].objective


def test_linear_runs_draw_their_lines_and_kernel_runs_their_contours(runner, gui, blobs2):
    runner.start(race_job(blobs2))
    runner.step(300)
    run = gui.last.race.runs[0]
    (segment,) = run.contours["boundary"]
    w, b = run.model.coef[0], run.model.intercept[0]
    np.testing.assert_allclose(segment @ w + b, 0.0, atol=1e-9)
    assert len(run.contours["margin"]) == 2
    rbf = BASE.replace(kernel=Kernel("rbf", gamma=1.0))
    runner.start(race_job(blobs2, base=rbf, variations=[{"lam": 0.1}], generation=2))
    runner.step(300)
    run = gui.last.race.runs[0]
    assert run.path is None and run.contours["boundary"]
    line = np.vstack(run.contours["boundary"])
    np.testing.assert_allclose(run.model.decision_function(line), 0.0, atol=0.05)


def test_a_kernel_race_played_ends_with_every_run_s_lines_of_its_model(runner, gui, blobs2):
    """(While playing, the kernel runs' lines are redrawn one run a frame, in turn.)"""
    rbf = BASE.replace(kernel=Kernel("rbf", gamma=1.0), iterations=4000)
    variations = [{"lam": 0.1}, {"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"seed": 9}]
    runner.start(race_job(blobs2, base=rbf, variations=variations))
    gui.controls.set_speed(INSTANT)
    runner.play()
    end = gui.last
    assert end.t == 4000
    for run in end.race.runs:
        assert run.t == 4000
        line = np.vstack(run.contours["boundary"])
        np.testing.assert_allclose(run.model.decision_function(line), 0.0, atol=0.05)


def test_a_warm_start_carries_every_run_on(runner, gui, blobs2):
    runner.start(race_job(blobs2))
    runner.step(500)
    before = gui.last.race
    moved = type(blobs2)(blobs2.X + 0.01, blobs2.y, blobs2.classes)
    runner.start(race_job(moved, generation=2, warm=True))
    snap = gui.last
    assert snap.t == 500 and snap.t0 == 500
    for old, run in zip(before.runs, snap.race.runs, strict=True):
        assert run.t == 500  # went on from its own w, not replayed from w = 0
        np.testing.assert_allclose(run.model.coef, old.model.coef, atol=1e-12)
    runner.step(10)
    assert [r.t for r in gui.last.race.runs] == [510, 510, 510]


def test_a_step_back_cuts_the_paths_back(runner, gui, blobs2):
    runner.start(race_job(blobs2))
    for _ in range(3):
        runner.step(50)
    runner.seek(120)
    race = gui.last.race
    for path, config in [(race.path, BASE)] + [(r.path, r.config) for r in race.runs]:
        assert {0, 50, 100, 120} <= set(path.t) and path.t[-1] == 120  # (on the way too)
        np.testing.assert_array_equal(path.iterate[-1], alone(config, blobs2, 120).iterate()[0])


def test_kernel_runs_sharing_run_1_s_gram_matrix_equal_their_runs_alone(runner, gui, blobs2):
    rbf = BASE.replace(kernel=Kernel("rbf", gamma=1.0))
    variations = [{"lam": 0.1}, {"kernel": {"name": "rbf", "gamma": 3.0}}]
    runner.start(race_job(blobs2, base=rbf, variations=variations))
    runner.step(200)
    runner.seek(150)  # (run 1 replayed: its Gram matrix asked for again)
    snap = gui.last
    for run in snap.race.runs:
        solo = alone(run.config, blobs2, 150)
        np.testing.assert_array_equal(run.model.dual_coef, solo.model().dual_coef)
        np.testing.assert_array_equal(run.model.intercept, solo.model().intercept)
    assert snap.race.paths[1:] == [None, None] and len(snap.race.colors) == 3


def test_the_log_pace_keeps_every_run_at_each_frame_s_t(runner, gui, blobs2):
    runner.start(race_job(blobs2, base=BASE.replace(iterations=10**4)))
    gui.controls.set_speed(DEFAULT)
    runner.play()
    assert gui.last.t == 10**4
    assert all([r.t for r in s.race.runs] == [s.t] * 3 for s in gui.snaps)
    for snap in gui.snaps[1:11]:  # (the first steps one a frame, each run's explained)
        assert all(r.step is not None and r.step.t == snap.t for r in snap.race.runs)
    assert_runs_alone(gui.last, blobs2)


def test_a_race_with_a_start_begins_every_linear_run_at_w0(runner, gui, blobs2):
    """Run 1's start w₀ (a click in weight space, Train from here) is every linear run's:
    each begins at w₀ and t₀ and equals its run alone from w₀, also after a step back."""
    from svmviz.core.training.start import Start, apply_start, start_t0

    W0, b0 = np.array([[1.5, -0.5]]), np.array([0.25])
    start = Start(W0, b0, start_t0(len(blobs2.y)), blobs2.classes)
    variations = [{"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"lam": 0.1}]
    runner.start(race_job(blobs2, variations=variations, start=start))
    first = gui.last
    assert first.t == start.t0
    for run in first.race.runs:
        assert run.t == start.t0
        np.testing.assert_array_equal(run.model.coef, W0)
    runner.step(30)
    runner.seek(start.t0 + 12)
    snap = gui.last
    for run in snap.race.runs:
        solo = Solver(run.config).reset(blobs2)
        apply_start(solo, start)
        solo.step(12)
        assert run.t == solo.t_ == start.t0 + 12
        np.testing.assert_array_equal(run.model.coef, solo.model().coef)
    assert snap.race.same_samples


def test_step_n_draws_every_run_s_way(runner, gui, blobs2):
    """Step N records each linear run's path on the way (not a jump from 0 to t), each
    point that run's output alone at its t."""
    runner.start(race_job(blobs2, variations=[{"lam": 0.1}, {"average": "last"}]))
    runner.step(300)
    snap = gui.last
    for run in snap.race.runs:
        assert run.path.t[0] == 0 and run.path.t[-1] == 300 and len(run.path.t) > 10
        for t, output in zip(run.path.t[1:], run.path.output[1:], strict=True):
            np.testing.assert_array_equal(output, alone(run.config, blobs2, t).model().coef)


def test_the_runs_record_their_paths_without_an_objective(runner, gui, blobs2, monkeypatch):
    """A linear run's path point (after every chunk of play) takes its weights only: the
    output's objective between checkpoints is an O(m) pass, and the path does not draw it."""
    runner.start(race_job(blobs2))
    passes = []
    objective = Solver.output_objective
    monkeypatch.setattr(
        Solver, "output_objective", lambda self: passes.append(1) or objective(self)
    )
    for t in (1234, 1235, 1301):  # (no checkpoints: the history's objective is NaN there)
        runner.solver.step(t - runner.solver.t_)
        runner.follow_race()
    assert passes == []
    for path, config in zip(runner.race.paths, runner.race.configs, strict=True):
        assert path.t[-3:] == [1234, 1235, 1301]
        np.testing.assert_array_equal(path.output[-1], alone(config, blobs2, 1301).model().coef)


def test_an_edit_s_first_frame_keeps_the_lines_of_the_runs_it_left_as_they_were(
    runner, gui, blobs2, monkeypatch
):
    """A point added with warm start leaves a kernel run's model as it was (the point's
    α = 0): its lines are the earlier job's, not contoured again, and equal new ones."""
    from svmviz.app import race_runner

    monkeypatch.setattr(race_runner, "SETTLE_SECONDS", 0.0)  # (paused: frames far apart)
    rbf, variations = RBF, KERNEL_VARIATIONS
    runner.start(race_job(blobs2, base=rbf, variations=variations))
    runner.step(300)
    drawn, contours = counted_contours(monkeypatch)
    more = with_a_point(blobs2)
    runner.start(race_job(more, base=rbf, variations=variations, generation=2, warm=True))
    race = gui.last.race
    # (old: every run's contoured again; a run whose warm state is rescaled may be too)
    assert gui.last.generation == 2 and len(drawn) < len(race.runs)
    extent = data_extent(blobs2.X)
    for run in race.runs:
        again = contours(run.model, extent, more)
        for part in ("boundary", "margin"):
            assert len(run.contours[part]) == len(again[part])
            for a, b in zip(run.contours[part], again[part], strict=True):
                np.testing.assert_array_equal(a, b)


def test_while_playing_the_kernel_runs_lines_come_one_run_at_a_time_and_seldom(
    runner, gui, blobs2, monkeypatch
):
    """A kernel run's lines cost a grid of f: while frames follow each other closely, one
    run's lines are drawn again every LINES_SECONDS, in turn (the plane's frames share the
    worker's time with them)."""
    import time

    from svmviz.app import race_runner

    monkeypatch.setattr(race_runner, "SETTLE_SECONDS", 60.0)  # (every frame: playing)
    drawn, _ = counted_contours(monkeypatch)
    rbf, variations = RBF, KERNEL_VARIATIONS
    runner.start(race_job(blobs2, base=rbf, variations=variations))
    first = len(drawn)  # (the first frame: every run's)
    start = time.perf_counter()
    for _ in range(30):
        runner.step(1)
    elapsed = time.perf_counter() - start
    assert first == 3
    assert 1 <= len(drawn) - first <= elapsed / race_runner.LINES_SECONDS + 1


def test_an_edit_while_playing_draws_no_more_lines_than_a_frame_of_play(
    runner, gui, blobs2, monkeypatch
):
    """While playing, an edit's first frame contours at most the run whose turn it is, as
    any frame of play does: the other runs keep the lines the frames before the edit
    showed (each is drawn again in its turn); a run that could not go on warm is drawn."""
    from svmviz.app import race_runner

    monkeypatch.setattr(race_runner, "SETTLE_SECONDS", 60.0)  # (every frame: playing)
    monkeypatch.setattr(race_runner, "LINES_SECONDS", 60.0)  # (no turn comes in the test)
    rbf, variations = RBF, KERNEL_VARIATIONS
    runner.start(race_job(blobs2, base=rbf, variations=variations))
    runner.step(300)
    before = [run.contours for run in gui.last.race.runs]
    drawn, contours = counted_contours(monkeypatch)
    more = with_a_point(blobs2)
    runner.start(race_job(more, base=rbf, variations=variations, generation=2, warm=True))
    race = gui.last.race
    assert gui.last.generation == 2 and drawn == []
    assert [run.contours for run in race.runs] == before
    assert runner.race.stale  # (the play's end settles every run's lines)
    runner.race.settle(data_extent(blobs2.X), False)
    assert len(drawn) >= 1

    # a run whose problem changed shape starts over at w = 0: its earlier lines do not stay
    three = type(blobs2)(
        np.vstack([more.X, more.X[:1] + 0.5]), np.append(more.y, 2), (*more.classes, "c")
    )
    drawn.clear()
    runner.start(race_job(three, base=rbf, variations=variations, generation=3, warm=True))
    assert gui.last.generation == 3 and len(drawn) == len(variations)


def test_a_play_a_newer_job_cancelled_ends_without_drawing_the_race_lines(
    runner, gui, blobs2, monkeypatch
):
    """A cancel (a new job submitted) ends the play at once: the old job's runs' lines are
    not settled nor its last frame built (the GUI drops it; the new job waits for it)."""
    from svmviz.app import race_runner

    monkeypatch.setattr(race_runner, "SETTLE_SECONDS", 60.0)  # (every frame: playing)
    monkeypatch.setattr(race_runner, "LINES_SECONDS", 60.0)
    rbf = BASE.replace(kernel=Kernel("rbf", gamma=1.0), iterations=400)
    variations = [{"lam": 0.1}, {"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"seed": 9}]
    runner.start(race_job(blobs2, base=rbf, variations=variations))
    drawn, contours = counted_contours(monkeypatch)
    steps = Solver.step

    cancelled = []  # (the frames posted and the lines drawn when the cancel came)

    def step_then_cancel(self, n=1):  # the GUI submits a new job during a chunk
        out = steps(self, n)
        if self.t_ >= 100 and not cancelled:
            gui.controls.stop(2)
            cancelled.append((len(gui.frames), len(drawn)))
        return out

    monkeypatch.setattr(Solver, "step", step_then_cancel)
    runner.play()
    assert cancelled == [(len(gui.frames), len(drawn))] and runner.race.stale

    # the same play uncancelled settles every run's lines at its end
    gui.controls.clear_interruption()
    gui.controls.resume()
    monkeypatch.setattr(Solver, "step", steps)
    runner.play()
    assert not runner.race.stale and len(drawn) >= len(variations)
    assert gui.last.race.runs[0].t == gui.last.t == 400


def test_a_cancel_while_a_frame_is_built_posts_no_frame(runner, gui, blobs2, monkeypatch):
    """A frame whose job was replaced while it was being built is dropped by the runner
    (the GUI would drop it): the race's lines stop at the cancel, nothing is posted."""
    from svmviz.app import race_runner

    rbf, variations = RBF, KERNEL_VARIATIONS
    runner.start(race_job(blobs2, base=rbf, variations=variations))
    runner.solver.step(50)
    drawn = []
    contours = race_runner.contours

    def contour_then_cancel(model, *a):
        drawn.append(model)
        gui.controls.stop(2)
        return contours(model, *a)

    monkeypatch.setattr(race_runner, "contours", contour_then_cancel)
    frames = len(gui.frames)
    runner.publish()
    assert len(drawn) == 1 and len(gui.frames) == frames
