"""A train/test split in the window: its curves, click to load, and closing mid-sweep."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import TEST, TRAIN, Split


def test_window_split_curves_and_click_to_load(qtbot, make_window, wait_frame, moons):
    w = make_window(moons, kernel=Kernel("rbf", gamma=1.0), iterations=3000, show=True)
    panel = w.generalization
    # without a test set the curves say what to do
    panel.compute_learning_curve()
    assert "Hold out a test set" in panel.message.text()
    panel.fraction.setValue(30)  # the spin box writes the session's split
    assert w.session.split.fraction == pytest.approx(0.3)
    wait_frame(w, lambda s: s.test_error is not None)
    parts = w.session.parts()
    n_test = int(np.sum(parts == TEST))
    # test points are drawn hollow, in their own scatters, and are not ringed
    drawn = sum(len(s.data) for s in w.plot.class_points.test_scatters)
    assert drawn == n_test
    assert sum(len(s.data) for s in w.plot.class_points.scatters) == len(moons.y) - n_test
    w.run_to_budget()
    wait_frame(w, lambda s: s.status == "budget")
    qtbot.waitUntil(lambda: "test error" in w.status.text(), timeout=5000)
    assert w.curves.test_error.xData is not None
    assert len(w.curves.test_error.xData) > 3
    # the learning curve, in the background, then a click on its third point
    with qtbot.waitSignal(panel.runner.finished, timeout=120000):
        panel.compute_learning_curve()
    values = panel.learning.values
    assert len(values) >= 5
    assert "click a point" in panel.message.text()
    panel.learning.picked.emit(float(values[2]))
    assert w.session.split.size == int(values[2])
    # the configuration loaded is trained to where the run was (its end), not left at w = 0
    wait_frame(w, lambda s: s.generation == w.controller.generation and s.t == 3000)
    assert int(np.sum(w.session.parts() == TRAIN)) == int(values[2])
    assert sum(len(s.data) for s in w.plot.class_points.unused_scatters) > 0
    assert panel.learning.opacity() == 1.0  # the size is the curve's own knob: not stale
    # the γ sweep; a click loads that γ into the solver panel
    panel.param.setCurrentIndex(panel.param.findData("gamma"))
    with qtbot.waitSignal(panel.runner.finished, timeout=120000):
        panel.compute_sweep()
    gamma = float(panel.sweep.values[0])
    panel.sweep.picked.emit(gamma)
    assert w.session.config.kernel.gamma == pytest.approx(gamma)
    assert w.panel.config().kernel.gamma == pytest.approx(gamma)
    assert panel.sweep.opacity() == 1.0
    # an edit of the points makes both curves stale
    w.session.add_point(0.0, 0.0)  # (the panel refreshes after the event that edited)
    qtbot.waitUntil(lambda: panel.learning.opacity() < 1 and panel.sweep.opacity() < 1)
    assert "Faded" in panel.message.text()
    # no test set again: plain training on every point
    panel.fraction.setValue(0)
    panel.size.setValue(1)  # "all"
    wait_frame(w, lambda s: s.test_error is None)
    assert sum(len(s.data) for s in w.plot.class_points.test_scatters) == 0


def test_closing_the_window_mid_sweep_stops_the_curve_thread(qtbot, make_window, moons):
    """The fits check for a stop between chunks: close() joins the curve thread (the
    conftest fixture fails the test if a thread is left running)."""
    w = make_window(moons, algorithm="gd", iterations=10**6, show=True)
    w.session.set_split(Split(0.3, seed=1))
    w.generalization.compute_learning_curve()
    qtbot.waitUntil(lambda: w.generalization.runner.running, timeout=5000)
    qtbot.wait(200)  # inside the first (long) fit
    w.close()
    assert not w.generalization.runner._thread.isRunning()
