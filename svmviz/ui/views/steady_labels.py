"""Labels that keep the height they reached: a view's readouts under a plot change several
times a second while playing, and a label that shrank and grew again resized the plot
each time (the weight-space view's notes)."""

from __future__ import annotations

import weakref

from PySide6 import QtWidgets

_MEASURED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # label: (text, width)


def steady(*labels: QtWidgets.QLabel) -> None:
    """Each label's height grows to its text's and never shrinks at the view's width: a
    line more or less below the plot ("F(w) being computed…" comes and goes several times a
    second while playing) resized the plot, a jump of the picture and a redraw each time.
    A label is measured again only for a new text or width (measuring a rich text lays it
    out anew, and repaints it: at every drawing, the key's and the readouts' repaints)."""
    for label in labels:
        if label.isVisible() and label.width() > 0:
            key = (label.text(), label.width())
            if _MEASURED.get(label) == key:
                continue
            _MEASURED[label] = key
            need = label.heightForWidth(label.width())
            if need > label.minimumHeight():
                label.setMinimumHeight(need)
