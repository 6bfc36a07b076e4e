"""View ▸ Race…: the race's runs 2–4, each the settings it changes of the solver panel's
run (run 1) as "name=value" pairs ("algorithm=sgd, schedule=inv_sqrt_t", "lam=1",
"average=last", "loss=logistic"). A run left empty is no run; OK checks the runs against
run 1 (svmviz.core.race_setup) and says in the dialog what is wrong, or sets the race and
turns View ▸ Race on. The last race set is remembered (the preferences' "race_runs") and
offered when the session has none.
"""

from __future__ import annotations

import json

from PySide6 import QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.race import MAX_RUNS
from svmviz.core.race_setup import describe, parse
from svmviz.core.race_setup import race_configs as check

EXAMPLES = ("algorithm=sgd, schedule=inv_sqrt_t", "lam=1", "average=last")


class RaceDialog(QtWidgets.QDialog):
    """The race of ``session`` (svmviz.app.session.Session) edited; ``state``
    (WindowState) gets View ▸ Race on when a race is set."""

    def __init__(self, session, state, parent=None, remembered=()):
        super().__init__(parent)
        self.setWindowTitle("Race")
        self.session, self.state = session, state
        form = QtWidgets.QFormLayout(self)
        intro = QtWidgets.QLabel(
            "Run 1 is the solver panel's run. Each other run changes some of its settings, "
            "written as name=value, separated by commas; runs that sample use the same "
            "seed, so they see the same points in the same order."
        )
        intro.setWordWrap(True)
        form.addRow(intro)
        self.fields = []
        race = session.race or tuple(remembered)
        for k in range(2, MAX_RUNS + 1):
            field = QtWidgets.QLineEdit(describe(race[k - 2]) if k - 2 < len(race) else "")
            field.setPlaceholderText(f"e.g. {EXAMPLES[k - 2]}")
            form.addRow(f"Run {k}:", field)
            self.fields.append(field)
        self.message = QtWidgets.QLabel("")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #B00000")
        form.addRow(self.message)
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel
            | QtWidgets.QDialogButtonBox.StandardButton.Reset
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        reset = buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Reset)
        reset.setText("No race")
        reset.clicked.connect(self.no_race)
        form.addRow(buttons)
        self.resize(560, self.sizeHint().height())

    def variations(self) -> list[dict]:
        """The runs written, checked (an InputError names the run and the setting)."""
        out = []
        for k, field in enumerate(self.fields, start=2):
            if field.text().strip():
                try:
                    out.append(parse(field.text()))
                except InputError as exc:
                    raise InputError(f"run {k}: {exc}") from None
        if not out:
            raise InputError("write the settings of at least run 2 (or choose No race)")
        check(self.session.job_config(), out)
        return out

    def accept(self) -> None:
        try:
            variations = self.variations()
        except InputError as exc:
            self.message.setText(str(exc))
            return
        self.session.set_race(variations)
        self.state.set_race(True)
        super().accept()

    def no_race(self) -> None:
        self.session.set_race(())
        self.state.set_race(False)
        super().accept()


def edit_race(session, state, parent, prefs=None) -> bool:
    """Show the dialog; whether the race was set or removed (a race set is remembered in
    ``prefs``, svmviz.app.preferences)."""
    dialog = RaceDialog(session, state, parent, remembered(prefs))
    if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
        return False
    if prefs is not None and session.race:
        prefs.set("race_runs", json.dumps([dict(v) for v in session.race]))
    return True


def remembered(prefs) -> tuple:
    """The last race set (checked only as a list of dicts: the dialog checks the rest)."""
    try:
        race = json.loads(prefs.get("race_runs")) if prefs is not None else []
    except ValueError:
        return ()
    ok = isinstance(race, list) and all(isinstance(v, dict) for v in race)
    return tuple(race[: MAX_RUNS - 1]) if ok else ()
