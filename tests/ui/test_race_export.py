"""A race exported: the plane's PNG and SVG with the runs' lines and legend, the objective
plot with their curves, every run's history in one CSV, and the GIF with every run."""

import csv
import io
import re

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtGui, QtWidgets

from svmviz.core.palette import RACE_COLORS
from svmviz.core.solvers import Solver
from svmviz.core.training.race_setup import race_configs
from svmviz.ui.window.animation import AnimationSettings
from svmviz.ui.window.render import plane_twin

RACE = [{"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"lam": 0.1}, {"average": "last"}]


@pytest.fixture
def raced(make_window, wait_frame):
    w = make_window(iterations=1500, seed=2)
    w.session.set_race(RACE)
    w.state.set_race(True)
    wait_frame(w, lambda s: s.race is not None)
    w.run_to_budget()
    wait_frame(w, lambda s: s.status == "budget" and s.race is not None and s.reference)
    return w


def pixels(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    data = np.frombuffer(image.constBits(), dtype=np.uint32)
    return data[: image.width() * image.height()].copy()


def has_colour(image: QtGui.QImage, color: str, near: int = 12) -> bool:
    """Whether some pixel is within ``near`` of ``color`` in each channel."""
    px = pixels(image)
    rgb = np.stack([(px >> s) & 0xFF for s in (16, 8, 0)], axis=1).astype(int)
    want = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)])
    return bool(np.any(np.all(np.abs(rgb - want) <= near, axis=1)))


def test_the_plane_png_draws_the_runs_and_differs_from_no_race(raced, tmp_path):
    path = tmp_path / "race.png"
    assert raced.exports.write_picture("plane", path, 640, 480)
    image = QtGui.QImage(str(path))
    for color in RACE_COLORS[1:]:
        assert has_colour(image, color), color
    state = raced.frames.plane_state()
    twin = plane_twin(state.__class__(**{**state.__dict__, "race": None}), 640, 480)
    try:
        alone = twin.grab().toImage()
    finally:
        twin.deleteLater()
    assert not any(has_colour(alone, c, near=4) for c in RACE_COLORS[1:])
    assert not np.array_equal(pixels(image), pixels(alone))


def test_the_svg_holds_each_run_s_lines_and_legend(raced, tmp_path):
    path = tmp_path / "race.svg"
    assert raced.exports.write_picture("plane", path, 800, 600)
    text = path.read_text(encoding="utf-8")
    for color in RACE_COLORS[1:]:
        assert text.lower().count(color.lower()) >= 2, color  # its boundary, its legend sample
    # (a label's text is split where the font changes: the texts joined)
    words = "".join(re.findall(r"<text[^>]*>([^<]*)</text>", text))
    for k, label in enumerate(raced.snapshot.race.labels, start=1):
        assert f"run {k}: {label}" in words


def test_the_objective_picture_has_every_run_s_curve(raced, tmp_path):
    path = tmp_path / "objective.png"
    assert raced.exports.write_picture("objective", path, 640, 480)
    image = QtGui.QImage(str(path))
    for color in RACE_COLORS[1:]:
        assert has_colour(image, color, near=20), color


def test_the_history_csv_has_every_run(raced, tmp_path, monkeypatch):
    path = tmp_path / "h.csv"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    assert raced.exports.save_history()
    rows = list(csv.reader(io.StringIO(path.read_text())))
    assert rows[0][:3] == ["run", "label", "iteration"]
    runs = {}
    for row in rows[1:]:
        runs.setdefault(row[0], []).append(row)
    assert sorted(runs) == ["1", "2", "3", "4"]
    snap = raced.snapshot
    assert float(runs["1"][-1][3]) == snap.history["objective"][-1]
    for k, run in enumerate(snap.race.runs, start=2):
        assert runs[str(k)][0][1] == run.label
        assert int(runs[str(k)][-1][2]) == 1500
        assert float(runs[str(k)][-1][3]) == run.history["objective"][-1]


def test_the_gif_replays_every_run(raced, tmp_path, qtbot):
    from PIL import Image

    path = tmp_path / "race.gif"
    done = []
    settings = AnimationSettings(path, frames=4, frame_ms=80, last=1500, width=320, height=240)
    assert raced.exports.start_animation(settings)
    raced.exports.animation.finished.connect(lambda ok, message: done.append(ok))
    qtbot.waitUntil(lambda: bool(done), timeout=60000)
    assert done == [True]
    with Image.open(path) as gif:
        assert gif.n_frames == 4
        gif.seek(3)
        last = QtGui.QImage(
            gif.convert("RGB").tobytes(), 320, 240, QtGui.QImage.Format.Format_RGB888
        )
        for color in RACE_COLORS[1:]:  # (a thin line's colour, quantized to the GIF's
            assert has_colour(last, color, near=32), color  # 256: off by up to ~30)


def test_the_replayed_companions_equal_their_runs_alone(raced):
    """(What the GIF draws: each run as trained alone, at the frame's iteration.)"""
    from svmviz.app.race_runner import Companions

    data = raced.session.dataset()
    config = raced.session.job_config()
    main = Solver(config).reset(data)
    companions = Companions(main, race_configs(config, RACE), data)
    main.step(700)
    companions.follow(main)
    for c, s in zip(race_configs(config, RACE), companions.solvers, strict=True):
        alone = Solver(c).reset(data)
        alone.step(700)
        np.testing.assert_array_equal(s.model().coef, alone.model().coef)
