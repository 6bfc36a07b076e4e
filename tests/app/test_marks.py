"""The plane's scatter (Marks) draws what pyqtgraph's ScatterPlotItem draws, pixel for
pixel, with its sprites looked up per size instead of per spot, and takes no clicks."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

import pyqtgraph as pg  # noqa: E402

from svmviz.ui.decision_plot import Marks  # noqa: E402


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
    return np.array([[image.pixel(i, j) for i in range(image.width())]
                     for j in range(image.height())])  # fmt: skip


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
