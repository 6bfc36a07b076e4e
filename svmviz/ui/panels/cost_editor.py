"""The cost matrix Δ(y', y) of the multiclass hinge loss (000, 001), edited as a table.

Row = true class y, column = predicted class y'; the diagonal is 0. Entries are numbers ≥ 0;
a bad entry is named under the table and OK stays disabled until it is fixed.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtWidgets

from svmviz.core.limits import BOUNDS
from svmviz.ui import style


class CostDialog(QtWidgets.QDialog):
    def __init__(self, names, matrix, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Cost matrix Δ")
        K = len(names)
        layout = QtWidgets.QVBoxLayout(self)
        intro = QtWidgets.QLabel(
            "Δ(y′, y): the margin demanded between the true class y (row) and a wrong class "
            "y′ (column) in the multiclass hinge loss max_y′ [Δ(y′, y) + f_y′(x) − f_y(x)]. "
            "0-1 cost: 1 off the diagonal."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QtWidgets.QTableWidget(K, K)
        self.table.setHorizontalHeaderLabels([f"→ {n}" for n in names])
        self.table.setVerticalHeaderLabels([f"{n}" for n in names])
        self.table.setToolTip("row: true class y; column: predicted class y′")
        for i in range(K):
            for j in range(K):
                item = QtWidgets.QTableWidgetItem(f"{matrix[i][j]:g}")
                item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
                if i == j:
                    item.setFlags(QtCore.Qt.ItemFlag.ItemIsEnabled)  # not editable
                    item.setText("0")
                self.table.setItem(i, j, item)
        self.table.resizeColumnsToContents()
        layout.addWidget(self.table)
        self.error = QtWidgets.QLabel()
        style.tint(self.error, text=style.ERROR_COLOR)
        layout.addWidget(self.error)
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel
        )
        zero_one = buttons.addButton("0-1 cost", QtWidgets.QDialogButtonBox.ButtonRole.ResetRole)
        zero_one.setToolTip("Δ = 1 for every wrong class")
        zero_one.clicked.connect(self.set_zero_one)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok)
        layout.addWidget(buttons)
        self.table.itemChanged.connect(self._validate)
        self._validate()

    def set_zero_one(self) -> None:
        K = self.table.rowCount()
        for i in range(K):
            for j in range(K):
                self.table.item(i, j).setText("0" if i == j else "1")

    def matrix(self) -> np.ndarray | None:
        """The entered Δ, or None when an entry is beyond Δ's range (named in the label)."""
        K = self.table.rowCount()
        out = np.zeros((K, K))
        for i in range(K):
            for j in range(K):
                if i == j:
                    continue
                text = self.table.item(i, j).text().strip()
                try:
                    v = float(text)
                except ValueError:
                    v = math.nan
                if not BOUNDS["cost"].holds(v):
                    row = self.table.verticalHeaderItem(i).text()
                    col = self.table.horizontalHeaderItem(j).text()
                    self.error.setText(
                        f"row {row}, column {col}: {text!r} is not {BOUNDS['cost'].rule()}"
                    )
                    return None
                out[i, j] = v
        self.error.setText("")
        return out

    def _validate(self, *_) -> None:
        self.ok.setEnabled(self.matrix() is not None)


def edit_cost(session, parent) -> None:
    """The cost matrix Δ of the ``session``'s present classes (three or more), in a dialog."""
    present = session.present_classes()
    if present.size < 3:
        return
    names = [session.classes[k] for k in present]
    dialog = CostDialog(names, session.cost[np.ix_(present, present)], parent)
    if dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted:
        matrix = dialog.matrix()
        if matrix is not None:
            session.set_cost(present, matrix)
