"""The Generate dialog: kind, number of points, noise, classes, margin and seed."""

from __future__ import annotations

from PySide6 import QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.generate import KINDS, generate
from svmviz.core.palette import MAX_CLASSES
from svmviz.ui.dialogs import ok_cancel


class GenerateDialog(QtWidgets.QDialog):
    """The parameters of :func:`svmviz.core.generate.generate`."""

    def __init__(self, parent):
        super().__init__(parent)
        self.setWindowTitle("Generate data")
        form = QtWidgets.QFormLayout(self)
        self.kind = QtWidgets.QComboBox()
        self.kind.addItems(list(KINDS))
        self.n = QtWidgets.QSpinBox()
        self.n.setRange(2, 20000)
        self.n.setValue(100)
        self.noise = QtWidgets.QDoubleSpinBox()
        self.noise.setRange(0.0, 3.0)
        self.noise.setSingleStep(0.05)
        self.noise.setValue(0.2)
        self.classes = QtWidgets.QSpinBox()
        self.classes.setRange(2, MAX_CLASSES)
        self.classes.setToolTip("for blobs and spirals")
        self.margin = QtWidgets.QDoubleSpinBox()
        self.margin.setRange(0.0, 3.0)
        self.margin.setSingleStep(0.1)
        self.margin.setValue(0.5)
        self.margin.setToolTip("for separable: the empty band on each side of the line")
        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        for label, widget in (
            ("Kind", self.kind),
            ("Points", self.n),
            ("Noise", self.noise),
            ("Classes", self.classes),
            ("Margin", self.margin),
            ("Seed", self.seed),
        ):
            form.addRow(label, widget)
        form.addRow(ok_cancel(self))

    def values(self) -> dict:
        return dict(
            kind=self.kind.currentText(),
            n=self.n.value(),
            noise=self.noise.value(),
            classes=self.classes.value(),
            margin=self.margin.value(),
            seed=self.seed.value(),
        )


def generate_points(session, parent) -> bool:
    """Ask for a data set and replace the ``session``'s points by it (undoable). True if it
    did; a data set that cannot be made is a dialog, and nothing changes."""
    dialog = GenerateDialog(parent)
    if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
        return False
    try:
        X, y = generate(**dialog.values())
    except InputError as exc:
        QtWidgets.QMessageBox.warning(parent, "svmviz", str(exc))
        return False
    session.replace_points(X, y)
    return True
