"""Weight space as the plane's dual in the window: each drawn line is its point's margin
constraint, the hard margin's feasible region is shaded, hovering links a point and its
line both ways (and the step's sample lights its line), and the axes stay fixed from one
state to the next (a pixel is the same w₀) until the path leaves them or Fit."""

from dataclasses import replace

import numpy as np
from PySide6 import QtCore

from svmviz.core.data import Dataset


def two_classes(m=20, seed=0):
    rng = np.random.default_rng(seed)
    X = np.vstack(
        [rng.normal([2.0, 1.5], 0.5, (m // 2, 2)), rng.normal([-1.5, -1], 0.5, (m // 2, 2))]
    )
    return Dataset.from_labels(X, np.array([1] * (m // 2) + [0] * (m // 2)))


def weight_window(make_window, qtbot, **settings):
    w = make_window(show=True, **settings)
    w.resize(1400, 900)
    w.state.set_view("weight_space", True)
    qtbot.waitUntil(lambda: w.docks["weight_space"].isVisible(), timeout=5000)
    return w


def segments(item) -> list[np.ndarray]:
    """A NaN-broken curve's segments, each 2×2."""
    x, y = item.getData()
    xy = np.column_stack([x, y]).reshape(-1, 3, 2)
    return [s[:2] for s in xy]


def margin(w, i, W):
    """y_i (⟨W, x_i⟩ + b) of the session's point i, b the drawn model's."""
    p = w.session.points
    s = 1.0 if p.y[i] == 1 else -1.0
    return s * (p.X[i] @ W + w.weight_space.drawn.model.intercept[0])


def test_the_lines_the_region_and_the_hover_both_ways(make_window, wait_frame, qtbot):
    w = weight_window(make_window, qtbot, data=two_classes(), margin="hard", iterations=300)
    view = w.weight_space
    w.advance(20)
    wait_frame(w, lambda s: s.t == 20)
    qtbot.waitUntil(lambda: view.drawn is not None and view.drawn.t == 20, timeout=5000)
    drawn = view.dual.drawn
    lines, shown = drawn["lines"], drawn["shown"]
    assert len(shown) == 20  # (20 points: every line, none thinned)
    for seg, j in zip(segments(view.dual.lines), shown, strict=True):
        i = lines.owner[j]
        for t in (0.0, 0.3, 1.0):  # the drawn line is where the point's margin is 1
            assert abs(margin(w, i, seg[0] + t * (seg[1] - seg[0])) - 1.0) <= 1e-9
    # the feasible region: every constraint holds in it; the dotted segment from 0
    assert view.dual.region.isVisible()
    polygon = drawn["polygon"]
    assert len(polygon) >= 3
    assert all(margin(w, i, polygon.mean(axis=0)) >= 1 for i in range(20))
    assert "feasible" in view.key.text()
    # a point hovered in the plane lights its line
    i = 3
    scene = w.plot.view.mapViewToScene(QtCore.QPointF(*w.session.points.X[i]))
    w.plot.scene().sigMouseMoved.emit(scene)
    assert w.input.hovered == i
    (lit,) = segments(view.dual.lit)
    assert abs(margin(w, i, lit.mean(axis=0)) - 1.0) <= 1e-9
    # a line hovered in weight space lights its point in the plane
    j = shown[7]
    mid = drawn["segments"][j].mean(axis=0)
    vb = view.plot.getPlotItem().vb
    with qtbot.waitSignal(view.line_hovered, timeout=2000) as got:
        view.plot.scene().sigMouseMoved.emit(vb.mapViewToScene(QtCore.QPointF(*mid)))
    assert got.args == [lines.owner[j]]
    x, y = w.plot.lit.getData()
    assert w.plot.lit.isVisible()
    np.testing.assert_array_equal([x[0], y[0]], w.session.points.X[lines.owner[j]])
    # nothing hovered: the step's sampled point lights its line
    w.plot.mouse_left.emit()
    view.plot.scene().sigMouseMoved.emit(vb.mapViewToScene(QtCore.QPointF(1e3, 1e3)))
    assert not w.plot.lit.isVisible()
    w.advance(1)
    snap = wait_frame(w, lambda s: s.t == 21)
    qtbot.waitUntil(lambda: view.drawn is not None and view.drawn.t == 21, timeout=5000)
    (k,) = snap.step.samples
    (lit,) = segments(view.dual.lit)
    assert abs(margin(w, int(k), lit.mean(axis=0)) - 1.0) <= 1e-9
    # new points (a scenario, a file, an edit): the lit ring and line go (an old index)
    view.line_hovered.emit(i)
    w.input.point_hovered.emit(i)
    assert w.plot.lit.isVisible() and view.dual.hovered == i
    w.session.replace_points(w.session.points.X[:10], w.session.points.y[:10])
    assert not w.plot.lit.isVisible() and view.dual.hovered == -1


def test_the_axes_stay_fixed_between_states_until_the_path_leaves(make_window, wait_frame, qtbot):
    w = weight_window(make_window, qtbot, iterations=300)
    view = w.weight_space
    vb = view.plot.getPlotItem().vb
    w.advance(20)
    wait_frame(w, lambda s: s.t == 20)
    qtbot.waitUntil(lambda: view.drawn is not None and view.drawn.t == 20, timeout=5000)
    qtbot.wait(200)  # (laid out: the lines under the plot have their heights)
    pixels = [QtCore.QPointF(vb.width() * a, vb.height() * b) for a, b in ((0.3, 0.6), (0.8, 0.1))]

    def weights():
        return [tuple(np.round([p.x(), p.y()], 12)) for p in map(vb.mapToView, pixels)]

    before = weights()
    generation = view.drawn.generation
    # other states of the lesson: a point added and λ a little larger (new problems,
    # retrained: a new w*), and more steps
    X = w.session.points.X
    w.session.add_point(*(0.9 * X[0] + 0.1 * X[1]))
    w.session.set_config(replace(w.session.config, lam=0.013))
    w.advance(30)
    wait_frame(w, lambda s: s.generation != generation and s.t >= 30)
    qtbot.waitUntil(
        lambda: view.drawn.generation != generation and view.drawn.t >= 30, timeout=5000
    )
    assert weights() == before
    assert "refit" not in view.axes_note.text()  # (an earlier refit's note went with its job)
    # a start far outside: the path leaves the axes, which refit and say so; Fit fits again
    (x0, x1), (y0, y1) = vb.viewRange()
    far = np.array([x1 + 3 * (x1 - x0), y1 + 3 * (y1 - y0)])
    w.train_from_row(0, far)
    wait_frame(w, lambda s: s.start is not None)
    qtbot.waitUntil(lambda: "refit" in view.axes_note.text(), timeout=5000)
    (x0, x1), (y0, y1) = vb.viewRange()
    assert x0 < far[0] < x1 and y0 < far[1] < y1
    t = w.snapshot.t
    w.advance(5)
    wait_frame(w, lambda s: s.t == t + 5)
    qtbot.waitUntil(lambda: view.drawn.t == t + 5, timeout=5000)
    assert "refit" in view.axes_note.text()  # (said while that path is drawn)
    view.fit_button.click()
    assert "refit" not in view.axes_note.text()
    # the note goes with its job: a start outside again (refit, said), then λ (another job)
    # (axes fit once w* is known: a box fit before it is refit silently)
    wait_frame(w, lambda s: s.reference is not None and s.reference.model is not None)
    view.fit_button.click()
    w.train_from_row(0, 3 * far)
    qtbot.waitUntil(lambda: "refit" in view.axes_note.text(), timeout=5000)
    generation = view.drawn.generation
    w.session.set_config(replace(w.session.config, lam=0.012))
    qtbot.waitUntil(lambda: view.drawn.generation != generation, timeout=5000)
    assert "refit" not in view.axes_note.text()


def test_many_points_draw_the_nearest_lines_and_a_split_maps_the_indices(qtbot):
    """Past MAX_LINES lines only the nearest to w are drawn (the key says so); with a split
    the lines' points are named by their index among the session's points."""
    import pyqtgraph as pg

    from svmviz.core.config import SolverConfig
    from svmviz.core.training.reference import exact_optimum
    from svmviz.ui.views.weight_dual import MAX_LINES, DualLines

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(500, 400)
    plot.show()
    plot.setRange(xRange=(-6, 6), yRange=(-6, 6), padding=0)
    dual = DualLines(plot)
    data = two_classes(100, seed=2)
    index = np.arange(1, 200, 2)  # (the training points: every other point of the session)
    model = exact_optimum(SolverConfig(lam=0.1), data).model
    dual.follow(1, lambda: data, lambda: index)
    words = dual.show(model, 0, "slice", False, (-6, 6, -6, 6))
    assert f"{MAX_LINES} nearest w" in words
    lines, shown = dual.drawn["lines"], dual.drawn["shown"]
    assert len(shown) == MAX_LINES
    w = model.coef[0]
    dist = np.abs(lines.normal @ w - lines.offset) / np.linalg.norm(lines.normal, axis=1)
    assert dist[shown].max() <= np.sort(dist)[MAX_LINES - 1] + 1e-12
    # the session's point 2·5 + 1 is training point 5: its line is lit, and hovering the line
    # names the session's point
    dual.light_point(11)
    (lit,) = segments(dual.lit)
    s = 1.0 if data.y[5] == 1 else -1.0
    assert abs(s * (data.X[5] @ lit.mean(axis=0) + model.intercept[0]) - 1.0) <= 1e-9
    dual.light_point(-1)
    j = shown[0]
    vb = plot.getPlotItem().vb
    with qtbot.waitSignal(dual.line_hovered, timeout=2000) as got:
        plot.scene().sigMouseMoved.emit(
            vb.mapViewToScene(QtCore.QPointF(*dual.drawn["segments"][j].mean(axis=0)))
        )
    assert got.args == [int(index[lines.owner[j]])]
