"""The race editor (svmviz.ui.window.race_dialog, svmviz.ui.window.race_table): View ▸ Race
without runs opens it with the default race, Cancel leaves Race off, each drop-down and field is the
run's setting, a run that cannot race is refused with its reason, the last race comes back.
The modal dialog is driven through its ``exec``, replaced by the test's answer."""

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtWidgets

from svmviz.core.problems import BINARY_LOSSES, words
from svmviz.core.training.race_setup import default_race, race_configs
from svmviz.ui.window import race_dialog, race_table
from svmviz.ui.window.race_dialog import RaceDialog

OK = QtWidgets.QDialogButtonBox.StandardButton.Ok


@pytest.fixture
def answer(monkeypatch):
    """``answer(reply)``: the editor's exec calls ``reply(dialog)`` instead of waiting for a
    person; the dialogs shown are in the returned list."""
    shown = []

    def install(reply):
        def exec_(dialog):
            shown.append(dialog)
            reply(dialog)
            return dialog.result()

        monkeypatch.setattr(RaceDialog, "exec", exec_)
        return shown

    return install


def test_race_from_the_menu_opens_the_editor_with_the_default(make_window, wait_frame, answer):
    w = make_window(iterations=500)
    default = default_race(w.session.job_config())
    shown = answer(RaceDialog.accept)
    w.controls.race.trigger()  # (View ▸ Race, Shift+R)
    assert len(shown) == 1 and shown[0].table.variations() == default
    assert w.session.race == tuple(default) and w.state.race and w.controls.race.isChecked()
    snap = wait_frame(w, lambda s: s.race is not None and len(s.race.runs) == 1)
    assert snap.race.runs[0].config == race_configs(w.session.job_config(), default)[0]
    w.controls.race.trigger()  # (off, and on again with runs: no editor)
    w.controls.race.trigger()
    assert len(shown) == 1 and w.state.race


def test_cancel_leaves_race_off(make_window, answer):
    w = make_window(iterations=500)
    shown = answer(RaceDialog.reject)
    w.controls.race.trigger()
    assert shown and not w.session.race
    assert not w.state.race and not w.controls.race.isChecked()


def test_each_choice_is_the_runs_setting(make_window, qtbot):
    w = make_window(iterations=500)
    base = w.session.job_config()
    dialog = RaceDialog(w.session, w.state, w)
    qtbot.addWidget(dialog)
    table = dialog.table
    table.set_variations(())
    row = table.widgets[1]  # run 3
    chosen = {"algorithm": "gd", "schedule": "inv_t", "loss": "logistic", "average": "last"}
    for name, value in chosen.items():
        row[name].setCurrentText(value)
        (config,) = race_configs(base, table.variations())
        assert getattr(config, name) == value
    for name, text, value in (("lam", "0.5", 0.5), ("batch", "4", 4), ("seed", "7", 7)):
        row[name].setText(text)
        row[name].textEdited.emit(text)
        (config,) = race_configs(base, table.variations())
        assert getattr(config, name) == value
    assert table.variations() == [{**chosen, "lam": 0.5, "batch": 4, "seed": 7}]
    dialog.accept()
    assert w.session.race == ({**chosen, "lam": 0.5, "batch": 4, "seed": 7},)
    assert isinstance(w.session.race[0]["seed"], int)


def test_a_run_that_cannot_race_is_refused_with_its_reason(make_window, qtbot):
    w = make_window(iterations=500)
    dialog = RaceDialog(w.session, w.state, w)
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(OK)
    assert ok.isEnabled()  # (the default)
    row = dialog.table.widgets[2]  # run 4
    row["algorithm"].setCurrentText("pegasos")
    row["lam"].setText("0")
    row["lam"].textEdited.emit("0")
    assert "Pegasos needs λ > 0" in dialog.table.notes[2].text()
    assert not ok.isEnabled()
    dialog.accept()
    assert not dialog.result() and w.session.race == ()  # (refused: nothing set)
    row["algorithm"].setCurrentText("gd")
    assert ok.isEnabled() and dialog.table.notes[2].text() == ""
    row["lam"].setText("-1")
    row["lam"].textEdited.emit("-1")
    assert "λ must be a number from" in dialog.table.notes[2].text() and not ok.isEnabled()


def test_a_hard_margin_says_why_no_race_can_be(make_window, qtbot):
    w = make_window(iterations=500, margin="hard")
    dialog = RaceDialog(w.session, w.state, w)
    qtbot.addWidget(dialog)
    assert dialog.message.text().startswith("No race: run 2: a hard margin runs alone")
    assert dialog.table.variations() == [] and not dialog.buttons.button(OK).isEnabled()
    dialog.table.widgets[0]["algorithm"].setCurrentText("sgd")
    assert "hard margin" in dialog.table.notes[0].text()


def test_the_last_race_is_offered_and_settings_without_a_column_kept(make_window, answer):
    w = make_window(iterations=500)
    shown = answer(RaceDialog.accept)
    w.session.set_race([{"lam": 1.0, "eta": 10.0}, {"average": "last"}])
    w.controls.race_dialog.trigger()
    table = shown[0].table
    assert table.widgets[0]["lam"].text() == "1" and "also eta=10.0" in table.notes[0].text()
    assert table.widgets[1]["average"].currentText() == "last"
    assert w.session.race == ({"lam": 1.0, "eta": 10.0}, {"average": "last"})
    assert race_dialog.remembered(w.prefs) == w.session.race
    w.session.set_race(())
    w.controls.race_dialog.trigger()
    assert shown[1].table.variations() == [{"lam": 1.0, "eta": 10.0}, {"average": "last"}]


def test_the_choices_are_shown_in_the_solver_panels_words(make_window, qtbot):
    """The race's drop-downs showed raw names (modified_huber) where the solver panel shows
    words: they show the words and are read by the option's name, "same" kept first."""
    w = make_window(iterations=500, loss="squared_hinge")
    dialog = RaceDialog(w.session, w.state, w)
    qtbot.addWidget(dialog)
    table = dialog.table
    table.set_variations(())
    loss = table.widgets[0]["loss"]
    texts = [loss.itemText(i) for i in range(loss.count())]
    assert texts == [race_table.SAME, *(words(name) for name in BINARY_LOSSES)]
    loss.setCurrentText("modified Huber")
    assert table.variations() == [{"loss": "modified_huber"}]
    table.set_variations([{"loss": "squared_hinge"}])
    assert loss.currentText() == "squared hinge"
    run1 = [label.text() for label in dialog.findChildren(QtWidgets.QLabel)]
    assert "squared hinge" in run1 and "squared_hinge" not in run1
