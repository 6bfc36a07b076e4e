"""The plane's scatter (Marks) draws what pyqtgraph's ScatterPlotItem draws, pixel for
pixel, with its sprites looked up per size instead of per spot, and takes no clicks."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

import pyqtgraph as pg

from svmviz.ui.plane.items import Marks


def picture(qtbot, cls, x, y, sizes):
    w = pg.PlotWidget()
    qtbot.addWidget(w)
    w.resize(300, 240)
    w.setXRange(-3, 3, padding=0)
    w.setYRange(-3, 3, padding=0)
    item = cls(size=12, pen=pg.mkPen("k", width=2), brush=pg.mkBrush("r"), symbol="s")
    w.addItem(item)
    item.setData(x, y, size=sizes)
    item.setData(x[::2], y[::2], size=sizes[::2])  # set again: the sprites are looked up anew
    w.show()
    qtbot.waitExposed(w)
    image = w.grab().toImage()
    return np.array(
        [[image.pixel(i, j) for i in range(image.width())] for j in range(image.height())]
    )


def test_marks_draw_what_a_scatter_plot_item_draws(qtbot):
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(2, 400))
    sizes = np.where(np.arange(400) % 3 == 0, 8.0, 14.0)
    ours = picture(qtbot, Marks, x, y, sizes)
    theirs = picture(qtbot, pg.ScatterPlotItem, x, y, sizes)
    assert (ours != ours[0, 0]).sum() > 1000  # something is drawn
    np.testing.assert_array_equal(ours, theirs)
    item = Marks(size=12, symbol="o")
    item.setData(x, y, size=sizes)
    assert len(item.fragmentAtlas) == 2  # one sprite per size


def test_marks_take_no_clicks():
    class Event:
        ignored = False

        def ignore(self):
            self.ignored = True

    ev = Event()
    Marks().mouseClickEvent(ev)
    assert ev.ignored


def test_frames_without_marks_keep_them_on_appended_points_and_clear_them_otherwise(qtbot):
    """At full speed a new job's first frames come without rings and crosses: after a click
    (an append) the old ones still sit on their points; after a move they are cleared, not
    left on a wrong place; the next frame with marks draws them."""
    from svmviz.app.session import Session
    from svmviz.core.data import Dataset
    from svmviz.core.kernels import Kernel
    from svmviz.core.model_io import Model
    from svmviz.core.pictures.frame import make_frame
    from svmviz.ui.plane.decision_plot import DecisionPlot

    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    session = Session(Dataset.from_labels(X, (X[:, 0] > 0).astype(int)))
    plot = DecisionPlot(session)
    qtbot.addWidget(plot)
    plot.draw_points()
    colors = plot.region_colors(session.present_classes())
    model = Model(("0", "1"), Kernel(), 0.01, "free", np.array([0.2]), coef=np.array([[1.5, 0.3]]))

    def frame():
        return make_frame(model, session.dataset(), (-3, 3, -3, 3), 50)

    plot.draw_frame(frame(), colors, marks=True)
    rings = len(plot.rings.data)
    assert rings > 0
    session.add_point(0.1, 0.1)
    plot.draw_frame(frame(), colors, marks=False)
    assert len(plot.rings.data) == rings  # kept: they sit on their points
    session.move_points([3], 0.5, 0.0)
    plot.draw_frame(frame(), colors, marks=False)
    assert len(plot.rings.data) == 0
    assert len(plot.wrong.data) == 0  # cleared
    plot.draw_frame(frame(), colors, marks=False)
    assert len(plot.rings.data) == 0  # still cleared until marks are drawn
    plot.draw_frame(frame(), colors, marks=True)
    assert len(plot.rings.data) > 0


def test_marks_keep_their_bounding_rect_until_pyqtgraph_would_change_it(qtbot):
    """The rect Qt asks for many times a paint and a click is computed once per state, and
    equals pyqtgraph's own after every change: new data, sizes, pen, a zoom, a resize."""
    w = pg.PlotWidget()
    qtbot.addWidget(w)
    w.resize(300, 240)
    w.setXRange(-3, 3, padding=0)
    w.setYRange(-3, 3, padding=0)
    item = Marks(size=12, pen=pg.mkPen("k", width=2), brush=pg.mkBrush("r"))
    w.addItem(item)
    w.show()
    qtbot.waitExposed(w)

    def theirs():
        return pg.ScatterPlotItem.boundingRect(item)

    assert item.boundingRect().isNull()  # (empty: nothing to index or to find)
    changes = [
        lambda: item.setData([0.0, 1.0], [0.0, 2.0]),
        lambda: item.setData([-2.0, 2.5], [1.0, -1.5]),
        lambda: item.setSize(30),
        lambda: item.setPen(pg.mkPen("k", width=9)),
        lambda: w.setXRange(-0.5, 0.5, padding=0),
        lambda: w.resize(600, 500),
    ]
    seen = []
    for change in changes:
        change()
        qtbot.wait(20)  # (a resize reaches the view box on the next event loop pass)
        rect = item.boundingRect()
        assert rect == theirs() and item.boundingRect() is rect  # (kept while unchanged)
        assert rect not in seen
        seen.append(rect)
    item.clear()
    assert item.boundingRect().isNull()
