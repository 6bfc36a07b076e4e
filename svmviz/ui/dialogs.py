"""Small pieces every dialog of the window shares: OK / Cancel buttons and the file name
asked for a save (with the suffix it must have)."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets


def ok_cancel(dialog: QtWidgets.QDialog, ok_text: str | None = None):
    """OK and Cancel, wired to accept and reject (OK renamed to ``ok_text`` if given)."""
    Std = QtWidgets.QDialogButtonBox.StandardButton
    buttons = QtWidgets.QDialogButtonBox(Std.Ok | Std.Cancel)
    if ok_text:
        buttons.button(Std.Ok).setText(ok_text)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


def ask_save_path(parent, title: str, start, filters: str) -> Path | None:
    """A file name to write, or None if the user cancels. ``filters`` are Qt's ("GIF
    (*.gif);;PNG (*.png)"); a name without one of their suffixes gets the first."""
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, title, str(start), filters)
    if not path:
        return None
    path = Path(path)
    words = filters.replace(";;", " ").replace("(", " ").replace(")", " ").split()
    suffixes = [w[1:].lower() for w in words if w.startswith("*.")]
    if path.suffix.lower() not in suffixes:
        path = path.with_name(path.name + suffixes[0])
    return path
