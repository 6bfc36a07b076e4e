"""The timeline in the status bar: where the run is (t of the budget T) and, dragged, any
iteration to go to (the run is replayed from its seed, so each iterate is exactly the one
seen before). It is the window's one progress display, so the two never disagree.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from svmviz.core.limits import MAX_WHOLE
from svmviz.ui.steady_box import SteadyBox

SEEK_MS = 150  # a drag seeks once it rests this long
DIGITS = "0123456789"


class Timeline(QtWidgets.QWidget):
    seek = QtCore.Signal(int)  # the user chose iteration t

    def __init__(self, parent=None):
        super().__init__(parent)
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setMinimumWidth(160)
        self.slider.setRange(0, 1)
        self.slider.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # Space and ← stay the window's
        self.slider.setToolTip(
            "timeline: t of the budget T; drag to go back (or forward) to any iteration: "
            "the run is replayed from its seed, so each iterate is exactly the one seen before"
        )
        self.label = QtWidgets.QLabel()
        self._width_for: tuple = ()  # the text's length and font the label's width is for
        row.addWidget(self.slider, 1)
        row.addWidget(SteadyBox([self.label]))  # (a new t relayouts its box only)
        self._timer = QtCore.QTimer(self, singleShot=True, interval=SEEK_MS)
        self._timer.timeout.connect(lambda: self.seek.emit(self.slider.value()))
        self.slider.valueChanged.connect(self._timer.start)
        self.show_t(0, 0, 1)

    def value(self) -> int:
        return self.slider.value()

    def maximum(self) -> int:
        return self.slider.maximum()

    def setValue(self, t: int) -> None:
        self.slider.setValue(t)

    def busy(self) -> bool:
        """The user is choosing an iteration (a frame arriving must not move the handle)."""
        return self._timer.isActive() or self.slider.isSliderDown()

    def show_t(self, t: int, t0: int, budget: int) -> None:
        """Iteration ``t`` of a run that started at ``t0`` (a warm start) with ``budget``."""
        self.slider.blockSignals(True)
        self.slider.setRange(0, min(max(1, t0 + budget), MAX_WHOLE))  # (a Qt int)
        if not self.busy():
            self.slider.setValue(min(t, MAX_WHOLE))
        self.slider.blockSignals(False)
        self._steady_text(f"t = {t:,} of {t0 + budget:,}")

    def _steady_text(self, text: str) -> None:
        """``text`` in the label, kept as wide as the widest text of its length (its digits
        all the widest one): a new t relayouts the status bar only when its length changes."""
        label = self.label
        key = (len(text), label.font().toString())
        if key != self._width_for:
            self._width_for = key
            metrics = label.fontMetrics()
            label.setMinimumWidth(0)  # (a label's size hint is at least its minimum)
            label.setText(
                max(
                    (text.translate(str.maketrans(DIGITS, d * 10)) for d in DIGITS),
                    key=metrics.horizontalAdvance,
                )
            )
            label.setMinimumWidth(label.sizeHint().width())
        label.setText(text)
