"""The Points tab's numbers: a slack below the solver's tolerance (rounding left by a hard
margin's exact step, y f = 1 − 2.2e-16) reads 0, not "2.22e-16" cut to "2.22…" by the
column; real numbers keep their digits."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore

from svmviz.ui.views.point_table import PointModel, cell_text


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
    from svmviz.ui.views.point_table import ROLE, PointTable

    table = PointTable()
    qtbot.addWidget(table)
    header = table.model().headerData(ROLE, QtCore.Qt.Orientation.Horizontal)
    assert header == "role (0 support vectors)"
    longest = "role (999 support vectors)"
    assert table.columnWidth(ROLE) >= table.fontMetrics().horizontalAdvance(longest) + 16


def test_a_row_is_computed_once_however_many_cells_are_asked(qtbot, monkeypatch):
    """A repaint asks every shown cell for several roles: each row's numbers are worked out
    once per refresh (not once per cell and role), and read the same as its values."""
    model = PointModel()
    rng = np.random.default_rng(0)
    model.set_data(["a", "b"] * 3, rng.normal(size=(6, 2)), rng.normal(size=6), rng.random(6))
    computed = []
    slack = model.slack
    monkeypatch.setattr(model, "slack", lambda z: computed.append(z) or slack(z))
    roles = (QtCore.Qt.ItemDataRole.DisplayRole, QtCore.Qt.ItemDataRole.BackgroundRole)
    for _ in range(2):  # (two repaints)
        cells = {
            (i, c, r): model.data(model.index(i, c), r)
            for i in range(6)
            for c in range(9)
            for r in (*roles, QtCore.Qt.ItemDataRole.FontRole)
        }
    assert len(computed) == 6
    for (i, c, r), v in cells.items():
        if r == roles[0]:
            assert v == cell_text(model.value(i, c))
        elif r == roles[1]:
            assert v.color().name().upper() == model.colors[model.roles[i]].upper()
        else:
            assert v is None
    model.set_data(["a", "b"] * 3, rng.normal(size=(6, 2)), rng.normal(size=6), rng.random(6))
    assert model.data(model.index(0, 5), roles[0]) == cell_text(float(model.margins[0]))


def test_the_header_is_changed_only_when_its_support_count_is(qtbot):
    """A refresh while training says the role column's header changed only when the count
    of support vectors in it did: a header changed makes the table re-fit its stretched
    last column and paint every row a second time (a thousand rows' cells, in Python)."""
    model = PointModel()
    changed = []
    model.headerDataChanged.connect(lambda *args: changed.append(args))
    X, labels = np.zeros((4, 2)), ["a", "a", "b", "b"]
    model.set_data(labels, X, np.array([0.5, 2.0, 3.0, 1.0]), None)  # (new rows: a reset)
    model.set_data(labels, X, np.array([0.6, 2.5, 3.0, 1.0]), None)  # two support vectors
    assert changed == []
    model.set_data(labels, X, np.array([1.5, 2.5, 3.0, 1.0]), None)  # one
    assert len(changed) == 1
    assert "(1 support vectors)" in model.headerData(8, QtCore.Qt.Orientation.Horizontal)
