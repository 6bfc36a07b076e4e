"""A label that wraps its words and is as tall as its lines: the solver panel's messages
and notes, the race table's reasons (a plain wrapped QLabel in a scroll area's form was
given one line's height and its text was cut)."""

from __future__ import annotations

from PySide6 import QtWidgets


class WrappedLabel(QtWidgets.QLabel):
    """A word-wrapped label as tall as its lines at its width (in a form inside a scroll
    area it was given one line's height, and its text was cut)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(True)

    def fit_height(self) -> None:
        self.setMinimumHeight(0)  # (a label's heightForWidth is at least its minimum)
        # (−1 from an empty label: no height of its own)
        self.setMinimumHeight(max(0, self.heightForWidth(max(self.width(), 60))))

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.fit_height()
