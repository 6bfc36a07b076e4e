"""The step inspector's panel and plane marks for every problem and loss: the words come from
the loss module in force, the numbers are the step's (as a hand computation gives them,
tests/core/test_explain_problems.py), and every kind of record renders."""

import html

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.app.session import Session
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.explain import step_and_explain
from svmviz.core.solvers import Solver, losses
from svmviz.ui.plane.decision_plot import DecisionPlot
from svmviz.ui.plane.step_arrows import StepOverlay, arrows_drawn
from svmviz.ui.views.rich_text import rich
from svmviz.ui.views.step_view import StepPanel

RNG = np.random.default_rng(3)
X2 = RNG.normal(size=(24, 2))
Y2 = (X2[:, 0] + 0.5 * RNG.normal(size=24) > 0).astype(int)
Y3 = np.digitize(X2[:, 0], [-0.4, 0.4])
X1 = np.sort(RNG.uniform(-3, 3, size=(20, 1)), axis=0)
T1 = np.sin(X1[:, 0]) + 0.2 * RNG.normal(size=20)
PLANE_1D = np.column_stack([X1[:, 0], T1])  # a 1-D regression's plane: (x, y = target)

CASES = {
    "epsilon-svr": (dict(problem="epsilon-svr", epsilon=0.3), Dataset.regression(X1, T1)),
    "nu-svr": (dict(problem="nu-svr", nu=0.4), Dataset.regression(X1, T1)),
    "one-class": (dict(problem="one-class", nu=0.3), Dataset.points(X2)),
    "nu-svc": (dict(problem="nu-svc", nu=0.3), Dataset.from_labels(X2, Y2)),
    "hinge": (dict(), Dataset.from_labels(X2, Y2)),
    "logistic": (dict(loss="logistic"), Dataset.from_labels(X2, Y2)),
    "squared_hinge": (dict(loss="squared_hinge"), Dataset.from_labels(X2, Y2)),
    "crammer_singer": (dict(), Dataset.from_labels(X2, Y3)),
    "weston_watkins": (dict(multiclass="weston_watkins"), Dataset.from_labels(X2, Y3)),
    "ovr": (dict(multiclass="ovr"), Dataset.from_labels(X2, Y3)),
    "softmax": (dict(multiclass="softmax"), Dataset.from_labels(X2, Y3)),
}


def n(v) -> str:
    """A number as the panel prints it."""
    return f"{float(v):.4g}"


def term(v) -> str:
    return f"({n(v)})" if float(v) < 0 else n(v)


def record_of(name, steps=6, kernel=None, **extra):
    fields, data = CASES[name]
    config = SolverConfig(kernel=kernel or Kernel(), seed=steps, **fields, **extra)
    s = Solver(config).reset(data)
    s.step(steps)
    W = s.iterate()[0].copy()
    r = step_and_explain(s)
    plane = PLANE_1D if data.target is not None and data.X.shape[1] == 1 else data.X
    classes = [str(c) for c in data.classes]
    labels = [classes[k] if classes else "" for k in data.y]
    return config, data, plane, labels, classes, W, r


def panel_text(qtbot, name, **kw):
    config, data, plane, labels, classes, W, r = record_of(name, **kw)
    panel = StepPanel()
    qtbot.addWidget(panel)
    panel.show_record(r, config, labels, plane, 1.0, classes)
    return panel.text(), config, data, W, r


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=0.5)])
def test_the_panel_says_the_loss_in_force_in_its_modules_words(qtbot, name, kernel):
    text, config, data, W, r = panel_text(qtbot, name, kernel=kernel)
    module = losses.module_for(config, data.n_classes if data.classes else 2)
    assert module.NAME == name == r.loss
    assert html.escape(module.TITLE, quote=False) in text
    for part in (module.FORMULA, module.STEP):
        assert rich(part) in text
    assert f"Step t = {r.t}" in text


@pytest.mark.parametrize("steps", [2, 5, 9, 14])
def test_epsilon_svr_panel_numbers(qtbot, steps):
    text, config, data, W, r = panel_text(qtbot, "epsilon-svr", steps=steps)
    (i,) = r.samples
    f = float(W[0] @ X1[i] + r.b_before)
    res = T1[i] - f
    assert f"residual r = y − f(x) = {n(T1[i])} − {term(f)} = <b>{n(res)}</b>" in text
    case = "above the tube" if res > 0.3 else "below the tube" if res < -0.3 else "inside the tube"
    assert case in text
    assert ("−ε = −0.3" if res < -0.3 else "ε = 0.3") in text
    side = 1.0 if res > 0.3 else -1.0 if res < -0.3 else 0.0
    if side:
        push = r.eta * side * X1[i, 0]
        assert f"push (η/k) Σ g<sub>i</sub> x<sub>i</sub> = {push:.3g}" in text
    else:
        assert "push 0 (no term)" in text
    assert f"η = 1/(λ(t+1)) = 1/(0.01·{r.t + 1}) = {r.eta:.4g}" in text


def test_nu_svr_panel_shows_epsilon_learned(qtbot):
    text, config, data, W, r = panel_text(qtbot, "nu-svr")
    assert "(learned)" in text
    assert "ε after the step" in text and f"{r.epsilon_after:.3g}" in text


@pytest.mark.parametrize("steps", [3, 6, 11])
def test_one_class_panel_numbers(qtbot, steps):
    text, config, data, W, r = panel_text(qtbot, "one-class", steps=steps)
    (i,) = r.samples
    score = float(W[0] @ X2[i])
    assert f"⟨w, φ(x<sub>i</sub>)⟩ = <b>{n(score)}</b>" in text
    assert f"ρ = {n(r.rho)}" in text
    assert f"f = {n(score - r.rho)}" in text or f"f = ⟨w, φ⟩ − ρ = {n(score - r.rho)}" in text
    if score <= r.rho:
        assert "term 1/ν = 1/0.3 = <b>3.333</b>" in text
    else:
        assert "inside the region, no term" in text
    assert "ρ after the step" in text and f"{r.rho_after:.3g}" in text
    assert "½‖w‖² (λ = 1), ν = 0.3" in text
    assert "b =" not in text  # one-class has ρ, no bias


@pytest.mark.parametrize("steps", [3, 7])
def test_nu_svc_panel_numbers(qtbot, steps):
    text, config, data, W, r = panel_text(qtbot, "nu-svc", steps=steps)
    (i,) = r.samples
    y = 1.0 if Y2[i] == 1 else -1.0
    z = y * float(W[0] @ X2[i] + r.b_before)
    assert f"f(x<sub>i</sub>) = {n(z)} " in text
    assert ("≤ ρ = " if z <= r.rho else "&gt; ρ = ") + n(r.rho) in text
    assert f"{r.rho_after:.3g}" in text


def test_logistic_panel_gives_the_gradient_weight(qtbot):
    text, config, data, W, r = panel_text(qtbot, "logistic")
    (i,) = r.samples
    y = 1.0 if Y2[i] == 1 else -1.0
    z = y * float(W[0] @ X2[i] + r.b_before)
    assert f"1/(1 + e<sup>{n(z)}</sup>) = <b>{n(1 / (1 + np.exp(z)))}</b>" in text


def test_squared_hinge_panel_gives_twice_the_slack(qtbot):
    text, config, data, W, r = panel_text(qtbot, "squared_hinge", steps=2)
    (i,) = r.samples
    y = 1.0 if Y2[i] == 1 else -1.0
    z = y * float(W[0] @ X2[i] + r.b_before)
    if z < 1:
        assert f"2·(1 − {n(z)}) = <b>{n(2 * (1 - z))}</b>" in text
    else:
        assert "≥ 1" in text


def test_the_push_is_written_in_the_words_its_loss_module_declares(qtbot, monkeypatch):
    """The hinge's push Σ over the violating points of y_i x_i comes from its module's PUSH,
    not from a case for its name: without PUSH it reads as any loss's Σ g_i x_i."""
    hinge = losses.MODULES["hinge"]
    rule, total = (rich(words) for words in hinge.PUSH)
    batch = dict(algorithm="sgd", batch=8)  # (some of the 8 violate)
    text = panel_text(qtbot, "hinge", **batch)[0]
    assert f"(η/k) {rule}</b>" in text and f"push (η/k) {total} = " in text
    monkeypatch.setattr(hinge, "PUSH", ())
    text = panel_text(qtbot, "hinge", **batch)[0]
    assert rule not in text and f"g<sub>i</sub> = {rich(hinge.WEIGHT)}" in text
    assert "push (η/k) Σ g<sub>i</sub> x<sub>i</sub> = " in text


@pytest.mark.parametrize("steps", [2, 4, 8])
def test_weston_watkins_panel_lists_every_violating_class(qtbot, steps):
    text, config, data, W, r = panel_text(qtbot, "weston_watkins", steps=steps, bias="none")
    (i,) = r.samples
    y = int(Y3[i])
    f = W @ X2[i]
    for k in range(3):
        if k == y:
            continue
        value = 1 + f[k] - f[y]
        row = f"y′ = {k}: Δ(y′, y) + f<sub>y′</sub> − f<sub>y</sub> = 1 + {term(f[k])} − "
        assert row + f"{term(f[y])} = <b>{n(value)}</b>" in text
        assert (f"w<sub>{k}</sub> −= η x<sub>i</sub>" in text) == (value > 0)


def test_one_vs_rest_panel_says_each_class_inside_its_margin(qtbot):
    text, config, data, W, r = panel_text(qtbot, "ovr", steps=4, bias="none")
    (i,) = r.samples
    y = int(Y3[i])
    f = W @ X2[i]
    for k in range(3):
        s = 1 if k == y else -1
        assert f"k = {k}: 1 − s<sub>k</sub> f<sub>k</sub> = 1 − ({s:+d})·{term(f[k])}" in text
        assert f"<b>{n(1 - s * f[k])}</b>" in text


@pytest.mark.parametrize("steps", [2, 6])
def test_softmax_panel_gives_probabilities_and_weights(qtbot, steps):
    text, config, data, W, r = panel_text(qtbot, "softmax", steps=steps, bias="none")
    (i,) = r.samples
    y = int(Y3[i])
    f = W @ X2[i]
    p = np.exp(f - f.max())
    p /= p.sum()
    for k in range(3):
        weight = (k == y) - p[k]
        assert f"p<sub>k</sub> = <b>{n(p[k])}</b>" in text
        assert f"weight {int(k == y)} − {n(p[k])} = <b>{n(weight)}</b>" in text


@pytest.fixture
def overlay(qtbot):
    session = Session(Dataset.from_labels(X2, Y2))
    plot = DecisionPlot(session)
    qtbot.addWidget(plot)
    plot.resize(600, 450)
    return StepOverlay(plot)


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=0.5)])
def test_every_record_renders_in_the_plane(overlay, name, kernel):
    """The marks of every problem's step: the sampled point always, the vectors only for
    linear binary and one-class models, a 1-D regression's residual to the tube."""
    config, data, plane, labels, classes, W, r = record_of(name, kernel=kernel)
    overlay.show(r, plane, (-3.0, 3.0, -3.0, 3.0))
    assert overlay.sampled.isVisible()
    assert len(overlay.sampled.points()) == 1
    arrows = overlay.vectors["w_after"].isVisible()
    assert arrows == (arrows_drawn(r) and not np.allclose(r.w_after, 0))
    assert arrows == (kernel.is_linear and r.kind in ("binary", "one-class"))
    residual = overlay.residual.isVisible()
    assert residual == (r.kind == "regression")
    if residual:
        x, y = overlay.residual.getData()
        (i,) = r.samples
        np.testing.assert_allclose(x[:2], X1[i, 0])
        np.testing.assert_allclose(y[:2], [T1[i], r.scores[0, 0]])
        outside = abs(T1[i] - r.scores[0, 0]) > r.epsilon
        assert overlay.outside.isVisible() == outside
        if outside:
            edge = r.scores[0, 0] + np.sign(T1[i] - r.scores[0, 0]) * r.epsilon
            np.testing.assert_allclose(overlay.outside.getData()[1][:2], [T1[i], edge])
    overlay.hide()
    assert not overlay.residual.isVisible()


def test_a_one_class_session_steps_explained_in_the_window(qtbot, make_window, wait_frame):
    """Issue 24: a one-class session threw in describe on every frame (no runner-up)."""
    w = make_window(config=SolverConfig(problem="one-class", nu=0.3, iterations=500))
    w.advance(3)
    snap = wait_frame(w, lambda s: s.t == 3 and s.step is not None)
    text = w.step_panel.text()
    assert "one-class SVM" in text and f"ρ = {n(snap.step.rho)}" in text
    assert "Step t = 3" in text


@pytest.mark.parametrize("name", ["weston_watkins", "ovr", "softmax", "crammer_singer"])
@pytest.mark.parametrize("steps", [1, 4, 9])
def test_the_presenters_line_says_what_the_multiclass_step_moved(name, steps):
    """The presenter's one line follows the loss: Crammer–Singer's rival ŷ, the classes
    that have a term (Weston–Watkins, one-vs-rest), softmax's probability of the class;
    never a rival numbered −1."""
    from svmviz.ui.views.step_words import step_summary

    _, data, _, labels, classes, _, r = record_of(name, steps=steps)
    line = step_summary(r, lambda i: labels[i], tuple(classes))
    assert f"point {int(r.samples[0])} ({labels[r.samples[0]]})" in line
    assert "-1" not in line
    if name == "softmax":
        p = r.probabilities[0, int(r.true_class[0])]
        assert f"p(its class) = {p:.2f}" in line
    elif name != "crammer_singer":
        moved = [classes[k] for k in np.flatnonzero(r.weights[0])]
        assert all(c in line for c in moved) if moved else "w only shrinks" in line


@pytest.mark.parametrize("steps", [1, 4, 9])
def test_the_presenters_line_for_the_logistic_loss_says_its_pull_not_a_margin(steps):
    """The logistic loss has no margin: the line says the weight 1/(1 + e^(y f)) the point
    pulls w by (once "outside the margin, it pushes w" at a pull of 1e-47)."""
    from svmviz.ui.views.step_words import step_summary

    _, data, _, labels, classes, _, r = record_of("logistic", steps=steps)
    line = step_summary(r, lambda i: labels[i], tuple(classes))
    z = float(r.margins[0])
    assert "margin" not in line
    assert f"y f(x) = {z:.3g}" in line
    assert f"pulls w by {1 / (1 + np.exp(z)):.2g}" in line
