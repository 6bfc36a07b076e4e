"""The keyboard belongs to the lesson: once a control of a panel has been used (a choice
made, a box ticked, a slider let go, a number entered with Enter), the keys go back to the
plane, so that Space, R, the arrows and the digits act on the training again (a focused
combo box or check box would take Space for itself)."""

from __future__ import annotations

from PySide6 import QtWidgets


def give_back_keys(panels, target: QtWidgets.QWidget) -> None:
    """Connect every control in ``panels`` so that using it focuses ``target``."""

    def back(*_):
        target.setFocus()

    for panel in panels:
        for combo in panel.findChildren(QtWidgets.QComboBox):
            combo.activated.connect(back)
        for button in panel.findChildren(QtWidgets.QAbstractButton):
            button.clicked.connect(back)
        for slider in panel.findChildren(QtWidgets.QSlider):
            slider.sliderReleased.connect(back)
        for edit in panel.findChildren(QtWidgets.QLineEdit):  # spin boxes' fields too
            edit.returnPressed.connect(back)
