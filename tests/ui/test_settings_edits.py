"""Every setting the solver panel changes is an undoable edit that marks the session
unsaved: the title's "*", Undo on, Undo brings the panel and the configuration back, Redo
forward again, a drag of the λ slider one edit; New and a scenario ask before dropping one."""

import pytest

from svmviz.core.config import SolverConfig
from svmviz.ui.panels.lam_slider import lam_at


def combo(name, value):
    return lambda p: p.combos[name].set_value(value), lambda p: p.combos[name].value()


def typed(field, text):
    def set_text(p):
        f = field(p)
        f.setText(text)
        f.editingFinished.emit()

    return set_text, lambda p: field(p).text()


def spin(widget, value):
    return lambda p: widget(p).setValue(value), lambda p: widget(p).value()


# every control of the panel that sets the configuration: (change it, read it back)
CONTROLS = {
    "problem": combo("problem", "nu-svc"),
    "loss": combo("loss", "logistic"),
    "multiclass": combo("multiclass", "weston_watkins"),
    "margin": combo("margin", "hard"),
    "bias": combo("bias", "regularized"),
    "algorithm": combo("algorithm", "sgd"),
    "schedule": combo("schedule", "inv_sqrt_t"),
    "sampling": combo("sampling", "shuffle"),
    "average": combo("average", "uniform"),
    "epsilon": typed(lambda p: p.nu_fields["epsilon"], "0.25"),
    "nu": typed(lambda p: p.nu_fields["nu"], "0.3"),
    "lam": typed(lambda p: p.lam_field, "0.2"),
    "lam slider": spin(lambda p: p.lam_slider, 5),
    "kernel": (lambda p: p.kernel.setCurrentText("rbf"), lambda p: p.kernel.currentText()),
    "gamma": typed(lambda p: p.fields["gamma"], "3"),
    "degree": spin(lambda p: p.degree, 5),
    "coef0": typed(lambda p: p.fields["coef0"], "2"),
    "eta": typed(lambda p: p.fields["eta"], "0.5"),
    "batch": spin(lambda p: p.batch, 4),
    "project": (lambda p: p.project.setChecked(True), lambda p: p.project.isChecked()),
    "radius": typed(lambda p: p.fields["radius"], "3"),
    "iterations": spin(lambda p: p.iterations, 700),
    "seed": spin(lambda p: p.seed, 9),
}


def test_every_panel_setting_is_an_undoable_edit(qtbot, make_window, unsaved_changes_discarded):
    """(One window for the 23 controls: each edit, undo and redo retrains, ~0.1 s each.)"""
    w = make_window(iterations=500, first_frame=False)
    p, start = w.panel, w.session.config
    assert not w.isWindowModified() and not w.controls.undo.isEnabled()
    for name, (change, shown) in CONTROLS.items():
        before = shown(p)
        change(p)
        after = w.session.config
        assert after != start, name
        qtbot.waitUntil(w.isWindowModified, timeout=1000)
        assert w.controls.undo.isEnabled(), name
        w.controls.undo.trigger()
        assert w.session.config == start and p.config() == start, name
        assert shown(p) == before, name
        assert not w.controls.undo.isEnabled(), name
        qtbot.waitUntil(lambda: not w.isWindowModified(), timeout=1000)
        w.controls.redo.trigger()
        assert w.session.config == after and p.config() == after, name
        w.controls.undo.trigger()
    # a drag of the λ slider is one edit
    slider = p.lam_slider
    slider.setSliderDown(True)
    for position in (20, 30, 40):
        slider.setValue(position)
    slider.setSliderDown(False)
    assert w.session.config.lam == pytest.approx(lam_at(40), rel=1e-2)
    w.controls.undo.trigger()
    assert w.session.config == start
    # New asks before dropping a setting
    p.combos["algorithm"].set_value("sgd")
    assert w.files.new()
    assert len(unsaved_changes_discarded) == 1


def test_a_scenario_asks_before_dropping_a_setting(qtbot, make_window, unsaved_changes_discarded):
    from svmviz.core.files.scenario import list_scenarios

    asked = unsaved_changes_discarded
    w = make_window(config=SolverConfig(iterations=500), first_frame=False)
    scenario = list_scenarios()[1]
    assert w.open_scenario(scenario)
    shipped = w.session.config
    w.panel.lam_field.setText("0.5")
    w.panel.lam_field.editingFinished.emit()
    assert w.files.dirty
    qtbot.waitUntil(w.isWindowModified, timeout=1000)
    assert w.open_scenario(scenario)  # (Discard)
    assert len(asked) == 1 and w.session.config == shipped
    w.panel.kernel.setCurrentText("rbf")
    w.session.undo()  # undone, it is the scenario as shipped: no prompt
    assert not w.files.dirty
    assert w.files.new() and len(asked) == 1


def test_the_cost_matrix_is_an_undoable_edit(qtbot, make_window, blobs3):
    w = make_window(blobs3, iterations=300, first_frame=False)
    s = w.session
    present = s.present_classes()
    before = s.cost_for(present)
    s.set_cost(present, [[0, 2.0, 1], [1, 0, 1], [3, 1, 0]])  # (what the Δ dialog does)
    assert s.cost_for(present) != before
    qtbot.waitUntil(w.isWindowModified, timeout=1000)
    assert w.controls.undo.isEnabled()
    w.controls.undo.trigger()
    assert s.cost_for(present) == before
    qtbot.waitUntil(lambda: not w.isWindowModified(), timeout=1000)
    w.controls.redo.trigger()
    assert s.cost_for(present)[2][0] == 3.0
