"""File ▸ Open Recent: the files last opened or saved (kept by the preferences), a file no
longer there leaving the list with a word. Apart from the window's document
(svmviz.ui.window.files), which it opens through."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets

from svmviz.ui.window.files import Files


def fill_recent_menu(files: Files, menu: QtWidgets.QMenu) -> None:
    """``menu`` (File ▸ Open Recent) listing the recent files, as it is about to show."""
    menu.clear()
    paths = files.prefs.recent_files()
    for k, f in enumerate(paths):
        text = f"&{k + 1} {Path(f).name}"
        action = menu.addAction(text, lambda f=f: open_recent(files, f))
        action.setToolTip(f)
        action.setStatusTip(f)
    if not paths:
        menu.addAction("(none yet)").setEnabled(False)
    menu.addSeparator()
    menu.addAction("Clear the list", lambda: clear_recent(files)).setEnabled(bool(paths))


def open_recent(files: Files, path: str) -> bool:
    """Open ``path``; a file no longer there is said, and leaves the list."""
    if not Path(path).is_file():
        QtWidgets.QMessageBox.warning(
            files.window,
            "svmviz: file not found",
            f"{path}\nis no longer there; it leaves the list.",
        )
        files.prefs.remove_recent(path)
        return False
    return files.open_path(path)


def clear_recent(files: Files) -> None:
    for f in files.prefs.recent_files():
        files.prefs.remove_recent(f)
