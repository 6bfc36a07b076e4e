"""The boundary moved by hand in the window: the handles dragged with the mouse move the
line and the status line's F and gap; Train from here starts at the hand-made w; the mode
is refused for a kernel."""

import numpy as np
import pytest

from svmviz.core.objectives import model_objective


def handle_at(w, index):
    return w.hand.handles.h0 if index == 0 else w.hand.handles.h1


def shows_the_handles(w):
    """The window shows the hand-made model of where the handles are now (a drag's last
    move is shown once the event loop comes round)."""
    snap, h = w.snapshot, w.hand.handles
    if snap is None or snap.status != "hand":
        return False
    f = snap.model.decision_function([h.h0, h.h1])
    return abs(f[0]) < 1e-9 and abs(f[1] - 1.0) < 1e-9


def numbers(text):
    """F(w) and the gap in the hand's status line."""
    f = float(text.split("F(w) = ")[1].split()[0])
    gap = float(text.split("gap to the optimum ")[1].split()[0])
    return f, gap


@pytest.fixture
def hand_window(make_window, wait_frame):
    w = make_window(iterations=3000, lam=0.05, show=True)
    w.advance(40)
    wait_frame(w, lambda s: s.t == 40 and s.reference is not None)
    return w


def test_dragging_the_handles_moves_the_line_and_the_status_numbers(qtbot, hand_window):
    from test_window import drag

    w = hand_window
    run = w.snapshot
    w.controls.hand.trigger()
    assert w.hand.active and w.controls.hand.isChecked()
    assert w.controls.train_here.isEnabled()
    snap = w.snapshot
    assert snap.status == "hand"
    np.testing.assert_allclose(snap.model.coef, run.model.coef, rtol=1e-9)
    f0, gap0 = numbers(w.status.text())
    data = w.session.dataset()
    assert f0 == pytest.approx(model_objective(snap.model, data.X, data.y)["objective"], 1e-5)
    assert gap0 == pytest.approx(f0 - snap.reference.objective, rel=1e-2, abs=1e-5)
    # h₁ dragged: the line turns about h₀, F and the gap change with it
    h0, h1 = handle_at(w, 0), handle_at(w, 1)
    to = (h0[0] + 0.5 * (h1[0] - h0[0]) + 0.6, h0[1] + 0.5 * (h1[1] - h0[1]) + 0.6)
    drag(qtbot, w, h1, to)
    qtbot.waitUntil(lambda: shows_the_handles(w))
    moved = w.snapshot
    assert handle_at(w, 0) == h0
    np.testing.assert_allclose(handle_at(w, 1), to, atol=0.05)
    wn, bn = moved.model.coef[0], float(moved.model.intercept[0])
    assert float(wn @ np.array(h0) + bn) == pytest.approx(0.0, abs=1e-9)
    assert float(wn @ np.array(handle_at(w, 1)) + bn) == pytest.approx(1.0)
    f1, gap1 = numbers(w.status.text())
    assert f1 != pytest.approx(f0)
    assert f1 == pytest.approx(model_objective(moved.model, data.X, data.y)["objective"], 1e-5)
    assert gap1 == pytest.approx(f1 - moved.reference.objective, rel=1e-2, abs=1e-5)
    # h₀ dragged: the line moves, w stays
    drag(qtbot, w, handle_at(w, 0), (h0[0] - 0.7, h0[1] + 0.4))
    qtbot.waitUntil(lambda: shows_the_handles(w))
    np.testing.assert_allclose(w.snapshot.model.coef[0], wn, rtol=1e-9)
    assert float(w.snapshot.model.intercept[0]) != pytest.approx(bn)
    # the plane's clicks did not place points meanwhile
    assert len(w.session.points) == len(data.y)
    # leaving without training: the run where it was
    w.controls.hand.trigger()
    assert not w.hand.active
    back = w.snapshot
    assert back.status != "hand" and back.t == run.t
    np.testing.assert_array_equal(back.model.coef, run.model.coef)


def test_train_from_here_starts_at_the_hand_w_and_play_goes_down_to_the_optimum(
    qtbot, hand_window, wait_frame
):
    w = hand_window
    w.hand.enter()
    # a poor line by hand: turned a quarter and far too narrow
    h0 = np.array(w.hand.handles.h0)
    w.hand._on_drag(1, tuple(h0 + [0.1, 0.15]), True)
    qtbot.waitUntil(lambda: shows_the_handles(w))
    hand = w.snapshot.model
    f_hand = hand.extra["objective"]
    w.controls.train_here.trigger()
    assert not w.hand.active
    first = wait_frame(w, lambda s: s.start is not None)
    np.testing.assert_array_equal(first.model.coef, hand.coef)
    np.testing.assert_array_equal(first.model.intercept, hand.intercept)
    assert first.t == first.t0 == len(w.session.points)
    assert "from your w" in w.status.text()
    assert w.session.start is not None and w.controls.zero_start.isEnabled()
    w.run_to_budget()
    end = wait_frame(w, lambda s: s.status != "ready" and s.status != "running")
    optimum = end.reference.objective
    f_end = float(end.history["objective"][-1])
    assert optimum <= f_end < f_hand
    assert f_end - optimum < 0.05 * (f_hand - optimum)
    # Start from w = 0 forgets it
    w.start_from_zero()
    zero = wait_frame(w, lambda s: s.start is None and s.t == 0)
    assert not np.any(zero.model.coef)
    assert "cleared (Start from w = 0)" in w.caption.text()


def test_the_mode_is_refused_for_a_kernel(make_window):
    from svmviz.core.kernels import Kernel

    w = make_window(iterations=200, kernel=Kernel("rbf"))
    assert not w.controls.hand.isEnabled()
    assert "kernel" in w.controls.hand.toolTip()
    assert not w.hand.enter()
    assert not w.hand.active
    assert "cannot be moved by hand" in w.status.text() and "rbf" in w.status.text()


def test_the_hand_model_is_signalled_and_an_edit_ends_the_mode(qtbot, hand_window, wait_frame):
    w = hand_window
    with qtbot.waitSignal(w.hand_changed) as shown:
        w.hand.enter()
    assert shown.args[0].coef is not None and shown.args[0].extra["hand"]
    t = w.hand.run.t
    with qtbot.waitSignal(w.hand_changed) as gone:
        w.session.move_points([0], 0.25, 0.0)  # (an edit that comes anyway: Undo, Delete)
    assert gone.args[0] is None and not w.hand.active
    edited = wait_frame(w, lambda s: s.generation == w.controller.generation)
    assert edited.status != "hand" and edited.t == t, "the edited run where the run was"


def test_a_start_is_cleared_with_a_notice_when_the_kernel_comes(qtbot, hand_window, wait_frame):
    from svmviz.core.kernels import Kernel

    w = hand_window
    w.train_from(np.array([[1.0, 1.0]]), np.array([0.0]))
    wait_frame(w, lambda s: s.start is not None)
    w.session.set_config(w.session.config.replace(kernel=Kernel("rbf")))
    wait_frame(w, lambda s: s.generation == w.controller.generation and s.start is None)
    assert w.session.start is None
    assert "start w₀ was cleared" in w.caption.text() and w.caption.isVisibleTo(w)


def test_with_bias_none_the_hand_line_keeps_through_the_origin(qtbot, make_window, wait_frame):
    w = make_window(iterations=500, bias="none")
    w.advance(20)
    wait_frame(w, lambda s: s.t == 20)
    assert w.hand.enter()
    w.hand._on_drag(0, (1.5, -2.0), True)
    w.hand._on_drag(1, (0.4, 1.1), True)
    qtbot.waitUntil(lambda: shows_the_handles(w))
    m = w.snapshot.model
    assert m.intercept[0] == 0.0
    assert m.decision_function([[0.0, 0.0]])[0] == 0.0
    assert m.decision_function([w.hand.handles.h1])[0] == pytest.approx(1.0)
