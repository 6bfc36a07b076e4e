"""The step inspector's kernel-trick row (issue 28): for a kernel step, why ⟨φ(x_i), φ(x_j)⟩
= k(x_i, x_j) with the numbers of the sample x_i and the point x_j of its largest term in
f(x_i), named as the panel names the sample (i, α_i); RBF says its feature space is infinite."""

import html

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.explain import step_and_explain
from svmviz.core.lesson.explain_kernel import why_kernel
from svmviz.core.solvers import Solver
from svmviz.ui.views.step_view import StepPanel

RNG = np.random.default_rng(8)
X = RNG.normal(size=(30, 2))
Y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.2).astype(int)
POLY = Kernel("poly", gamma=0.5, degree=2, coef0=1.0)
SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def name(i) -> str:
    return "x" + str(int(i)).translate(SUB)


def poly2(x, z) -> float:
    """(γ⟨x, z⟩ + c₀)², by hand."""
    return (POLY.gamma * float(x @ z) + POLY.coef0) ** 2


def step_text(qtbot, kernel, steps, **extra):
    """The panel's text after ``steps`` steps and one explained, with the solver's |α|."""
    config = SolverConfig(kernel=kernel, seed=2, **extra)
    s = Solver(config).reset(Dataset.from_labels(X, Y))
    s.step(steps)
    record = step_and_explain(s)
    alpha = s.training_alpha()
    panel = StepPanel()
    qtbot.addWidget(panel)
    labels = [str(v) for v in Y]
    panel.show_record(record, config, labels, X, 1.0, ["0", "1"], kernel=kernel, alpha=alpha)
    return panel.text(), record, alpha


def largest_other_term(i, alpha, k) -> int:
    terms = [abs(alpha[j] * k(X[j], X[i])) if j != i else -np.inf for j in range(len(X))]
    return int(np.argmax(terms))


def row(text) -> str:
    (found,) = [r for r in text.split("<br>") if "Kernel trick" in r]
    return found


@pytest.mark.parametrize("steps", [6, 15, 40])
def test_poly_row_shows_the_pair_of_the_largest_term(qtbot, steps):
    text, record, alpha = step_text(qtbot, POLY, steps)
    i = int(record.samples[0])
    assert np.count_nonzero(np.delete(alpha, i)) > 0  # (the α case is met)
    j = largest_other_term(i, alpha, poly2)
    assert j != i
    # the names agree with the panel's: the sample i and its α_i
    assert f"sample i = {i} " in text
    this = row(text)
    assert f"for {name(i)} (the sample) and {name(j)} (its largest term in f({name(i)}))" in this
    assert html.escape(why_kernel(POLY, X[i], X[j], (name(i), name(j))), quote=False) in this
    assert f"= {poly2(X[i], X[j]):.3g} = k({name(i)}, {name(j)})." in this
    assert "&amp;" in this and "& " not in this  # the citation's "&" escaped


def test_before_any_other_alpha_the_pair_is_the_nearest_point(qtbot):
    text, record, alpha = step_text(qtbot, POLY, 0)
    i = int(record.samples[0])
    assert not np.delete(alpha, i).any()
    j = int(np.argmin([np.sum((x - X[i]) ** 2) if n != i else np.inf for n, x in enumerate(X)]))
    assert f"and {name(j)} (the nearest point, no other α yet)" in row(text)


def test_rbf_row_says_the_feature_space_is_infinite(qtbot):
    rbf = Kernel("rbf", gamma=0.7)
    text, record, alpha = step_text(qtbot, rbf, 12)
    i = int(record.samples[0])
    j = largest_other_term(i, alpha, lambda x, z: np.exp(-0.7 * np.sum((x - z) ** 2)))
    this = row(text)
    value = np.exp(-0.7 * np.sum((X[i] - X[j]) ** 2))
    assert f"k({name(i)}, {name(j)}) = {value:.3g}: " in this
    assert "infinite-dimensional" in this
    assert "the 3-D view (View ▸ 3-D surface) shows the decision surface" in this


def test_a_linear_step_has_no_kernel_row(qtbot):
    text, record, alpha = step_text(qtbot, Kernel(), 5)
    assert record.linear and alpha is None
    assert "Kernel trick" not in text and "φ(x" not in text


def test_a_step_in_the_window_shows_the_pair(make_window, wait_frame):
    """After Step on circles with a degree-2 polynomial kernel, the pair is the snapshot's:
    its α, its model's kernel, the points of the plane."""
    data = Dataset.from_labels(*generate("circles", 60, 0.1, seed=4))
    w = make_window(data, kernel=POLY, iterations=10**5)
    w.advance(9)
    wait_frame(w, lambda s: s.t == 9)
    w.advance(1)
    snap = wait_frame(w, lambda s: s.t == 10 and s.step is not None)
    P = w.session.points.X
    i = int(snap.step.samples[0])
    gram = (POLY.gamma * P @ P[i] + POLY.coef0) ** 2
    terms = np.abs(snap.alpha * gram)
    terms[i] = -1.0
    j = int(np.argmax(terms))
    assert snap.alpha[j] > 0
    text = w.step_panel.text()
    assert f"sample i = {i} " in text
    this = row(text)
    assert f"{name(j)} (its largest term in f({name(i)}))" in this
    assert html.escape(why_kernel(POLY, P[i], P[j], (name(i), name(j))), quote=False) in this
