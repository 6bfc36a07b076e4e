"""The weight space's landscape (its image and iso lines) is painted once per landscape:
a drawing of the path and the marks over it repaints them from a pixmap, and the picture
is the same as painting them anew."""

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtGui, QtWidgets

from svmviz.core.pictures.landscape import Landscape
from svmviz.ui.views.weight_items import WeightItems


def _picture(plot) -> QtGui.QImage:
    plot.viewport().repaint()
    return plot.grab().toImage()


def test_the_landscape_is_not_painted_again_for_each_drawing(qtbot, monkeypatch):
    painted = []  # (patched before the first paint: PySide keeps the override it found)
    for cls in (pg.ImageItem, pg.PlotCurveItem):
        paint = cls.paint
        monkeypatch.setattr(
            cls, "paint", lambda self, *a, paint=paint: painted.append(self) or paint(self, *a)
        )
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(300, 260)
    plot.show()
    items = WeightItems(plot.getPlotItem())
    w1, w2 = np.linspace(-2, 2, 41), np.linspace(-1.5, 1.5, 31)
    values = np.add.outer(w2**2, 0.5 * w1**2)
    items.show_landscape(Landscape(w1, w2, values, 0, 0.0, "slice"))
    plot.setRange(xRange=(-2, 2), yRange=(-1.5, 1.5), padding=0)
    items.show_point(items.current, (0.5, 0.2))
    _picture(plot)
    painted.clear()
    for k in range(3):  # the path grows, the model's dot moves: drawn again
        items.show_paths(np.array([[0.0, 0.0], [0.1 * k, 0.2]]), None)
        items.show_point(items.current, (0.1 * k, 0.2))
        cached = _picture(plot)
    assert items.iterate in painted
    assert items.image not in painted and items.iso not in painted
    for item in (items.image, items.iso):
        item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.NoCache)
    anew = _picture(plot)
    assert items.image in painted and items.iso in painted
    diff = np.abs(_pixels(cached).astype(int) - _pixels(anew).astype(int))
    assert diff.max() <= 2  # (a pixmap's edges: rounding, nothing moved)
    assert np.mean(diff > 0) == pytest.approx(0.0, abs=0.01)


def _pixels(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    data = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    return data.reshape(image.height(), image.bytesPerLine())[:, : 4 * image.width()]


def test_a_drawing_leaves_no_empty_curve_to_paint_and_contours_a_landscape_once(qtbot, monkeypatch):
    """An empty curve (no ball, no step, no averaged path) is hidden, not painted empty at
    every repaint; the level set of each drawing reuses its landscape's contour generator."""
    import contourpy

    made = []
    real = contourpy.contour_generator
    monkeypatch.setattr(contourpy, "contour_generator", lambda *a: made.append(1) or real(*a))
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    items = WeightItems(plot.getPlotItem())
    w1, w2 = np.linspace(-2, 2, 41), np.linspace(-1.5, 1.5, 31)
    land = Landscape(w1, w2, np.add.outer(w2**2, 0.5 * w1**2), 0, 0.0, "slice")
    items.show_landscape(land)
    for k in range(3):
        items.show_paths(np.array([[0.0, 0.0], [0.1 * k, 0.2]]), None)
        items.show_ball(0.0)
        items.show_step(None, 4.0)
        items.show_level(land, 0.5 + 0.1 * k)
    curves = [i for i in plot.getPlotItem().items if isinstance(i, pg.PlotCurveItem)]
    shown = [i for i in curves if i.isVisible()]
    assert set(shown) == {items.iso, items.iterate, items.level}
    assert len(made) == 1
    items.show_step({"push": ((0.0, 0.0), (1.0, 0.5))}, 4.0)
    assert items.vectors["push"].isVisible() and not items.vectors["shrink"].isVisible()
