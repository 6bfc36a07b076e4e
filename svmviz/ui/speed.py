"""Play's speed: one setting, shown in two places that stay in step with it.

``SpeedSetting`` holds the chosen :class:`svmviz.core.pace.Speed` and says when it changes;
the training toolbar's combo and the Training menu's Speed submenu are views of it (set with
their signals blocked, so nothing echoes back), and the worker follows it. One place of
truth instead of copies that have to be kept equal.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.pace import CHOICES, DECADE_SECONDS, DEFAULT, Speed

TIP = (
    f"how fast Play goes: log-t pace (t = 1, 2, 3… one at a time, then each decade of t in "
    f"about {DECADE_SECONDS:g} s, as the curves' log-t axes show it), N iterations per "
    "frame (slow motion), or instant (as fast as possible)"
)


class SpeedSetting(QtCore.QObject):
    """The speed chosen for Play (its default: the log-t pace)."""

    changed = QtCore.Signal(object)  # Speed

    def __init__(self, parent=None):
        super().__init__(parent)
        self._value = DEFAULT

    @property
    def value(self) -> Speed:
        return self._value

    def set(self, speed: Speed | int) -> None:
        """Choose ``speed`` (or its saved code: see Speed.from_code)."""
        speed = Speed.from_code(speed.code if isinstance(speed, Speed) else speed)
        if speed != self._value:
            self._value = speed
            self.changed.emit(speed)

    def bind(self, slot) -> None:
        """Call ``slot`` with the speed now and at every change."""
        self.changed.connect(slot)
        slot(self._value)


class SpeedCombo(QtWidgets.QComboBox):
    """The toolbar's compact choice of speed."""

    def __init__(self, setting: SpeedSetting, parent=None):
        super().__init__(parent)
        self._setting = setting
        self.addItems([s.label for s in CHOICES])
        self.setToolTip(TIP)
        self.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # Space and the arrows stay shortcuts
        self._show(setting.value)
        setting.changed.connect(self._show)
        self.currentIndexChanged.connect(self._on_index)

    @QtCore.Slot(object)
    def _show(self, speed: Speed) -> None:
        self.blockSignals(True)
        self.setCurrentIndex(CHOICES.index(speed))
        self.blockSignals(False)

    @QtCore.Slot(int)
    def _on_index(self, index: int) -> None:
        if index >= 0:
            self._setting.set(CHOICES[index])


class SpeedMenu(QtWidgets.QMenu):
    """Training ▸ Speed: one checkable action per speed, exactly one checked."""

    def __init__(self, setting: SpeedSetting, parent=None):
        super().__init__("Speed", parent)
        self._setting = setting
        self.setToolTipsVisible(True)
        self.group = QtGui.QActionGroup(self)
        self.group.setExclusive(True)
        for speed in CHOICES:
            action = self.addAction(speed.label)
            action.setCheckable(True)
            action.setData(speed.code)
            action.setStatusTip(TIP)
            self.group.addAction(action)
        self._show(setting.value)
        setting.changed.connect(self._show)
        self.group.triggered.connect(self._on_triggered)

    @QtCore.Slot(object)
    def _show(self, speed: Speed) -> None:
        self.group.blockSignals(True)
        self.group.actions()[CHOICES.index(speed)].setChecked(True)
        self.group.blockSignals(False)

    @QtCore.Slot(QtGui.QAction)
    def _on_triggered(self, action: QtGui.QAction) -> None:
        self._setting.set(Speed(int(action.data())))
