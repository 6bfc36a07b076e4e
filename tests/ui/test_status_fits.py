"""The status line and the presenter's line: the margin's width as a number for every linear
model of two classes with margins, and at 1366×768 (and presenting) no reading cut."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.config import SolverConfig
from svmviz.core.files.scenario import list_scenarios
from svmviz.core.kernels import Kernel
from svmviz.ui.panels.status import SEP
from svmviz.ui.window.presentation import short_status

LINEAR_BINARY = [
    ("hinge", SolverConfig(iterations=200)),
    ("squared hinge", SolverConfig(loss="squared_hinge", iterations=200)),
    ("hard margin", SolverConfig(margin="hard", iterations=200)),
    ("sgd", SolverConfig(algorithm="sgd", iterations=200)),
    ("nu-svc", SolverConfig(problem="nu-svc", nu=0.3, iterations=200)),
]


def ran(w, wait_frame):
    w.run_to_budget()
    return wait_frame(w, lambda s: s.t == w.session.config.iterations, timeout=60000)


@pytest.mark.parametrize("name, config", LINEAR_BINARY, ids=[n for n, _ in LINEAR_BINARY])
def test_every_linear_binary_model_shows_its_margin_width(
    make_window, wait_frame, separable, name, config
):
    w = make_window(separable, config, show=True)
    w.resize(1366, 768)
    snap = ran(w, wait_frame)
    norm = float(np.linalg.norm(snap.model.coef[0]))
    width = 2 * snap.model.rho / norm if config.problem == "nu-svc" else 2 / norm
    name = "2ρ/‖w‖" if config.problem == "nu-svc" else "2/‖w‖"  # (the curve's width too)
    words = f"margin {name} = {width:.4g}"
    assert words in w.status.text()
    assert words in w.status.shown_text()  # (drawn, not left to the tooltip)
    assert f" · margin {width:.3g}" in short_status(snap, config)  # the presenter's line


@pytest.mark.parametrize(
    "config",
    [SolverConfig(loss="logistic", iterations=50), SolverConfig(kernel=Kernel("rbf"))],
    ids=["logistic: no margins drawn", "a kernel: no w"],
)
def test_no_margin_width_where_the_plane_draws_no_margin_of_w(make_window, wait_frame, config):
    w = make_window(config=config)
    w.advance(3)
    wait_frame(w, lambda s: s.t == 3)
    assert "‖w‖" not in w.status.text()


STATES = ("01-hard", "03-kernel", "04-xor", "06-step", "07-pegasos", "12-one", "14-multi")


def test_no_reading_is_cut_at_1366x768_nor_presenting(qtbot, make_window, wait_frame):
    """In the lesson's states, the status line draws every reading whole (notes may be
    left to its tooltip, after "…"), and the presenter's line too."""
    w = make_window(show=True)
    w.resize(1366, 768)
    cut = {}
    for stem in STATES:
        path = next(p for p in list_scenarios() if p.stem.startswith(stem))
        w.files.open_path(path)
        wait_frame(w, lambda s: s.t == 0)
        w.advance(3)
        snap = wait_frame(w, lambda s: s.t >= 3)
        qtbot.wait(50)
        text = w.status.text()
        readings = text.split(SEP + "—")[0]  # (the notes follow a dash)
        if w.status.cut_within() or not w.status.shown_text().startswith(readings):
            cut[stem] = w.status.shown_text()
        w.set_presentation(True)
        qtbot.wait(300)
        bar = w.presentation.bar.status
        if bar.cut_within() or "gap" in bar.text() and "gap" not in bar.shown_text():
            cut[f"{stem} presenting"] = bar.shown_text()
        w.set_presentation(False)
        assert snap.t >= 3
    assert cut == {}
