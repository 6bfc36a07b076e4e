"""The solver panel's choice box: a narrow combo box that shows each option in words and
is read by the option's name."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from svmviz.core.problems import words


class ChoiceBox(QtWidgets.QComboBox):
    """A choice as narrow as its shorter options (the dock keeps the plane's room): a long
    current option, "Crammer–Singer", is cut with "…" in the box (never clipped
    mid-letter) and whole in its list. Each option is shown in words (:func:`words`:
    "squared hinge" for squared_hinge) and read by its name (:meth:`value`)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.setMinimumContentsLength(9)

    def add_options(self, options) -> None:
        for option in options:
            self.addItem(words(option), option)

    def value(self) -> str:
        """The name of the current option."""
        return self.currentData()

    def set_value(self, name: str) -> None:
        self.setCurrentIndex(self.findData(name))

    def shown_text(self, text: str | None = None) -> tuple[str, int]:
        """What the box draws of ``text`` (the current option's), and the room for it."""
        option = QtWidgets.QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(
            QtWidgets.QStyle.ComplexControl.CC_ComboBox,
            option,
            QtWidgets.QStyle.SubControl.SC_ComboBoxEditField,
            self,
        )
        room = field.width() - 2
        text = option.currentText if text is None else text
        return self.fontMetrics().elidedText(text, QtCore.Qt.TextElideMode.ElideRight, room), room

    def paintEvent(self, event) -> None:
        painter = QtWidgets.QStylePainter(self)
        option = QtWidgets.QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QtWidgets.QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self.shown_text()[0]
        painter.drawControl(QtWidgets.QStyle.ControlElement.CE_ComboBoxLabel, option)
