"""The race runs' paths in weight space: each run's averaged path of the class row shown,
in its colour and dash, and their entries of the view's key. Run 1's path is the view's own
(svmviz.ui.views.weight_space); these are runs 2…, drawn again only when a path grew."""

from __future__ import annotations

import html

from PySide6 import QtCore

from svmviz.core.pictures.weight_path import points
from svmviz.ui.views.weight_items import WeightItems


class RacePaths:
    """Runs 2…'s paths on ``items``; ``key`` is their entries of the view's key (HTML)."""

    def __init__(self, items: WeightItems):
        self.items = items
        self.key = ""  # the race runs' entries of the key
        self.drawn: tuple = ()  # (job, row, each path's (length, last t)) drawn

    def show(self, paths, colors, labels, k: int) -> None:
        """Each race run's path (svmviz.core.training.race.Path) of row ``k``, in its
        colour; ``labels`` name them in the legend."""
        styles = [QtCore.Qt.PenStyle.SolidLine, QtCore.Qt.PenStyle.DashLine,
                  QtCore.Qt.PenStyle.DotLine, QtCore.Qt.PenStyle.DashDotLine]  # fmt: skip
        xy = [points(p, k, output=True) for p in paths]
        self.items.show_race(xy, list(colors), [styles[i % 4] for i in range(len(xy))])
        self.key = "".join(  # (small as the other entries)
            f' &nbsp; <small><span style="color:{c}"><b>—</b></span>&nbsp;'
            f"{html.escape(str(label))}</small>"
            for c, label in zip(colors, labels, strict=True)
        )

    def follow(self, snap, k: int) -> bool:
        """Draw ``snap``'s runs 2… of row ``k`` (none without a race); True when drawn
        anew (the key changed)."""
        race = snap.race
        if race is not None:
            runs = [r for r in race.runs if r.path is not None]
            # (drawn again for another job or row, or when a path has new points: its
            # length or last t moved; a new job's paths may match the old ones in both)
            ends = tuple((len(r.path.t), r.path.t[-1] if r.path.t else -1) for r in runs)
            key = (snap.generation, k, ends)
            if key != self.drawn:
                self.drawn = key
                self.show([r.path for r in runs], [r.color for r in runs],
                          [r.label for r in runs], k)  # fmt: skip
                return True
        elif self.items.race:
            self.drawn = ()
            self.show([], [], [], k)
            return True
        return False
