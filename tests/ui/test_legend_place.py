"""The plane's legend hides no point: in the lesson walk's states (circles, a Pegasos step, a
race, XOR, hard vs soft margin) at 1366×768 and 1920×1080 and presenting, its rectangle on
screen holds no point's marker, and it stays still while a run plays."""

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore

from svmviz.core.files.scenario import list_scenarios
from svmviz.ui import style

SIZES = ((1366, 768), (1920, 1080))
STATES = ("01-hard", "03-kernel-trick-circles", "04-xor", "07-pegasos-vs-sgd")  # 07: a race


def on_screen(item, w) -> QtCore.QRectF:
    """``item``'s rectangle in the plot widget's pixels."""
    return w.plot.mapFromScene(item.sceneBoundingRect()).boundingRect().toRectF()


def covered(w) -> list[int]:
    """The points whose marker (POINT_SIZE at the plane's scale) touches the legend."""
    legend = on_screen(w.plot.legend, w)
    r = style.POINT_SIZE * w.plot.scale / 2
    hidden = []
    for i, (x, y) in enumerate(w.session.points.X):
        p = w.plot.mapFromScene(w.plot.view.mapViewToScene(QtCore.QPointF(x, y)))
        if legend.adjusted(-r, -r, r, r).contains(QtCore.QPointF(p)):
            hidden.append(i)
    return hidden


def stepped(w, wait_frame) -> None:
    t = w.snapshot.t
    w.advance(1)
    wait_frame(w, lambda s: s.t > t and s.step is not None)


@pytest.mark.parametrize("size", SIZES)
def test_no_point_is_under_the_legend_in_the_lesson_states(qtbot, make_window, wait_frame, size):
    w = make_window(show=True)
    w.resize(*size)
    stepped(w, wait_frame)  # a Pegasos step on the demo's blobs
    states = [("pegasos step", w.plot.legend.isVisible(), covered(w))]
    for stem in STATES:
        path = next(p for p in list_scenarios() if p.stem.startswith(stem))
        w.files.open_path(path)
        wait_frame(w, lambda s: s.t == 0)
        stepped(w, wait_frame)
        for presenting in (False, True):
            w.set_presentation(presenting)
            qtbot.wait(300)  # (presentation mode's layout, and the legend's after it)
            states.append((f"{stem} {presenting}", w.plot.legend.isVisible(), covered(w)))
        w.set_presentation(False)
    assert all(shown for _, shown, _ in states)
    assert {name: hidden for name, _, hidden in states if hidden} == {}


def test_the_legend_stays_still_while_playing(qtbot, make_window, wait_frame):
    w = make_window(iterations=10**6, show=True)
    w.resize(1366, 768)
    w.toggle_play()
    first = wait_frame(w, lambda s: s.t > 100)  # (the step's marks gone: its entries too)
    qtbot.wait(50)
    before = on_screen(w.plot.legend, w)
    wait_frame(w, lambda s: s.t > 2 * first.t)
    qtbot.wait(200)  # (frames came, and the time the legend once took to move)
    after = on_screen(w.plot.legend, w)
    w.toggle_play()
    assert after == before
    assert not covered(w)


def test_a_point_added_under_the_legend_moves_it_after_the_first_frame(
    qtbot, make_window, wait_frame
):
    """A click shows its model first: the legend's placement (a search over every point and
    line) waits for the first frame of the job the click starts, then moves the legend off
    the new point."""
    w = make_window(show=True)
    w.resize(1366, 768)
    wait_frame(w)
    qtbot.waitUntil(lambda: w.plot.legend.isVisible() and w.plot.legend.inside, timeout=5000)
    centre = on_screen(w.plot.legend, w).center()
    x, y = w.plot.view.mapSceneToView(w.plot.mapToScene(centre.toPoint())).toTuple()
    n = len(w.session.points) + 1
    w.session.add_point(x, y)
    assert w.plot.key._soon.isActive()  # (not placed inside the edit)
    wait_frame(w, lambda s: len(s.frame.margins) == n)
    qtbot.waitUntil(lambda: not w.plot.key._soon.isActive(), timeout=2000)
    assert covered(w) == []


def test_a_window_starting_fits_its_legend_once_before_its_first_frame(
    qtbot, make_window, monkeypatch
):
    """Building and showing the window resizes and ranges its plane many times; the legend is
    laid out and placed once, after, and before the first frame is drawn."""
    from svmviz.ui.plane.legend import PlaneKey
    from svmviz.ui.plane.legend_box import PlaneLegend

    calls = {"lay_out": 0, "place": 0}
    at_first_frame: list[dict] = []

    def counted(cls, name, key):
        method = getattr(cls, name)

        def count(self, *args):
            calls[key] += 1
            return method(self, *args)

        monkeypatch.setattr(cls, name, count)

    counted(PlaneLegend, "_lay_out", "lay_out")
    counted(PlaneKey, "plane_inside", "place")  # (a placement's search, past its guards)
    frame_drawn = PlaneKey.frame_drawn

    def first(self):
        if not at_first_frame:
            at_first_frame.append(dict(calls))
        frame_drawn(self)

    monkeypatch.setattr(PlaneKey, "frame_drawn", first)
    w = make_window(show=True)
    assert w.plot.legend.isVisible()
    assert at_first_frame == [{"lay_out": 1, "place": 1}]
