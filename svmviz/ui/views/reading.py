"""A reading: a view of the training beside the plane, registered with the frame router
(svmviz.ui.window.frame_router) by name, with its pace.

napari's ``qt_dims.py`` subscribes itself to the model's events; here the router keeps the
pacing in one place (the bench measures it) and each reading says how often it wants the
newest snapshot: with every frame of the plane, with the curves (every CURVE_SECONDS while
playing, at once otherwise), or with the curves and only while on screen. A new reading is
one module's ``reading(...)`` and one ``router.register(name, reading)``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6 import QtWidgets


class Pace(enum.Enum):
    FRAME = "with every frame of the plane"
    CURVES = "with the curves"
    VISIBLE = "with the curves, while on screen"


@dataclass(frozen=True)
class Reading:
    """``show(snapshot, router)`` shows a snapshot (the router gives the session, the
    window's state and the classes present); ``clear()`` forgets the model (none trained);
    ``widget``: what must be on screen for a ``Pace.VISIBLE`` reading to be shown."""

    show: Callable[[Any, Any], None]
    pace: Pace = Pace.VISIBLE
    widget: QtWidgets.QWidget | None = None
    clear: Callable[[], None] | None = None

    def due(self, pace: Pace) -> bool:
        """Whether the router's ``pace`` pass shows this reading now."""
        if pace is Pace.FRAME:
            return self.pace is Pace.FRAME
        if self.pace is Pace.FRAME:
            return False
        return self.pace is Pace.CURVES or on_screen(self.widget)


def on_screen(widget: QtWidgets.QWidget | None) -> bool:
    """Whether any of ``widget`` is visible (a dock behind another tab counts as visible to
    Qt; its visible region is empty). A widget its children cover (a plot's viewport covers
    the plot) has an empty visible region of its own: then any visible child's counts."""
    if widget is None or not widget.isVisible():
        return False
    if not widget.visibleRegion().isEmpty():
        return True
    return any(
        not child.visibleRegion().isEmpty()
        for child in widget.findChildren(QtWidgets.QWidget)
        if child.isVisible()
    )
