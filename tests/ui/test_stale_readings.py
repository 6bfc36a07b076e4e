"""No stale reading: the Theory tab shows the current data's numbers (at w = 0 too), the hover
readout goes when the mouse leaves the plane, and a step's marks go when the run ends."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.files.scenario import list_scenarios
from svmviz.core.training.pace import INSTANT, Speed


def legend(w) -> list[str]:
    return [label for _, label in w.plot.legend_labels()]


def scenario(word):
    return next(p for p in list_scenarios() if word in p.stem)


def test_the_theory_tab_follows_the_scenario_opened(qtbot, make_window, wait_frame):
    w = make_window(iterations=1000, show=True)
    w.docks["theory"].raise_()
    w.files.open_path(scenario("step-size"))  # diverges: a huge ‖w‖
    w.run_to_budget()
    wait_frame(w, lambda s: s.status == "diverged")
    qtbot.waitUntil(lambda: "e+" in w.theory.text.text(), timeout=10000)
    huge = w.theory.text.text()
    w.files.open_path(scenario("lambda-sweep"))  # 120 points, not yet trained
    wait_frame(w, lambda s: s.generation == w.controller.generation and s.t == 0)
    n = len(w.session.points)
    assert n == 120
    qtbot.waitUntil(lambda: f"√{n})" in w.theory.text.text(), timeout=10000)
    text = w.theory.text.text()
    assert text != huge
    assert "e+" not in text  # nothing of the diverged run
    assert "= <b>0</b>" in text  # the Rademacher term of w = 0


def test_the_theory_tab_says_when_there_is_no_model(qtbot, make_window, wait_frame):
    w = make_window(iterations=500, show=True)
    w.docks["theory"].raise_()
    qtbot.waitUntil(lambda: "Rademacher" in w.theory.text.text(), timeout=10000)
    y = w.session.points.y
    w.session.delete_points(np.flatnonzero(y == y.max()))
    assert "Rademacher" not in w.theory.text.text()
    assert "two classes" in w.theory.text.text()


def test_the_hover_readout_goes_when_the_mouse_leaves(qtbot, make_window, wait_frame):
    w = make_window(iterations=500, show=True)
    w.advance(100)
    wait_frame(w, lambda s: s.t == 100)
    viewport = w.plot.viewport()
    inside = viewport.rect().center()
    QtGui.QCursor.setPos(viewport.mapToGlobal(inside))
    w.frames.show_hover((0.5, 0.5))
    assert w.hover.text.isVisible()
    QtWidgets.QApplication.sendEvent(viewport, QtCore.QEvent(QtCore.QEvent.Type.Leave))
    assert not w.hover.text.isVisible()
    assert w.hover.position is None

    # the mouse gone without a Leave event: the next refresh of the readings hides it
    w.frames.show_hover((0.5, 0.5))
    assert w.hover.text.isVisible()
    QtGui.QCursor.setPos(viewport.mapToGlobal(QtCore.QPoint(-50, -50)))
    w.advance(1)
    wait_frame(w, lambda s: s.t == 101)
    qtbot.waitUntil(lambda: not w.hover.text.isVisible(), timeout=5000)


def test_a_steps_marks_go_when_the_run_ends(qtbot, make_window, wait_frame):
    w = make_window(iterations=30, algorithm="gd", show=True)
    w.state.set_speed(Speed(1))  # every frame a step explained, to the end
    w.toggle_play()
    qtbot.waitUntil(lambda: w.step_overlay.sampled.isVisible(), timeout=10000)
    assert "with a loss term in this step" in legend(w)  # what the squares are
    snap = wait_frame(w, lambda s: s.status == "budget" and not w.playing)
    assert snap.step is None
    assert not w.step_overlay.sampled.isVisible()
    assert "with a loss term in this step" not in legend(w)
    # stepping to the end still explains the last step
    w.state.set_speed(INSTANT)
    w.reset()
    wait_frame(w, lambda s: s.t == 0)
    w.controls.step_n.setValue(30)
    w.advance(30)
    snap = wait_frame(w, lambda s: s.t == 30)
    assert snap.step is not None
    assert w.step_overlay.sampled.isVisible()
