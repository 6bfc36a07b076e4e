"""A lesson's sequence: presentation mode for a projector, the keys after a panel's control,
the step inspector after Clear and Step N, the curves' axes from one scenario to the next."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import Qt

from svmviz.core.files.scenario import list_scenarios


@pytest.fixture
def window(make_window):
    return make_window(iterations=2000, active=True)


def pixels(widget) -> int:
    return QtGui.QFontInfo(widget.font()).pixelSize()


def test_presentation_shows_the_lesson_large_and_no_tables(qtbot, wait_frame, window):
    w = window
    w.files.open_path(list_scenarios()[0])
    wait_frame(w, lambda s: s.t == 0)
    qtbot.keyClick(w, Qt.Key.Key_F11)
    bar = w.presentation.bar
    assert w.isFullScreen()
    assert bar.isVisible()
    assert w.caption.isVisible()
    assert not w.docks["points"].isVisible()
    assert not w.point_table.isVisible()
    assert not w.curves.loss_plot.isVisible()
    assert w.curves.objective_plot.isVisible()
    assert not w.menuBar().isVisible()
    assert not w.statusBar().isVisible()
    # readable from the back of a room: nothing under 18 px
    for widget in (w.caption, bar.status, bar.step):
        assert pixels(widget) >= 18, widget
    tick = w.curves.objective_plot.getAxis("left").style["tickFont"]
    assert QtGui.QFontInfo(tick).pixelSize() >= 18
    assert QtGui.QFontInfo(QtWidgets.QApplication.font()).pixelSize() >= 18  # menus, F1
    # a presenter's clicker: PageDown steps (explained below the plane), PageUp goes back
    qtbot.keyClick(w, Qt.Key.Key_PageDown)
    wait_frame(w, lambda s: s.t == 1 and s.step is not None)
    qtbot.waitUntil(lambda: bar.step.text().startswith("Step 1:"), timeout=10000)
    assert bar.status.text().startswith("t = 1")
    qtbot.keyClick(w, Qt.Key.Key_PageDown)
    wait_frame(w, lambda s: s.t == 2)
    qtbot.keyClick(w, Qt.Key.Key_PageUp)
    wait_frame(w, lambda s: s.t == 1)
    qtbot.keyClick(w, Qt.Key.Key_R)  # restart, in presentation mode too
    wait_frame(w, lambda s: s.t == 0)
    qtbot.keyClick(w, Qt.Key.Key_Space)
    assert w.playing
    w.toggle_play()
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    assert not w.isFullScreen()
    assert not bar.isVisible()
    assert w.menuBar().isVisible()
    assert w.solver_dock.isVisible()
    assert pixels(w.caption) == pixels(w.solver_dock.widget())  # the window's size again


def test_space_and_r_reach_the_window_after_a_panel_control(qtbot, window):
    w = window
    assert QtWidgets.QApplication.focusWidget() is w.plot  # from the start: Space plays
    combo = w.panel.findChildren(QtWidgets.QComboBox)[0]
    combo.setFocus()
    combo.activated.emit(combo.currentIndex())  # a choice made with the mouse
    assert QtWidgets.QApplication.focusWidget() is w.plot
    check = w.panel.findChildren(QtWidgets.QCheckBox)[0]
    check.setFocus()
    check.click()
    check.click()
    assert QtWidgets.QApplication.focusWidget() is w.plot
    qtbot.keyClick(QtWidgets.QApplication.focusWidget(), Qt.Key.Key_Space)
    assert w.playing
    qtbot.keyClick(QtWidgets.QApplication.focusWidget(), Qt.Key.Key_Space)
    assert not w.playing
    field = w.panel.findChildren(QtWidgets.QLineEdit)[0]
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert QtWidgets.QApplication.focusWidget() is w.plot


def test_step_inspector_after_step_n_and_after_clear(qtbot, wait_frame, window):
    w = window
    w.advance(25)
    wait_frame(w, lambda s: s.t == 25)
    assert w.snapshot.step is not None
    assert w.snapshot.step.t == 25  # the last step explained
    assert "Step t = 25" in w.step_panel.text()
    w.session.clear()
    qtbot.waitUntil(lambda: w.snapshot is None, timeout=10000)
    assert "Step t" not in w.step_panel.text()
    assert "Press Step" in w.step_panel.text()
    assert not w.step_overlay.vectors["w_before"].isVisible()


def test_the_objective_axis_starts_afresh_after_a_divergence(wait_frame, window):
    w = window
    diverging = next(p for p in list_scenarios() if "step-size" in p.stem)
    w.files.open_path(diverging)
    wait_frame(w, lambda s: s.t == 0)
    w.run_to_budget()
    wait_frame(w, lambda s: s.status not in ("ready", "running"), timeout=60000)
    w.frames.show_curves()
    top = w.curves.objective_plot.getViewBox().viewRange()[1][1]
    w.files.open_path(list_scenarios()[0])
    wait_frame(w, lambda s: s.t == 0)
    w.frames.redraw_readings()
    lo, hi = w.curves.objective_plot.getViewBox().viewRange()[1]
    assert hi < top
    assert hi <= 2.1  # log10: the default 0.01 … 10 (with padding)
    assert np.isfinite([lo, hi]).all()


def test_marks_agree_with_the_training_error_at_w_0(wait_frame, window):
    """At w = 0 every f is 0: the regions paint the first class, the training error counts
    the other class's points as errors, and the plane marks exactly those."""
    w = window
    w.reset()
    wait_frame(w, lambda s: s.t == 0)
    marked = len(w.plot.wrong.getData()[0])
    y = w.session.points.y
    assert marked == int(np.count_nonzero(y == y.max())) > 0
    w.advance(1)
    wait_frame(w, lambda s: s.t == 1)
    error = w.snapshot.history["error"][-1]
    assert len(w.plot.wrong.getData()[0]) == round(error * len(y))


def test_the_status_line_follows_every_frame_in_slow_motion(qtbot, window):
    """Stepping by the pace or N per frame, the status line's iteration is the frame's (it
    lagged the step inspector by up to the curves' refresh)."""
    w = window
    w.state.set_speed(1)
    seen = []
    w.controller.snapshot_ready.connect(lambda s: seen.append((s.t, w.status.text())))
    w.toggle_play()
    qtbot.waitUntil(lambda: len(seen) >= 8, timeout=30000)
    w.toggle_play()
    for t, text in seen:
        assert text.startswith(f"iteration {t} "), (t, text)


def arrow_click(qtbot, spin, up=True):
    """A click on a spin box's up (or down) arrow."""
    from PySide6.QtCore import QPoint

    spin.window().activateWindow()
    y = spin.height() // 4 if up else 3 * spin.height() // 4
    qtbot.mouseClick(spin, Qt.MouseButton.LeftButton, pos=QPoint(spin.width() - 6, y))


@pytest.mark.parametrize("which", ["test set", "step N", "iterations"])
def test_space_and_the_arrows_play_and_step_from_a_spin_box_whose_arrows_were_clicked(
    qtbot, wait_frame, window, which
):
    w = window
    if which == "test set":
        w.docks["generalization"].show()
        w.docks["generalization"].raise_()
    spin = {
        "test set": w.generalization.fraction,
        "step N": w.controls.step_n,
        "iterations": w.panel.iterations,
    }[which]
    qtbot.waitUntil(spin.isVisible)
    arrow_click(qtbot, spin)
    qtbot.waitUntil(spin.hasFocus)
    value, text = spin.value(), spin.text()
    wait_frame(w)
    qtbot.keyClick(spin, Qt.Key.Key_Space)
    assert w.playing
    assert (spin.value(), spin.text()) == (value, text)  # nothing typed into it
    qtbot.keyClick(spin, Qt.Key.Key_Space)
    assert not w.playing
    for key, action in ((Qt.Key.Key_Right, w.controls.step), (Qt.Key.Key_Left, w.controls.back)):
        with qtbot.waitSignal(action.triggered, timeout=1000):
            qtbot.keyClick(spin, key)
    assert (spin.value(), spin.text()) == (value, text)
    # typed into, it is a text field until Enter: Space and the arrows are its own
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "2")
    keys = [w.controls.play.triggered, w.controls.step.triggered, w.controls.back.triggered]
    with qtbot.assertNotEmitted(keys[0]), qtbot.assertNotEmitted(keys[1]):
        with qtbot.assertNotEmitted(keys[2]):
            for key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Space):
                qtbot.keyClick(spin, key)
    assert not w.playing
    qtbot.keyClick(spin, Qt.Key.Key_Escape)  # and Escape leaves it
    assert QtWidgets.QApplication.focusWidget() is w.plot
    qtbot.keyClick(w.plot, Qt.Key.Key_Space)
    assert w.playing


def test_escape_leaves_a_field_for_the_plane(qtbot, window):
    w = window
    field = w.panel.lam_field
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    qtbot.keyClicks(field, "5")
    qtbot.keyClick(field, Qt.Key.Key_Escape)
    assert QtWidgets.QApplication.focusWidget() is w.plot
    assert field.text() == "0.01"  # typing cancelled: what is in force
    assert w.session.config.lam == 0.01
    combo = w.panel.combos["algorithm"]
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Escape)
    assert QtWidgets.QApplication.focusWidget() is w.plot
