"""The window: it opens, trains in its worker thread, draws, resets and closes cleanly."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.config import SolverConfig  # noqa: E402
from svmviz.core.kernels import Kernel  # noqa: E402
from svmviz.ui.app import build_window, demo_data  # noqa: E402


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf")])
def test_step_play_reset_close(qtbot, kernel):
    w = build_window(demo_data(), SolverConfig(kernel=kernel, iterations=3000))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.snapshot is not None, timeout=30000)
    w.advance(1)
    qtbot.waitUntil(lambda: w.snapshot.t == 1, timeout=30000)
    assert "iteration 1" in w.status.text()
    w.toggle_play()
    assert w.play_action.text() == "Pause"
    qtbot.waitUntil(lambda: w.snapshot.status == "budget", timeout=30000)
    assert w.play_action.text() == "Play"
    x, y = w.boundary.getData()
    assert np.isfinite(x).sum() > 10  # the boundary is drawn
    assert "gap to the optimum" in w.status.text()
    w.reset()
    qtbot.waitUntil(lambda: w.snapshot.t == 0, timeout=30000)
    w.toggle_play()
    w.close()


def test_hard_margin_on_overlapping_data_says_why(qtbot, blobs2):
    w = build_window(blobs2, SolverConfig(margin="hard"))
    qtbot.addWidget(w)
    qtbot.waitUntil(lambda: "Cannot train" in w.status.text(), timeout=30000)
    assert "not separable" in w.status.text()
    w.toggle_play()
    qtbot.wait(100)
    w.close()


def test_window_refuses_three_dimensional_data(tmp_path, capsys):
    from svmviz.cli import main

    p = tmp_path / "d3.csv"
    p.write_text("a,b,c,l\n0,0,0,x\n1,1,1,y\n")
    assert main([str(p)]) == 2
    assert "draws 2-D data" in capsys.readouterr().err
