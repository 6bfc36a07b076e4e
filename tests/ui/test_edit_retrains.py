"""An edit retrains: after a run ended and while paused, the plane shows the edited
problem's model at the run's point, never w = 0; while playing, the edited problem plays
from its start; a file opened starts at w = 0; Run (Ctrl+R) leaves the chosen speed for the
next Play."""

from dataclasses import replace

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6.QtCore import Qt

from svmviz.core.files.scenario import list_scenarios
from svmviz.core.training.pace import CHOICES, INSTANT


def frames_of(w):
    """Every snapshot the window takes from now on."""
    seen = []
    w.controller.snapshot_ready.connect(seen.append)
    return seen


def boundary_drawn(w) -> bool:
    return np.isfinite(w.plot.boundary.getData()[0]).sum() == 2


def test_an_edit_after_the_end_shows_the_edited_problem_at_its_end(make_window, wait_frame):
    w = make_window(iterations=3000)
    w.run_to_budget()
    before = wait_frame(w, lambda s: s.status == "budget" and not w.playing)
    seen = frames_of(w)
    w.session.set_config(replace(w.session.config, lam=1.0))  # the λ slider's edit
    gen = w.controller.generation
    s = wait_frame(w, lambda s: s.generation == gen)
    new = [f for f in seen if f.generation == gen]
    assert [f.t for f in new] == [3000] * len(new), "never a frame of w = 0"
    assert s.status == "budget"
    assert s.model.lam == 1.0
    assert s.history["norm"][-1] < 0.5 * before.history["norm"][-1]  # more regularization
    assert boundary_drawn(w)
    assert not w.playing  # it ended: it stays at its end

    w.session.move_points([0], 3.0, 3.0)  # a point dragged away: the same
    gen = w.controller.generation
    s = wait_frame(w, lambda s: s.generation == gen)
    assert (s.t, s.status) == (3000, "budget")


def test_an_edit_while_stepping_shows_the_same_step_of_the_edited_problem(
    qtbot, make_window, wait_frame
):
    w = make_window(iterations=3000, active=True)
    for _ in range(3):
        qtbot.keyClick(w, Qt.Key.Key_Right)
    wait_frame(w, lambda s: s.t == 3)
    w.session.add_point(0.5, 0.5)
    gen = w.controller.generation
    s = wait_frame(w, lambda s: s.generation == gen)
    assert s.t == 3
    assert s.step is not None and s.step.t == 3  # the inspector explains step 3 again
    assert w.step_panel.isVisibleTo(w)


def test_an_edit_while_paused_mid_run_keeps_the_iteration(make_window, wait_frame):
    w = make_window(iterations=10**6)
    w.controls.step_n.setValue(20000)
    w.advance(20000)
    wait_frame(w, lambda s: s.t == 20000)
    w.session.set_config(replace(w.session.config, lam=0.1))
    gen = w.controller.generation
    assert wait_frame(w, lambda s: s.generation == gen).t == 20000
    assert boundary_drawn(w)


def test_an_edit_while_playing_plays_the_edited_problem_from_its_start(make_window, wait_frame):
    """(its first frame at once: no catch-up delays a frame while the class watches)"""
    w = make_window(iterations=10**6, play=True)
    w.state.set_speed(INSTANT)
    wait_frame(w, lambda s: s.t > 20000)
    seen = frames_of(w)
    w.session.add_point(0.0, 0.0)
    gen = w.controller.generation
    wait_frame(w, lambda s: s.generation == gen)
    assert w.playing
    assert min(f.t for f in seen if f.generation == gen) < 20000
    w.toggle_play()


def test_undo_after_one_class_is_left_goes_on_from_the_run(make_window, wait_frame):
    w = make_window(iterations=2000)
    w.advance(50)
    wait_frame(w, lambda s: s.t == 50)
    y = w.session.points.y
    w.session.delete_points(np.flatnonzero(y == y.max()))  # one class left: no model
    assert w.snapshot is None
    w.session.undo()
    gen = w.controller.generation
    assert wait_frame(w, lambda s: s.generation == gen).t == 50


def test_reset_and_a_file_opened_start_at_w_zero(make_window, wait_frame):
    w = make_window(iterations=2000)
    w.run_to_budget()
    wait_frame(w, lambda s: s.status == "budget" and not w.playing)
    w.reset()  # R
    assert wait_frame(w, lambda s: s.generation == w.controller.generation).t == 0
    w.run_to_budget()
    wait_frame(w, lambda s: s.status == "budget" and not w.playing)
    w.files.open_path(list_scenarios()[1])
    gen = w.controller.generation
    assert wait_frame(w, lambda s: s.generation == gen).t == 0
    # an edit of the scenario, before any training: still w = 0, waiting for Play
    w.session.set_config(replace(w.session.config, lam=0.1))
    gen = w.controller.generation
    assert wait_frame(w, lambda s: s.generation == gen).t == 0


def test_run_plays_instantly_once_and_the_chosen_speed_stays(qtbot, make_window, wait_frame):
    w = make_window(iterations=3000, active=True)
    w.controls.speed_combo.setCurrentIndex(2)
    qtbot.keyClick(w, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert w.controller.speed == INSTANT
    assert w.controls.speed_combo.currentIndex() == 2  # the choice is still shown
    wait_frame(w, lambda s: s.status == "budget" and not w.playing)
    assert w.state.speed == CHOICES[2]
    assert w.controller.speed == CHOICES[2]  # the next Play's
    qtbot.keyClick(w, Qt.Key.Key_Space)
    assert w.playing and w.controller.speed == CHOICES[2]
    w.toggle_play()
