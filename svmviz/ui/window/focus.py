"""The keyboard belongs to the lesson.

* Once a control of a panel has been used (a choice made, a box ticked, a slider let go, a
  number entered with Enter), the keys go back to the plane, so that R and the digits act on
  the training and the classes again (a focused combo box or check box would take them).
* Space and the arrows (LESSON_KEYS: play, step, back, step N) play and step from every
  control but a text field being edited: a line edit with the focus, or a spin box whose
  text is being typed into (from a key that edits its text or a click into its text, until
  Enter or the focus leaves). Clicking a spin box's arrows is not editing: Space then plays
  instead of being typed into the box.
* Escape leaves any field: the focus goes back to the plane (a field that shows a value,
  svmviz.ui.panels.number_field, shows the one in force again first).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

Key = QtCore.Qt.Key
Mod = QtCore.Qt.KeyboardModifier
Event = QtCore.QEvent.Type

# (key, modifiers) of the lesson's shortcuts (svmviz.ui.window.menus): play, step, back, step N
LESSON_KEYS = {
    (Key.Key_Space, Mod.NoModifier),
    (Key.Key_Right, Mod.NoModifier),
    (Key.Key_Left, Mod.NoModifier),
    (Key.Key_Right, Mod.ShiftModifier),
}
# keys that end a spin box's editing: its value is entered, or stepped
ENTERING_KEYS = {Key.Key_Return, Key.Key_Enter, Key.Key_Up, Key.Key_Down}
EDITING_KEYS = {Key.Key_Backspace, Key.Key_Delete}  # and every key that types a character


def give_back_keys(panels, target: QtWidgets.QWidget) -> None:
    """Connect every control in ``panels`` so that using it focuses ``target``, and let
    the lesson's keys and Escape through (:class:`LessonKeys`)."""

    def back(*_):
        target.setFocus()

    keys = LessonKeys(panels, target)
    for panel in panels:
        panel.installEventFilter(keys)  # an Escape no control took comes up to its panel
        for combo in panel.findChildren(QtWidgets.QComboBox):
            combo.activated.connect(back)
        for button in panel.findChildren(QtWidgets.QAbstractButton):
            button.clicked.connect(back)
        for slider in panel.findChildren(QtWidgets.QSlider):
            slider.sliderReleased.connect(back)
        for spin in panel.findChildren(QtWidgets.QAbstractSpinBox):
            spin.installEventFilter(keys)
        for edit in panel.findChildren(QtWidgets.QLineEdit):  # spin boxes' fields too
            edit.returnPressed.connect(back)
            edit.installEventFilter(keys)


def spin_box_of(widget) -> QtWidgets.QAbstractSpinBox | None:
    """The spin box ``widget`` is, or whose text field it is (None: neither)."""
    if isinstance(widget, QtWidgets.QAbstractSpinBox):
        return widget
    parent = widget.parentWidget() if isinstance(widget, QtWidgets.QLineEdit) else None
    return parent if isinstance(parent, QtWidgets.QAbstractSpinBox) else None


class LessonKeys(QtCore.QObject):
    """The event filter of the panels' fields and of the panels (see the module)."""

    def __init__(self, panels, target: QtWidgets.QWidget):
        super().__init__(target)
        self._panels = set(panels)
        self._target = target
        self._typing: set[QtWidgets.QAbstractSpinBox] = set()  # spin boxes being edited
        for panel in panels:
            panel.destroyed.connect(lambda *_, p=panel: self._panels.discard(p))

    def editing(self, widget) -> bool:
        """``widget`` (the focus) is a text field being edited."""
        spin = spin_box_of(widget)
        if spin is not None:
            return spin in self._typing
        return isinstance(widget, QtWidgets.QLineEdit) and not widget.isReadOnly()

    def eventFilter(self, obj, event):
        kind = event.type()
        if kind == Event.ShortcutOverride:
            combo = (event.key(), event.modifiers() & ~Mod.KeypadModifier)
            # (left ignored, the key goes to the window's shortcut, not to the field)
            return combo in LESSON_KEYS and not self.editing(obj)
        if kind == Event.KeyPress and event.key() == Key.Key_Escape and obj in self._panels:
            self._target.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)
            return True
        spin = spin_box_of(obj)
        if spin is None:
            return False
        if kind == Event.KeyPress:
            if event.key() in ENTERING_KEYS:
                self._typing.discard(spin)
            elif event.key() in EDITING_KEYS or event.text().isprintable() and event.text():
                self._typing.add(spin)
        elif kind == Event.MouseButtonPress:
            if obj is spin:  # on its arrows
                self._typing.discard(spin)
            else:  # into its text
                self._typing.add(spin)
        elif kind == Event.FocusOut:
            self._typing.discard(spin)
        return False
