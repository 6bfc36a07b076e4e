"""A box that keeps its widgets' relayouts to itself unless its size hints change.

Qt's QLayout::activate ends with the holding widget's updateGeometry(), "ideally only if
sizeHint() or sizePolicy() has changed" as its source says, but always: a label given a new
text of the same size (a view's readout, several times a second while playing) relayouts
every layout up to the window and repaints what they hold. A SteadyBox lays out its own
children as usual and passes the request on only when its hints did change.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


class SteadyBox(QtWidgets.QWidget):
    """``widgets`` in a column (no margins, ``spacing`` apart), in a box that asks the
    layout around it again only when its size hints change."""

    def __init__(self, widgets, spacing: int = 0, parent=None):
        super().__init__(parent)
        self.inner = QtWidgets.QWidget(self)  # (its layout's requests come to this box)
        column = QtWidgets.QVBoxLayout(self.inner)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(spacing)
        for widget in widgets:
            column.addWidget(widget)
        self._hints = self._measure()

    def _measure(self) -> tuple:
        inner = self.inner
        height = inner.heightForWidth(self.width()) if inner.hasHeightForWidth() else -1
        return (inner.sizeHint(), inner.minimumSizeHint(), inner.hasHeightForWidth(), height)

    def sizeHint(self) -> QtCore.QSize:
        return self.inner.sizeHint()

    def minimumSizeHint(self) -> QtCore.QSize:
        return self.inner.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:
        return self.inner.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        return self.inner.heightForWidth(width)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.inner.setGeometry(self.rect())
        self._tell(resized=True)

    def event(self, event) -> bool:
        if event.type() == QtCore.QEvent.Type.LayoutRequest:
            self._tell()
            return True
        return super().event(event)

    def _tell(self, resized: bool = False) -> None:
        """The layout around asked again if the hints it knows changed; a resize's new
        height for the new width is the one it asked for (a resize can come between a
        child's new hint and its request: told all the same)."""
        hints = self._measure()
        if hints[:3] != self._hints[:3] or (not resized and hints != self._hints):
            self.updateGeometry()
        self._hints = hints
