"""The plane's legend, never over a point: inside the plane in a spot that holds none, or
else in a strip below it; in the words of the problem in force.

Its place is chosen when the points, the view or the entries change, never on a frame: it
stays still while a run plays (the lines move under it; the points do not). Inside, it is a
box in one of SPOTS (the corners, then along the edges), the one where it hides no point
and the least of the lines drawn, kept while it hides no point; where no spot is free (a
ring of circles, a plane fitted tightly in presentation mode) it is a strip below the axes,
its entries flowing in as few rows as the width allows and ending with the horizontal
axis's name, in the row that name took. Whether a spot is free is judged on the plane as it
is with the legend inside (the view's target range in the taller view), so that moving the
legend out, which makes the view shorter, does not bring it back in. It takes no mouse
event.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from svmviz.core.lesson.support import rule
from svmviz.core.solvers.losses import MODULES
from svmviz.ui import style
from svmviz.ui.plane.given_model import overlay_words
from svmviz.ui.plane.items import (
    INLIER_COLOR,
    MARGIN_COLOR,
    TUBE_COLOR,
    FillSample,
    GradientSample,
    Sample,
    cache_tree,
)

LEGEND_POINTS = 10  # the legend's text size at scale 1
LEGEND_GROWTH = 0.0  # of the plot's scale above 1: its legend grows by this share of it
BOX_MAX = 0.6  # the box takes at most this share of the plane's width and height
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
CLEARANCE = 8  # pixels more a spot must be clear by to bring the strip back inside
# an edit's placement waits until the first frame of the job it starts is drawn (a click
# shows its model first; a drag's moves place it once), or this long when none comes (a
# job that fails): longer than that frame takes, a race's or the largest kernel model's
PLACE_AFTER_MS = 300


def line_inside(rects: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """The length of the segments ``segs`` (s, 2, 2) inside each of ``rects`` (r, 4: left,
    top, right, bottom), each clipped to it (Liang–Barsky)."""
    left, top, right, bottom = (rects[:, k, None] for k in range(4))
    a, d = segs[None, :, 0], segs[None, :, 1] - segs[None, :, 0]
    t0 = np.zeros((len(rects), len(segs)))
    t1 = np.ones_like(t0)
    crossed = np.ones(t0.shape, dtype=bool)
    for p, q in (
        (-d[..., 0], a[..., 0] - left),
        (d[..., 0], right - a[..., 0]),
        (-d[..., 1], a[..., 1] - top),
        (d[..., 1], bottom - a[..., 1]),
    ):
        p = np.broadcast_to(p, t0.shape)
        crossed &= (p != 0) | (q >= 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = q / p
        t0 = np.where(p < 0, np.maximum(t0, ratio), t0)
        t1 = np.where(p > 0, np.minimum(t1, ratio), t1)
    inside = np.clip(t1 - t0, 0.0, None) * crossed * np.hypot(d[..., 0], d[..., 1])
    return inside.sum(axis=1)


def points_inside(rects: np.ndarray, points: np.ndarray, r: float) -> np.ndarray:
    """How many of ``points`` (n, 2), as discs of radius ``r``, touch each of ``rects``."""
    left, top, right, bottom = (rects[:, k, None] for k in range(4))
    x, y = points[None, :, 0], points[None, :, 1]
    hit = (x >= left - r) & (x <= right + r) & (y >= top - r) & (y <= bottom + r)
    return np.count_nonzero(hit, axis=1)


def segments(lines) -> np.ndarray:
    """The finite segments (s, 2, 2) of polylines (n, 2), NaN rows breaking them."""
    parts = [np.stack((xy[:-1], xy[1:]), axis=1) for xy in lines if len(xy) >= 2]
    if not parts:
        return np.zeros((0, 2, 2))
    s = np.concatenate(parts)
    return s[np.isfinite(s).all(axis=(1, 2))]


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


class PlaneKey:
    """The legend of a DecisionPlot's marks: which entries (``entries``), drawn again when
    what they depend on changes (``draw``), at the plot's scale (``set_scale``)."""

    def __init__(self, plot):
        self.plot = plot
        self.legend = PlaneLegend(plot.getPlotItem(), plot.view)
        self.k = 1.0  # the legend's scale
        self.picture = 1.0  # a picture's scale, of the plot's (svmviz.ui.window.render.plane_twin)
        self.steps = True  # whether a step inspector's entry may come (not in a picture)
        self._key = None
        self.avoid: list[QtCore.QRectF] = []  # in the view's pixels: a picture's title
        plot.view.sigResized.connect(self._on_resized)
        plot.view.sigRangeChanged.connect(self.place)
        self._soon = QtCore.QTimer(plot, singleShot=True, interval=PLACE_AFTER_MS)
        self._soon.timeout.connect(self.place)
        self._releasing = False

    def hold(self) -> None:
        """No fit nor placement of the legend until the event loop runs next, then one: a
        window being built and shown resizes and ranges its plane many times, and its
        first frame comes after."""
        self.legend.held = True
        QtCore.QTimer.singleShot(0, self.plot, self._release)

    def _release(self) -> None:
        """Placed first (inside, it is laid out there), then the strip laid out if that is
        where it is: not laid out as a strip first and moved inside after."""
        self.legend.held = False
        self._releasing = True  # (the resizes and ranges this makes: placed for already)
        try:
            self._place()
            if not self.legend.inside:
                self.legend.refit()
        finally:
            self._releasing = False

    def place_soon(self) -> None:
        """Place the legend after the next frame (new points: see PLACE_AFTER_MS)."""
        if not self.legend.held:
            self._soon.start(PLACE_AFTER_MS)

    def place_never(self) -> None:
        """No placement waiting (the plot closes)."""
        self._soon.stop()

    def frame_drawn(self) -> None:
        """A frame drawn: a placement waiting for it comes next, after its paint."""
        if self._soon.isActive():
            self._soon.start(0)

    def _on_resized(self, *_) -> None:
        if self._releasing:
            return
        self.legend.refit()
        self.place()

    def _lines(self) -> list[np.ndarray]:
        """The lines drawn on the plane, as (n, 2) data coordinates."""
        p = self.plot
        lines = []
        for item in (
            p.boundary,
            p.margin,
            p.levels,
            p.tube_slack,
            p.optimum_boundary,
            p.optimum_margin,
            p.given.boundary,
            p.given.margin,
            *p.race.lines(),
        ):
            x, y = item.getData()
            if item.isVisible() and x is not None and len(x):
                lines.append(np.column_stack((x, y)))
        return lines

    def plane_inside(self):
        """(width, height, pixels) of the plane as it is with the legend inside: its view
        box's size and a map from data to its pixels (a strip below makes it shorter:
        then its target range in the taller box, as the aspect lock fits it)."""
        view, legend = self.plot.view, self.legend
        box = view.boundingRect()
        width, height = box.width(), box.height()
        if legend.inside or not legend.placed:
            (x0, x1), (y0, y1) = view.viewRange()
        else:
            label = self.plot.getAxis("bottom").label
            height += legend.height() - 0.8 * label.boundingRect().height()  # (AxisItem's)
            (x0, x1), (y0, y1) = view.state["targetRange"]
            c, k = (
                ((x0 + x1) / 2, (y0 + y1) / 2),
                max((x1 - x0) / max(width, 1.0), (y1 - y0) / max(height, 1.0)),
            )
            x0, x1 = c[0] - k * width / 2, c[0] + k * width / 2
            y0, y1 = c[1] - k * height / 2, c[1] + k * height / 2
        sx, sy = width / max(x1 - x0, 1e-300), height / max(y1 - y0, 1e-300)

        def pixels(xy):
            return np.column_stack(((xy[:, 0] - x0) * sx, (y1 - xy[:, 1]) * sy))

        return width, height, pixels

    def place(self) -> None:
        """Inside, in the spot that hides no point and the least of the
        lines, kept while it hides nothing; else the strip below (not while held)."""
        if not (self.legend.held or self._releasing):
            self._place()

    def _place(self) -> None:
        p, legend = self.plot, self.legend
        if not legend.items:
            return
        width, height, pixels = self.plane_inside()
        X = pixels(p.session.points.X)
        segs = segments([pixels(xy) for xy in self._lines()])
        # (a point's marker clear of it; a ring around it may touch its edge)
        r = style.POINT_SIZE * p.scale / 2 + 2 + (0.0 if legend.inside else CLEARANCE)
        here = (legend.fit, SPOTS.index(legend.spot)) if legend.inside else None
        candidates = []  # (lines hidden, order, shape, spot)
        # room for the step inspector's entry where it is not there yet: a step does not
        # move the legend out (the plane's size stays as the scenario opened)
        reserve = 21 * p.scale if self.steps and p._step_marks is None else 0.0
        for order, (shape, w, h) in enumerate(legend.trial_boxes(width)):
            rects = spot_rects(width, height, (w, h + reserve), legend.gap)
            free = points_inside(rects, X, r) == 0
            free &= (rects[:, 0] >= 0) & (rects[:, 1] >= 0)  # (no larger than the plane)
            free &= w <= BOX_MAX * width and h <= BOX_MAX * height  # (most of a small plane)
            free &= (rects[:, 2] <= width) & (rects[:, 3] <= height)
            for a in self.avoid:
                free &= (
                    (rects[:, 0] >= a.right())
                    | (rects[:, 2] <= a.left())
                    | (rects[:, 1] >= a.bottom())
                    | (rects[:, 3] <= a.top())
                )
            spots = np.flatnonzero(free)
            lines = line_inside(rects[spots], segs)  # (of the free spots only: each its own)
            for k, hidden in zip(spots, lines, strict=True):
                candidates.append((hidden - 1e-9 * ((shape, k) == here), order, k, shape))
        if not candidates:
            if legend.inside:
                legend.put_outside()
            return
        if here is not None and any(c[2:] == (here[1], here[0]) and c[0] <= 0 for c in candidates):
            return  # where it is hides nothing
        lines, _, k, shape = min(candidates, key=lambda c: c[:3])
        if (shape, k) != here:
            legend.put_inside(SPOTS[k], shape)

    def set_scale(self, k: float) -> None:
        """The legend's text and spacing at the plot's scale ``k``, less larger (by
        LEGEND_GROWTH of it): presentation mode's marks are large for the back of the room,
        its legend need not take as much of the plane; its entries drawn anew."""
        screen = k / self.picture  # (presentation mode's scale)
        self.k = self.picture * (1.0 + LEGEND_GROWTH * (screen - 1.0))
        self.legend.set_text(f"{round(LEGEND_POINTS * self.k)}pt", self.k)
        self._key = None

    def draw(self) -> None:
        """The entries again, where what they say has changed."""
        p = self.plot
        parts = p.parts
        has = (lambda part: False) if parts is None else (lambda part: bool(np.any(parts == part)))
        key = (
            p._ring_label,
            p.words,
            p.optimum_shown,
            has(1),
            has(2),
            p.multiclass,
            p._step_marks,
            p.given.legend_key(),
            p.race.legend_key(),
            p.scale,
        )
        if key == self._key:
            return
        self._key = key
        self.legend.clear()
        step = None if p._step_marks is None else p._step_marks[0]
        for item, label in self.entries():
            if isinstance(item, Sample):  # (a shaded area or a colour map)
                self.legend.addItem(item, label)
                continue
            on_point = any(item is x for x in (p.rings, p.wrong, step))
            below = p.optimum_margin if item is p.optimum_boundary else None
            if below is not None and p.kind in ("one-class", "regression2d"):
                below = None  # (no margins: one line)
            # (the step's squares, drawn around a point on the plane, smaller here)
            size = (style.POINT_SIZE + 7) * self.k if item is step else None
            # (its line as long as the plane's dashes need: at the plot's scale)
            self.legend.addItem(Sample(item, p.scale, on_point, below, size), label)
        cache_tree(self.legend)
        self.legend.refit()
        self.place()

    def entries(self) -> list[tuple[object, str]]:
        """(item or legend sample, label) of the legend's entries: HTML, in the words of the
        problem in force (svmviz.core.pictures.frame's kinds; the margin ±1 or ±ρ, the ε fixed or
        learned, read from the loss module's OFFSETS) and of a binary model (f, y f) or one
        with 3+ classes (f_k, the argmax)."""
        p = self.plot
        kind, loss, has_margin, value_range = p.words
        learns = getattr(MODULES.get(loss), "OFFSETS", ())
        k = self.k
        edge = pg.mkPen(MARGIN_COLOR, width=2 * k, style=QtCore.Qt.PenStyle.DashLine)
        if kind == "regression":
            eps = "ε (learned)" if "epsilon" in learns else "ε"
            entries = [
                (p.boundary, "f(x), the prediction of y"),
                (FillSample(TUBE_COLOR, k, edge), f"ε-tube f(x) ± {eps}: no loss inside"),
                (p.rings, f"support vectors ({rule(kind, 1.0)}): on or outside the tube"),
                (p.tube_slack, "outside the tube by |y − f(x)| − ε"),
            ]
        elif kind == "regression2d":
            entries = [
                (GradientSample(p.value_lut, k), f"f(x), targets y: {value_range}"),
                (p.levels, "contours of f"),
                (p.rings, f"support vectors ({rule(kind, 1.0)}; larger: farther out)"),
            ]
        elif kind == "one-class":
            inlier = p._blend([INLIER_COLOR])[0]
            entries = [
                (FillSample(QtGui.QColor.fromRgb(int(inlier)), k), "f(x) ≥ 0: the inliers' region"),
                (p.boundary, "boundary f = 0"),
                (p.rings, f"support vectors ({rule(kind, 0.0)})"),
                (p.wrong, "outlier: f(x) &lt; 0"),
            ]
        else:
            entries = self._svc_entries(has_margin, "ρ" if "rho" in learns else "1")
        parts = p.parts
        if parts is not None and np.any(parts == 1):
            entries.append((p.test_sample, "test point (not trained on)"))
        if parts is not None and np.any(parts == 2):
            entries.append((p.unused_sample, "left out of the training set"))
        if p.optimum_shown:  # one entry, two lines: the boundary above the margins
            optimum = overlay_words(kind, has_margin)
            entries.append((p.optimum_boundary, f"exact optimum: {optimum}"))
        entries += p.given.legend_entries()
        race = p.race.legend_entries()
        if race:  # run 1's entry shows the plane's own lines: named once, not twice
            entries = [e for e in entries if e[0] is not p.boundary and e[0] is not p.margin]
        entries += race
        if p._step_marks is not None:
            entries.append(p._step_marks)
        return entries

    def _svc_entries(self, has_margin: bool, unit: str) -> list[tuple[object, str]]:
        """The classifier's entries: margins f = ±1 (±ρ for ν-SVC) where its loss has them."""
        p = self.plot
        multi = p.multiclass
        ring = None  # (no margin, no support vectors: every point weighs in the loss)
        if has_margin:
            ring = f"support vectors ({rule('svc', 1.0, multi, unit, html=True)})"
            if p._ring_label == "kernel":
                ring += ", larger: larger α<sub>i</sub>"
        if multi:
            entries = [
                (p.boundary, "boundaries f<sub>k</sub> = f<sub>j</sub>"),
                (p.margin, f"margins f<sub>k</sub> − f<sub>j</sub> = {unit}"),
                (p.rings, ring),
                (p.wrong, "misclassified: argmax f<sub>k</sub> ≠ y"),
            ]
        else:
            entries = [
                (p.boundary, "boundary f = 0"),
                (p.margin, f"margins f = ±{unit}"),
                (p.rings, ring),
                (p.wrong, "misclassified: on the other side"),
            ]
        return [e for e in entries if e[1] is not None and (has_margin or e[0] is not p.margin)]
