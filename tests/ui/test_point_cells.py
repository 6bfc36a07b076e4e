"""The Points tab's numbers: a slack below the solver's tolerance (rounding left by a hard
margin's exact step, y f = 1 − 2.2e-16) reads 0, not "2.22e-16" cut to "2.22…" by the
column; real numbers keep their digits."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore

from svmviz.ui.point_table import PointModel


def test_a_slack_below_the_tolerance_reads_zero(qtbot):
    model = PointModel()
    margins = np.array([1 - 2.220446049250313e-16, 1 - 1.1102230246251565e-16, 0.75, 2.0])
    X = np.zeros((4, 2))
    model.set_data(["a", "a", "b", "b"], X, margins, np.array([3e-17, 0.5, 0.0, 1e-4]))
    text = [
        [model.data(model.index(i, c), QtCore.Qt.ItemDataRole.DisplayRole) for c in (6, 7)]
        for i in range(4)
    ]
    assert [row[0] for row in text] == ["0", "0", "0.25", "0"]  # slack ξ
    assert [row[1] for row in text] == ["0", "0.5", "0", "0.0001"]  # α: 1e-4 is no rounding
    assert model.value(0, 6) == pytest.approx(2.22e-16)  # (sorting keeps the value)


def test_the_role_column_holds_its_header_with_the_support_count(qtbot):
    """The role column's header counts the support vectors ("role (60 support vectors)"):
    its column is as wide as that text and a sort arrow (it once read "le (60 support
    vector", cut at 1366×768)."""
    from svmviz.ui.point_table import ROLE, PointTable

    table = PointTable()
    qtbot.addWidget(table)
    header = table.model().headerData(ROLE, QtCore.Qt.Orientation.Horizontal)
    assert header == "role (0 support vectors)"
    longest = "role (999 support vectors)"
    assert table.columnWidth(ROLE) >= table.fontMetrics().horizontalAdvance(longest) + 16
