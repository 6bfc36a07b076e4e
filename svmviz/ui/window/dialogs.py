"""Small pieces every dialog of the window shares: OK / Cancel buttons, the file name asked
for a save (with the suffix it must have) or an open, in a file dialog wide enough to read."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtWidgets

# Qt's own file dialog (where the desktop offers none) opens at 632×408 with its Size, Type
# and Date columns cut ("459…tes", "JSO…ent"); widths for a size and a type (the date's is
# the locale's)
FILE_COLUMNS = ("1023.9 KiB", "JSON document")
FILE_DIALOG_SIZE = (900, 500)


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
    QtCore.QTimer.singleShot(0, widen_file_dialog)  # runs once the dialog is up
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, title, str(start), filters)
    if not path:
        return None
    path = Path(path)
    words = filters.replace(";;", " ").replace("(", " ").replace(")", " ").split()
    suffixes = [w[1:].lower() for w in words if w.startswith("*.")]
    if path.suffix.lower() not in suffixes:
        path = path.with_name(path.name + suffixes[0])
    return path


def ask_open_path(parent, title: str, start, filters: str) -> str:
    """A file name to open ('' if the user cancels), in a dialog wide enough to read."""
    QtCore.QTimer.singleShot(0, widen_file_dialog)  # runs once the dialog is up
    path, _ = QtWidgets.QFileDialog.getOpenFileName(parent, title, str(start), filters)
    return path


def widen_file_dialog() -> None:
    """Make Qt's own file dialog, if that is the one open, wide enough for its columns. (The
    static QFileDialog functions give no handle on their dialog: this runs from the dialog's
    event loop and finds it as the active modal widget. A native dialog is left alone.)"""
    dialog = QtWidgets.QApplication.activeModalWidget()
    if not isinstance(dialog, QtWidgets.QFileDialog):
        return
    tree = dialog.findChild(QtWidgets.QTreeView, "treeView")
    if tree is None:
        return
    w, h = FILE_DIALOG_SIZE
    w = max(dialog.width(), w)
    width = tree.viewport().width() + w - dialog.width()  # (the layout follows later)
    dialog.resize(w, max(dialog.height(), h))
    metrics = tree.fontMetrics()
    splitter = dialog.findChild(QtWidgets.QSplitter, "splitter")
    if splitter is not None and splitter.count() == 2:  # the places ("Computer", home)
        a, b = splitter.sizes()
        side = max(a, metrics.horizontalAdvance("Computer") + 60)
        splitter.setSizes([side, a + b - side])
        width -= side - a
    header = tree.header()
    date = QtCore.QLocale.system().toString(
        QtCore.QDateTime(2025, 12, 31, 23, 59, 59), QtCore.QLocale.FormatType.ShortFormat
    )
    for column, text in enumerate((*FILE_COLUMNS, date), start=1):
        if column < header.count():
            wanted = metrics.horizontalAdvance(text) + 3 * metrics.averageCharWidth() + 8
            header.resizeSection(column, max(header.sectionSize(column), wanted))
    others = sum(header.sectionSize(c) for c in range(1, header.count()))
    header.resizeSection(0, max(width - others, 16 * metrics.averageCharWidth()))


def ask_changed_on_disk(parent: QtWidgets.QWidget, name: str) -> str:
    """Save found the file changed by another writer: "overwrite", "save as" or "cancel"."""
    box = QtWidgets.QMessageBox(
        QtWidgets.QMessageBox.Icon.Warning,
        "svmviz: the file was changed",
        f"“{name}” was changed on the disk since this window opened or saved it (by another "
        "svmviz window or another program). Overwrite that change with this window's work, "
        "or save this work under another name?",
        QtWidgets.QMessageBox.StandardButton.Cancel,
        parent,
    )
    overwrite = box.addButton("Overwrite", QtWidgets.QMessageBox.ButtonRole.DestructiveRole)
    save_as = box.addButton("Save As…", QtWidgets.QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(save_as)
    box.exec()
    clicked = box.clickedButton()
    return "overwrite" if clicked is overwrite else "save as" if clicked is save_as else "cancel"
