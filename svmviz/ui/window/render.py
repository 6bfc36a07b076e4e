"""Pictures of the plots at a chosen size, for files, the clipboard and animations.

A picture is drawn by a *twin*: a fresh, never-shown DecisionPlot (or CurvePanel) of the
requested size, given the same state as the window's, so that the export does not depend on
the window's size and does not disturb it. The plane's regions are computed again over the
twin's extent, at a resolution that suits the picture. Files are written by pyqtgraph's
exporters (PNG at ``scale`` times the size: lines, markers and text grow with it, which is
what "2× for slides" wants; SVG as vectors with the regions embedded as an image), and
every file is written atomically.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.app.race_runner import RaceFrame, race_over
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.file_io import atomic_write_bytes
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import Frame, make_frame, reframe
from svmviz.core.pictures.overlay import Overlay
from svmviz.core.pictures.picture import check_format
from svmviz.ui import style
from svmviz.ui.plane.decision_plot import DecisionPlot
from svmviz.ui.window.svg_clip import unclip


@dataclass(frozen=True)
class PlaneState:
    """What the decision plot shows: the session's points and, with a model, its frame
    (for the points' margins and roles, of any problem: svmviz.core.pictures.frame), the kernel
    coefficients, the split, the exact optimum's model (its boundary and margins, curve
    and tube, or contours, over the plane) and slack segments; ``data`` is the job's data
    set (the frame's points, with their targets), needed only without a frame; ``classes``
    the session's class of each of the model's (by default the classes with points, as
    the window trains on them)."""

    session: object  # svmviz.app.session.Session
    extent: tuple
    model: Model | None = None
    frame: Frame | None = None
    alpha: np.ndarray | None = None
    parts: np.ndarray | None = None
    optimum: Model | None = None
    slack: tuple | None = None  # (starts, ends)
    kernel: bool = False
    scale: float = 1.0  # the window's presentation scale
    region_alpha: int = style.REGION_ALPHA
    title: str | None = None
    data: Dataset | None = None
    classes: np.ndarray | None = None
    given: Overlay | None = None  # a model given from Python, drawn over the plane
    race: RaceFrame | None = None  # a race's other runs (svmviz.app.race_runner)


def _laid_out(widget: QtWidgets.QWidget, width: int, height: int) -> None:
    """``widget`` (a plot) laid out at its size: its axes as high and wide as their text,
    the view range adapted to the aspect. pyqtgraph sizes an axis by its fonts and by the
    tick labels it last drew, and asks for that room in a posted layout request, which a
    widget never shown does not carry out by itself (nor does a resize to the size it
    already has): the requests are carried out here after a drawing, until the plane's box
    stays as it is."""
    widget.setAttribute(QtCore.Qt.WidgetAttribute.WA_DontShowOnScreen)
    widget.resize(width, height)
    view = widget.getPlotItem().getViewBox()
    for _ in range(3):
        widget.grab()  # draws: the axes measure their tick labels
        before = view.geometry()
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)
        if view.geometry() == before:
            break


def _uncached(item) -> None:
    """The plots cache some items as pixmaps at the screen's resolution (the legend, the
    points); a picture at another scale must draw them anew."""
    for other in item.scene().items():
        other.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.NoCache)


def plane_twin(state: PlaneState, width: int, height: int, scale: float = 1.0):
    """A DecisionPlot showing ``state`` at ``scale`` × (``width`` × ``height``) pixels,
    with its markers, lines and text ``scale`` times as large, like presentation mode (the
    caller closes it)."""
    plot = DecisionPlot(state.session)
    plot.key.picture = scale  # (its legend as large as the picture's scale asks)
    plot.key.steps = False  # (a picture shows no step inspector's marks later)
    k = state.scale * scale
    plot.set_scale(k, state.region_alpha)
    state = replace(state, scale=k)
    width, height = round(width * scale), round(height * scale)
    x0, x1, y0, y1 = state.extent
    plot.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
    plot.set_ring_meaning(kernel=state.kernel)
    plot.set_parts(state.parts)
    _laid_out(plot, width, height)
    set_title(plot, state)
    draw_state(plot, state)
    _place_legend(plot, width, height, state)
    return plot


def _place_legend(plot: DecisionPlot, width: int, height: int, state: PlaneState) -> None:
    """The legend where it hides no point nor the title (svmviz.ui.plane.legend); a
    strip below the plane makes it shorter: the picture is then laid out and drawn again."""
    title = getattr(plot, "title_item", None)
    if title is not None and title.isVisible():
        plot.key.avoid = [plot.view.mapRectFromScene(title.sceneBoundingRect())]
    strip = plot.legend.placed
    plot.key.place()
    if plot.legend.placed != strip:
        _laid_out(plot, width, height)
        draw_state(plot, state)


def set_title(plot: DecisionPlot, state: PlaneState) -> None:
    """``state.title`` in the plane's top left corner, on white (the legend keeps clear of
    it)."""
    item = getattr(plot, "title_item", None)
    if not state.title:
        if item is not None:
            item.hide()
        return
    if item is None:
        item = pg.TextItem(anchor=(0, 0), color="k", fill=pg.mkBrush(255, 255, 255, 220))
        item.setZValue(20)
        # in the view box's pixels (as the hover readout): its corner stays the plane's
        # when the aspect lock widens the range after a layout
        item.setParentItem(plot.view)
        plot.title_item = item
    font = QtGui.QFont()
    font.setPointSizeF(style.FONT_POINT_SIZE * state.scale)
    font.setBold(True)
    item.setFont(font)
    item.setText(state.title)
    item.setPos(0, 0)
    item.show()


def draw_state(plot: DecisionPlot, state: PlaneState) -> None:
    """Draw ``state``'s model over the plot's current extent (the regions and curves
    recomputed; the points' margins are the state's frame's, or the model's own on the
    state's data without one)."""
    plot.set_given(state.given)
    if state.model is None:
        plot.clear_model()
        return
    extent = plot.view_extent()
    n = plot.grid_size()
    if state.frame is not None:  # the window's margins: the solver's own values
        frame = reframe(state.frame, state.model, extent, n)
    else:
        data = state.data if state.data is not None else state.session.dataset()
        if data is None:
            plot.clear_model()
            return
        frame = make_frame(state.model, data, extent, n)
    classes = state.classes if state.classes is not None else state.session.present_classes()
    plot.draw_frame(frame, plot.region_colors(classes), state.alpha)
    optimum = None
    if state.optimum is not None:  # (its curves over the same kind of frame)
        optimum = reframe(frame, state.optimum, extent, n)
    plot.show_optimum(optimum, optimum is not None)
    plot.show_slack(*(state.slack or (None, None)))
    race = state.race
    if race is not None:  # (its lines over the picture's extent)
        data = state.data if state.data is not None else state.session.dataset()
        race = race_over(race, extent, data) if data is not None else None
    plot.set_race(race)


def export_image(item) -> QtGui.QImage:
    """``item`` (a PlotItem of a twin) as an image of its size (a twin is made at the
    picture's size: pyqtgraph's own scaling leaves the legends' text at 1×)."""
    _uncached(item)
    from pyqtgraph.exporters import ImageExporter  # (here: a start exports nothing)

    # the whole view, exactly its size (a plot item can be a few pixels wider: its legend)
    exporter = ImageExporter(item.scene())
    size = item.scene().views()[0].viewport().size()
    params = exporter.parameters()
    params["width"] = size.width()
    params["height"] = size.height()  # (linked to the width; set both exactly)
    params["antialias"] = True
    return exporter.export(toBytes=True)


def png_bytes(image: QtGui.QImage) -> bytes:
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise InputError("the picture could not be encoded as PNG")
    return bytes(buffer.data())


def svg_bytes(item) -> bytes:
    """``item`` as SVG (pyqtgraph's SVGExporter), its curves clipped in the file where
    they can be (svmviz.ui.window.svg_clip: ImageMagick's renderer inverts clip paths)."""
    from pyqtgraph.exporters import SVGExporter  # (here: a start exports nothing)

    _uncached(item)
    with _closed_paths_tolerated():
        svg = bytes(SVGExporter(item.scene()).export(toBytes=True))
    return unclip(svg)


class _closed_paths_tolerated:
    """Qt ≥ 6.9 ends closed SVG paths with "Z", which pyqtgraph 0.14's SVG exporter cannot
    parse (its correctCoordinates splits every token at a comma: pyqtgraph issue #3485).
    For the length of an export, the "Z" tokens are dropped before it parses them: every
    closed path pyqtgraph draws (a view's background, a marker) already ends where it
    starts, so only the corner join changes."""

    def __enter__(self):
        module = sys.modules["pyqtgraph.exporters.SVGExporter"]
        self._module, self._original = module, module.correctCoordinates

        def tolerant(node, defs, item, options):
            for path in node.getElementsByTagName("path"):
                d = path.getAttribute("d")
                path.setAttribute("d", " ".join(t for t in d.split() if t != "Z"))
            return self._original(node, defs, item, options)

        module.correctCoordinates = tolerant
        return self

    def __exit__(self, *exc):
        self._module.correctCoordinates = self._original
        return False


def write_plot(item, path) -> None:
    """Write ``item`` to ``path``: PNG or SVG by its suffix, atomically."""
    atomic_write_bytes(path, plot_bytes(item, path))


def plot_bytes(item, path) -> bytes:
    """``item`` as PNG or SVG bytes, by the suffix of ``path``."""
    return svg_bytes(item) if check_format(path) == "svg" else png_bytes(export_image(item))


def curves_twin(fill, which: str, width: int, height: int, scale: float = 1.0):
    """The ``which`` plot ("objective" or "loss") of a CurvePanel filled by
    ``fill(panel)``, alone at ``scale`` × (``width`` × ``height``) pixels with its text
    ``scale`` times as large (the caller closes it)."""
    from svmviz.ui.views.curves import CurvePanel

    panel = CurvePanel()
    panel.set_scale(scale)
    fill(panel)
    plot = panel.objective_plot if which == "objective" else panel.loss_plot
    plot.setParent(None)  # out of the splitter: the plot alone, at the size asked for
    plot.panel = panel  # (its curves belong to the panel's plots: kept alive with it)
    _laid_out(plot, round(width * scale), round(height * scale))
    return plot
