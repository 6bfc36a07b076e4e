"""The weight-space view in the window: its dock on and off (View menu, session file,
preferences), the path and the markers of the training's frames, the landscape from the
runner, a kernel job's one line, a click that gives the start, and presentation mode."""

import dataclasses

import numpy as np
import pytest
from PySide6 import QtCore, QtGui
from PySide6.QtTest import QTest

from svmviz.core.files.session_file import View
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.weight_path import points


def tab_bars(w):
    """The titles of each dock tab bar on screen (of two tabs or more)."""
    from PySide6 import QtWidgets

    bars = [b for b in w.findChildren(QtWidgets.QTabBar) if b.parent() is w and b.isVisible()]
    return [[b.tabText(i) for i in range(b.count())] for b in bars if b.count() > 1]


def weight_window(make_window, wait_frame, qtbot, **settings):
    w = make_window(show=True, **settings)
    w.resize(1400, 900)
    w.state.set_view("weight_space", True)
    qtbot.waitUntil(lambda: w.docks["weight_space"].isVisible(), timeout=5000)
    return w


def test_the_view_draws_the_path_the_optimum_and_the_landscape(make_window, wait_frame, qtbot):
    w = weight_window(make_window, wait_frame, qtbot, iterations=500)
    view = w.weight_space
    for _ in range(3):
        w.advance(5)
        qtbot.wait(50)
    snap = wait_frame(w, lambda s: s.t == 15 and s.reference is not None)
    qtbot.waitUntil(lambda: view.land is not None and view.runner.pending is None, timeout=20000)
    w.advance(1)
    snap = wait_frame(w, lambda s: s.t == 16)
    qtbot.waitUntil(lambda: view.drawn is not None and view.drawn.t == 16, timeout=3000)
    snap = view.drawn  # (drawn at most 30 times a second: the newest frame of t = 16)
    x, y = view.items.iterate.getData()
    np.testing.assert_array_equal(np.column_stack([x, y]), points(snap.path))
    assert snap.path.t[-1] == 16
    cx, cy = view.items.current.getData()
    assert (cx[0], cy[0]) == tuple(snap.model.coef[0])
    ox, oy = view.items.optimum.getData()
    assert (ox[0], oy[0]) == tuple(snap.reference.model.coef[0])
    assert "slice" in view.held_label.text()
    assert f"{snap.reference.objective:.4g}" in view.value_label.text()
    # the step's shrink and push, in weight space
    sx, sy = view.items.vectors["shrink"].getData()
    assert (sx[0], sy[0]) == tuple(snap.step.w_before)
    assert (sx[1], sy[1]) == pytest.approx(tuple(snap.step.shrink))
    # the landscape covers the path and the optimum
    land = view.land
    for p in [*points(snap.path), snap.reference.model.coef[0]]:
        assert land.w1[0] <= p[0] <= land.w1[-1] and land.w2[0] <= p[1] <= land.w2[-1]


def test_a_kernel_job_says_why_there_is_nothing_to_draw(make_window, wait_frame, qtbot):
    w = weight_window(make_window, wait_frame, qtbot, kernel=Kernel("rbf", gamma=1.0))
    w.advance(3)
    wait_frame(w, lambda s: s.t == 3)
    view = w.weight_space
    qtbot.waitUntil(lambda: view.message.isVisible(), timeout=5000)
    assert "kernel" in view.message.text()
    assert not view.plot.isVisible()


def test_a_click_gives_the_start_weights(make_window, wait_frame, qtbot):
    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    w.advance(10)
    wait_frame(w, lambda s: s.t == 10)
    view = w.weight_space
    qtbot.waitUntil(lambda: view.plot.isVisible(), timeout=5000)
    vb = view.plot.getPlotItem().vb
    (x0, x1), (y0, y1) = vb.viewRange()
    target = np.array([x0 + 0.3 * (x1 - x0), y0 + 0.6 * (y1 - y0)])
    pos = view.plot.mapFromScene(vb.mapViewToScene(QtCore.QPointF(*target)))
    with qtbot.waitSignal(view.start_clicked, timeout=3000) as got:
        QTest.mouseClick(
            view.plot.viewport(),
            QtCore.Qt.MouseButton.LeftButton,
            QtCore.Qt.KeyboardModifier.NoModifier,
            pos,
        )
    k, clicked = got.args
    pixel = (x1 - x0) / vb.width()
    assert k == 0
    assert np.allclose(clicked, target, atol=2 * pixel)
    # the window starts the next run there: its first frame is at the clicked w (its b
    # the model's), and the path begins at it
    snap = wait_frame(w, lambda s: s.start is not None)
    np.testing.assert_array_equal(snap.model.coef[0], clicked)
    np.testing.assert_array_equal(points(snap.path)[0], clicked)
    assert w.session.start is not None
    w.advance(3)
    snap = wait_frame(w, lambda s: s.t == s.t0 + 3)
    assert not np.allclose(snap.model.coef[0], 0.0)  # (the first steps did not wipe w₀)


def test_the_hand_moved_boundary_is_marked_in_weight_space(make_window, wait_frame, qtbot):
    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    w.advance(20)
    wait_frame(w, lambda s: s.t == 20 and s.reference is not None)
    w.controls.hand.trigger()
    snap = wait_frame(w, lambda s: s.status == "hand")
    items = w.weight_space.items
    qtbot.waitUntil(lambda: items.hand.isVisible(), timeout=3000)
    x, y = items.hand.getData()
    np.testing.assert_allclose([x[0], y[0]], snap.model.coef[0])
    # its own F (not the run's last), named as yours; the grid around 0, w* and your w
    view = w.weight_space
    qtbot.waitUntil(lambda: "F(your w)" in view.value_label.text(), timeout=3000)
    assert f"F(your w) = {snap.model.extra['objective']:.4g}" in view.value_label.text()
    assert "your w (by hand)" in view.key.text()
    w1, w2 = view._grid
    for p in (np.zeros(2), snap.model.coef[0], snap.reference.model.coef[0]):
        assert w1[0] < p[0] < w1[-1] and w2[0] < p[1] < w2[-1]
    w.controls.hand.trigger()  # leaving the mode takes the marker away
    qtbot.waitUntil(lambda: not items.hand.isVisible(), timeout=3000)


def test_a_weight_space_first_shown_while_the_hand_is_out_marks_its_w(
    make_window, wait_frame, qtbot
):
    """The view is made when first shown (svmviz.ui.window.builtin_views): made while the boundary
    is moved by hand, it marks the hand's w at once, not at the next move."""
    w = make_window(show=True, iterations=300)
    w.advance(20)
    wait_frame(w, lambda s: s.t == 20)
    w.controls.hand.trigger()
    snap = wait_frame(w, lambda s: s.status == "hand")
    assert "weight_space" not in w.made
    w.state.set_view("weight_space", True)
    qtbot.waitUntil(lambda: "weight_space" in w.made, timeout=5000)
    x, y = w.weight_space.items.hand.getData()
    assert w.weight_space.items.hand.isVisible()
    np.testing.assert_allclose([x[0], y[0]], snap.model.coef[0])


def test_a_landscape_ready_writes_of_the_frame_drawn_not_the_newest(make_window, wait_frame, qtbot):
    """A frame waiting its turn (drawn at most 30 times a second) is not half drawn by a
    landscape arriving meanwhile: its labels and the key speak of one frame."""
    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    view = w.weight_space
    w.advance(20)
    wait_frame(w, lambda s: s.t == 20 and s.reference is not None)
    qtbot.waitUntil(lambda: view.land is not None and view.runner.pending is None, timeout=20000)
    qtbot.waitUntil(lambda: view.drawn is not None and view.drawn.t == 20, timeout=3000)
    drawn = view.drawn
    hand = dataclasses.replace(drawn, status="hand")
    view.pace.began()  # (just drawn: the next frame waits its turn)
    view.show_snapshot(hand, *view._last[1:])
    assert view.drawn is drawn
    view._on_ready(view._asked[0], view.land)
    assert "F(model)" in view.value_label.text() and "F(your w)" not in view.value_label.text()
    assert "your w (by hand)" not in view.key.text()
    view.redraw()  # (its turn, before any newer frame of the window's can take its place)
    assert view.drawn is hand
    assert "F(your w)" in view.value_label.text()
    assert "your w (by hand)" in view.key.text()


def test_multiclass_varies_the_chosen_class(make_window, wait_frame, qtbot, blobs3):
    w = weight_window(make_window, wait_frame, qtbot, data=blobs3, iterations=300)
    w.state.set_weight_class(2)
    w.advance(20)
    snap = wait_frame(w, lambda s: s.t == 20)
    view = w.weight_space
    qtbot.waitUntil(lambda: view.land is not None and view.land.k == 2, timeout=20000)
    qtbot.waitUntil(lambda: view.drawn is not None and view.drawn.t == 20, timeout=3000)
    snap = view.drawn  # (drawn at most 30 times a second: the newest frame of t = 20)
    assert view.class_box.isVisible() and view.class_box.currentIndex() == 2
    x, y = view.items.iterate.getData()
    np.testing.assert_array_equal(np.column_stack([x, y]), points(snap.path, 2))
    view.class_box.setCurrentIndex(1)  # the view's chooser sets the state's class
    assert w.state.weight_class == 1
    assert w.state.view().weight_class == 1


def test_the_toggle_is_kept_in_the_session_and_the_view_menu(make_window, wait_frame, qtbot):
    w = make_window(show=True)
    action = w.docks["weight_space"].toggleViewAction()
    assert action.text() == "Weight space"
    assert w.docks["weight_space"].objectName() == "weight-space-dock"
    assert not w.docks["weight_space"].isVisible() and "weight_space" not in w.state.view().views
    action.trigger()  # the View menu's entry
    assert w.docks["weight_space"].isVisible()
    assert "weight_space" in w.state.view().views
    w.docks["weight_space"].close()
    assert not w.state.view_on("weight_space")
    w.state.apply_view(View(weight_class=1, flags=(("weight_space", True),)))  # a session opened
    assert w.docks["weight_space"].isVisible()
    assert w.weight_space.k == 1


def test_the_toggle_is_remembered_in_the_preferences(make_window, wait_frame, qtbot):
    w = make_window(show=True)
    w.state.set_view("weight_space", True)
    w.state.set_weight_class(3)
    w.close()
    again = make_window(show=True)
    assert again.state.view_on("weight_space") and again.state.weight_class == 3
    assert again.docks["weight_space"].isVisible()
    again.state.set_view("weight_space", False)
    again.close()
    third = make_window(show=True)
    assert not third.state.view_on("weight_space") and not third.docks["weight_space"].isVisible()


def test_presentation_mode_shows_the_view_large_when_it_is_on(make_window, wait_frame, qtbot):
    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    qtbot.waitUntil(lambda: ["Curves", "Weight space"] in tab_bars(w), timeout=5000)
    w.set_presentation(True)
    qtbot.waitUntil(lambda: w.isFullScreen(), timeout=5000)
    qtbot.wait(200)
    assert w.weight_space.isVisible() and w.companion.name == "weight_space"
    assert not w.step_dock.isVisible() and not w.docks["weight_space"].isVisible()
    assert w.weight_space.width() > 0.25 * w.width()
    assert w.weight_space.height() > 0.6 * w.height()
    assert tab_bars(w) == [], "no tab bar left behind over the view"
    w.set_presentation(False)
    qtbot.waitUntil(lambda: not w.isFullScreen(), timeout=5000)
    assert w.state.view_on("weight_space"), "presentation mode leaves the toggle as it was"
    qtbot.waitUntil(lambda: w.docks["weight_space"] in w.tabifiedDockWidgets(w.curves_dock))
    qtbot.wait(200)
    assert tab_bars(w).count(["Curves", "Weight space"]) == 1
    w.state.set_view("weight_space", False)
    w.set_presentation(True)
    qtbot.waitUntil(lambda: w.isFullScreen(), timeout=5000)
    assert not w.weight_space.isVisible() and w.companion.name == "curves"
    # turned on while presenting (a session opened, the View menu): shown at once, and
    # still on, beside the curves, once presentation mode ends
    w.state.set_view("weight_space", True)
    qtbot.waitUntil(lambda: w.weight_space.isVisible(), timeout=3000)
    w.set_presentation(False)
    qtbot.waitUntil(lambda: not w.isFullScreen(), timeout=5000)
    qtbot.wait(200)
    assert w.state.view_on("weight_space") and w.docks["weight_space"].isVisible()
    assert w.docks["weight_space"] in w.tabifiedDockWidgets(w.curves_dock)


@pytest.mark.parametrize("index, hold, words", [(1, "none", "b = 0"), (2, "profiled", "profiled")])
def test_the_view_says_what_is_held_of_b(make_window, wait_frame, qtbot, index, hold, words):
    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    w.advance(30)
    wait_frame(w, lambda s: s.t == 30)
    view = w.weight_space
    qtbot.waitUntil(lambda: view.land is not None and view.land.hold == "slice", timeout=20000)
    view.hold_box.setCurrentIndex(index)
    qtbot.waitUntil(lambda: view.land.hold == hold, timeout=20000)
    assert words in view.held_label.text()
    assert "slice" not in view.held_label.text()


def test_b_is_not_profiled_for_the_logistic(make_window, wait_frame, qtbot):
    w = weight_window(make_window, wait_frame, qtbot, iterations=300, loss="logistic")
    w.advance(10)
    wait_frame(w, lambda s: s.t == 10)
    view = w.weight_space
    qtbot.waitUntil(lambda: view.land is not None, timeout=20000)
    assert not view.hold_box.model().item(2).isEnabled()
    view.hold = "profiled"  # (a choice kept from a hinge job)
    view.redraw()
    qtbot.waitUntil(lambda: view.runner.pending is None, timeout=20000)
    assert view.land.hold == "slice"


def test_the_hand_marker_and_a_race_s_paths(make_window, wait_frame, qtbot, blobs2):
    from svmviz.core.config import SolverConfig
    from svmviz.core.training.race import Race

    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    w.advance(5)
    wait_frame(w, lambda s: s.t == 5)
    view = w.weight_space
    view.show_hand(np.array([0.5, -1.25]))
    x, y = view.items.hand.getData()
    assert view.items.hand.isVisible() and (x[0], y[0]) == (0.5, -1.25)
    view.show_hand(None)
    assert not view.items.hand.isVisible()
    race = Race([SolverConfig(seed=1), SolverConfig(algorithm="sgd", seed=1)], blobs2)
    race.step(20)
    view.show_race(race.paths, ["#0072B2", "#D55E00"], race.labels())
    assert len(view.items.race) == 2
    x, y = view.items.race[1].getData()
    np.testing.assert_array_equal(np.column_stack([x, y]), points(race.paths[1], output=True))
    assert all(label in view.key.text() for label in race.labels())
    # (each run's entry in the key's small type, as the others: not a line larger)
    doc = QtGui.QTextDocument()
    doc.setHtml(view.key.text())
    sizes = set()
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.text().strip():
                sizes.add(fragment.charFormat().font().pointSizeF())
            it += 1
        block = block.next()
    assert len(sizes) == 1, sizes
    view.show_race([], [], [])
    assert view.items.race == []


def test_off_it_leaves_the_curves_without_a_tab_bar(make_window, qtbot):
    from PySide6.QtWidgets import QTabBar

    from svmviz.ui.window.layout import LAYOUT_VERSION

    w = make_window(show=True)

    def curve_tabs():
        return [
            [b.tabText(i) for i in range(b.count())]
            for b in w.findChildren(QTabBar)
            if b.isVisible() and "Curves" in [b.tabText(i) for i in range(b.count())]
        ]

    assert curve_tabs() == []
    w.state.set_view("weight_space", True)
    qtbot.waitUntil(lambda: curve_tabs() == [["Curves", "Weight space"]], timeout=5000)
    w.state.set_view("weight_space", False)
    qtbot.waitUntil(lambda: curve_tabs() == [], timeout=5000)
    w.restoreState(w.saveState(LAYOUT_VERSION), LAYOUT_VERSION)  # (a remembered layout)
    qtbot.wait(50)
    assert not w.docks["weight_space"].isVisible() and not w.state.view_on("weight_space")


def test_a_race_s_runs_are_drawn_in_weight_space(make_window, wait_frame, qtbot):
    w = weight_window(make_window, wait_frame, qtbot, iterations=500, seed=1)
    w.session.set_race([{"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"lam": 0.1}])
    w.state.set_race(True)
    w.advance(40)
    snap = wait_frame(w, lambda s: s.t == 40 and s.race is not None)
    items = w.weight_space.items
    qtbot.waitUntil(lambda: len(items.race) == 2, timeout=3000)
    for run, item in zip(snap.race.runs, items.race, strict=True):
        x, y = item.getData()
        np.testing.assert_array_equal(np.column_stack([x, y]), points(run.path, output=True))
        assert item.opts["pen"].color().name() == run.color.lower()
    for run in snap.race.runs:
        assert run.label in w.weight_space.key.text()
    w.state.set_race(False)
    wait_frame(w, lambda s: s.race is None)
    qtbot.waitUntil(lambda: items.race == [], timeout=3000)


def test_the_axes_show_the_weights_themselves(make_window, wait_frame, qtbot):
    """Small weights are labelled as they are, not rescaled with an "(x0.001)" on the axis."""
    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    item = w.weight_space.plot.getPlotItem()
    for side in ("bottom", "left"):
        axis = item.getAxis(side)
        axis.setRange(-0.004, 0.004)
        assert axis.autoSIPrefixScale == 1.0
        assert "x0.001" not in axis.labelString()


def test_a_tab_bar_left_behind_is_hidden(make_window, wait_frame, qtbot):
    """A dock bar naming docks that are no longer tabbed together (Qt leaves one behind
    when the weight space is docked below the curve to present) is hidden; the bar of a
    real group stays."""
    from PySide6 import QtWidgets

    from svmviz.ui.window import layout

    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    qtbot.waitUntil(lambda: ["Curves", "Weight space"] in tab_bars(w), timeout=5000)
    left = QtWidgets.QTabBar(w)  # (as Qt's layout leaves it: the window's child)
    for title in ("Weight space", "Step"):
        left.addTab(title)
    left.show()
    assert ["Weight space", "Step"] in tab_bars(w)
    layout.hide_stale_tab_bars(w)
    assert not left.isVisible()
    assert ["Curves", "Weight space"] in tab_bars(w)


def test_a_line_more_or_less_under_the_plot_does_not_resize_it(make_window, wait_frame, qtbot):
    """While playing, "F(w) being computed…" comes and goes under the plot several times a
    second: the labels keep the height they reached, so the plot keeps its size (it jumped,
    and was drawn anew with a new grid, each time); a new width lets them wrap anew."""
    from svmviz.ui.views.steady_labels import steady

    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    view = w.weight_space
    w.advance(20)
    wait_frame(w, lambda s: s.t == 20)
    qtbot.waitUntil(lambda: view.drawn is not None and view.drawn.t == 20, timeout=3000)
    label = view.value_label
    short = label.text()
    label.setText(short + " · F(w) being computed…" * 4)
    steady(label)
    qtbot.waitUntil(lambda: label.height() >= label.minimumHeight() > 0, timeout=3000)
    qtbot.wait(100)  # (laid out)
    plot = view.plot.height()
    label.setText(short)
    steady(label)
    qtbot.wait(100)
    assert view.plot.height() == plot and label.height() >= label.minimumHeight() > 0
    width = view.width()
    dock = w.docks["weight_space"]
    w.resizeDocks([dock], [dock.width() + 80], QtCore.Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: view.width() != width, timeout=3000)
    assert label.minimumHeight() < 2 * label.fontMetrics().lineSpacing() + 4


def test_drawing_the_same_state_again_repaints_none_of_the_labels(make_window, wait_frame, qtbot):
    """The labels under the plot are measured (their height kept, as above) only for a new
    text or width: measuring a rich text lays it out anew and repaints it, and the key and
    the readouts were repainted at every drawing while playing, up to 15 a second."""
    from PySide6 import QtWidgets

    w = weight_window(make_window, wait_frame, qtbot, iterations=300)
    view = w.weight_space
    w.advance(20)
    wait_frame(w, lambda s: s.t == 20)
    qtbot.waitUntil(lambda: view.drawn is not None and view.drawn.t == 20, timeout=3000)
    qtbot.waitUntil(lambda: view.runner.pending is None, timeout=5000)
    view.redraw()
    painted = []

    class Paints(QtCore.QObject):
        def eventFilter(self, obj, event):
            if event.type() == QtCore.QEvent.Type.Paint:
                painted.append(obj)
            return False

    paints = Paints()
    for label in (view.key, view.held_label, view.value_label):
        label.installEventFilter(paints)

    def settled():  # (what the drawing before left to paint, on a loaded machine later)
        painted.clear()
        qtbot.wait(100)
        return not painted

    def redrawn_unpainted() -> bool:
        qtbot.waitUntil(settled, timeout=5000)
        for _ in range(3):
            view.redraw()
            QtWidgets.QApplication.processEvents()
        return not painted

    # a redraw that repaints does so every time; a paint of something else (a loaded
    # machine's late event) only now and then: five tries
    assert any(redrawn_unpainted() for _ in range(5)), painted


def test_while_playing_its_drawings_keep_to_their_share_of_the_gui_thread(
    make_window, wait_frame, qtbot
):
    """Beside the plane it draws far enough apart for its drawings and their paintings to
    take at most the share of the GUI thread the plane can spare (svmviz.ui.views.draw_pace), and
    the state training stopped at once it stops."""
    from svmviz.core.training.pace import INSTANT
    from svmviz.ui.views.draw_pace import LONGEST, SHARE

    w = weight_window(make_window, wait_frame, qtbot, iterations=10_000_000)
    view = w.weight_space
    drawings = []  # (when each drawing began, the cost the pace then had of the one before)
    draw = view._draw

    def timed(*args):
        if w.controller.playing:  # (a pause's frames are drawn at once)
            drawings.append((view.pace.drawn_at, view.pace.cost))
        draw(*args)

    view._draw = timed
    w.state.set_speed(INSTANT)
    w.controller.play()
    qtbot.wait(1500)
    w.controller.pause()
    qtbot.waitUntil(lambda: view.drawn is w.snapshot and not w.playing, timeout=5000)
    begun = np.array([at for at, _ in drawings])
    costs = np.array([cost for _, cost in drawings[1:]])  # (each: of the drawing before)
    assert len(costs) >= 2 and np.all(costs > 0)
    assert np.all(np.diff(begun) >= 0.95 * np.minimum(costs / SHARE, LONGEST))
