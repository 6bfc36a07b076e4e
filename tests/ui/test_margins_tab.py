"""The Margins tab in the words and units of the problem in force: the histogram of y f(x),
of the residuals or of one-class's f(x) under the loss module's loss, and a multiclass
point's loss terms per class as CS231n's linear-classifier demo lists them."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.lesson.explain import step_and_explain
from svmviz.core.solvers import Solver, losses
from svmviz.ui.views.margin_histogram import MarginHistogram

RNG = np.random.default_rng(5)
X2 = RNG.normal(size=(40, 2))
Y2 = (X2[:, 0] + 0.6 * RNG.normal(size=40) > 0).astype(int)
Y3 = np.digitize(X2[:, 0], [-0.4, 0.4])
X1 = RNG.uniform(-3, 3, size=(40, 1))
T1 = np.sin(X1[:, 0]) + 0.3 * RNG.normal(size=40)


@pytest.fixture
def hist(qtbot):
    h = MarginHistogram()
    qtbot.addWidget(h)
    h.resize(460, 380)
    return h


def trained(fields, data, steps=300):
    config = SolverConfig(**fields)
    s = Solver(config).reset(data)
    s.step(steps)
    return config, s, s.model()


def legend_words(h) -> list[str]:
    return [label.text for _, label in h.legend.items]


def curve_at(curve, z):
    x, y = curve.getData()
    return np.interp(z, x, y)


ZS = np.array([-2.5, -1.0, -0.3, 0.0, 0.4, 0.9, 1.5, 2.5])


@pytest.mark.parametrize(
    ("fields", "loss"),
    [
        ({}, lambda z, m: np.maximum(0, 1 - z)),
        ({"loss": "squared_hinge"}, lambda z, m: np.maximum(0, 1 - z) ** 2),
        ({"loss": "logistic"}, lambda z, m: np.log1p(np.exp(-z))),
        ({"problem": "nu-svc", "nu": 0.3}, lambda z, m: np.maximum(0, m.rho - z)),
    ],
)
def test_a_classifier_s_margins_under_its_loss_and_the_0_1_loss(hist, fields, loss):
    config, s, model = trained(fields, Dataset.from_labels(X2, Y2))
    module = losses.module_for(config, 2)
    z = np.where(Y2 == 1, 1.0, -1.0) * model.decision_function(X2)
    hist.show_margins(z, module, model)
    np.testing.assert_allclose(curve_at(hist.hinge, ZS), loss(ZS, model), atol=3e-3)
    np.testing.assert_allclose(curve_at(hist.zero_one, ZS[ZS != 0]), ZS[ZS != 0] < 0)
    counts, _ = np.histogram(np.clip(z, -3, 3), bins=60, range=(-3, 3))
    np.testing.assert_array_equal(hist.bars.opts["height"], counts)
    words = legend_words(hist)
    assert any("0-1 loss" in w for w in words)
    assert any("loss ℓ = " in w for w in words)
    assert hist.getPlotItem().getAxis("bottom").labelText.startswith("margin z = y f(x)")
    if "rho" in getattr(module, "OFFSETS", ()):
        assert f"ρ = {model.rho:.3g}" in hist.getPlotItem().getAxis("bottom").labelText


@pytest.mark.parametrize("problem", ["epsilon-svr", "nu-svr"])
def test_regression_residuals_under_the_epsilon_insensitive_loss(hist, problem):
    config, s, model = trained(
        {"problem": problem, "epsilon": 0.2, "nu": 0.4}, Dataset.regression(X1, T1)
    )
    r = T1 - model.decision_function(X1)
    hist.show_margins(r, losses.module_for(config, 2), model)
    eps = model.epsilon
    lo, hi = hist.getPlotItem().vb.viewRange()[0]
    assert lo <= -np.quantile(np.abs(r), 0.98) and hi >= np.quantile(np.abs(r), 0.98)
    zs = np.linspace(lo * 0.9, hi * 0.9, 9)
    np.testing.assert_allclose(
        curve_at(hist.hinge, zs), np.maximum(0, np.abs(zs) - eps), atol=0.01 * hi
    )
    far = np.abs(np.abs(zs) - eps) > 0.01 * hi
    np.testing.assert_allclose(curve_at(hist.zero_one, zs[far]), np.abs(zs[far]) > eps)
    words = " ".join(legend_words(hist))
    assert "outside the tube" in words and "0-1" not in words and "margin" not in words
    assert hist.getPlotItem().getAxis("bottom").labelText == "residual r = y − f(x)"
    assert sum(hist.bars.opts["height"]) == len(r)


def test_one_class_f_under_its_loss(hist):
    config, s, model = trained({"problem": "one-class", "nu": 0.2}, Dataset.points(X2))
    f = model.decision_function(X2)
    hist.show_margins(f, losses.module_for(config, 2), model)
    lo, hi = hist.getPlotItem().vb.viewRange()[0]
    zs = np.linspace(lo * 0.9, hi * 0.9, 7)
    np.testing.assert_allclose(curve_at(hist.hinge, zs), np.maximum(0, -zs) / 0.2, atol=0.05 * hi)
    words = " ".join(legend_words(hist))
    assert "outlier" in words and "misclassified" not in words and "0-1" not in words
    assert hist.getPlotItem().getAxis("bottom").labelText.startswith("f(x) = ")


@pytest.mark.parametrize("multiclass", ["weston_watkins", "ovr", "crammer_singer", "softmax"])
def test_a_multiclass_point_s_terms_as_cs231n_lists_them(hist, multiclass):
    config, s, model = trained({"multiclass": multiclass}, Dataset.from_labels(X2, Y3))
    module = losses.module_for(config, 3)
    F = model.decision_function(X2)
    i = 7
    y = int(Y3[i])
    point = hist.point_of(module, model, X2, Y3, np.array([i]), None)
    f = F[i]
    if multiclass == "weston_watkins":
        terms = np.maximum(0, 1 + f - f[y])
        terms[y] = 0.0
        loss = terms.sum()
    elif multiclass == "ovr":
        s_k = np.where(np.arange(3) == y, 1.0, -1.0)
        terms = np.maximum(0, 1 - s_k * f)
        loss = terms.sum()
    elif multiclass == "crammer_singer":
        terms = 1 + f - f[y]
        terms[y] = 0.0
        loss = max(0.0, terms.max())
    else:
        terms = np.exp(f - f.max()) / np.exp(f - f.max()).sum()
        loss = -np.log(terms[y])
    np.testing.assert_allclose(point.terms, terms, atol=1e-12)
    assert point.loss == pytest.approx(loss)
    assert point.i == i and not point.sampled
    fy = F[np.arange(40), Y3]
    G = F.copy()
    G[np.arange(40), Y3] = -np.inf
    hist.show_margins(fy - G.max(axis=1), module, model, point)
    text = hist.terms.text
    assert f"point {i} (selected, y = {model.classes[y]})" in text
    for k in range(3):
        assert f"{model.classes[k]}{' (y)' if k == y else ''}: {terms[k]:.3g}" in text
    assert f"<b>{loss:.3g}</b>" in text
    assert hist.terms.isVisible()
    assert not hist.hinge.isVisible()  # (no curve: the loss is not one margin's)


def test_the_sampled_point_when_none_is_selected(hist):
    config, s, model = trained({"multiclass": "softmax"}, Dataset.from_labels(X2, Y3))
    r = step_and_explain(s)
    module = losses.module_for(config, 3)
    point = hist.point_of(module, model, X2, Y3, np.zeros(0, dtype=np.int64), r)
    assert point.sampled and point.i == int(r.samples[0])
    np.testing.assert_allclose(point.terms, r.probabilities[0])


def test_switching_back_to_a_binary_loss_hides_the_terms(hist):
    config, s, model = trained({"multiclass": "weston_watkins"}, Dataset.from_labels(X2, Y3))
    hist.show_margins(np.zeros(3), losses.module_for(config, 3), model)
    assert hist.terms.scene() is not None
    config, s, model = trained({}, Dataset.from_labels(X2, Y2))
    hist.show_margins(np.zeros(3), losses.module_for(config, 2), model)
    assert hist.terms.scene() is None
    assert hist.hinge.isVisible()
