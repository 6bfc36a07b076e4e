"""The weight space's marks (SpotItem) draw what a one-point pyqtgraph ScatterPlotItem draws,
pixel for pixel, and their bounds are the sprite's, whatever the view's range."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

import pyqtgraph as pg

from svmviz.ui.views.spot_item import SpotItem
from svmviz.ui.views.weight_items import WeightItems

STYLES = [  # (size, symbol, pen, brush): the weight space's three marks, and a thin pen
    (26, "star", pg.mkPen("#0B5022", width=2), pg.mkBrush(pg.mkColor("#1B9E4778"))),
    (10, "o", pg.mkPen("#FFFFFF", width=1.5), pg.mkBrush("#000000")),
    (16, "d", pg.mkPen("#000000", width=1), pg.mkBrush("#D55E00")),
]
POINTS = [(0.3, -0.7), (-1.234, 0.567), (2.01, 1.99)]  # (the last one partly outside)


def picture(plot, make):
    items = []
    for (size, symbol, pen, brush), (x, y) in zip(STYLES, POINTS, strict=True):
        item = make(size=size, symbol=symbol, pen=pen, brush=brush)
        plot.addItem(item)
        item.setData([x], [y])
        items.append(item)
    plot.viewport().repaint()
    image = plot.grab().toImage()
    for item in items:
        plot.removeItem(item)
    return np.array(
        [[image.pixel(i, j) for i in range(image.width())] for j in range(image.height())]
    )


def test_spots_draw_what_one_point_scatter_items_draw(qtbot):
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(230, 190)
    plot.setRange(xRange=(-2, 2), yRange=(-2, 2), padding=0)
    plot.show()
    qtbot.waitExposed(plot)
    ours = picture(plot, SpotItem)
    theirs = picture(plot, pg.ScatterPlotItem)
    assert (ours != ours[0, 0]).sum() > 300  # something is drawn
    np.testing.assert_array_equal(ours, theirs)


def test_the_weight_spaces_marks_are_spots_with_fixed_bounds(qtbot):
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    items = WeightItems(plot.getPlotItem())
    for item in (items.optimum, items.current, items.hand):
        assert isinstance(item, SpotItem)
    items.show_point(items.current, (0.5, 0.2))
    x, y = items.current.getData()
    assert (list(x), list(y)) == ([0.5], [0.2])
    rect = items.current.boundingRect()
    plot.setRange(xRange=(-100, 100), yRange=(-100, 100), padding=0)
    assert items.current.boundingRect() == rect  # (pixels: no view-dependent bounds)
    assert rect.width() == 12  # the sprite: 10 px and its 1.5 px pen rounded up
