"""Play's speed, shown in two places that stay in step with it.

The window's state (svmviz.app.window_state.WindowState) holds the chosen
:class:`svmviz.core.training.pace.Speed` and says when it changes; the training toolbar's combo and
the Training menu's Speed submenu are views of it (set with their signals blocked, so
nothing echoes back), and the worker follows it.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.training.pace import CHOICES, DECADE_SECONDS, Speed

TIP = (
    f"how fast Play goes: log-t pace (t = 1, 2, 3… one at a time, then each decade of t in "
    f"about {DECADE_SECONDS:g} s, as the curves' log-t axes show it), N iterations per "
    "frame (slow motion), or instant (as fast as possible)"
)


class SpeedCombo(QtWidgets.QComboBox):
    """The toolbar's compact choice of speed."""

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self._state = state
        self.addItems([s.label for s in CHOICES])
        self.setToolTip(TIP)
        self.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # Space and the arrows stay shortcuts
        self._show(state.speed)
        state.speed_changed.connect(self._show)
        self.currentIndexChanged.connect(self._on_index)

    @QtCore.Slot(object)
    def _show(self, speed: Speed) -> None:
        self.blockSignals(True)
        self.setCurrentIndex(CHOICES.index(speed))
        self.blockSignals(False)

    @QtCore.Slot(int)
    def _on_index(self, index: int) -> None:
        if index >= 0:
            self._state.set_speed(CHOICES[index])


class SpeedMenu(QtWidgets.QMenu):
    """Training ▸ Speed: one checkable action per speed, exactly one checked."""

    def __init__(self, state, parent=None):
        super().__init__("Speed", parent)
        self._state = state
        self.setToolTipsVisible(True)
        self.group = QtGui.QActionGroup(self)
        self.group.setExclusive(True)
        for speed in CHOICES:
            action = self.addAction(speed.label)
            action.setCheckable(True)
            action.setData(speed.code)
            action.setStatusTip(TIP)
            self.group.addAction(action)
        self._show(state.speed)
        state.speed_changed.connect(self._show)
        self.group.triggered.connect(self._on_triggered)

    @QtCore.Slot(object)
    def _show(self, speed: Speed) -> None:
        self.group.blockSignals(True)
        self.group.actions()[CHOICES.index(speed)].setChecked(True)
        self.group.blockSignals(False)

    @QtCore.Slot(QtGui.QAction)
    def _on_triggered(self, action: QtGui.QAction) -> None:
        self._state.set_speed(Speed(int(action.data())))
