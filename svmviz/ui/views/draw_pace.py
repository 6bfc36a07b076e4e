"""When a view that follows training draws next (the weight space, the 3-D view).

A view beside the plane shares the GUI thread with it: while training runs flat out, each of
its drawings, with its painting, is a frame the plane does not get. So a view draws at least
``least`` seconds after its last drawing began and, while training runs flat out, far enough
after it that its drawings take at most SHARE of the thread (the plane keeps 58 of its ~61
frames/s), but never more than LONGEST apart. A step, a slow play or a pause draws at once.
The cost is wall time, waits for the training thread's hold of the GIL included.
"""

from __future__ import annotations

import time

import pyqtgraph as pg
from PySide6 import QtCore

SHARE = 0.04
LONGEST = 1.0  # the most time between two drawings while training (a one-off slow painting,
# OpenGL's shaders compiled, would otherwise hold the view back for 1 / share times its length)


def draw_wait(since: float, cost: float, least: float, share: float = SHARE) -> float:
    """Seconds still to wait for the next drawing, ``since`` seconds after the last one
    began, which took ``cost`` seconds with its painting (0 or less: draw now)."""
    return min(max(least, cost / share), LONGEST) - since


class DrawPace:
    """One view's pace: :meth:`ready` says whether a new state may be drawn now, and if not
    calls ``redraw`` when it may; :meth:`began` and :meth:`ended` time each drawing."""

    def __init__(self, owner: QtCore.QObject, redraw, least: float, share: float = SHARE):
        self.least, self.share = least, share
        self.drawn_at = -float("inf")  # when the last drawing began (perf_counter)
        self.cost = 0.0  # the last drawing's time, with its painting
        self._due = QtCore.QTimer(owner, singleShot=True)
        self._due.timeout.connect(redraw)

    def ready(self, flat_out: bool) -> bool:
        """Whether to draw now; ``flat_out``: training plays at full speed (the share holds)."""
        since = time.perf_counter() - self.drawn_at
        if flat_out:
            wait = draw_wait(since, self.cost, self.least, self.share)
        else:
            wait = self.least - since
        if wait <= 0:
            return True
        if not self._due.isActive():  # (the newest state when due: the timer's redraw)
            self._due.start(int(1000 * wait) + 1)
        return False

    def began(self) -> None:
        self._due.stop()
        self.drawn_at = time.perf_counter()

    def ended(self, paint_seconds: float) -> None:
        """The drawing is made; ``paint_seconds``: its painting's time (it comes later: the
        last one's stands for it)."""
        self.cost = time.perf_counter() - self.drawn_at + paint_seconds

    def stop(self) -> None:
        """No drawing due (the view is cleared)."""
        self._due.stop()


class TimedPlotWidget(pg.PlotWidget):
    """A plot whose last painting's time is ``paint_seconds`` (for :meth:`DrawPace.ended`)."""

    paint_seconds = 0.0

    def paintEvent(self, event) -> None:
        start = time.perf_counter()
        super().paintEvent(event)
        self.paint_seconds = time.perf_counter() - start
