"""Every control of the solver panel reaches the engine's configuration."""

import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.config import SolverConfig
from svmviz.ui.panels.solver_panel import SolverPanel


@pytest.fixture
def panel(qtbot):
    p = SolverPanel(SolverConfig(), n_points=100)
    qtbot.addWidget(p)
    return p


def edited(qtbot, panel, action):
    with qtbot.waitSignal(panel.config_edited, timeout=2000) as sig:
        action()
    return sig.args[0]


@pytest.mark.parametrize(
    "name, value",
    [
        ("margin", "hard"),
        ("algorithm", "sgd"),
        ("schedule", "inv_sqrt_t"),
        ("sampling", "shuffle"),
        ("average", "last"),
        ("bias", "none"),
    ],
)
def test_choices(qtbot, panel, name, value):
    cfg = edited(qtbot, panel, lambda: panel.combos[name].set_value(value))
    assert getattr(cfg, name) == value


def test_lambda_slider_field_and_c(qtbot, panel):
    cfg = edited(qtbot, panel, lambda: panel.lam_slider.setValue(panel.lam_slider.maximum()))
    assert cfg.lam == pytest.approx(100.0)
    panel.lam_field.setText("0.05")
    cfg = edited(qtbot, panel, panel.lam_field.editingFinished.emit)
    assert cfg.lam == 0.05
    assert panel.c_label.text() == "0.2"  # 1/(λm) with m = 100


def test_kernel_and_numbers(qtbot, panel):
    assert edited(qtbot, panel, lambda: panel.kernel.setCurrentText("poly")).kernel.name == "poly"
    assert edited(qtbot, panel, lambda: panel.degree.setValue(5)).kernel.degree == 5
    panel.fields["gamma"].setText("2.5")
    assert edited(qtbot, panel, panel.fields["gamma"].editingFinished.emit).kernel.gamma == 2.5
    panel.fields["coef0"].setText("-1")
    assert edited(qtbot, panel, panel.fields["coef0"].editingFinished.emit).kernel.coef0 == -1
    panel.combos["algorithm"].set_value("sgd")
    panel.fields["eta"].setText("0.3")
    assert edited(qtbot, panel, panel.fields["eta"].editingFinished.emit).eta == 0.3
    assert edited(qtbot, panel, lambda: panel.batch.setValue(4)).batch == 4
    assert edited(qtbot, panel, lambda: panel.project.setChecked(True)).project
    panel.fields["radius"].setText("3")
    assert edited(qtbot, panel, panel.fields["radius"].editingFinished.emit).radius == 3.0
    assert edited(qtbot, panel, lambda: panel.iterations.setValue(1234)).iterations == 1234
    assert edited(qtbot, panel, lambda: panel.seed.setValue(9)).seed == 9


def test_an_impossible_setting_is_explained_and_not_applied(qtbot, panel):
    panel.lam_field.setText("0")
    with qtbot.assertNotEmitted(panel.config_edited):
        panel.lam_field.editingFinished.emit()
    assert "Pegasos needs λ > 0" in panel.message(panel.lam_field)
    panel.fields["gamma"].setText("abc")
    panel.lam_field.setText("0.01")
    with qtbot.assertNotEmitted(panel.config_edited):
        panel.fields["gamma"].editingFinished.emit()
    assert "γ must be a number in (0, 1e+150], not 'abc'" in panel.message(panel.fields["gamma"])


def test_set_config_does_not_echo(qtbot, panel):
    with qtbot.assertNotEmitted(panel.config_edited):
        panel.set_config(SolverConfig(algorithm="gd", lam=0.5, bias="none"))
    assert panel.combos["algorithm"].value() == "gd"
    assert panel.lam_field.text() == "0.5"


def test_a_panel_change_restarts_training_with_it(qtbot, make_window, wait_frame):
    from svmviz.core.training.pace import INSTANT

    w = make_window(iterations=10**6, play=True)
    w.state.set_speed(INSTANT)
    wait_frame(w, lambda s: s.t > 100)
    gen = w.controller.generation
    w.panel.kernel.setCurrentText("rbf")
    assert w.session.config.kernel.name == "rbf"
    assert w.controller.generation == gen + 1
    assert w.playing
    wait_frame(w, lambda s: s.generation == gen + 1 and s.t > 0)
    assert w.controller._worker.runner.job.config.kernel.name == "rbf"
    w.controls.speed_combo.setCurrentText("10 per frame")
    qtbot.wait(300)
    t0 = w.snapshot.t
    qtbot.wait(500)
    assert 0 < w.snapshot.t - t0 < 1000  # slow motion: about 10 iterations per frame


def test_a_hard_margin_shows_the_lambda_it_is_solved_with(qtbot, panel):
    """Issue 16: with a hard margin the greyed λ field showed the ignored setting (0.01)
    while the step inspector said λ = 0.00683. It shows the λ used once known, and the
    setting comes back with a soft margin."""
    panel.lam_field.setText("0.05")
    edited(qtbot, panel, panel.lam_field.editingFinished.emit)
    cfg = edited(qtbot, panel, lambda: panel.combos["margin"].set_value("hard"))
    assert cfg.margin == "hard"
    assert cfg.lam == 0.05  # the setting is kept
    assert not panel.lam_field.isEnabled()
    assert panel.lam_field.text() == ""
    assert panel.lam_field.placeholderText() == "set from the data"
    with qtbot.assertNotEmitted(panel.config_edited):
        panel.show_lam_used(0.006834)
    assert panel.lam_field.text() == "0.00683"
    assert "set from the data" in panel.lam_field.toolTip()
    assert edited(qtbot, panel, lambda: panel.seed.setValue(3)).lam == 0.05  # not 0.00683
    cfg = edited(qtbot, panel, lambda: panel.combos["margin"].set_value("soft"))
    assert cfg.lam == 0.05
    assert panel.lam_field.text() == "0.05"
    assert panel.lam_field.isEnabled()
    panel.show_lam_used(None)  # a soft job's frame
    assert panel.lam_field.text() == "0.05"
    panel.combos["margin"].set_value("hard")  # another problem: not known yet
    assert panel.lam_field.text() == ""


def test_the_window_says_the_hard_margin_s_lambda_one_way(make_window, wait_frame, separable):
    w = make_window(separable, margin="hard", iterations=300, show=True)
    wait_frame(w, lambda s: s.reference is not None)
    lam = w.snapshot.reference.lam_hard
    assert w.snapshot.model.lam == lam
    assert w.panel.lam_field.text() == f"{lam:.3g}"
    assert w.session.config.lam == 0.01
    w.advance(1)
    wait_frame(w, lambda s: s.step is not None)
    text = w.step_panel.text()
    assert f"λ = {lam:.3g} (set from the data" in text


def typed(qtbot, field, text, key):
    """``text`` typed into ``field`` (replacing its text), then ``key``."""
    from PySide6.QtCore import Qt

    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, getattr(Qt.Key, f"Key_{key}"))


@pytest.mark.parametrize("key", ["Return", "Tab"])
@pytest.mark.parametrize(
    "text, reason",
    [
        ("-1", "λ must be a number from 1e-50 to 1e+06, or 0, not '-1'"),
        ("abc", "λ must be a number from 1e-50 to 1e+06, or 0, not 'abc'"),
        ("1e400", "λ must be a number from 1e-50 to 1e+06, or 0, not '1e400'"),
        ("1e-60", "λ must be a number from 1e-50 to 1e+06, or 0, not '1e-60'"),
    ],
)
def test_a_bad_lambda_is_refused_and_explained_under_its_field(
    qtbot, make_window, text, reason, key
):
    w = make_window(iterations=10**6, active=True)
    panel, field = w.panel, w.panel.lam_field
    c = panel.c_label.text()
    gen = w.controller.generation
    typed(qtbot, field, text, key)
    assert field.text() == "0.01"  # what is in force, as C says
    assert panel.c_label.text() == c == f"{1 / (0.01 * len(w.session.points)):.4g}"
    assert w.session.config.lam == 0.01
    assert w.controller.generation == gen  # no new training
    assert reason in panel.message(field)
    assert "λ = 0.01 is kept" in panel.message(field)
    assert field.property("marked")
    # under the field, at once, in the window
    message = panel._messages[field]
    assert message.isVisible()
    below = message.mapTo(panel, message.rect().topLeft()).y()
    assert 0 <= below - field.mapTo(panel, field.rect().bottomLeft()).y() < 20
    typed(qtbot, field, "0.5", "Return")  # fixed: applied, and the mark goes
    assert w.session.config.lam == 0.5
    assert panel.message(field) == ""
    assert not field.property("marked")


@pytest.mark.parametrize(
    "name, text, reason",
    [
        ("eta", "0", "η₀ must be a number in (0, 1e+150], not '0'"),
        ("gamma", "-2", "γ must be a number in (0, 1e+150], not '-2'"),
        ("coef0", "1e400", "c₀ must be a number from -1e+150 to 1e+150, not '1e400'"),
        ("radius", "abc", "B must be a number in (0, 1e+15] (or empty: √(Δmax/λ)), not 'abc'"),
    ],
)
def test_every_number_field_refuses_a_bad_entry_the_same_way(qtbot, panel, name, text, reason):
    panel.combos["algorithm"].set_value("sgd")  # (η₀ is Pegasos' 1/(λt) otherwise)
    panel.kernel.setCurrentText("poly")
    field = panel.fields[name]
    before = panel.config()
    shown = field.text()
    field.setText(text)
    with qtbot.assertNotEmitted(panel.config_edited):
        field.editingFinished.emit()
    assert field.text() == shown
    assert panel.config() == before
    assert reason in panel.message(field)
    assert field.property("marked")


def test_the_lambda_slider_follows_a_typed_lambda(qtbot, make_window):
    w = make_window(algorithm="sgd", iterations=10**6, active=True)
    panel, slider = w.panel, w.panel.lam_slider
    positions = []
    for text in ("0.1", "10", "1e-9", "1e5", "0"):
        typed(qtbot, panel.lam_field, text, "Return")
        assert w.session.config.lam == float(text)
        assert float(panel.lam_field.text()) == float(text)  # exact, beyond the slider too
        positions.append(slider.value())
    p01, p10, tiny, huge, zero = positions
    assert zero == slider.minimum() == 0  # λ = 0: the left end, for sgd
    assert zero < tiny < p01 < p10 < huge == slider.maximum()
    from svmviz.ui.panels.lam_slider import lam_at

    assert lam_at(tiny) == 1e-6  # clamped at the log scale's end
    assert lam_at(p01) == pytest.approx(0.1)
    assert lam_at(p10) == pytest.approx(10)
    # and the slider sets λ: at its left end 0, then its log scale
    slider.setValue(p01 + 1)
    assert w.session.config.lam == pytest.approx(10**0.1 / 10, rel=1e-2)
    assert panel.lam_field.text() == f"{w.session.config.lam:g}"
    slider.setValue(0)
    assert w.session.config.lam == 0
    panel.combos["algorithm"].set_value("pegasos")  # (λ = 0 is refused)
    assert w.session.config.algorithm == "sgd"
    assert "Pegasos needs λ > 0" in panel.message(panel.combos["algorithm"])
    slider.setValue(5)
    panel.combos["algorithm"].set_value("pegasos")
    assert slider.minimum() == 1  # no λ = 0 end for Pegasos


def test_the_lambda_slider_is_wide_enough_to_aim(qtbot, make_window):
    from svmviz.ui.panels.lam_slider import LAM_MAX_EXP, LAM_MIN_EXP

    w = make_window(show=True)
    w.resize(1366, 768)
    qtbot.waitUntil(lambda: w.panel.lam_slider.isVisible())
    slider = w.panel.lam_slider
    assert slider.width() / (LAM_MAX_EXP - LAM_MIN_EXP) >= 20  # pixels a decade
    assert slider.width() >= 0.8 * w.panel.width()  # its own row


def test_what_a_choice_ignores_is_disabled_and_the_step_is_said(panel, training_choices):
    """Issue 43: sgd on auto stepped as Pegasos (the same run) with η₀ editable and unread."""
    from svmviz.core.training.settings_used import PEGASOS_WORDS, ignored, step_rule

    controls = {
        "schedule": panel.combos["schedule"],
        "sampling": panel.combos["sampling"],
        "batch": panel.batch,
        "seed": panel.seed,
        "eta": panel.fields["eta"],
        "radius": panel.fields["radius"],
    }
    for config in training_choices:
        panel.set_config(config)
        skipped = ignored(config)
        for name, widget in controls.items():
            assert widget.isEnabled() == (name not in skipped), (config, name)
        assert panel.step_words.text() == step_rule(config)
    sgd = SolverConfig(algorithm="sgd")
    panel.set_config(sgd)
    assert not panel.fields["eta"].isEnabled()
    assert "auto = 1/(λt)" in panel.step_words.text()
    assert "1/√λ" in PEGASOS_WORDS and PEGASOS_WORDS in panel.step_words.toolTip()
