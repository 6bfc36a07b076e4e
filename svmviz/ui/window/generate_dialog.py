"""The Generate dialog: kind, number of points, noise, classes, margin and seed. A
regression kind (a noisy sine…) makes points (x, target) and switches a classification
problem to ε-SVR; a classification kind switches a regression back to C-SVC (undoable, as
every switch of the problem is)."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.generate import KINDS, REGRESSION_KINDS, generate
from svmviz.core.palette import MAX_CLASSES
from svmviz.ui.window.dialogs import ok_cancel


class GenerateDialog(QtWidgets.QDialog):
    """The parameters of :func:`svmviz.core.generate.generate`."""

    def __init__(self, parent):
        super().__init__(parent)
        self.setWindowTitle("Generate data")
        form = QtWidgets.QFormLayout(self)
        self.kind = QtWidgets.QComboBox()
        self.kind.addItems(list(KINDS))
        for i, kind in enumerate(KINDS):
            if kind in REGRESSION_KINDS:
                tip = "regression: points (x, target); the problem becomes ε-SVR"
                self.kind.setItemData(i, tip, QtCore.Qt.ItemDataRole.ToolTipRole)
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
        values = dialog.values()
        X, y = generate(**values)
    except InputError as exc:
        QtWidgets.QMessageBox.warning(parent, "svmviz", str(exc))
        return False
    regression = values["kind"] in REGRESSION_KINDS
    if regression != (session.config.kind == "regression"):
        session.set_config(session.config.replace(problem="epsilon-svr" if regression else "svc"))
    session.replace_points(X, y)
    return True
