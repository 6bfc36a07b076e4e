"""The legend's box: its entries (sample, label) flowed into rows, as a box inside the plane
at one of SPOTS or as a strip in a row of its own under the plot's axes, ending with the
horizontal axis's name. Where it goes is chosen by svmviz.ui.plane.legend, what it says by
svmviz.ui.plane.legend_words."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

LEGEND_POINTS = 10  # the legend's text size at scale 1
LEGEND_MAX = 0.15  # the strip is left out where it would take more of the plot's height
ROW = 4  # the plot item's layout row under the bottom axis (0 title, 1 top axis, 2 view, 3 axis)
EDGE_STEPS = 17
_along = np.linspace(0.0, 1.0, EDGE_STEPS)[1:-1]
# where the box may go: its (x, y) anchor as fractions of the plane (y from the top), the
# corners first (the top right, where it has always been), then along the edges
SPOTS = (
    ((1.0, 0.0), (0.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    + tuple((x, y) for y in (0.0, 1.0) for x in _along)
    + tuple((x, y) for x in (0.0, 1.0) for y in _along)
)
QWIDGETSIZE_MAX = 16777215  # Qt's largest size of a widget
STRIP_ROWS = 2  # the strip's text is drawn smaller (by STRIP_SHRINK at most) to keep to these
STRIP_SHRINK = 0.25


def spot_rects(width: float, height: float, size, gap: float) -> np.ndarray:
    """(left, top, right, bottom) of a box of ``size`` (w, h) at each of SPOTS of a plane
    of ``width`` × ``height`` pixels, ``gap`` from its edges."""
    w, h = size
    f = np.array(SPOTS)
    left = gap + f[:, 0] * (width - w - 2 * gap)
    top = gap + f[:, 1] * (height - h - 2 * gap)
    return np.column_stack((left, top, left + w, top + h))


class PlaneLegend(pg.GraphicsWidget):
    """The legend's entries (sample, label), as a box inside the view (``put_inside``) or
    as a strip in a row of its own under the PlotItem's axes (``put_outside``), where they
    flow left to right in as few rows as the width allows and the horizontal axis's name
    ends the first row (the axis then draws none). ``items``, ``addItem`` and ``clear`` as
    pyqtgraph's LegendItem, whose grid gave every column its widest entry. Transparent to
    the mouse."""

    def __init__(self, plot_item: pg.PlotItem, view: pg.ViewBox):
        super().__init__()
        self.plot_item, self.view = plot_item, view
        self.items: list[tuple[pg.ItemSample, pg.LabelItem]] = []
        self.text_size = f"{LEGEND_POINTS}pt"
        self.scale = 1.0
        self.smaller = 0
        self.axis_name = pg.LabelItem("", parent=self)
        self.axis_named = True  # (the plot may leave its axes' names out: none here then)
        self.inside = False
        self.spot, self.fit = SPOTS[0], (0.0, None)  # (not "shape": QGraphicsItem.shape())
        self.wrap: float | None = None  # the labels' text width (None: one line each)
        self.placed = False  # in the plot item's layout
        self._trials: dict = {}  # shape → its box's size (trial_boxes), while the entries stay
        self.held = False  # no fit until released (PlaneKey.hold)
        self.setMinimumWidth(0)  # its rows follow the width; it never widens the plot
        self.setZValue(20)
        self.put_outside()

    # ------------------------------------------------------------------ entries
    def set_text(self, size: str, scale: float) -> None:
        """The entries' text size (for the next ones added) and the spacing's scale."""
        self.text_size, self.scale = size, scale
        self.smaller = 0  # points the strip's text is drawn smaller by
        self._trials = {}

    def set_smaller(self, points: int) -> None:
        """The labels' text ``points`` smaller than their size (the strip's, to take fewer
        rows)."""
        if points == self.smaller:
            return
        self.smaller = points
        size = f"{float(self.text_size.removesuffix('pt')) - points:g}pt"
        for _, label in self.items:
            label.setText(label.text, size=size, color="k")

    def set_axis_name(self, text: str, size: str) -> None:
        """The horizontal axis's name, drawn at the strip's first row's right end (none
        where the plot leaves its axes' names out: ``axis_named``)."""
        self.axis_name.setText(text if self.axis_named else "", size=size, color="k")
        self.refit()

    def addItem(self, sample: pg.ItemSample, name: str) -> None:
        self.set_smaller(0)
        label = pg.LabelItem(name, justify="left", size=self.text_size, color="k")
        document = label.item.document()
        option = document.defaultTextOption()  # (a narrow box wraps between words only)
        option.setWrapMode(QtGui.QTextOption.WrapMode.WordWrap)
        document.setDefaultTextOption(option)
        if self.wrap is not None:
            label.item.setTextWidth(self.wrap)
            label.updateMin()
        for item in (sample, label):
            item.setParentItem(self)
        self.items.append((sample, label))
        self._trials = {}

    def clear(self) -> None:
        self._trials = {}
        for sample, label in self.items:
            for item in (sample, label):
                item.close()  # (as pyqtgraph's legend: PySide leaks what it does not close)
                if item.scene() is not None:
                    item.scene().removeItem(item)
        self.items = []

    def set_wrap(self, wrap: float | None) -> None:
        """The labels' text wrapped at ``wrap`` pixels (None: one line each)."""
        if wrap == self.wrap:
            return
        self.wrap = wrap
        for _, label in self.items:
            label.item.setTextWidth(-1 if wrap is None else wrap)
            label.updateMin()

    def entry_widths(self) -> list[float]:
        """Each entry's width: its sample, a gap and its label's text."""
        gap = 4 * self.scale
        return [s.boundingRect().width() + gap + label.minimumWidth() for s, label in self.items]

    def _row_height(self, row, named: bool) -> float:
        heights = [max(s.boundingRect().height(), lab.minimumHeight()) for s, lab in row]
        named = named and self.axis_named
        return max(heights + ([self.axis_name.minimumHeight()] if named else []))

    def rows_for(self, width: float, named: bool = True) -> list[list[int]]:
        """The rows (indices of entries): as many in a row as ``width`` pixels hold, the
        first leaving room for the axis's name (``named``: the strip's)."""
        pad, gap = 4 * self.scale, 14 * self.scale
        named = named and self.axis_named
        room = width - 2 * pad - (self.axis_name.minimumWidth() + gap if named else 0.0)
        rows: list[list[int]] = [[]]
        used = 0.0
        for i, w in enumerate(self.entry_widths()):
            if rows[-1] and used + gap + w > room:
                rows.append([])
                used, room = 0.0, width - 2 * pad
            used += (gap if rows[-1] else 0.0) + w
            rows[-1].append(i)
        return rows

    def _lay_out(self, rows, width: float | None) -> tuple[float, float]:
        """Place the entries in ``rows``; the axis's name at the first row's right end of
        ``width`` (None: no name). Returns the size taken."""
        pad, gap, shrink = 4 * self.scale, 14 * self.scale, 3 * self.scale
        y, widest = pad, 0.0
        for n, row in enumerate(rows):
            pairs = [self.items[i] for i in row]
            height = self._row_height(pairs, n == 0 and width is not None)
            x = pad
            for sample, label in pairs:
                sample.setPos(x, y + (height - sample.boundingRect().height()) / 2)
                x += sample.boundingRect().width() + 4 * self.scale
                lw, lh = label.minimumWidth(), label.minimumHeight()
                label.setGeometry(x, y + (height - lh) / 2, lw, lh)
                x += lw + gap
            widest = max(widest, x - gap + pad)
            y += height - shrink  # (a label's text has room above and below)
        name = self.axis_name
        shown = width is not None and self.axis_named
        name.setVisible(shown)
        if shown:
            nw, nh = name.minimumWidth(), name.minimumHeight()
            name.setGeometry(width - pad - nw, pad, nw, nh)
        return widest, y + shrink

    def box_rows(self, shape) -> list[list[int]]:
        """The box's rows: one entry a row (``shape`` (0, wrap)), or as many as ``shape``
        (width, None) pixels hold (a wide box, for a band above or below the points)."""
        if not shape[0]:
            return [[i] for i in range(len(self.items))]
        return self.rows_for(shape[0], named=False)

    def box_size(self, rows) -> tuple[float, float]:
        """The size of a box of ``rows``."""
        pad, gap, shrink = 4 * self.scale, 14 * self.scale, 3 * self.scale
        widths = self.entry_widths()
        w = max((sum(widths[i] for i in row) + gap * (len(row) - 1) for row in rows), default=0)
        h = sum(self._row_height([self.items[i] for i in row], False) - shrink for row in rows)
        return w + 2 * pad, h + 2 * pad + shrink

    def trial_boxes(self, width: float) -> list[tuple[tuple, float, float]]:
        """(shape, w, h) of each box a placement tries on a plane ``width`` pixels wide,
        the text at its size: one entry a row (a column beside the points; its labels in
        two or three lines for a narrow band), or rows across the plane (a band above or
        below them). Measured once while the entries stay (laying the labels out again for
        each shape took most of a placement's time); the labels are left as they were."""
        trials = self._trials
        if len(trials) > 32:  # (a wide shape a plane's width: each resize adds one)
            trials.clear()
        wide = (width - 2 * self.gap, None)
        if "widest" not in trials or wide not in trials:
            was, smaller = self.wrap, self.smaller
            self.set_smaller(0)
            self.set_wrap(None)
            trials.setdefault("widest", max(label.minimumWidth() for _, label in self.items))
            for shape in self._shapes(trials["widest"], wide):
                if shape not in trials:
                    self.set_wrap(shape[1])
                    trials[shape] = self.box_size(self.box_rows(shape))
            self.set_wrap(was)
            self.set_smaller(smaller)
        return [(shape, *trials[shape]) for shape in self._shapes(trials["widest"], wide)]

    @staticmethod
    def _shapes(widest: float, wide: tuple) -> list[tuple]:
        return [(0.0, None), *((0.0, f * widest) for f in (0.5, 0.3, 0.2, 0.14)), wide]

    def strip_height(self, width: float) -> float:
        """The strip's height across ``width`` pixels."""
        pad, shrink = 4 * self.scale, 3 * self.scale
        rows = self.rows_for(width)
        h = sum(
            self._row_height([self.items[i] for i in row], n == 0) - shrink
            for n, row in enumerate(rows)
        )
        return h + 2 * pad + shrink

    # ------------------------------------------------------------------ where it is
    def _show_axis_name(self, axis_draws: bool) -> None:
        axis = self.plot_item.getAxis("bottom")
        axis_draws = axis_draws and self.axis_named
        if axis.label.isVisible() != axis_draws:
            axis.showLabel(axis_draws)

    def put_inside(self, spot, shape=(0.0, None)) -> None:
        """A box at ``spot`` of the view (SPOTS), of ``shape`` (``box_rows``)."""
        self.fit = shape
        self.set_wrap(shape[1])
        if self.placed:
            self.plot_item.layout.removeItem(self)
            self.placed = False
        if self.parentItem() is not self.view:
            self.setParentItem(self.view)
        self.inside, self.spot = True, spot
        self.set_smaller(0)
        self._show_axis_name(True)
        self.setVisible(bool(self.items))
        self.refit()

    def put_outside(self) -> None:
        """A strip under the axes (none on a plot too small for it)."""
        self.inside = False
        self.set_wrap(None)
        self.refit()

    def refit(self) -> None:
        """The entries laid out again where the legend is (after a resize or new
        entries); none while ``held`` (PlaneKey.hold)."""
        if self.held:
            return
        if self.inside:
            w, h = self._lay_out(self.box_rows(self.fit), None)
            self.setMinimumSize(0, 0)
            self.setMaximumSize(w, h)  # (the strip's fixed height no longer)
            self.resize(w, h)
            box = self.view.boundingRect()
            rect = spot_rects(box.width(), box.height(), (w, h), self.gap)[SPOTS.index(self.spot)]
            self.setPos(rect[0], rect[1])
            self.update()
            return
        width = self.plot_item.geometry().width()
        least = round(float(self.text_size.removesuffix("pt")) * (1 - STRIP_SHRINK))
        for points in range(least + 1):  # (smaller text where it saves a row)
            self.set_smaller(points)
            if len(self.rows_for(width)) <= STRIP_ROWS:
                break
        h = self.strip_height(width)
        on = bool(self.items) and width > 0 and h <= LEGEND_MAX * self.plot_item.geometry().height()
        if on and not self.placed:
            self.plot_item.layout.addItem(self, ROW, 0, 1, 3)
            self.placed = True
        elif not on and self.placed:
            self.plot_item.layout.removeItem(self)
            self.placed = False
        self._show_axis_name(not on)
        self.setVisible(on)
        if on:
            self._lay_out(self.rows_for(width), width)
            self.setMinimumHeight(h)
            self.setMaximumSize(QWIDGETSIZE_MAX, h)  # (the box's width no longer)
            self.plot_item.layout.activate()  # (in its row now: not where the box was)
            self.update()

    @property
    def gap(self) -> float:
        return 6 * self.scale

    def boundingRect(self) -> QtCore.QRectF:
        return QtCore.QRectF(0, 0, self.width(), self.height())

    def paint(self, p, *args):
        if self.inside:  # a box: the plane's marks under it do not show through
            p.setPen(pg.mkPen(120, 120, 120, 160))
            p.setBrush(pg.mkBrush(255, 255, 255, 215))
            p.drawRect(self.boundingRect())

    # the mouse passes through (a sample of pyqtgraph's hid its item on a click)
    def mouseDragEvent(self, ev):
        ev.ignore()

    def mouseClickEvent(self, ev):
        ev.ignore()
