"""The window: it opens, trains in its worker thread, draws, resets and closes cleanly."""

import html
import re

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.kernels import Kernel
from svmviz.core.training.pace import INSTANT


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf")])
def test_step_play_reset_close(qtbot, make_window, wait_frame, kernel):
    w = make_window(kernel=kernel, iterations=3000, show=True)
    w.advance(1)
    wait_frame(w, lambda s: s.t == 1)
    assert "iteration 1" in w.status.text()
    w.state.set_speed(INSTANT)  # (the pace has its own tests)
    w.toggle_play()
    assert w.controls.play.text() == "Pause"
    wait_frame(w, lambda s: s.status == "budget")
    assert w.controls.play.text() == "Play"
    x, y = w.plot.boundary.getData()
    assert np.isfinite(x).sum() >= 2  # the boundary is drawn (a segment for a linear model)
    # the exact optimum, computed beside the training, is in the status once it arrives
    qtbot.waitUntil(lambda: "gap to the optimum" in w.status.text(), timeout=30000)
    w.reset()
    wait_frame(w, lambda s: s.t == 0)
    w.toggle_play()


def test_hard_margin_on_overlapping_data_says_why(qtbot, make_window, blobs2):
    """No model, and the status line says why; Play then trains nothing: no frame comes, and
    the reason stays on the status line."""
    w = make_window(blobs2, margin="hard", first_frame=False)
    qtbot.waitUntil(lambda: "Cannot train" in w.status.text(), timeout=30000)
    assert "not separable" in w.status.text()
    assert w.snapshot is None
    w.toggle_play()
    assert not w.controller.playing, "Play started a job that cannot train"
    assert w.controls.play.text() == "Play"
    qtbot.wait(100)
    assert w.snapshot is None, "a frame of a model that cannot be trained"
    assert "not separable" in w.status.text()


def test_window_refuses_three_dimensional_data(tmp_path, capsys):
    from svmviz.cli import main

    p = tmp_path / "d3.csv"
    p.write_text("a,b,c,l\n0,0,0,x\n1,1,1,y\n")
    assert main([str(p)]) == 2
    assert "draws 2-D data" in capsys.readouterr().err


def click(qtbot, w, x, y, button=None):
    """A mouse click on the plot's viewport at data coordinates (x, y)."""
    from PySide6.QtCore import QPoint, QPointF, Qt

    vb = w.plot.getPlotItem().getViewBox()
    scene = vb.mapViewToScene(QPointF(x, y))
    pos = w.plot.mapFromScene(scene)
    qtbot.mouseClick(
        w.plot.viewport(), button or Qt.MouseButton.LeftButton, pos=QPoint(pos.x(), pos.y())
    )


def test_clicks_add_and_remove_points_with_undo(qtbot, make_window, wait_frame):
    from PySide6.QtCore import Qt

    w = make_window(None, iterations=2000, active=True)  # (shortcuts need it active)
    assert "at least two classes" in w.status.text()
    click(qtbot, w, 1.0, 0.5)
    assert len(w.session.points) == 1
    np.testing.assert_allclose(w.session.points.X[0], [1.0, 0.5], atol=0.05)
    assert w.session.points.y.tolist() == [0]
    qtbot.keyClick(w, Qt.Key.Key_2)
    assert w.session.current_class == 1
    click(qtbot, w, -1.0, -0.5)
    assert w.session.points.y.tolist() == [0, 1]
    # two classes: training starts from w = 0 and draws a boundary after a few steps
    wait_frame(w)
    w.advance(50)
    wait_frame(w, lambda s: s.t == 50)
    assert np.isfinite(w.plot.boundary.getData()[0]).sum() == 2  # one segment
    click(qtbot, w, -1.02, -0.48, Qt.MouseButton.RightButton)  # remove the nearest point
    assert len(w.session.points) == 1
    assert "at least two classes" in w.status.text()
    qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(w.session.points) == 2
    wait_frame(w, lambda s: s.t == 50)  # the run goes on where it was


def test_editing_while_playing_restarts_and_keeps_playing(make_window, wait_frame):
    w = make_window(iterations=10**6, play=True, show=True)
    w.state.set_speed(INSTANT)
    wait_frame(w, lambda s: s.t > 1000)
    gen = w.controller.generation
    w.session.add_point(0.0, 0.0)
    assert w.controller.generation == gen + 1
    assert w.playing
    wait_frame(w, lambda s: s.generation == gen + 1 and s.t > 100)
    assert len(w.snapshot.history["objective"]) == w.snapshot.t


def test_regions_follow_the_view(make_window, wait_frame):
    w = make_window(iterations=1000, show=True)
    w.plot.setRange(xRange=(-10, 10), yRange=(-8, 8), padding=0)
    wait_frame(w, lambda s: s.frame.extent[0] <= -9.9, timeout=5000)
    x0, x1, y0, y1 = w.snapshot.frame.extent
    (vx0, vx1), (vy0, vy1) = w.plot.getPlotItem().getViewBox().viewRange()
    assert (x0, x1, y0, y1) == pytest.approx((vx0, vx1, vy0, vy1))


def test_generate_replaces_points_undoably(make_window, wait_frame, monkeypatch):
    from PySide6 import QtWidgets

    w = make_window(iterations=1000)
    before = len(w.session.points)

    def accept_spirals(dialog):  # instead of the modal exec(): fill in and press OK
        dialog.kind.setCurrentText("spirals")
        dialog.n.setValue(90)
        dialog.classes.setValue(3)
        return QtWidgets.QDialog.DialogCode.Accepted

    monkeypatch.setattr(QtWidgets.QDialog, "exec", accept_spirals)
    w.generate_dialog()
    assert len(w.session.points) == 90
    assert set(w.session.points.y.tolist()) == {0, 1, 2}
    # three classes: the multiclass problem, with a region per class
    snap = wait_frame(w, lambda s: s.generation == w.controller.generation and s.t == 0)
    assert not snap.model.binary
    assert len(snap.model.classes) == 3
    w.session.undo()
    assert len(w.session.points) == before


def test_step_n_run_progress_and_error_marks(make_window, wait_frame):
    w = make_window(iterations=5000)
    w.controls.step_n.setValue(250)
    w.advance(w.controls.step_n.value())
    wait_frame(w, lambda s: s.t == 250)
    # the timeline is the one progress display: t of the budget
    assert w.timeline.value() == 250
    assert w.timeline.maximum() == 5000
    assert w.timeline.label.text() == "t = 250 of 5,000"
    w.run_to_budget()
    wait_frame(w, lambda s: s.t == 5000)
    assert w.timeline.value() == 5000
    margins = w.snapshot.frame.margins
    assert len(w.plot.wrong.getData()[0]) == int(np.sum(margins < 0)) > 0  # demo data overlap
    assert len(w.curves.loss_curves["error"].getData()[0]) > 0


def _send(w, kind, x, y, buttons, modifiers=None):
    """A mouse event with its button state at data coordinates (x, y) on the plot viewport
    (QTest's mouseMove carries no buttons in Qt 6; pyqtgraph's own ui_testing does this)."""
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    vb = w.plot.getPlotItem().getViewBox()
    local = QPointF(w.plot.mapFromScene(vb.mapViewToScene(QPointF(x, y))))
    glob = QPointF(w.plot.viewport().mapToGlobal(local.toPoint()))
    types = {
        "press": QEvent.Type.MouseButtonPress,
        "move": QEvent.Type.MouseMove,
        "release": QEvent.Type.MouseButtonRelease,
    }
    button = Qt.MouseButton.NoButton if kind == "move" else Qt.MouseButton.LeftButton
    mods = modifiers or Qt.KeyboardModifier.NoModifier
    event = QMouseEvent(types[kind], local, glob, button, buttons, mods)
    QApplication.sendEvent(w.plot.viewport(), event)


def drag(qtbot, w, start, end, modifiers=None, steps=8):
    from PySide6.QtCore import Qt

    left = Qt.MouseButton.LeftButton
    qtbot.wait(100)  # the docks take their widths just after the window is first shown
    _send(w, "press", *start, left, modifiers)
    for k in range(1, steps + 1):
        f = k / steps
        x = start[0] + f * (end[0] - start[0])
        y = start[1] + f * (end[1] - start[1])
        _send(w, "move", x, y, left, modifiers)
        qtbot.wait(5)
    _send(w, "release", *end, Qt.MouseButton.NoButton, modifiers)


def test_drag_moves_a_point_as_one_undo_step(qtbot, make_window):
    from svmviz.core.data import Dataset

    data = Dataset.from_labels(np.array([[-1.0, 0.0], [1.0, 0.0], [0.0, 1.5]]), [0, 1, 1])
    w = make_window(data, iterations=1000, show=True)
    qtbot.waitExposed(w)
    drag(qtbot, w, (-1.0, 0.0), (-2.0, -1.0))
    np.testing.assert_allclose(w.session.points.X[0], [-2.0, -1.0], atol=0.05)
    np.testing.assert_allclose(w.session.points.X[1:], data.X[1:])  # the others stay
    w.session.undo()
    np.testing.assert_allclose(w.session.points.X[0], [-1.0, 0.0], atol=1e-9)
    assert not w.session.can_undo  # the whole drag was one step
    # a drag on empty plane pans the view instead
    before = w.plot.getPlotItem().getViewBox().viewRange()
    drag(qtbot, w, (2.5, 2.0), (1.5, 1.0))
    np.testing.assert_allclose(w.session.points.X, data.X)
    assert w.plot.getPlotItem().getViewBox().viewRange() != before


def test_band_selection_and_delete(qtbot, make_window):
    from PySide6.QtCore import Qt

    from svmviz.core.data import Dataset

    X = np.array([[-1.0, -1.0], [-0.8, -0.9], [1.0, 1.0], [1.2, 0.8]])
    w = make_window(Dataset.from_labels(X, [0, 0, 1, 1]), iterations=1000, show=True)
    qtbot.waitExposed(w)
    drag(qtbot, w, (-1.5, -1.5), (-0.5, -0.5), Qt.KeyboardModifier.ControlModifier)
    assert w.session.selection == (0, 1)
    assert len(w.plot.selection.getData()[0]) == 2
    w.controls.delete.trigger()
    np.testing.assert_allclose(w.session.points.X, X[2:])
    w.session.undo()
    np.testing.assert_allclose(w.session.points.X, X)


def test_loss_axis_ignores_the_first_iterations():
    from svmviz.ui.views.curves import loss_axis_top as _loss_axis_top

    t = np.arange(1, 1001, dtype=float)
    loss = np.where(t < 8, 22.0, 0.3)
    width = np.full_like(t, 1.2)
    assert _loss_axis_top(t, loss, width) == pytest.approx(1.32)
    assert _loss_axis_top(t[:5], loss[:5]) == pytest.approx(24.2)  # only early ones: all shown


def test_warm_start_option_goes_on_from_the_current_model(make_window, wait_frame):
    w = make_window(iterations=10**6)
    w.advance(2000)
    wait_frame(w, lambda s: s.t == 2000)
    w.panel.warm.setChecked(True)
    w.session.add_point(0.3, 0.3)
    wait_frame(w, lambda s: s.generation == w.controller.generation)
    assert w.snapshot.t == w.snapshot.t0 == 2000
    w.advance(10)
    wait_frame(w, lambda s: s.t == 2010)
    assert "warm start at t = 2000" in w.status.text()
    w.panel.warm.setChecked(False)
    w.session.add_point(0.2, 0.3)  # the default again: retrained from w = 0 to t
    wait_frame(w, lambda s: s.generation == w.controller.generation)
    assert (w.snapshot.t, w.snapshot.t0) == (2010, 0)


def test_kernel_rings_grow_with_alpha(make_window, wait_frame, moons):
    from svmviz.ui.plane.items import RING_MAX, RING_MIN

    w = make_window(moons, kernel=Kernel("rbf"), iterations=3000)
    w.advance(3000)
    wait_frame(w, lambda s: s.t == 3000)
    alpha = w.snapshot.alpha
    sizes = w.plot.rings.data["size"]
    assert len(sizes) == len(w.snapshot.frame.support) > 0  # by y f ≤ 1, sized by α
    assert sizes.min() >= RING_MIN
    assert sizes.max() == RING_MAX  # the largest α: the largest ring
    x, y = w.plot.rings.getData()
    biggest = moons.X[np.argmax(alpha)]
    at = np.flatnonzero((x == biggest[0]) & (y == biggest[1]))
    assert at.size == 1
    assert sizes[at[0]] == RING_MAX  # the largest α has the largest ring
    legend = "".join(label.text for _, label in w.plot.legend.items)
    assert "support vectors (y·f ≤ 1), larger: larger α<sub>i</sub>" in legend


def test_closing_while_training_at_full_speed_stops_the_thread(make_window, wait_frame):
    from svmviz.app.worker import running_threads

    w = make_window(iterations=10**7, play=True)
    w.state.set_speed(INSTANT)
    w.show()
    wait_frame(w, lambda s: s.t > 1000)
    assert running_threads()
    w.close()
    assert running_threads() == []


def test_menus_reach_the_actions_and_quit_closes(qtbot, make_window, monkeypatch):
    from PySide6 import QtWidgets
    from PySide6.QtCore import Qt

    w = make_window(iterations=1000, active=True)
    menus = {a.text().replace("&", ""): a.menu() for a in w.menuBar().actions()}
    assert set(menus) == {"File", "Edit", "Training", "View", "Help"}
    training = {a.text() for a in menus["Training"].actions()}
    assert {"Play", "Step", "Step N", "Run", "Reset", "Warm start after edits"} <= training
    warm = next(a for a in menus["Training"].actions() if a.text().startswith("Warm"))
    warm.trigger()
    assert w.panel.warm.isChecked()
    assert w.state.warm_start  # one setting, two controls
    shown = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "information", lambda *a: shown.append(a[2]))
    qtbot.keyClick(w, Qt.Key.Key_F1)
    assert "Space: play / pause" in shown[0]
    # an empty misclassified set keeps its legend sample visible (a hidden item's sample is
    # drawn as pyqtgraph's "invisible" eye)
    assert w.plot.wrong.isVisible()
    qtbot.keyClick(w, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert not w.isVisible()


def test_a_click_on_the_plane_gives_the_keys_back_to_the_window(qtbot, make_window):
    from PySide6 import QtWidgets
    from PySide6.QtCore import Qt

    w = make_window(iterations=10**6, active=True)
    w.panel.lam_field.setFocus()
    qtbot.waitUntil(lambda: w.panel.lam_field.hasFocus())
    click(qtbot, w, 2.5, 2.5)  # a point, and the focus leaves the field
    assert not w.panel.lam_field.hasFocus()
    focus = QtWidgets.QApplication.focusWidget()
    assert focus is w.plot
    qtbot.keyClick(focus, Qt.Key.Key_Space)
    assert w.playing
    qtbot.keyClick(focus, Qt.Key.Key_Right)  # a step pauses
    assert not w.playing
    qtbot.keyClick(focus, Qt.Key.Key_3)
    assert w.session.current_class == 2


def test_objective_axis_is_whole_decades_and_at_least_three():
    from svmviz.ui.views.curves import decades

    assert decades(0.12, 9.0) == (-2.0, 1.0)
    assert decades(0.003, 250.0) == (-3.0, 3.0)
    assert decades(1.0, 1.0) == (-2.0, 1.0)


def test_unchanged_marks_are_not_set_again(make_window, wait_frame):
    w = make_window(iterations=2000)
    w.advance(2000)
    wait_frame(w, lambda s: s.t == 2000)
    before = w.plot.rings.data
    w.plot.draw_frame(w.snapshot.frame, w.frames.region_colors, w.snapshot.alpha)
    assert w.plot.rings.data is before  # the same marks: the scatter is left alone
    first = w.snapshot
    w.reset()
    wait_frame(w, lambda s: s is not first and s.t == 0)
    # at w = 0 other points are in the margin; marks=False (full speed, between refreshes)
    # leaves the previous rings, marks=True draws the new ones
    w.plot.draw_frame(first.frame, w.frames.region_colors, first.alpha)
    rings = w.plot.rings.data
    w.plot.draw_frame(w.snapshot.frame, w.frames.region_colors, w.snapshot.alpha, marks=False)
    assert w.plot.rings.data is rings
    w.plot.draw_frame(w.snapshot.frame, w.frames.region_colors, w.snapshot.alpha, marks=True)
    assert w.plot.rings.data is not rings
    w.session.add_point(0.0, 0.0)  # other points: the marks are drawn anew
    wait_frame(w, lambda s: s.generation == w.controller.generation)
    assert w.plot.rings.data is not before


def test_step_inspector_shows_one_step_and_hides_while_playing(make_window, wait_frame):
    from svmviz.core.data import Dataset

    X = np.array([[1.0, 2.0], [2.0, 0.5], [-1.0, -1.5], [-2.0, 0.5]])
    w = make_window(
        Dataset.from_labels(X, ["a", "b", "a", "b"]),
        bias="none",
        average="last",
        iterations=10**6,
        show=True,
    )
    assert "Press Step" in w.step_panel.text()
    w.advance(5)
    wait_frame(w, lambda s: s.t == 5)
    assert w.snapshot.step.t == 5  # N steps: the last one explained
    w.advance(1)
    wait_frame(w, lambda s: s.t == 6)
    r = w.snapshot.step
    assert r is not None
    assert r.t == 6
    (i,) = r.samples
    text = w.step_panel.text()
    assert f"sample i = {i}" in text
    assert f"{r.eta:.4g}" in text
    assert "hinge term" in text
    assert "w<sub>t+1</sub> = (" in text
    assert w.step_overlay.sampled.isVisible()
    np.testing.assert_allclose(w.step_overlay.sampled.getData()[0], [X[i, 0]])
    # the vectors add up: the push starts where the shrink ends, and ends at w_t+1
    sx, sy = w.step_overlay.vectors["shrink"].getData()
    px, py = w.step_overlay.vectors["push"].getData()
    assert (sx[1], sy[1]) == pytest.approx((px[0], py[0]))
    k = w.step_overlay.scale
    assert (px[1], py[1]) == pytest.approx(tuple(k * r.w_after))
    # the view moving republishes the frame: the explanation stays
    w.plot.setRange(xRange=(-6, 6), yRange=(-5, 5), padding=0)
    wait_frame(w, lambda s: s.frame.extent[0] <= -5.9, timeout=5000)
    assert w.snapshot.step is r
    w.state.set_speed(INSTANT)
    w.toggle_play()
    wait_frame(w, lambda s: s.t > 100)
    assert w.snapshot.step is None
    assert not w.step_overlay.sampled.isVisible()
    assert "Press Step" in w.step_panel.text()


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf")])
def test_step_back_and_timeline_replay_earlier_iterates_exactly(make_window, wait_frame, kernel):
    w = make_window(kernel=kernel, iterations=10**5)
    seen = {}
    for n in (7, 1, 30, 1):
        w.advance(n)
        target = (w.snapshot.t if w.snapshot else 0) + n
        wait_frame(w, lambda s, target=target: s.t == target)
        seen[w.snapshot.t] = (w.snapshot.model, w.snapshot.history["objective"].copy())
    # the timeline spans the budget (its progress display) and shows where the run is
    assert sorted(seen) == [7, 8, 38, 39]
    assert w.timeline.maximum() == 10**5
    assert w.timeline.value() == 39
    w.step_back()
    wait_frame(w, lambda s: s.t == 38)
    for t in (38, 8, 7):
        if w.snapshot.t != t:
            w.timeline.setValue(t)
            wait_frame(w, lambda s, t=t: s.t == t)
        model, objective = seen[t]
        snap = w.snapshot
        for name in ("coef", "intercept", "dual_coef", "support_vectors"):
            a, b = getattr(snap.model, name), getattr(model, name)
            assert (a is None and b is None) or np.array_equal(a, b), name
        np.testing.assert_array_equal(snap.history["objective"], objective)
        assert snap.step is not None
        assert snap.step.t == t  # the step into t, explained
    assert w.timeline.maximum() == 10**5
    assert w.timeline.value() == 7


def test_hover_reads_f_and_names_the_largest_kernel_terms(make_window, wait_frame, moons):
    from PySide6.QtCore import QEvent, QPointF

    w = make_window(moons, kernel=Kernel("rbf"), iterations=2000, show=True)
    w.advance(2000)
    wait_frame(w, lambda s: s.t == 2000)
    scene = w.plot.view.mapViewToScene(QPointF(0.5, 0.25))
    w.plot.scene().sigMouseMoved.emit(scene)
    assert w.hover.text.isVisible()
    assert w.hover.links.isVisible()
    f = w.snapshot.model.decision_function([[0.5, 0.25]])[0]
    assert f"f(x) = {f:.3g}" in w.hover.text.toPlainText()
    x, _ = w.hover.links.getData()
    assert np.isfinite(x).sum() == 6  # three links, two ends each
    w.plot.leaveEvent(QEvent(QEvent.Type.Leave))
    assert not w.hover.text.isVisible()


def test_view_options_optimum_overlay_last_iterate_and_suboptimality(
    qtbot, make_window, wait_frame
):
    w = make_window(iterations=3000, show=True)
    w.advance(3000)
    wait_frame(w, lambda s: s.t == 3000 and s.reference is not None)
    # the exact optimum over the model: its boundary is where the reference model's f = 0
    assert not w.plot.optimum_boundary.isVisible()
    w.controls.optimum.trigger()
    assert w.plot.optimum_boundary.isVisible()
    x, y = w.plot.optimum_boundary.getData()
    ref = w.snapshot.reference.model
    pts = np.column_stack([x, y])[np.isfinite(x)]
    np.testing.assert_allclose(ref.decision_function(pts), 0.0, atol=1e-9)
    # the last iterate instead of the average: another model, the same telemetry
    averaged = w.snapshot.model
    w.controls.iterate.trigger()
    wait_frame(w, lambda s: s.iterate)
    assert not np.allclose(w.snapshot.model.coef, averaged.coef)
    qtbot.waitUntil(lambda: "last iterate" in w.status.text(), timeout=5000)
    # the suboptimality plot: F − F* and two guides through the same point
    w.controls.suboptimality.trigger()
    t, gap = w.curves.objective.getData()  # (log10 of both: the axes are logarithmic)
    obj = w.snapshot.history["objective"]
    assert 10 ** np.nanmax(gap) == pytest.approx(np.max(obj - w.snapshot.reference.objective))
    tp, gp = w.curves.guides["pegasos"].getData()
    ts, gs = w.curves.guides["sqrt"].getData()
    assert tp[0] == ts[0]
    assert gp[0] == pytest.approx(gs[0])
    assert gs[-1] - gs[0] == pytest.approx(0.5 * (ts[0] - ts[-1]))  # the 1/√t slope
    w.controls.suboptimality.trigger()
    assert w.curves.guides["sqrt"].getData()[0] is None  # no guides for the objective


def test_presentation_mode_toggles_and_restores(qtbot, make_window, wait_frame):
    from PySide6.QtCore import Qt

    w = make_window(iterations=2000, active=True)
    w.advance(500)
    wait_frame(w, lambda s: s.t == 500)
    size, font = w.plot.class_points.scatters[0].opts["size"], w.font().pointSize()

    def dock_text():  # the docks' plots follow the scale too
        return (
            w.histogram.getAxis("bottom").style["tickFont"],
            w.generalization.learning.getAxis("left").style["tickFont"],
            w.generalization.font().pointSize(),
        )

    before = dock_text()
    qtbot.keyClick(w, Qt.Key.Key_F11)
    assert w.isFullScreen()
    assert w.controls.presentation.isChecked()
    assert not w.solver_dock.isVisible()
    assert not w.step_dock.isVisible()
    assert not w.docks["points"].isVisible()  # no tables in front of a class
    assert w.font().pointSize() > font
    assert w.plot.class_points.scatters[0].opts["size"] > size
    assert w.plot.boundary.opts["pen"].widthF() > 3
    hist_font, curve_font, panel_font = dock_text()
    assert hist_font.pointSize() >= 14
    assert curve_font.pointSize() >= 14
    assert panel_font > before[2]
    qtbot.keyClick(w, Qt.Key.Key_Space)  # the demo keys still work
    assert w.playing
    w.toggle_play()
    qtbot.keyClick(w, Qt.Key.Key_F11)
    assert not w.isFullScreen()
    assert w.solver_dock.isVisible()
    assert w.font().pointSize() == font
    assert w.plot.class_points.scatters[0].opts["size"] == size
    assert dock_text()[0].pointSize() == 9
    assert dock_text()[2] == before[2]


def test_point_table_histogram_and_slack_segments(qtbot, make_window, wait_frame):
    w = make_window(iterations=3000, show=True)
    w.docks["points"].raise_()
    w.advance(3000)
    wait_frame(w, lambda s: s.t == 3000)
    model = w.point_table.model_
    margins = w.snapshot.frame.margins
    assert model.rowCount() == len(w.session.points)
    i = int(np.argmin(margins))  # the worst point: misclassified, slack 1 − z
    assert model.value(i, 2) == "training"
    assert model.value(i, 5) == pytest.approx(margins[i])
    assert model.value(i, 6) == pytest.approx(1 - margins[i])
    assert model.value(i, 8) == "support vector (misclassified)"
    # selecting rows marks the points in the plane
    proxy = w.point_table.model()
    w.point_table.selectRow(proxy.mapFromSource(model.index(i, 0)).row())
    assert w.session.selection == (i,)
    assert w.plot.selection.isVisible()
    w.docks["margins"].raise_()

    def counted():
        heights = w.histogram.bars.opts["height"]
        return heights is not None and np.sum(heights) == len(margins)

    qtbot.waitUntil(counted, timeout=5000)
    # slack: a segment per point with y f < 1, each of length ξ/‖w‖
    w.controls.slack.trigger()
    x, y = w.plot.slack.getData()
    xy = np.column_stack([x, y]).reshape(-1, 3, 2)[:, :2]
    n_slack = int(np.sum(margins < 1))
    assert len(xy) == n_slack
    norm = np.linalg.norm(w.snapshot.model.coef[0])
    lengths = np.linalg.norm(xy[:, 1] - xy[:, 0], axis=1)
    np.testing.assert_allclose(np.sort(lengths), np.sort((1 - margins[margins < 1]) / norm))


def test_garbage_is_collected_in_the_gui_thread_only(make_window):
    """Python's collector is switched off and run by a GUI-thread timer: the training thread
    never frees Qt objects (which hangs the process)."""
    import gc

    make_window(iterations=1000)
    assert not gc.isenabled()
    from svmviz.ui.window import launch

    assert launch._COLLECTOR.timer.isActive()


def test_svmviz_starting_freezes_the_imports_without_a_full_collection(qtbot, monkeypatch):
    """`svmviz` starting: what the imports made is frozen as it is (no garbage there, and a
    full pass over it delays the window); a window made otherwise collects first."""
    import gc

    from svmviz.ui.window import launch

    calls = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    for collect, expected in ((False, ["freeze"]), (True, ["collect", "freeze"])):
        monkeypatch.setattr(launch, "_COLLECTOR", None)
        calls.clear()
        launch.gui_thread_garbage_collection(collect=collect)
        assert calls == expected
        assert launch._COLLECTOR.timer.isActive() and not gc.isenabled()


def test_svmviz_starting_compiles_nothing_before_its_first_frame(qtbot, monkeypatch):
    """`svmviz` leaves the compiled loops to the controller, which prepares them once its
    first frame is up: their loading holds the GIL and would delay that frame."""
    from svmviz.core.command_line import window_parser
    from svmviz.core.solvers import Solver
    from svmviz.ui.window.launch import start

    called = []
    monkeypatch.setattr(Solver, "warm_up", staticmethod(lambda: called.append("warm_up")))
    _, w = start(window_parser().parse_args([]))
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.controller.snapshot_ready, timeout=30000):
        pass
    assert called == []


def test_theory_tab_evaluates_the_texts_results_on_the_data(qtbot, make_window, wait_frame):
    import math

    w = make_window(iterations=2000, show=True)
    w.docks["theory"].raise_()
    w.advance(2000)
    # the corollary's rows need ‖w*‖: the exact optimum arrives beside the training
    wait_frame(w, lambda s: s.t == 2000 and "Corollary 17.2" in w.theory.text.text())
    text = w.theory.text.text()
    X = w.session.points.X
    n, trace = len(X), float(np.sum(X**2))
    norm = float(w.snapshot.history["norm"][-1])
    assert f"{norm / math.sqrt(n) * math.sqrt(trace / n):.4g}" in text  # (B/√n)·√(tr K/n)
    assert "Corollary 17.2" in text
    assert "T ≥ B²ρ²/ε²" in text
    before = text
    w.theory.epsilon.setValue(0.05)  # half the ε: four times the iterations
    qtbot.waitUntil(lambda: w.theory.text.text() != before, timeout=5000)


def test_theory_tab_follows_the_loss_in_force(make_window, wait_frame):
    """One-class bounds its subgradients by R/ν (its module's bound); the squared hinge
    has no bound, and the tab says that neither result applies."""
    from svmviz.core.config import SolverConfig

    w = make_window(config=SolverConfig(problem="one-class", nu=0.5, iterations=500), show=True)
    w.docks["theory"].raise_()
    w.advance(500)
    wait_frame(w, lambda s: s.t == 500 and "Corollary 17.2" in w.theory.text.text())
    R = float(np.sqrt((w.session.points.X**2).sum(axis=1).max()))
    assert f"ρ = {R / 0.5:.3g}" in w.theory.text.text()
    assert "one-class SVM" in w.theory.text.text()
    w.session.set_config(SolverConfig(loss="squared_hinge", iterations=500))
    wait_frame(w, lambda s: "neither bound applies" in w.theory.text.text())
    assert "squared hinge loss" in w.theory.text.text()


def test_projection_ball_is_drawn_with_the_step(make_window, wait_frame):
    w = make_window(project=True, iterations=1000)
    w.advance(1)
    wait_frame(w, lambda s: s.t == 1)
    r = w.snapshot.step.radius
    assert r == pytest.approx(1 / np.sqrt(0.01))  # 1/√λ
    assert w.step_overlay.ball.isVisible()
    x, y = w.step_overlay.ball.getData()
    np.testing.assert_allclose(np.hypot(x, y), w.step_overlay.scale * r)
    assert "1/√λ" in w.step_panel.text()


def test_support_vector_count_over_time_for_kernels(make_window, wait_frame, moons):
    w = make_window(moons, kernel=Kernel("rbf"), iterations=400)
    for _ in range(3):
        t = w.snapshot.t
        w.advance(100)
        wait_frame(w, lambda s, t=t: s.t == t + 100)
    t, share = w.curves.support.getData()
    assert len(t) == 3
    m = len(moons.X)
    # the points on or inside the margin at the model shown (core.support), not nonzero α
    assert share[-1] == pytest.approx(len(w.snapshot.frame.support) / m)
    assert np.count_nonzero(w.snapshot.alpha) > len(w.snapshot.frame.support)
    w.step_back()  # back to 299: the count at 300 is dropped
    wait_frame(w, lambda s: s.t == 299)
    t_back = w.curves.support.getData()[0]  # log10 t: the axis is logarithmic
    assert len(t_back) == 3
    assert 10 ** t_back[-1] == pytest.approx(299)


def test_scatters_follow_appends_moves_deletes_and_undo(make_window):
    """Each class's scatter holds exactly its points after any edit (appends add spots to
    the scatter drawn, other edits set it anew)."""
    w = make_window(iterations=1000)
    s = w.session

    def check():
        for k in range(2):
            x, y = w.plot.class_points.scatters[k].getData()
            drawn = sorted(zip(x.tolist(), y.tolist(), strict=True))
            want = sorted(map(tuple, s.points.X[s.points.y == k].tolist()))
            assert drawn == want, k

    for k, xy in enumerate([(0.1, 0.2), (0.3, -0.4), (1.5, 1.5)]):
        s.add_point(*xy, k % 2)
        check()
    s.move_points([0, 61], 0.25, -0.5)
    check()
    s.delete_points([3, 60])
    check()
    for _ in range(3):
        s.undo()
        check()
    s.redo()
    check()


def test_the_status_line_shows_a_cut_message_whole_in_its_tooltip(qtbot):
    """A message wider than the status line ends in "…"; the tooltip shows it whole."""
    from svmviz.ui.panels.status import StatusLine

    line = StatusLine()
    qtbot.addWidget(line)
    line.resize(300, 30)
    line.show()
    text = "Cannot train: " + "a long message " * 20
    line.setText(text)
    assert line.text() == text
    assert line.is_cut() and line.shown_text().endswith("…")
    assert html.unescape(re.sub("<[^>]+>", "", line.toolTip())) == text
    line.setText("iteration 1")
    assert not line.is_cut() and line.toolTip() == ""


def test_default_play_shows_the_first_steps_frame_by_frame(qtbot, make_window):
    """The window's default speed is the log-t pace: many frames before t = 100 (they are
    counted, not timed), the first ones of single explained steps."""
    w = make_window(iterations=10**6, show=True)
    assert w.state.speed.paced
    assert w.controller.speed.paced
    seen = []
    w.controller.snapshot_ready.connect(lambda s: seen.append((s.t, s.step)))
    w.toggle_play()
    qtbot.waitUntil(lambda: bool(seen) and seen[-1][0] >= 100, timeout=60000)
    w.toggle_play()
    before = [t for t, _ in seen if t < 100]
    assert len(before) > 10  # instant: 0 or 1
    # (a frame at t = 0 may come first: the exact optimum arriving)
    t, step = next((t, step) for t, step in seen if t > 0)
    assert t == 1
    assert step is not None
    assert step.t == 1  # the step inspector follows


def test_speed_toolbar_menu_and_worker_stay_in_step(make_window):
    from svmviz.core.training.pace import CHOICES

    w = make_window(iterations=1000)
    actions = w.controls.speed_menu.actions()
    combo = w.controls.speed_combo
    assert [a.text() for a in actions] == [combo.itemText(i) for i in range(len(CHOICES))]

    def shown():
        checked = [i for i, a in enumerate(actions) if a.isChecked()]
        return checked, w.controls.speed_combo.currentIndex(), w.controller.speed

    assert shown() == ([0], 0, CHOICES[0])
    w.controls.speed_combo.setCurrentIndex(2)  # the toolbar
    assert shown() == ([2], 2, CHOICES[2])
    actions[4].trigger()  # the menu
    assert shown() == ([4], 4, CHOICES[4])
    w.run_to_budget()  # Run plays at full speed, and the next Play at the chosen speed
    assert shown() == ([4], 4, CHOICES[5])
    w.toggle_play()
    assert shown() == ([4], 4, CHOICES[4])
    from svmviz.core.files.session_file import View

    w.state.apply_view(View(speed=10), fit=False)  # a file
    assert shown() == ([2], 2, CHOICES[2])
    assert w.state.view().speed == 10
    training = next(a.menu() for a in w.menuBar().actions() if a.text() == "&Training")
    assert w.controls.speed_menu.menuAction() in training.actions()
    from svmviz.ui.window.menus import KEYS_HELP

    assert "Speed" in KEYS_HELP
    assert "log-t pace" in KEYS_HELP


def test_play_becoming_pause_moves_no_button(make_window):
    from PySide6 import QtWidgets

    w = make_window(iterations=10**6, show=True)
    bar = w.findChild(QtWidgets.QToolBar, "training-bar")
    step = bar.widgetForAction(w.controls.step)
    x = step.x()
    w.toggle_play()
    assert w.controls.play.text() == "Pause"
    QtWidgets.QApplication.processEvents()
    assert step.x() == x
    w.toggle_play()


def test_play_at_the_budget_and_reset_then_play_are_visibly_new_runs(
    qtbot, make_window, wait_frame
):
    w = make_window(iterations=200, show=True)
    w.state.set_speed(INSTANT)
    w.toggle_play()
    wait_frame(w, lambda s: s.status == "budget" and not w.playing)
    # the end's last frames (the exact optimum may come in late and republish t = 200)
    wait_frame(w, lambda s: not s.reference_pending, timeout=60000)
    w.state.set_speed(1)  # (slow enough to see the restart's first frames)
    seen = []
    w.controller.snapshot_ready.connect(lambda s: seen.append(s.t))
    w.toggle_play()  # at the budget: the run again, from w = 0
    assert w.playing
    assert w.controls.play.text() == "Pause"
    # its first frames (a frame every two refreshes: a GUI thread stalled by a loaded machine
    # may take a later one first, the mailbox keeping only the newest)
    qtbot.waitUntil(lambda: any(t < 200 for t in seen), timeout=30000)
    start = next(i for i, t in enumerate(seen) if t < 200)
    assert seen[start] < 100
    qtbot.waitUntil(lambda: seen[-1] > 3 and len(seen) > start + 1, timeout=30000)
    assert seen[-1] < 200  # a new run from w = 0, going forward
    # the curves of the new run (redrawn a few times a second while playing)
    qtbot.waitUntil(lambda: len(w.curves.objective.getData()[0]) < 100, timeout=5000)
    w.toggle_play()
    w.reset()  # Reset: the plane at w = 0 and the curves empty
    wait_frame(w, lambda s: s.t == 0)
    x, _ = w.curves.objective.getData()
    assert x is None or len(x) == 0


def test_the_loss_curve_is_named_in_the_registry_words(make_window, wait_frame):
    """The loss curve's legend names the loss as the solver panel does ("modified Huber
    loss", "Crammer–Singer loss"), not by its identifier ("modified huber")."""
    from svmviz.core.config import SolverConfig

    w = make_window(config=SolverConfig(loss="modified_huber", iterations=50), show=True)
    w.advance(50)
    wait_frame(w, lambda s: s.t == 50)
    legend = w.curves.loss_plot.getPlotItem().legend
    assert legend.getLabel(w.curves.loss_curves["loss"]).text == "modified Huber loss"
