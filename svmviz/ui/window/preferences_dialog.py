"""File ▸ Preferences: the autosave interval, and resetting everything remembered."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from svmviz.app.preferences import config_dir
from svmviz.ui.window.dialogs import ok_cancel


class PreferencesDialog(QtWidgets.QDialog):
    reset_requested = QtCore.Signal()

    def __init__(self, prefs, parent=None):
        super().__init__(parent)
        self.setWindowTitle("svmviz: preferences")
        self.setMinimumWidth(380)
        form = QtWidgets.QFormLayout(self)
        self.autosave = QtWidgets.QSpinBox()
        self.autosave.setRange(0, 3600)
        self.autosave.setSuffix(" s")
        self.autosave.setSpecialValueText("off")
        self.autosave.setValue(prefs.get("autosave_seconds"))
        self.autosave.setToolTip(
            "unsaved work is written this often to a recovery file, offered back after a "
            "crash (0: off)"
        )
        form.addRow("Autosave every", self.autosave)
        where = QtWidgets.QLabel(f"Kept in {config_dir()}")
        where.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(where)
        reset = QtWidgets.QPushButton("Reset all preferences…")
        reset.setToolTip(
            "forget the window layout, view options, speed, export sizes, recent files and "
            "the autosave interval"
        )
        reset.clicked.connect(self._reset)
        form.addRow(reset)
        form.addRow(ok_cancel(self))

    def apply(self, prefs) -> None:
        prefs.set("autosave_seconds", self.autosave.value())

    def _reset(self) -> None:
        answer = QtWidgets.QMessageBox.question(
            self,
            "svmviz: reset preferences",
            "Forget every remembered setting (layout, view, recent files, export sizes)? "
            "Your sessions and files are not touched.",
        )
        if answer == QtWidgets.QMessageBox.StandardButton.Yes:
            self.reset_requested.emit()
            self.reject()
