"""The decision plane's marks, legend and hover readout as a class sees them: a misclassified
point keeps its colour, small α get no ring, the legend is in the model's words with line
samples whose dashes show at every scale (where it sits: tests/ui/test_legend_place.py), and
the readout stays inside the plane beside the cursor."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from svmviz.app.session import Session
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import make_frame
from svmviz.ui import style
from svmviz.ui.plane.decision_plot import DecisionPlot
from svmviz.ui.plane.hover import HoverReadout, place_box
from svmviz.ui.plane.items import (
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


def test_exported_plane_has_its_legend_clear_of_the_points_and_the_title(qtbot, plane):
    from svmviz.ui.window.render import PlaneState, plane_twin

    state = PlaneState(plane.session, (-3, 3, -3, 3), LINEAR, title="t = 12")
    twin = plane_twin(state, 640, 480, 2)
    try:
        legend = twin.legend.sceneBoundingRect()
        assert twin.legend.isVisible()
        assert QtCore.QRectF(twin.rect()).contains(legend)  # in the picture
        assert not legend.intersects(twin.title_item.sceneBoundingRect())
        r = style.POINT_SIZE * twin.scale / 2
        for x, y in plane.session.points.X:
            p = twin.view.mapViewToScene(QtCore.QPointF(x, y))
            assert not legend.adjusted(-r, -r, r, r).contains(p)
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
    """No spot of a small plane holds the box and the strip would take most of its height:
    no legend; on a plane of a large window's size it is back, inside where no point is."""
    draw(plane)
    plane.resize(260, 140)
    qtbot.waitUntil(lambda: not plane.legend.isVisible())
    # its row is gone, and it left the plot no wider than the widget
    qtbot.waitUntil(lambda: plane.view.sceneBoundingRect().height() >= 0.6 * plane.height())
    assert plane.view.sceneBoundingRect().right() <= plane.width()
    plane.resize(800, 600)
    qtbot.waitUntil(plane.legend.isVisible)
    assert plane.legend.inside


def test_placing_the_legend_again_lays_out_no_label(plane, monkeypatch):
    """A placement measures the boxes it tries once while the entries stay (laying the labels
    out for each box was most of its time, in every click's path): placing again sets no
    label's text or width, and the legend stays where it was."""
    draw(plane)
    plane.key.place()
    where = (plane.legend.inside, plane.legend.spot, plane.legend.fit)
    laid_out = []
    for name in ("setText", "updateMin"):
        method = getattr(pg.LabelItem, name)
        monkeypatch.setattr(
            pg.LabelItem,
            name,
            lambda self, *a, method=method, name=name, **k: (
                laid_out.append(name),
                method(self, *a, **k),
            )[1],
        )
    plane.key.place()
    assert laid_out == []
    assert (plane.legend.inside, plane.legend.spot, plane.legend.fit) == where


def test_a_narrow_legend_breaks_its_labels_between_words_only(qtbot, plane):
    """The placement tries boxes down to a seventh of the widest label: a label wrapped
    there must break between words ("misclassifi / ed" on a projector before)."""
    draw(plane)
    legend = plane.legend
    legend.set_wrap(4.0)  # (narrower than any word)
    broken = 0
    for _, label in legend.items:
        block = label.item.document().begin()
        while block.isValid():
            layout, text = block.layout(), block.text()
            for i in range(1, layout.lineCount()):
                start = layout.lineAt(i).textStart()
                broken += 1
                assert text[start - 1].isspace(), f"{text!r} broken at {start}"
            block = block.next()
    assert broken > 0  # (the labels did wrap)
