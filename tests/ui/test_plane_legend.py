"""The decision plane's marks, legend and hover readout as a class sees them: a misclassified
point keeps its colour, small α get no ring, the legend is a small box inside the plane in the
model's words with line samples whose dashes show at every scale, and the readout stays inside
the plane beside the cursor."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from svmviz.app.session import Session
from svmviz.core.data import Dataset
from svmviz.core.frame import make_frame
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import Model
from svmviz.ui import style
from svmviz.ui.decision_plot import DecisionPlot
from svmviz.ui.hover import HoverReadout, place_box
from svmviz.ui.plane_items import (
    RING_MAX,
    RING_MIN,
    WRONG_SIZE,
    WRONG_SYMBOL,
)

LINEAR = Model(("0", "1"), Kernel(), 0.01, "free", np.array([0.0]), coef=np.array([[1.0, 0.0]]))


@pytest.fixture
def plane(qtbot):
    """A plane of 1366 × 768's size: two classes split at x₁ = 0 but for one point of class 0
    on the wrong side (at (1, 0))."""
    X = np.array([[-2.0, 1.0], [-1.0, -1.0], [-1.5, 0.5], [1.0, 0.0], [2.0, 1.0], [1.5, -1.0]])
    session = Session(Dataset.from_labels(X, [0, 0, 0, 0, 1, 1]))
    plot = DecisionPlot(session)
    qtbot.addWidget(plot)
    plot.setBackground("w")
    plot.resize(587, 441)
    plot.setRange(xRange=(-3, 3), yRange=(-3, 3), padding=0)
    plot.draw_points()
    plot.show()
    qtbot.waitExposed(plot)
    return plot


def draw(plot, model=LINEAR, alpha=None, colors=None):
    frame = make_frame(model, plot.session.dataset(), plot.view_extent(), 60)
    if colors is None:
        colors = plot.region_colors(plot.session.present_classes())
    plot.draw_frame(frame, colors, alpha)
    return frame


def labels(plot):
    return [label.text for _, label in plot.legend.items]


def test_a_misclassified_point_keeps_its_colour_and_its_mark_sits_beside_it(qtbot, plane):
    draw(plane)
    x, _ = plane.wrong.getData()
    assert list(x) == [1.0]  # the one point on the wrong side
    image = plane.grab().toImage()
    centre = plane.mapFromScene(plane.view.mapViewToScene(QtCore.QPointF(1.0, 0.0)))
    colour = QtGui.QColor(image.pixel(centre.x(), centre.y()))
    assert colour.name().lower() == plane.session.colors[0].lower()  # the class, not red
    # the mark is beside the point: clear of a class marker (the square is the widest)
    half = style.POINT_SIZE / 2 / WRONG_SIZE
    assert not WRONG_SYMBOL.intersects(QtCore.QRectF(-half, -half, 2 * half, 2 * half))
    assert WRONG_SYMBOL.boundingRect().width() < 0.5  # a small mark, not a cross over it
    error = QtGui.QColor(style.ERROR_COLOR).rgb()
    near = [
        image.pixel(centre.x() + dx, centre.y() + dy) == error
        for dx in range(-16, 17)
        for dy in range(-16, 17)
    ]
    assert any(near)  # drawn, in the error colour


def test_kernel_rings_are_the_margins_support_vectors_sized_by_alpha(qtbot, plane):
    X = plane.session.points.X
    coef = np.array([[1.0, 0.5, 0.02, 0.0, -1.0, -0.2]])
    model = Model(
        ("0", "1"), Kernel("rbf"), 0.01, "free", np.array([0.0]), support_vectors=X, dual_coef=coef
    )
    alpha = np.abs(model.dual_coef[0])
    plane.set_ring_meaning(kernel=True)
    frame = draw(plane, model, alpha)
    sizes = plane.rings.data["size"]
    z = np.where(plane.session.points.y == 1, 1.0, -1.0) * model.decision_function(X)
    # by y f ≤ 1 (+1%), not by α: the point with α = 0 is ringed where its margin says so
    assert len(sizes) == int(np.sum(z <= 1.01)) == len(frame.support) > 0
    assert sizes.min() >= RING_MIN
    assert sizes.max() <= RING_MAX <= style.POINT_SIZE + 14
    assert any("support vectors (y·f ≤ 1), larger: larger α" in t for t in labels(plane))


def dashes(sample) -> int:
    """How many dashes a legend line sample draws along its middle row."""
    r = sample.boundingRect()
    image = QtGui.QImage(int(r.width()), int(r.height()), QtGui.QImage.Format.Format_ARGB32)
    image.fill(QtCore.Qt.GlobalColor.transparent)
    painter = QtGui.QPainter(image)
    sample.paint(painter)
    painter.end()
    row = np.array(
        [image.pixelColor(i, int(r.height() // 2)).alpha() > 128 for i in range(image.width())]
    )
    return int(np.sum(row[1:] & ~row[:-1]) + row[0])


@pytest.mark.parametrize("scale", [1.0, 1.6, 2.0, 3.2])  # window, presentation, 2× exports
def test_legend_line_samples_show_their_dashes_at_every_scale(qtbot, plane, scale):
    plane.set_scale(scale)
    samples = {label.text: sample for sample, label in plane.legend.items}
    assert dashes(samples["boundary f = 0"]) == 1  # solid
    assert dashes(samples["margins f = ±1"]) >= 3  # dashed, visibly
    assert samples["margins f = ±1"].boundingRect().width() >= 40 * scale


def test_legend_words_follow_the_number_of_classes(qtbot, plane):
    draw(plane)
    binary = labels(plane)
    assert "boundary f = 0" in binary
    assert "margins f = ±1" in binary
    three = plane.region_colors(np.array([0, 1, 2]))
    draw(plane, colors=three)
    words = " ".join(labels(plane))
    assert "boundaries f<sub>k</sub> = f<sub>j</sub>" in words
    assert "argmax" in words
    assert "f = 0" not in words
    assert "y f" not in words
    draw(plane)
    assert labels(plane) == binary


@pytest.mark.parametrize("kernel", [False, True])
@pytest.mark.parametrize("classes", [2, 3])
def test_legend_has_no_literal_underscores(qtbot, plane, kernel, classes):
    plane.set_ring_meaning(kernel=kernel)
    plane.show_optimum(None, True)
    draw(plane, colors=plane.region_colors(np.arange(classes)))
    assert all("_" not in text for text in labels(plane)), labels(plane)


def test_legend_is_a_small_box_inside_the_plane_which_keeps_its_height(qtbot, plane):
    draw(plane)
    qtbot.wait(10)
    view = plane.view.sceneBoundingRect()
    legend = plane.legend.sceneBoundingRect()
    assert view.contains(legend)
    assert view.height() >= 0.88 * plane.height()  # no legend rows above the plane
    assert legend.width() * legend.height() <= 0.15 * view.width() * view.height()
    assert legend.right() > view.center().x()
    assert legend.top() < view.center().y()  # top right


def test_exported_plane_has_its_legend_inside_at_scale(qtbot, plane):
    from svmviz.ui.render import PlaneState, plane_twin

    state = PlaneState(plane.session, (-3, 3, -3, 3), LINEAR)
    twin = plane_twin(state, 640, 480, 2)
    try:
        view = twin.view.sceneBoundingRect()
        legend = twin.legend.sceneBoundingRect()
        assert view.contains(legend)
        assert view.height() >= 0.88 * twin.height()
        samples = {label.text: sample for sample, label in twin.legend.items}
        assert dashes(samples["margins f = ±1"]) >= 3
    finally:
        twin.deleteLater()


def test_place_box_flips_at_the_edges_and_never_covers_the_cursor():
    area, gap = (0, 0, 500, 400), 14
    assert place_box((100, 200), (120, 40), area, gap) == (114, 146)  # above right
    assert place_box((450, 200), (120, 40), area, gap) == (316, 146)  # flipped left
    assert place_box((100, 20), (120, 40), area, gap) == (114, 34)  # flipped below
    # a legend in the top right corner is kept clear where a side allows
    x, y = place_box((300, 100), (120, 40), area, gap, avoid=(330, 0, 500, 80))
    assert (x, y) == (166, 46)
    # too wide for either side: above the cursor, pushed inside
    x, y = place_box((250, 200), (460, 40), area, gap)
    assert 0 <= x
    assert x + 460 <= 500
    assert y + 40 <= 200 - gap


@pytest.mark.parametrize(
    "where", [(0.98, 0.5), (0.5, 0.98), (0.02, 0.02), (0.98, 0.02), (0.3, 0.98), (0.5, 0.5)]
)
def test_hover_readout_stays_inside_the_plane_and_off_the_cursor(qtbot, plane, where):
    X = plane.session.points.X
    coef = np.array([[1.0, 0.5, 0.2, 0.1, -1.0, -0.8]])
    model = Model(
        ("class one", "class two"),
        Kernel("rbf"),
        0.01,
        "free",
        np.array([0.0]),
        support_vectors=X,
        dual_coef=coef,
    )
    hover = HoverReadout(plane)
    (x0, x1), (y0, y1) = plane.view.viewRange()
    pos = (x0 + where[0] * (x1 - x0), y0 + where[1] * (y1 - y0))
    hover.show_at(pos, model, model.classes)
    box = hover.text.mapRectToScene(hover.text.boundingRect())
    cursor = plane.view.mapViewToScene(QtCore.QPointF(*pos))
    assert plane.view.sceneBoundingRect().adjusted(-1, -1, 1, 1).contains(box)
    spot = QtCore.QRectF(cursor.x() - 8, cursor.y() - 8, 16, 16)  # the point under the cursor
    assert not box.intersects(spot)
    assert isinstance(hover.text, pg.TextItem)
    assert hover.text.isVisible()


def test_the_legend_steps_aside_on_a_plane_too_small_for_it(qtbot, plane):
    plane.resize(260, 140)
    qtbot.waitUntil(lambda: not plane.legend.isVisible())
    assert plane.data_at(plane.view.sceneBoundingRect().center()) is not None
    plane.resize(587, 441)
    qtbot.waitUntil(plane.legend.isVisible)


def test_a_click_on_the_legend_adds_a_point_there(qtbot, make_window):
    from PySide6.QtCore import QPoint, Qt

    w = make_window(iterations=10**6, show=True)
    qtbot.waitUntil(w.plot.legend.isVisible)
    legend = w.plot.legend.sceneBoundingRect()
    # beside a line sample: pyqtgraph's samples hid their item on a click
    for where in (legend.center(), QtCore.QPointF(legend.left() + 12, legend.top() + 10)):
        n = len(w.session.points)
        pos = w.plot.mapFromScene(where)
        qtbot.mouseClick(w.plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pos.x(), pos.y()))
        assert len(w.session.points) == n + 1
        spot = w.plot.view.mapSceneToView(where)
        np.testing.assert_allclose(w.session.points.X[-1], [spot.x(), spot.y()], atol=0.05)
    assert w.plot.boundary.isVisible()
    assert w.plot.margin.isVisible()


def test_the_legend_goes_where_no_line_runs(qtbot, plane):
    """No point is in the top corners; the boundary y = x and its margins y = x ± 1 cross
    the top right one: the legend goes to the top left, opaque."""
    diagonal = Model(
        ("0", "1"), Kernel(), 0.01, "free", np.array([0.0]), coef=np.array([[-1.0, 1.0]])
    )
    draw(plane, diagonal)
    qtbot.waitUntil(lambda: plane.legend.spot == (0, 0), timeout=5000)
    assert plane.legend.opacity() == 1.0
    assert hidden(plane) == (0, 0)


def hidden(plot):
    """(points, points along the margins and the boundary) inside the legend's box, found
    in the scene: each line sampled every data unit / 50."""
    box = plot.legend.sceneBoundingRect()
    X = plot.session.points.X

    def inside(xy):
        return sum(box.contains(plot.view.mapViewToScene(QtCore.QPointF(*p))) for p in xy)

    along = []
    for item in (plot.boundary, plot.margin):
        x, y = item.getData()
        for a, b in zip(np.column_stack((x, y))[:-1], np.column_stack((x, y))[1:], strict=True):
            if np.isfinite(a).all() and np.isfinite(b).all():
                n = max(2, int(np.hypot(*(b - a)) * 50))
                along.extend(a + (b - a) * t for t in np.linspace(0, 1, n))
    return inside(X), inside(along)


@pytest.mark.parametrize("number", [1, 3, 4])
@pytest.mark.parametrize("presentation", [False, True])
def test_in_the_scenarios_the_legend_hides_no_point_and_no_line(
    qtbot, make_window, wait_frame, number, presentation
):
    """Run to its end, each scenario's plane: the legend's box holds no point and no part
    of the margins or the boundary, or, where no place along the plane's edges is free of
    them, it lets them show through (and a click on it still adds a point, above)."""
    from svmviz.core.scenario import list_scenarios
    from svmviz.ui import plane_legend

    w = make_window(show=True)
    w.resize(1366, 768)
    w.files.open_path(list_scenarios()[number - 1])
    if presentation:
        w.controls.presentation.trigger()
    w.run_to_budget()
    wait_frame(w, lambda s: s.t == w.session.config.iterations, timeout=120000)
    qtbot.wait(400)  # the legend's place after the last frame
    plot = w.plot
    points, lines = hidden(plot)
    if points or lines:
        assert plot.legend.opacity() < 1  # see-through
        # and where it hides the least
        box = plot.view.boundingRect()
        pixels = plot.view.mapFromView
        X = [pixels(QtCore.QPointF(*p)) for p in w.session.points.X]
        X = np.array([(p.x(), p.y()) for p in X])
        lines = []
        for item in (plot.boundary, plot.margin):
            x, y = item.getData()
            xy = [pixels(QtCore.QPointF(a, b)) for a, b in zip(x, y, strict=True)]
            lines.append(np.array([(p.x(), p.y()) for p in xy]))
        score = plane_legend.clutter(
            plot.legend.rects(box.width(), box.height()),
            X,
            plane_legend.segments(lines),
            style.POINT_SIZE * plot.scale,
        )
        assert score[plane_legend.SPOTS.index(plot.legend.spot)] == pytest.approx(score.min())
    else:
        assert plot.legend.opacity() == 1.0
    if presentation:
        w.controls.presentation.trigger()


def test_the_legend_hides_a_stretch_of_line_before_a_point():
    """Where no spot is free (presentation mode's large legend), a point hidden is worse than
    a line hidden for less than the legend's width: seen through it, scenario 12's far point
    looked like one of the legend's samples. A point weighs as a line across the legend."""
    from svmviz.ui import plane_legend

    size, width = 19.0, 370.0
    rects = np.array([[0.0, 0.0, width, 160.0], [500.0, 0.0, 500.0 + width, 160.0]])
    point = np.array([[100.0, 80.0]])  # under the first
    line = plane_legend.segments([np.array([[500.0, 20.0], [500.0 + 0.5 * width, 60.0]])])
    score = plane_legend.clutter(rects, point, line, size)
    assert score[1] < score[0]  # (the second, over the line, wins)
    assert score[0] == pytest.approx(width / size)  # one point: a line across
