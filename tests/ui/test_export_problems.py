"""Every problem exports as the hinge C-SVC does: the plane as PNG and SVG, the model as
MODEL.json and .npz (predicting as the window's model), the history as CSV with the
problem's offset columns, the training as a GIF, and the session, reopened as it was."""

import csv
import io

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PIL import Image
from PySide6 import QtWidgets

from svmviz.app.session import Session
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.files.session_file import read_session, write_session
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import read_model, read_model_npz
from svmviz.core.solvers import losses
from svmviz.ui.window.animation import AnimationSettings

SINE = generate("sine", n=40, noise=0.15, seed=3)[0]
BLOBS = generate("blobs", n=40, noise=0.2, seed=1)
PROBLEMS = {
    "epsilon-svr": (Dataset(SINE, np.zeros(40, dtype=np.int64), ("class 1",)), {}),
    "nu-svr": (Dataset(SINE, np.zeros(40, dtype=np.int64), ("class 1",)), {"nu": 0.3}),
    "one-class": (Dataset(BLOBS[0], BLOBS[1], ("class 1", "class 2")), {"nu": 0.2}),
    "nu-svc": (Dataset(BLOBS[0], BLOBS[1], ("class 1", "class 2")), {"nu": 0.3}),
}


@pytest.fixture(params=sorted(PROBLEMS))
def trained(request, make_window, wait_frame):
    data, changes = PROBLEMS[request.param]
    config = SolverConfig(problem=request.param, kernel=Kernel("rbf"), iterations=1000, **changes)
    w = make_window(data, config)
    w.run_to_budget()
    wait_frame(w, lambda s: s.status == "budget" and s.reference is not None, 60000)
    return w


def save_to(monkeypatch, path):
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))


def test_every_export_of_every_problem(trained, tmp_path, monkeypatch, qtbot):
    w, problem = trained, trained.session.config.problem
    for name in ("plane.png", "plane.svg"):
        assert w.exports.write_picture("plane", tmp_path / name, 400, 300)
        assert (tmp_path / name).stat().st_size > 1000
    for name, read in (("model.json", read_model), ("model.npz", read_model_npz)):
        save_to(monkeypatch, tmp_path / name)
        assert w.exports.save_model()
        model, shown = read(tmp_path / name), w.snapshot.model
        assert model.problem == problem
        X = w.session.dataset().X
        np.testing.assert_array_equal(model.decision_function(X), shown.decision_function(X))
    save_to(monkeypatch, tmp_path / "h.csv")
    assert w.exports.save_history()
    rows = list(csv.reader(io.StringIO((tmp_path / "h.csv").read_text())))
    for column in losses.offset_columns(problem):  # ρ, ε learned
        assert column in rows[0]
    assert len(rows) == 1 + np.isfinite(w.snapshot.history["objective"]).sum()
    assert rows[-1][0] == "1000"
    done = []
    settings = AnimationSettings(tmp_path / "t.gif", 4, 80, last=1000, width=320, height=240)
    assert w.exports.start_animation(settings)
    w.exports.animation.finished.connect(lambda ok, message: done.append(ok))
    qtbot.waitUntil(lambda: bool(done), timeout=60000)
    assert done == [True]
    with Image.open(tmp_path / "t.gif") as gif:
        assert gif.n_frames == 4
    write_session(tmp_path / "s.json", w.session.content())
    other = Session()
    other.restore(read_session(tmp_path / "s.json"))
    assert other.config == w.session.config
    np.testing.assert_array_equal(other.points.X, w.session.points.X)
    np.testing.assert_array_equal(other.dataset().X, w.session.dataset().X)
