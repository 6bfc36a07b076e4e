"""The objective of one-class (−ρ) and ν-SVC (−νρ) reaches 0 and below: the curve is drawn
on a linear axis, as it is, beside its optimum; a positive objective stays on a log axis."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.ui.views.curves import CurvePanel


def history(objective):
    n = len(objective)
    ones = np.ones(n)
    return {
        "t": np.arange(1, n + 1),
        "objective": np.asarray(objective, dtype=float),
        "loss": ones,
        "error": 0 * ones,
        "norm": ones,
    }


def test_an_objective_below_zero_is_drawn_as_it_is_on_a_linear_axis(qtbot):
    panel = CurvePanel()
    qtbot.addWidget(panel)
    objective = np.linspace(0.0, -0.06, 50)
    panel.show_history(history(objective), optimum=-0.069)
    item = panel.objective_plot.getPlotItem()
    assert not item.getAxis("left").logMode
    t, f = panel.objective.xData, panel.objective.yData  # (as set: getData is log10 t)
    np.testing.assert_allclose(f, objective[t.astype(int) - 1])
    lo, hi = item.getViewBox().viewRange()[1]
    assert lo < -0.069 < 0.0 < hi  # the optimum and the start in view
    panel.show_history(history(np.linspace(2.0, 0.5, 50)), optimum=0.4)
    assert item.getAxis("left").logMode  # positive again: log


def test_the_iteration_axis_keeps_spanning_the_budget_when_the_value_axis_changes(qtbot):
    """pyqtgraph auto-ranges both axes when a log mode changes: the iteration axis must
    still span 1..T (it showed t = 1..3, labelled "1" only, through the next problems)."""
    panel = CurvePanel()
    qtbot.addWidget(panel)
    panel.set_budget(20_000)
    view = panel.objective_plot.getPlotItem().getViewBox()
    for objective in (np.linspace(0.0, -0.06, 3), np.linspace(2.0, 0.5, 3)):
        panel.show_history(history(objective), optimum=-0.069 if objective[-1] < 0 else 0.4)
        view.updateAutoRange()  # (pyqtgraph ranges to the data when it next lays out)
        lo, hi = view.viewRange()[0]
        assert lo <= 0.0 and hi >= np.log10(20_000)  # (log10 t: 1..T)
    assert panel.loss_plot.getPlotItem().getViewBox().viewRange()[0][1] >= np.log10(20_000)
