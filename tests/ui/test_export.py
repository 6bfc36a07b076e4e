"""Export: pictures at the requested size (PNG, SVG, clipboard), the trained model and the
history (the formats `svmviz train` writes), and the training as an animation."""

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtGui, QtWidgets
from PySide6.QtSvg import QSvgRenderer

from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import Split
from svmviz.core.model_io import read_model, read_model_npz
from svmviz.core.solvers import rules
from svmviz.ui.window import points_export
from svmviz.ui.window.animation import AnimationSettings


@pytest.fixture
def trained(make_window, wait_frame):
    w = make_window(kernel=Kernel("rbf"), iterations=3000)
    w.run_to_budget()
    wait_frame(w, lambda s: s.status == "budget" and s.reference is not None)
    return w


def colours(image: QtGui.QImage) -> int:
    """How many distinct colours a picture has (a blank one has one)."""
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    data = np.frombuffer(image.constBits(), dtype=np.uint32)[: image.width() * image.height()]
    return len(np.unique(data))


@pytest.mark.parametrize("which", ["plane", "objective", "loss"])
@pytest.mark.parametrize("scale", [1, 2])
def test_png_has_the_requested_size_and_content(trained, tmp_path, which, scale):
    path = tmp_path / f"{which}.png"
    assert trained.exports.write_picture(which, path, 640, 480, scale)
    image = QtGui.QImage(str(path))
    assert (image.width(), image.height()) == (640 * scale, 480 * scale)
    assert colours(image) > 20  # regions, points, curves, text: not a blank picture
    assert not list(tmp_path.glob(".*.tmp"))  # the atomic write left nothing behind


@pytest.mark.parametrize("which", ["plane", "objective"])
def test_svg_is_valid_at_the_requested_size(trained, tmp_path, which):
    path = tmp_path / f"{which}.svg"
    assert trained.exports.write_picture(which, path, 500, 400, 2)  # (SVG: scale ignored)
    text = path.read_text(encoding="utf-8")
    assert 'viewBox ="0 0 500 400"' in text.replace("viewBox=", "viewBox ="), text[:300]
    renderer = QSvgRenderer(str(path))
    assert renderer.isValid()
    image = QtGui.QImage(500, 400, QtGui.QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    painter = QtGui.QPainter(image)
    renderer.render(painter)
    painter.end()
    assert colours(image) > 20
    assert text.count("<path") + text.count("<polyline") >= 4  # curves and axes as vectors
    assert text.count("<text") > 5  # tick labels and the legend as text
    if which == "plane":
        assert "<image" in text  # the regions, embedded


def test_the_picture_does_not_disturb_the_window(trained, tmp_path):
    before = (trained.plot.view_extent(), trained.size())
    trained.exports.write_picture("plane", tmp_path / "p.png", 300, 900)
    assert (trained.plot.view_extent(), trained.size()) == before


def test_copy_puts_the_picture_on_the_clipboard(trained):
    trained.prefs.set("export_width", 400)
    trained.prefs.set("export_height", 300)
    trained.prefs.set("export_scale", 2)
    trained.exports.copy_picture("plane")
    image = QtWidgets.QApplication.clipboard().image()
    assert (image.width(), image.height()) == (800, 600)
    assert colours(image) > 20


def save_to(monkeypatch, path):
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))


@pytest.mark.parametrize("name", ["model.json", "model.npz"])
def test_the_exported_model_predicts_as_the_window_s(trained, tmp_path, monkeypatch, name):
    path = tmp_path / name
    save_to(monkeypatch, path)
    assert trained.exports.save_model()
    model = (read_model_npz if name.endswith(".npz") else read_model)(path)
    shown = trained.snapshot.model
    X = np.random.default_rng(3).normal(size=(100, 2)) * 2
    np.testing.assert_array_equal(model.decision_function(X), shown.decision_function(X))
    np.testing.assert_array_equal(model.predict(X), shown.predict(X))
    assert model.extra["solver"] == trained.session.job_config().to_dict()
    assert model.extra["status"] == "budget"
    assert model.extra["iterations"] == 3000
    assert model.extra["optimum"] == pytest.approx(trained.snapshot.reference.objective)


def test_the_window_and_svmviz_train_write_the_same_model_fields(trained, tmp_path, monkeypatch):
    from svmviz.cli import main
    from svmviz.core.data import write_csv

    data = tmp_path / "d.csv"
    write_csv(data, trained.session.dataset())
    assert (
        main(
            [
                "train",
                str(data),
                "--kernel",
                "rbf",
                "--iterations",
                "3000",
                "--out",
                str(tmp_path / "cli.json"),
            ]
        )
        == 0
    )
    save_to(monkeypatch, tmp_path / "gui.json")
    assert trained.exports.save_model()
    cli = json.loads((tmp_path / "cli.json").read_text())
    gui = json.loads((tmp_path / "gui.json").read_text())
    assert set(cli) <= set(gui)
    assert gui["solver"] == cli["solver"]
    # the same configuration and seed on the same points: the same model
    assert gui["dual_coef"] == cli["dual_coef"]
    assert gui["intercept"] == cli["intercept"]


def test_the_exported_model_has_the_class_names_of_now(trained, tmp_path, monkeypatch):
    """A rename does not retrain, and the model exported after it has the new names, as the
    points CSV has (and `svmviz train --out` of that CSV)."""
    from svmviz.cli import main
    from svmviz.core.data import read_csv

    gen = trained.controller.generation
    monkeypatch.setattr(QtWidgets.QInputDialog, "getText", lambda *a, **k: ("cats", True))
    trained.class_bar.rename(0)
    assert trained.controller.generation == gen  # the same problem: no new training
    assert trained.snapshot.model.classes == ("class 1", "class 2")  # trained before it
    for name in ("model.json", "model.npz", "points.csv"):
        save_to(monkeypatch, tmp_path / name)
        assert (
            points_export.export_csv(trained.files)
            if name.endswith(".csv")
            else trained.exports.save_model()
        )
    for model in (read_model(tmp_path / "model.json"), read_model_npz(tmp_path / "model.npz")):
        assert model.classes == ("cats", "class 2")
        assert set(model.predict(trained.session.points.X)) == {"cats", "class 2"}
    assert read_csv(tmp_path / "points.csv").classes == ("cats", "class 2")
    out = tmp_path / "cli.json"
    assert (
        main(["train", str(tmp_path / "points.csv"), "--iterations", "50", "--out", str(out)]) == 0
    )
    assert read_model(out).classes == ("cats", "class 2")


def test_history_csv_has_the_rows_with_the_exact_objective(trained, tmp_path, monkeypatch):
    """The window records the exact objective at the checkpoints and the frames: those are
    the rows written, each numbered by its iteration."""
    path = tmp_path / "h.csv"
    save_to(monkeypatch, path)
    assert trained.exports.save_history()
    rows = list(csv.reader(io.StringIO(path.read_text())))
    assert rows[0] == ["iteration", "objective", "loss", "error", "norm", "violations"]
    history = trained.snapshot.history
    held = np.isfinite(history["objective"])
    assert [int(r[0]) for r in rows[1:]] == list(history["t"][held])
    marks = [t for t in range(1, 3001) if rules.python().is_checkpoint(t)]
    assert set(marks) <= {int(r[0]) for r in rows[1:]}
    assert rows[-1][0] == "3000"
    assert float(rows[-1][1]) == history["objective"][-1]


def test_nothing_to_export_before_training(make_window, monkeypatch):
    shown = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "information", lambda *a: shown.append(a[2]))
    w = make_window()
    w.frames.snapshot = None
    assert not w.exports.save_model()
    assert "Train first" in shown[0]


def run_animation(qtbot, w, settings):
    done = []
    assert w.exports.start_animation(settings)
    w.exports.animation.finished.connect(lambda ok, message: done.append((ok, message)))
    qtbot.waitUntil(lambda: bool(done), timeout=60000)
    return done[0]


def test_gif_animation_replays_the_training(trained, tmp_path, qtbot):
    from PIL import Image

    path = tmp_path / "training.gif"
    ok, message = run_animation(
        qtbot,
        trained,
        AnimationSettings(path, frames=6, frame_ms=80, last=3000, width=320, height=240),
    )
    assert ok
    assert "6 frames" in message
    with Image.open(path) as gif:
        assert gif.n_frames == 6
        assert gif.size == (320, 240)
        gif.seek(5)
        assert gif.info["duration"] >= 80


def test_png_frames_and_cancel_leave_no_partial_output(trained, tmp_path, qtbot):
    path = tmp_path / "frame.png"
    ok, _ = run_animation(
        qtbot, trained, AnimationSettings(path, frames=4, last=3000, width=200, height=150, scale=2)
    )
    names = sorted(p.name for p in tmp_path.iterdir())
    assert ok
    assert names == [f"frame_{k:04d}.png" for k in range(1, 5)]
    assert QtGui.QImage(str(tmp_path / "frame_0004.png")).width() == 400
    for p in tmp_path.iterdir():
        p.unlink()
    done = []
    trained.exports.start_animation(
        AnimationSettings(path, frames=200, last=3000, width=200, height=150)
    )
    animation = trained.exports.animation
    animation.finished.connect(lambda ok, message: done.append((ok, message)))
    qtbot.waitUntil(lambda: animation.progress.value() >= 3, timeout=30000)
    animation.progress.findChild(QtWidgets.QPushButton).click()  # the dialog's Cancel
    assert done
    assert not done[0][0]
    assert "cancelled" in done[0][1]
    assert list(tmp_path.iterdir()) == []


def test_the_animation_of_a_split_trains_on_the_training_points(
    qtbot, make_window, wait_frame, tmp_path
):
    w = make_window(iterations=500)
    w.session.set_split(Split(0.3, 1))
    wait_frame(w, lambda s: s.generation == w.controller.generation)  # the split's job
    ok, message = run_animation(
        qtbot, w, AnimationSettings(tmp_path / "a.gif", frames=3, last=500, width=200, height=150)
    )
    assert ok, message
    from PIL import Image

    with Image.open(io.BytesIO(Path(tmp_path / "a.gif").read_bytes())) as gif:
        assert gif.n_frames == 3


def test_sizes_too_large_are_refused_with_a_message(trained, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "critical", lambda *a: shown.append(a[2]))
    assert not trained.exports.write_picture("plane", tmp_path / "p.png", 5000, 3000, 2)
    assert "10000 × 6000: at most 8000 pixels a side" in shown[-1]
    big = AnimationSettings(tmp_path / "a.gif", frames=1000, last=3000, width=4000, height=3000)
    assert not trained.exports.start_animation(big)
    assert "for a GIF (at most 1 GB)" in shown[-1]
    assert "numbered PNG frames" in shown[-1]
    assert list(tmp_path.iterdir()) == []


def test_the_animation_of_a_run_from_a_start_replays_it_from_there(
    make_window, wait_frame, tmp_path, qtbot, monkeypatch
):
    """A run that began at a start w₀ (Train from here, a click in weight space) is
    replayed from w₀ and t₀: every frame is an iterate the window showed."""
    import numpy as np

    from svmviz.core.training import replay as replay_module
    from svmviz.ui.window import animation

    w = make_window(iterations=3000, lam=0.05)
    w.train_from(np.array([[1.5, -0.5]]), np.array([0.25]))
    snap = wait_frame(w, lambda s: s.start is not None)
    w.advance(12)
    snap = wait_frame(w, lambda s: s.t == s.t0 + 12)
    solvers = []

    def recorded(*args, **kw):
        for solver in replay_module.replay(*args, **kw):
            solvers.append((solver.t_, solver.model().coef.copy()))
            yield solver

    monkeypatch.setattr(animation, "replay", recorded)
    path = tmp_path / "run.gif"
    ok, _ = run_animation(
        qtbot, w, AnimationSettings(path, frames=3, last=12, width=200, height=150)
    )
    assert ok
    assert solvers[-1][0] == snap.t  # t₀ + 12, not 12
    np.testing.assert_array_equal(solvers[-1][1], snap.model.coef)


def test_the_animation_goes_up_to_the_runs_end_by_default(make_window, wait_frame, monkeypatch):
    """Issue 43: after a few steps "Up to iteration" was the current t (3)."""
    from svmviz.ui.window.animation import AnimationDialog

    shown = []

    def exec_(dialog):
        shown.append(dialog.last.value())
        return QtWidgets.QDialog.DialogCode.Rejected

    monkeypatch.setattr(AnimationDialog, "exec", exec_)
    w = make_window(iterations=4000, tol=1e-3)
    w.advance(3)
    wait_frame(w, lambda s: s.t == 3)
    assert not w.exports.save_animation()
    assert shown == [4000]  # the budget of a run under way
    w.run_to_budget()
    end = wait_frame(w, lambda s: s.status in ("objective", "weights", "budget"))
    assert end.t < 4000  # (stopped at the tolerance)
    assert not w.exports.save_animation()
    assert shown[-1] == end.t  # where the run stopped
