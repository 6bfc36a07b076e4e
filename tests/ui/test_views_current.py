"""Every registered view draws the current state whenever it is shown: a view hidden while
a Run, a New, a Generate, a scenario or Train from here went by, then shown (beside the plane
or its tab in front), draws what a freshly made view draws from the same state. The same for
the banner above the plane."""

import numpy as np
import pyqtgraph as pg
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore, QtWidgets

from svmviz.core.files.scenario import list_scenarios
from svmviz.ui.views import registry  # (the views registered)
from svmviz.ui.views.spot_item import SpotItem
from svmviz.ui.window import builtin_views

assert builtin_views
WITH_READINGS = [s.name for s in registry.REGISTRY if s.name != "step"]  # (the step: the router's)


def digest(widget) -> list:
    """What ``widget`` shows, as values: its visible labels' text, its tables' cells, its
    plots' curves, points, images and text."""
    out: list = []
    for child in [widget, *widget.findChildren(QtWidgets.QWidget)]:
        if not child.isVisibleTo(widget) and child is not widget:
            continue
        if isinstance(child, QtWidgets.QLabel):
            out.append(("label", child.text()))
        elif isinstance(child, QtWidgets.QAbstractItemView) and child.model() is not None:
            model = child.model()
            cells = [
                str(model.data(model.index(r, c)))
                for r in range(min(model.rowCount(), 200))
                for c in range(model.columnCount())
            ]
            out.append(("cells", tuple(cells)))
        elif isinstance(child, pg.GraphicsView):
            for item in child.scene().items():
                if not item.isVisible():
                    continue
                if isinstance(item, (pg.PlotDataItem, pg.ScatterPlotItem, SpotItem)):
                    x, y = item.getData()
                    if x is not None and len(x):  # (an empty curve draws nothing)
                        out.append(("xy", _values(x), _values(y)))
                elif isinstance(item, pg.ImageItem) and item.image is not None:
                    # (its shape: a landscape's grid may follow where the view was before)
                    out.append(("image", item.image.shape))
                elif isinstance(item, pg.TextItem):
                    out.append(("text", item.toPlainText()))
    return out


def _values(a):
    a = np.asarray(a if a is not None else [], dtype=float)
    return (a.shape, tuple(np.round(np.nan_to_num(a.ravel()[:4000], nan=-1e300), 6)))


def fresh_digest(qtbot, w, name):
    """What a freshly made view draws from the window's current state, at the size the
    window's view has."""
    spec = registry.spec(name)
    made = spec.make(w)
    host = made.widget
    qtbot.addWidget(host)
    host.resize(w.made[name].widget.size())
    host.show()
    qtbot.waitExposed(host)
    return host, spec.reading(made)


def same_as_fresh(qtbot, w, name, timeout=15000):
    host, reading = fresh_digest(qtbot, w, name)
    shown = w.made[name].widget
    drawn = [object()]

    def equal():
        if w.snapshot is not drawn[0]:  # (the exact optimum's frame may come later)
            drawn[0] = w.snapshot
            reading.clear() if w.snapshot is None else reading.show(w.snapshot, w.frames)
        QtWidgets.QApplication.processEvents()
        return digest(shown) == digest(host)

    try:
        qtbot.waitUntil(equal, timeout=timeout)
    except qtbot.TimeoutError:
        a, b = digest(shown), digest(host)
        diff = [(str(x)[:300], str(y)[:300]) for x, y in zip(a, b, strict=False) if x != y]
        raise AssertionError(f"{name}: {len(a)} vs {len(b)} items; {diff[:6]}") from None
    finally:
        inner = host.widget() if isinstance(host, QtWidgets.QScrollArea) else host
        getattr(inner, "shutdown", lambda: None)()  # (a view's worker threads)
        host.close()


def show_view(qtbot, w, name, how):
    if how == "companion":
        w.state.set_companion(name)
    else:
        w.state.set_companion(None)
        w.state.set_view(name, True)
        w.docks[name].raise_()
    qtbot.waitUntil(lambda: w.made[name].widget.isVisible(), timeout=5000)


def hide_view(w, name):
    w.state.set_companion(None)
    w.state.set_view(name, False)


def test_a_view_off_screen_is_made_when_first_shown_and_draws_the_run(
    qtbot, make_window, wait_frame
):
    """A start makes only the views on screen (the curves and the step inspector's tab in
    front); another is made when first shown, and draws the state a Run reached meanwhile."""
    w = make_window(iterations=150, show=True)
    assert set(w.made) == {"curves", "step"}
    w.run_to_budget()
    wait_frame(w, lambda s: s.t == 150)
    assert set(w.made) == {"curves", "step"}  # (a Run makes none)
    show_view(qtbot, w, "generalization", "tab")
    same_as_fresh(qtbot, w, "generalization")
    show_view(qtbot, w, "weight_space", "companion")
    same_as_fresh(qtbot, w, "weight_space")
    assert "points" not in w.made and w.point_table.model().rowCount() == 60  # (read: made)


@pytest.mark.parametrize("name", WITH_READINGS)
def test_a_view_shown_after_a_run_draws_the_run(qtbot, make_window, wait_frame, name):
    w = make_window(iterations=150, show=True)
    hide_view(w, name)
    w.run_to_budget()
    wait_frame(w, lambda s: s.t == 150)
    show_view(qtbot, w, name, "companion" if name != "curves" else "tab")
    same_as_fresh(qtbot, w, name)


@pytest.mark.parametrize("name", ["points", "margins", "theory", "kernel_matrix", "surface"])
def test_a_view_shown_after_new_or_a_failed_generate_shows_no_model(
    qtbot, make_window, wait_frame, name
):
    w = make_window(iterations=100, show=True)
    show_view(qtbot, w, name, "tab")
    w.run_to_budget()
    wait_frame(w, lambda s: s.t == 100)
    hide_view(w, name)
    w.session.clear()  # (File ▸ New's points: none)
    qtbot.waitUntil(lambda: w.snapshot is None, timeout=5000)
    show_view(qtbot, w, name, "tab")
    same_as_fresh(qtbot, w, name)


def test_the_points_tab_forgets_the_rows_of_a_run_that_cannot_train(qtbot, make_window, wait_frame):
    w = make_window(iterations=100, show=True)
    show_view(qtbot, w, "points", "tab")
    qtbot.waitUntil(lambda: w.point_table.model().rowCount() == 60, timeout=5000)
    # two overlapping classes under a hard margin: it cannot train
    w.session.set_config(w.session.config.replace(margin="hard"))
    rng = np.random.default_rng(0)
    w.session.replace_points(rng.normal(size=(10, 2)), np.tile([0, 1], 5))
    qtbot.waitUntil(lambda: w.snapshot is None, timeout=10000)
    assert w.point_table.model().rowCount() != 60


@pytest.mark.parametrize("name", ["weight_space", "surface", "points"])
def test_a_view_shown_after_a_scenario_draws_the_scenario(qtbot, make_window, wait_frame, name):
    w = make_window(iterations=100, show=True)
    hide_view(w, name)
    scenario = next(p for p in list_scenarios() if "hard-vs-soft" in p.stem)
    assert w.files.open_path(scenario)
    w.run_to_budget()
    wait_frame(w, lambda s: s.t == w.session.config.iterations and s.status == "budget")
    show_view(qtbot, w, name, "companion")
    same_as_fresh(qtbot, w, name)


def test_train_from_here_clears_the_banner_of_a_start_cleared(qtbot, make_window, wait_frame):
    w = make_window(iterations=100, show=True)
    w.train_from(np.array([[1.0, 1.0]]), np.array([0.0]))
    wait_frame(w, lambda s: s.t0 > 0)
    w.session.clear_start("a test")
    assert "was cleared" in w.caption.text() and w.caption.isVisible()
    w.train_from(np.array([[0.5, 1.0]]), np.array([0.0]))
    wait_frame(w, lambda s: s.t0 > 0)
    assert not w.caption.isVisible() or "was cleared" not in w.caption.text()


def test_a_dock_brought_to_the_front_draws_at_once(qtbot, make_window, wait_frame):
    w = make_window(iterations=120, show=True)
    w.docks["theory"].raise_()
    w.run_to_budget()
    wait_frame(w, lambda s: s.t == 120)
    w.docks["points"].raise_()
    qtbot.waitUntil(lambda: w.point_table.model().rowCount() == 60, timeout=5000)
    same_as_fresh(qtbot, w, "points")
    QtCore.QCoreApplication.processEvents()
