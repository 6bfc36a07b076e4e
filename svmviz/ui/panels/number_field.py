"""A text field for one number of the configuration (λ, η₀, γ, c₀, B): it shows the value in
force, reads what is typed, and refuses a bad entry with a message naming the problem.

The value shown is kept exactly: a field whose text was not touched reads as that value,
not as its rounded text (so editing one field never changes another's value by rounding).
A refused entry marks the field (in the error colour, not a style sheet: a widget with one
stops inheriting its parent's font) until it is typed into again; Escape shows the value in
force again (and leaves the field, svmviz.ui.window.focus).
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.limits import Bound
from svmviz.ui import style

MARK_BACKGROUND = "#FBE3E7"  # a refused entry's field: a pale ERROR_COLOR


def exact(value: float) -> str:
    """``value`` in as few digits as read back the same (%g where that is exact)."""
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


class NumberField(QtWidgets.QLineEdit):
    """A number ``name`` within ``bound`` (svmviz.core.limits.BOUNDS: the range the files
    and the command line take too); an empty field reads as None where ``empty`` says what
    that means."""

    def __init__(self, name: str, bound: Bound, *, empty: str | None = None, parent=None):
        super().__init__(parent)
        self.name, self.bound, self.empty = name, bound, empty
        self._value: float | None = None
        self._shown = ""
        self._palette = self.palette()
        self.textEdited.connect(lambda _: self.set_marked(False))

    def rule(self) -> str:
        """What the field takes, in words: "λ must be a number from 1e-50 to 1e+06, or 0"."""
        rule = f"{self.name} must be {self.bound.rule()}"
        return rule + (f" (or empty: {self.empty})" if self.empty else "")

    def show_value(self, value: float | None, text: str | None = None) -> None:
        """Show ``value`` (as ``text``, by default exactly), the value in force."""
        self._value = value
        self._shown = text if text is not None else ("" if value is None else exact(value))
        self.setText(self._shown)
        self.setCursorPosition(0)  # the leading digits of a long value (1/(C·m)), not its tail
        self.set_marked(False)

    def value(self) -> float | None:
        """The number in the field: the value shown if its text was not changed, else what
        is typed; an InputError names the problem."""
        text = self.text().strip()
        if text == self._shown.strip():
            return self._value
        if not text and self.empty:
            return None
        try:
            x = float(text)
        except ValueError:
            x = math.nan
        if self.bound.whole and x.is_integer():  # (a count, a seed: "4" is the int 4)
            x = int(x)
        if math.isnan(x) or not self.bound.holds(x):
            raise InputError(f"{self.rule()}, not {text!r}" if text else self.rule())
        return x

    def revert(self) -> None:
        """Show the value in force again (what was typed is dropped)."""
        self.setText(self._shown)
        self.set_marked(False)

    def set_marked(self, marked: bool) -> None:
        """Mark the field as holding a refused entry (or not)."""
        palette = QtGui.QPalette(self._palette)
        if marked:
            palette.setColor(QtGui.QPalette.ColorRole.Base, QtGui.QColor(MARK_BACKGROUND))
            palette.setColor(QtGui.QPalette.ColorRole.Text, QtGui.QColor(style.ERROR_COLOR))
        self.setPalette(palette)
        self.setProperty("marked", marked)

    def keyPressEvent(self, event):
        if event.key() == QtCore.Qt.Key.Key_Escape:
            self.revert()
            event.ignore()  # up to the panel, which gives the focus back (svmviz.ui.window.focus)
            return
        super().keyPressEvent(event)
