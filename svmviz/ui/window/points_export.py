"""File ▸ Export ▸ Points as CSV or as an svm-toy file: the points as the problem in force
reads them, written to a file asked for (what `svmviz train`, svm-toy and svmviz read).
Apart from the window's document (svmviz.ui.window.files): a data set written is not the
session saved."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets

from svmviz.core.data import write_csv
from svmviz.core.errors import InputError
from svmviz.core.files.svmtoy import svmtoy_text, write_svmtoy
from svmviz.ui.window.dialogs import ask_save_path
from svmviz.ui.window.files import Files

CSV_FILTER = "CSV data set (*.csv)"
SVMTOY_FILTER = "svm-toy file (*.txt *.svm *.toy *.libsvm *.svmlight)"


def export_csv(files: Files) -> bool:
    """The points as a CSV data set (what `svmviz train` reads)."""
    return export_points(files, "Save the points as CSV", ".csv", CSV_FILTER, write_csv)


def export_svmtoy(files: Files) -> bool:
    """The points as libsvm's svm-toy saves them (what its Load, `svmviz` and `svmviz
    train` read): the classes, or with a regression in force the 1-D regression."""
    return export_points(
        files,
        "Save the points as an svm-toy file",
        ".txt",
        SVMTOY_FILTER,
        write_svmtoy,
        svmtoy_text,
    )


def export_points(files: Files, title: str, suffix: str, filters: str, write, check=None) -> bool:
    """The points as the problem in force reads them (Session.dataset), written by
    ``write(path, data)`` to a file asked for; ``check(data)``, when given, says before
    the dialog why the format cannot hold them (an InputError)."""
    data = files.session.dataset()
    if data is None:
        QtWidgets.QMessageBox.warning(
            files.window,
            "svmviz: nothing to export",
            "A data set needs points of at least two classes.",
        )
        return False
    try:
        if check is not None:
            check(data)
    except InputError as exc:
        QtWidgets.QMessageBox.warning(files.window, "svmviz: cannot export", str(exc))
        return False
    start = Path(files.folder()) / f"{Path(files.name).stem}{suffix}"
    path = ask_save_path(files.window, title, start, filters)
    if path is None:
        return False
    try:
        write(path, data)
    except InputError as exc:
        files.failed("write the data set", exc)
        return False
    files.prefs.remember_folder(path)
    files.status(f"Wrote {len(data.y)} points to {path}")
    return True
