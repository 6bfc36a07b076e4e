"""The plane's legend: a small box that goes where it hides the least of the plane, and that
the mouse passes through.

It takes no mouse event: a click on it adds a point, a drag on it pans or moves a point, as
anywhere on the plane (a legend that took the click added nothing, silently). Its place is
one of SPOTS (the corners, then along the edges): the one hiding the fewest points and the
least length of the lines drawn (boundary, margins), a point weighing as a line across the
legend, staying where it is while that spot is free. Where no spot is free it lets what it
covers show through.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

# where the legend may go: its (x, y) anchor as fractions of the plane (y from the top),
# the corners first (the top right, where it has always been), then along the edges
EDGE_STEPS = 17
_along = np.linspace(0.0, 1.0, EDGE_STEPS)[1:-1]
SPOTS = (
    ((1.0, 0.0), (0.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    + tuple((x, y) for y in (0.0, 1.0) for x in _along)
    + tuple((x, y) for x in (0.0, 1.0) for y in _along)
)
SEE_THROUGH = 0.7  # the legend's opacity where no spot is free of points and lines


def segments(lines) -> np.ndarray:
    """The finite segments (s, 2, 2) of polylines (n, 2), NaN rows breaking them."""
    parts = [np.stack((xy[:-1], xy[1:]), axis=1) for xy in lines if len(xy) >= 2]
    if not parts:
        return np.zeros((0, 2, 2))
    s = np.concatenate(parts)
    return s[np.isfinite(s).all(axis=(1, 2))]


def clutter(rects: np.ndarray, points: np.ndarray, segs: np.ndarray, size: float) -> np.ndarray:
    """What a legend hides at each of ``rects`` (r, 4: left, top, right, bottom): the
    points (n, 2) whose markers (``size`` pixels) it touches, each as a line across it,
    plus the length of the segments ``segs`` (s, 2, 2) inside it (each clipped to it,
    Liang–Barsky), in markers' widths. 0: nothing."""
    left, top, right, bottom = (rects[:, k, None] for k in range(4))
    r = size / 2
    x, y = points[None, :, 0], points[None, :, 1]
    hidden = (x >= left - r) & (x <= right + r) & (y >= top - r) & (y <= bottom + r)
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
    # a point hidden is gone (see-through, it looks like one of the legend's samples), a line
    # is still seen on either side: a point counts as a line across the whole legend
    across = (rects[:, 2] - rects[:, 0]) / size
    return across * np.count_nonzero(hidden, axis=1) + inside.sum(axis=1) / size


class PlaneLegend(pg.LegendItem):
    """The legend of the plane's marks, in one of SPOTS (``place``); transparent to the
    mouse."""

    def __init__(self, **options):
        super().__init__(offset=None, **options)
        self.spot = SPOTS[0]
        self.gap = 6.0

    def set_spot(self, spot, gap: float) -> None:
        """Anchor the legend at ``spot`` of its parent, ``gap`` pixels from its edges."""
        self.spot, self.gap = spot, gap
        sx, sy = spot
        self.anchor(itemPos=spot, parentPos=spot, offset=((1 - 2 * sx) * gap, (1 - 2 * sy) * gap))

    def rects(self, width: float, height: float) -> np.ndarray:
        """(left, top, right, bottom) of the legend at each of SPOTS of a parent of that
        size."""
        size = self.boundingRect()
        w, h = size.width(), size.height()
        f = np.array(SPOTS)
        left = self.gap + f[:, 0] * (width - w - 2 * self.gap)
        top = self.gap + f[:, 1] * (height - h - 2 * self.gap)
        return np.column_stack((left, top, left + w, top + h))

    def place(self, width: float, height: float, points, lines, size: float) -> None:
        """Go to the spot of a ``width`` × ``height`` parent that hides the least of
        ``points`` (n, 2) and ``lines`` (polylines), in the parent's pixels, if the current
        one hides anything; see-through while it still does."""
        rects, segs = self.rects(width, height), segments(lines)
        here = SPOTS.index(self.spot) if self.spot in SPOTS else 0
        # (while frames come this runs every 150 ms: the other spots only when this one hides)
        least = clutter(rects[here : here + 1], points, segs, size)[0]
        if least > 0:
            score = clutter(rects, points, segs, size)
            best = int(np.argmin(score))  # (the first of equals: a corner before an edge)
            if score[best] < least:
                here, least = best, score[best]
                self.set_spot(SPOTS[best], self.gap)
        self.setOpacity(1.0 if least == 0 else SEE_THROUGH)

    # the mouse passes through: the plane under the legend takes clicks, drags and the wheel
    def hoverEvent(self, ev):
        pass

    def mouseDragEvent(self, ev):
        ev.ignore()

    def mouseClickEvent(self, ev):
        ev.ignore()

    def mouseDoubleClickEvent(self, ev):
        ev.ignore()
