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
event. Here: where it goes and when its entries are drawn again (PlaneKey); the box is
svmviz.ui.plane.legend_box, its words svmviz.ui.plane.legend_words.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore

from svmviz.ui import style
from svmviz.ui.plane.items import Sample, cache_tree
from svmviz.ui.plane.legend_box import LEGEND_POINTS, SPOTS, PlaneLegend, spot_rects
from svmviz.ui.plane.legend_words import legend_entries

LEGEND_GROWTH = 0.0  # of the plot's scale above 1: its legend grows by this share of it
BOX_MAX = 0.6  # the box takes at most this share of the plane's width and height
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
        for item, label in legend_entries(p, self.k):
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
