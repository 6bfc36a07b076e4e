"""Every problem and loss of the engine reaches it from the window (issue 24): opened from
the command line as `svmviz DATA --problem P --loss L --multiclass M --play`, each trains,
steps and steps back; clicks place points as the problem reads them; a switch of the
problem keeps the points it can and Undo brings back the rest; sessions keep the targets."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6.QtCore import QPoint, QPointF, Qt

from svmviz.app.worker import TrainingController
from svmviz.core.command_line import window_parser
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.files.session_file import read_session, write_session
from svmviz.ui.window.launch import start


@pytest.fixture
def jobs(monkeypatch):
    """The (config, data) of every job the windows submit, in order."""
    submitted = []
    submit = TrainingController.submit

    def spy(self, config, data, *args, **kwargs):
        submitted.append((config, data))
        return submit(self, config, data, *args, **kwargs)

    monkeypatch.setattr(TrainingController, "submit", spy)
    return submitted


def click(qtbot, w, x, y):
    """A left click on the plot's viewport at data coordinates (x, y)."""
    vb = w.plot.getPlotItem().getViewBox()
    pos = w.plot.mapFromScene(vb.mapViewToScene(QPointF(x, y)))
    qtbot.mouseClick(w.plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pos.x(), pos.y()))


def write(path, header, rows):
    path.write_text(header + "\n" + "\n".join(",".join(repr(float(v)) for v in r) for r in rows))
    return path


def labelled(path, K):
    rng = np.random.default_rng(3)
    centers = [(-1.5, -1.0), (1.5, 1.0), (1.5, -1.5)][:K]
    lines = ["x1,x2,label"]
    for k, c in enumerate(centers):
        for p in rng.normal(c, 0.6, (15, 2)):
            lines.append(f"{float(p[0])!r},{float(p[1])!r},c{k}")
    path.write_text("\n".join(lines))
    return path


def sine(path):
    x = np.linspace(-3, 3, 30)
    return write(path, "x,target", np.column_stack([x, np.sin(x)]))


def unlabelled(path):
    rng = np.random.default_rng(4)
    return write(path, "x1,x2", rng.normal(0, 1, (30, 2)))


def surface(path):
    rng = np.random.default_rng(5)
    X = rng.uniform(-2, 2, (40, 2))
    return write(path, "x1,x2,target", np.column_stack([X, X[:, 0] - 0.5 * X[:, 1]]))


# (options, data: a labelled CSV of K classes, or a CSV maker, the problem's words)
CASES = [
    (["--loss", "hinge"], 2, "training error"),
    (["--loss", "squared_hinge"], 2, "training error"),
    (["--loss", "logistic"], 2, "training error"),
    (["--problem", "nu-svc", "--nu", "0.3"], 2, "margin errors"),
    (["--multiclass", "crammer_singer"], 3, "training error"),
    (["--multiclass", "weston_watkins"], 3, "training error"),
    (["--multiclass", "ovr"], 3, "training error"),
    (["--multiclass", "softmax"], 3, "training error"),
    (["--problem", "one-class", "--nu", "0.2"], unlabelled, "outliers"),
    (["--problem", "epsilon-svr", "--epsilon", "0.2"], sine, "outside the tube"),
    (["--problem", "nu-svr", "--nu", "0.4"], sine, "ε = "),
    (["--problem", "epsilon-svr", "--kernel", "rbf"], surface, "mean absolute error"),
]


@pytest.mark.parametrize(
    ("options", "data", "words"), CASES, ids=lambda c: getattr(c, "__name__", str(c))
)
def test_every_problem_opens_trains_steps_and_steps_back(
    qtbot, wait_frame, jobs, tmp_path, options, data, words
):
    path = tmp_path / "data.csv"
    path = labelled(path, data) if isinstance(data, int) else data(path)
    args = window_parser().parse_args([str(path), *options, "--iterations", "100000", "--play"])
    _, w = start(args)
    qtbot.addWidget(w)
    expected = SolverConfig(problem=args.problem).replace(
        **{k: getattr(args, k) for k in ("loss", "multiclass", "nu", "epsilon") if getattr(args, k)}
    )
    config, job_data = jobs[-1]
    for name in ("problem", "loss", "multiclass", "nu", "epsilon"):
        assert getattr(config, name) == getattr(expected, name)
    assert w.panel.combos["problem"].value() == args.problem
    # the data as the problem reads them
    p = w.session.points
    if config.kind == "svc":
        assert job_data.n_classes == data
    elif config.kind == "one-class":
        assert job_data.classes == () and np.array_equal(job_data.X, p.X)
        assert "ignored" in w.class_bar.kind_label.text()
    elif p.target is None:  # the sine: 1-D inputs, the plane is x against the target
        np.testing.assert_array_equal(job_data.X[:, 0], p.X[:, 0])
        np.testing.assert_array_equal(job_data.target, p.X[:, 1])
        assert job_data.X.shape[1] == 1
    else:  # two coordinates and a target
        assert job_data.X.shape[1] == 2 and np.array_equal(job_data.target, p.target)
    wait_frame(w, lambda s: s.t > 50)
    w.toggle_play()
    assert not w.playing
    # a known iteration behind the pause's last frame (whose t depends on when it came)
    t = 40
    w.training.seek(t)
    wait_frame(w, lambda s: s.t == t)
    w.advance(1)
    wait_frame(w, lambda s: s.t == t + 1)
    w.step_back()
    wait_frame(w, lambda s: s.t == t)
    w.frames.show_curves()
    text = w.status.text()
    assert words in text
    assert "misclassified" not in text
    if config.kind != "svc":
        assert "training error" not in text
    w.close()


def test_clicks_place_points_as_each_problem_reads_them(qtbot, make_window, jobs):
    # 1-D regression: a click at (x, y) is the input x and the target y
    w = make_window(None, problem="epsilon-svr", iterations=500)
    assert "at least two points" in w.status.text()
    bar = w.class_bar  # the class buttons give way to what a click places
    assert not bar.buttons[0].action.isVisible() and not bar.target_action.isVisible()
    assert "input x and target y" in bar.kind_label.text()
    click(qtbot, w, 1.0, 0.5)
    click(qtbot, w, -1.5, -0.75)
    _, data = jobs[-1]
    np.testing.assert_allclose(data.X[:, 0], [1.0, -1.5], atol=0.05)
    np.testing.assert_allclose(data.target, [0.5, -0.75], atol=0.05)
    assert w.session.points.target is None
    # one-class: a point of the current class, whose class the problem ignores
    w.panel.combos["problem"].set_value("one-class")
    assert "ignored" in w.class_bar.kind_label.text()
    click(qtbot, w, 0.25, 1.25)
    _, data = jobs[-1]
    assert data.classes == () and len(data.X) == 3
    np.testing.assert_allclose(data.X[-1], [0.25, 1.25], atol=0.05)
    # svc: a point of the current class
    w.panel.combos["problem"].set_value("svc")
    assert w.class_bar.buttons[1].action.isVisible()
    w.session.set_current_class(1)
    click(qtbot, w, -0.5, 0.5)
    _, data = jobs[-1]
    assert data.n_classes == 2 and w.session.points.y[-1] == 1


def test_a_click_in_a_2d_regression_places_the_target_set_in_the_bar(qtbot, make_window, jobs):
    X = np.array([[-1.0, -1.0], [1.0, 1.0], [1.0, -1.0]])
    w = make_window(Dataset.regression(X, [0.0, 2.0, 1.0]), problem="epsilon-svr", iterations=500)
    assert w.class_bar.target_action.isVisible()
    assert not w.class_bar.buttons[0].action.isVisible()
    assert "target" in w.class_bar.target.toolTip()
    w.class_bar.target.setText("2.5")
    w.class_bar.target.editingFinished.emit()
    assert w.session.current_target == 2.5
    click(qtbot, w, -0.5, 0.75)
    p = w.session.points
    np.testing.assert_allclose(p.X[-1], [-0.5, 0.75], atol=0.05)
    assert p.target.tolist() == [0.0, 2.0, 1.0, 2.5]
    _, data = jobs[-1]
    assert data.X.shape == (4, 2) and data.target.tolist() == [0.0, 2.0, 1.0, 2.5]
    # every edit carries the targets: a move, a delete, undo and redo
    w.session.move_points([0], 0.5, 0.0)
    w.session.delete_points([1])
    assert w.session.points.target.tolist() == [0.0, 1.0, 2.5]
    w.session.undo()
    assert w.session.points.target.tolist() == [0.0, 2.0, 1.0, 2.5]
    w.session.redo()
    assert w.session.points.target.tolist() == [0.0, 1.0, 2.5]


def test_switching_the_problem_keeps_the_points_and_undo_brings_back_the_rest(
    qtbot, make_window, wait_frame, jobs
):
    w = make_window(iterations=500)  # the demo's two classes
    X = w.session.points.X.copy()
    w.panel.combos["problem"].set_value("epsilon-svr")
    assert w.session.config.problem == "epsilon-svr"
    assert "first coordinate becomes the input x" in w.caption.text()
    assert w.caption.isVisibleTo(w)
    _, data = jobs[-1]
    np.testing.assert_array_equal(data.X[:, 0], X[:, 0])
    np.testing.assert_array_equal(data.target, X[:, 1])
    wait_frame(w, lambda s: s.model.problem == "epsilon-svr")
    w.controls.undo.trigger()
    assert w.session.config.problem == "svc"
    assert w.panel.combos["problem"].value() == "svc"
    assert jobs[-1][1].n_classes == 2 and np.array_equal(w.session.points.X, X)
    w.controls.redo.trigger()
    assert w.session.config.problem == "epsilon-svr"
    # a hard margin is a hinge svc: another problem or loss makes it soft, and is not offered
    w.controls.undo.trigger()
    w.panel.combos["margin"].set_value("hard")
    assert w.session.config.margin == "hard"
    w.panel.combos["loss"].set_value("logistic")
    assert (w.session.config.loss, w.session.config.margin) == ("logistic", "soft")
    assert w.panel.combos["margin"].value() == "soft"
    assert not w.panel.combos["margin"].model().item(1).isEnabled()
    w.panel.combos["problem"].set_value("one-class")
    assert not w.panel.combos["loss"].isVisibleTo(w.panel)
    assert not w.panel.combos["margin"].model().item(1).isEnabled()
    w.controls.undo.trigger()  # back to the svc with its logistic loss
    assert (w.session.config.problem, w.session.config.loss) == ("svc", "logistic")
    assert w.panel.combos["loss"].isVisibleTo(w.panel)


def test_targets_that_cannot_carry_over_are_said_and_undo_brings_them_back(make_window, jobs):
    X = np.array([[-1.0, -1.0], [1.0, 1.0], [1.0, -1.0]])
    w = make_window(Dataset.regression(X, [0.0, 2.0, 1.0]), problem="epsilon-svr", iterations=500)
    w.panel.combos["problem"].set_value("one-class")
    assert w.session.points.target is None
    assert "targets" in w.session.notice and "Undo" in w.session.notice
    assert np.array_equal(jobs[-1][1].X, X)
    w.controls.undo.trigger()
    assert w.session.config.problem == "epsilon-svr"
    assert w.session.points.target.tolist() == [0.0, 2.0, 1.0]
    assert jobs[-1][1].target.tolist() == [0.0, 2.0, 1.0]


def test_a_2d_regression_session_saves_and_reopens_with_its_targets(
    qtbot, make_window, wait_frame, tmp_path
):
    X = np.array([[-1.0, -1.0], [1.0, 1.0], [1.0, -1.0], [0.5, 0.25]])
    target = [0.1, 2.0, -1.0, 1e-3 / 3]
    w = make_window(Dataset.regression(X, target), problem="nu-svr", nu=0.3, iterations=500)
    path = tmp_path / "surface.json"
    write_session(path, w.session.content(w.state.view()))
    f = read_session(path)
    assert f.target.tolist() == target and f.config.problem == "nu-svr"
    w.session.clear()
    assert w.files.open_path(path, confirm=False)
    assert w.session.points.target.tolist() == target  # bit for bit
    assert w.session.config.nu == 0.3
    wait_frame(w, lambda s: s.model.problem == "nu-svr" and len(s.frame.margins) == 4)


@pytest.mark.parametrize("problem", ["one-class", "nu-svc", "epsilon-svr"])
def test_a_session_of_another_problem_opens_and_plays(
    qtbot, make_window, wait_frame, tmp_path, problem
):
    """Issue 24: a session whose config says "problem": "one-class" threw a traceback on
    every frame."""
    w = make_window(iterations=2000)
    w.session.set_config(w.session.config.replace(problem=problem, kernel=w.session.config.kernel))
    path = tmp_path / "lesson.json"
    write_session(path, w.session.content(w.state.view()))
    w.close()
    _, again = start(window_parser().parse_args([str(path), "--play"]))
    qtbot.addWidget(again)
    assert again.session.config.problem == problem
    wait_frame(again, lambda s: s.model.problem == problem and s.t == 2000)
    again.step_back()
    wait_frame(again, lambda s: s.t == 1999)
    again.close()


def test_the_window_reads_a_csv_as_its_problem_does(qtbot, tmp_path, jobs):
    """A 2-D regression file was read as 50 labels, an unlabelled one-class file (x1,x2) as
    one coordinate."""
    _, w = start(
        window_parser().parse_args([str(surface(tmp_path / "s.csv")), "--problem", "nu-svr"])
    )
    qtbot.addWidget(w)
    assert w.session.points.target is not None and len(w.session.points) == 40
    assert jobs[-1][1].X.shape == (40, 2)
    w.close()
    _, w = start(
        window_parser().parse_args([str(unlabelled(tmp_path / "u.csv")), "--problem", "one-class"])
    )
    qtbot.addWidget(w)
    assert w.session.points.X.shape == (30, 2) and jobs[-1][1].X.shape == (30, 2)
    w.close()


def test_the_window_help_lists_the_problems_it_opens(capsys):
    with pytest.raises(SystemExit):
        window_parser().parse_args(["data.csv", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--problem", "--loss", "--multiclass", "--epsilon", "--nu", "--play"):
        assert option in text
    assert "target" in text  # a regression CSV: the coordinates then the target


def test_a_switch_of_the_loss_shows_the_new_losss_exact_optimum(make_window, wait_frame):
    """On the same points each loss is measured against its own F* (the window's cache of
    optima once handed the hinge's to the logistic and squared hinge losses)."""
    from svmviz.core.training.reference import exact_optimum

    w = make_window()
    for loss in ("hinge", "logistic", "squared_hinge", "hinge"):
        w.session.set_config(w.session.config.replace(loss=loss))
        gen = w.controller.generation
        snap = wait_frame(w, lambda s, g=gen: s.generation == g and s.reference is not None)
        exact = exact_optimum(w.session.job_config(), w.session.dataset()).objective
        assert snap.reference.objective == pytest.approx(exact, rel=1e-6), loss


@pytest.mark.parametrize(
    ("problem", "nu_word", "after"), [("nu-svc", "margin errors", "ρ ="), ("nu-svr", "ε =", "MAE")]
)
def test_the_presenters_status_says_what_nu_bounds_before_the_rest(
    make_window, wait_frame, problem, nu_word, after
):
    """Cut on a laptop's projector, the presenter's line kept ρ or the MAE and lost the
    reading ν is about: it now comes right after the first."""
    from svmviz.ui.window.presentation import short_status

    rng = np.random.default_rng(6)
    if problem == "nu-svr":
        x = np.linspace(-3, 3, 40)
        data = Dataset.regression(x[:, None], np.sin(x) + 0.1 * rng.normal(size=40))
    else:
        X = np.vstack([rng.normal(-1, 0.7, (20, 2)), rng.normal(1, 0.7, (20, 2))])
        data = Dataset(X, np.repeat([0, 1], 20), ("a", "b"))
    w = make_window(data, SolverConfig(problem=problem, nu=0.3))
    w.advance(3)
    snap = wait_frame(w, lambda s: s.t == 3 and len(s.history["objective"]))
    line = short_status(snap, w.session.config)
    assert "ν = 0.3" in line
    assert line.index(nu_word) < line.index(after), line
