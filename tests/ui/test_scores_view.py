"""The readings of a regression and a one-class model, and the curves of a regression,
from a solver's own model and the frame data the contract gives them (CONTRACT.md:
Frame.margins is the residual t − f for regression, f(x) for one-class)."""

from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.lesson.generalization import TEST, TRAIN
from svmviz.core.solvers import Solver
from svmviz.ui.views.curves import CurvePanel
from svmviz.ui.views.scores_view import NuBars, ResidualPlot, readings


def trained(problem: str, data: Dataset, steps: int = 300, **settings):
    solver = Solver(SolverConfig(problem=problem, iterations=steps, **settings)).reset(data)
    solver.step(steps)
    return solver


def snapshot(solver, data, margins, t=None):
    h = solver.history_
    history = {c: h[c] for c in (*h.names, "t")}
    t = solver.t_ if t is None else t
    return SimpleNamespace(
        model=solver.model(),
        frame=SimpleNamespace(margins=margins),
        alpha=solver.training_alpha(),
        history=history,
        t=t,
        t0=0,
    )


@pytest.fixture
def sine():
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, (60, 1))
    return Dataset.regression(X, np.sin(X[:, 0]) + 0.2 * rng.normal(size=60))


def test_regression_residuals_and_mae_are_those_of_the_model(qtbot, sine):
    solver = trained("nu-svr", sine)
    model = solver.model()
    f = model.decision_function(sine.X)
    parts = np.where(np.arange(60) % 4 == 0, TEST, TRAIN)
    r = readings(snapshot(solver, sine, sine.target - f), sine, parts, None)
    residual = sine.target - f
    assert r.kind == "regression"
    assert np.allclose(r.residuals, residual)
    assert np.allclose(r.x, sine.X[:, 0])
    assert r.mae[0] == pytest.approx(np.mean(np.abs(residual[parts == TRAIN])))
    assert r.mae[1] == pytest.approx(np.mean(np.abs(residual[parts == TEST])))
    assert r.epsilon == pytest.approx(model.epsilon)
    view = ResidualPlot()
    qtbot.addWidget(view)
    view.show_readings(r)
    x, y = view.train.getData()
    assert np.allclose(np.sort(y), np.sort(residual[parts == TRAIN]))
    assert len(view.test.getData()[0]) == int(np.sum(parts == TEST))
    assert [line.value() for line in view.edges] == pytest.approx([model.epsilon, -model.epsilon])
    assert f"{r.mae[0]:.3g}" in view.title.text()


def test_2d_regression_residuals_are_drawn_against_the_fitted_value():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 2))
    data = Dataset.regression(X, X[:, 0] - 2 * X[:, 1])
    solver = trained("epsilon-svr", data)
    f = solver.model().decision_function(X)
    r = readings(snapshot(solver, data, data.target - f), data, None, None)
    assert np.allclose(r.x, f) and r.x_label.startswith("fitted")
    assert r.mae == (pytest.approx(np.mean(np.abs(data.target - f))), None)


def test_one_class_shares_beside_nu(qtbot):
    rng = np.random.default_rng(2)
    data = Dataset.points(rng.normal(size=(80, 2)))
    solver = trained("one-class", data, nu=0.2)
    f = solver.model().decision_function(data.X)
    r = readings(snapshot(solver, data, f), data, None, None)
    assert r.kind == "one-class" and r.nu == 0.2
    assert r.shares["outliers"] == pytest.approx(np.mean(f < 0))
    rho = solver.model().rho  # (support vectors as the plane rings them: f ≤ 1% of ρ)
    assert r.shares["support vectors"] == pytest.approx(np.mean(f <= 0.01 * rho))
    assert "test outliers" not in r.shares
    bars = NuBars()
    qtbot.addWidget(bars)
    bars.show_readings(r)
    assert bars.nu.value() == pytest.approx(0.2)
    title = bars.title.text()  # ν bounds the optimum's shares, not this model's
    assert title.startswith("At the optimum outliers ≤ ν = 0.2 ≤ support vectors; here "), title
    assert list(bars.bars.opts["height"][:2]) == pytest.approx(
        [r.shares["outliers"], r.shares["support vectors"]]
    )


def test_the_curves_of_a_regression_show_its_training_mae_and_learned_epsilon(qtbot, sine):
    panel = CurvePanel()
    qtbot.addWidget(panel)
    solver = Solver(SolverConfig(problem="nu-svr", iterations=400)).reset(sine)
    expected = []
    for t in (10, 100, 400):
        solver.step(t - solver.t_)
        f = solver.model().decision_function(sine.X)
        snap = snapshot(solver, sine, sine.target - f)
        panel.show_history(snap.history, None)
        panel.show_problem(snap)
        expected.append((t, np.mean(np.abs(sine.target - f))))
    error = panel.loss_curves["error"]
    ts, mae = error.xData, error.yData  # (getData: log10 of t)
    assert np.allclose(ts, [t for t, _ in expected])
    assert np.allclose(mae, [m for _, m in expected])
    legend = panel.loss_plot.getPlotItem().legend
    assert legend.getLabel(panel.loss_curves["error"]).text == "training MAE"
    eps = panel.offset_curves["epsilon"].yData
    assert eps[-1] == pytest.approx(solver.history_["epsilon"][-1])
    assert panel.offset_curves["epsilon"] in panel._named
    width = panel.loss_curves["width"].xData
    assert width is None or len(width) == 0  # no margin in a regression
    # a step back drops the samples of its future
    snap = snapshot(solver, sine, sine.target - f, t=50)
    panel.show_problem(snap)
    assert list(error.xData) == [10, 50]


@pytest.mark.parametrize("classes", [2, 3])
def test_a_frame_of_points_since_given_other_classes_has_no_readings(classes):
    """A frame drawn for other points of the same number (an edit made since: a point of a
    third class in place of a deleted one) has no readings; its successor is on its way
    (the Test set tab raised on it when the selection changed: "multi_class must be in
    ('ovo', 'ovr')" from the ROC, or an IndexError in the confusion matrix)."""
    rng = np.random.default_rng(1)
    X = rng.normal(0, 1, (30, 2))
    before = Dataset.from_labels(X, np.arange(30) % classes)
    solver = trained("svc", before, steps=50)
    margins = np.ones(30)  # (the frame's margins: one per point, as many as now)
    after = Dataset.from_labels(X, np.arange(30) % (classes + 1))
    assert readings(snapshot(solver, before, margins), after, None, None) is None
    assert readings(snapshot(solver, before, margins), before, None, None) is not None
