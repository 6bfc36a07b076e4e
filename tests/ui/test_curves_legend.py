"""The curve panels' legends keep their entries in order, row by row, whatever entries came
and went (a race's runs, the suboptimality view's guides)."""

import pytest

pytest.importorskip("PySide6.QtWidgets")

import pyqtgraph as pg

from svmviz.ui.views.curves import legend_above


def cells(legend) -> list[tuple[str, int, int]]:
    """(label, row, column) of each entry's label in the legend's grid."""
    out = []
    layout = legend.layout
    for _, label in legend.items:
        for row in range(layout.rowCount()):
            for col in range(layout.columnCount()):
                if layout.itemAt(row, col) is label:
                    out.append((label.text, row, col))
    return out


def test_entries_added_after_others_were_removed_fill_the_rows_from_the_start(qtbot):
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    legend = legend_above(plot, 2)
    curves = {name: plot.plot([1, 2], [1, 2]) for name in ("F-F*", "log", "sqrt", "run 2")}
    for name in ("F-F*", "log", "sqrt"):  # (suboptimality on)
        legend.removeItem(curves[name])
        legend.addItem(curves[name], name)
    legend.addItem(curves["run 2"], "run 2")  # (a race)
    for name in ("F-F*", "log", "sqrt"):  # (suboptimality off)
        legend.removeItem(curves[name])
    f = plot.plot([1, 2], [2, 3])
    optimum = plot.plot([1, 2], [3, 3])
    legend.addItem(f, "F")
    legend.addItem(optimum, "F*")
    legend.removeItem(curves["run 2"])  # (the race off)
    # (old: "F" on row 1 and "F*" on row 2, the first row empty)
    assert cells(legend) == [("F", 0, 1), ("F*", 0, 3)]
    legend.addItem(curves["run 2"], "run 2")
    assert cells(legend) == [("F", 0, 1), ("F*", 0, 3), ("run 2", 1, 1)]
