"""View ▸ Race… and View ▸ Race without runs: the race editor, a table of runs 2–4 each
changing some of the solver panel's settings (svmviz.ui.window.race_table). It opens with the
session's race, else the last race set (the preferences' "race_runs") where it still races
the panel's run, else the default race (svmviz.core.training.race_setup.default_race); OK is
refused while a run is, sets the race and turns View ▸ Race on; Cancel leaves Race as it
was, off when it was turned on without runs.
"""

from __future__ import annotations

import json

from PySide6 import QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.training.race import MAX_RUNS
from svmviz.core.training.race_setup import default_race, race_configs
from svmviz.ui import style
from svmviz.ui.window.race_table import RaceTable

Buttons = QtWidgets.QDialogButtonBox.StandardButton


class RaceDialog(QtWidgets.QDialog):
    """The race of ``session`` (svmviz.app.session.Session) edited; ``state``
    (WindowState) gets View ▸ Race on when a race is set."""

    def __init__(self, session, state, parent=None, remembered=()):
        super().__init__(parent)
        self.setWindowTitle("Race")
        self.session, self.state = session, state
        base = session.job_config()
        column = QtWidgets.QVBoxLayout(self)
        column.setSizeConstraint(QtWidgets.QLayout.SizeConstraint.SetMinimumSize)  # (no row cut)
        intro = QtWidgets.QLabel(
            "Run 1 is the solver panel's run. Each other run changes some of its settings "
            "(same: run 1's); runs that sample use the same seed, so they see the same points "
            "in the same order."
        )
        intro.setWordWrap(True)
        column.addWidget(intro)
        self.table = RaceTable(base, len(session.present_classes()) > 2)
        column.addWidget(self.table)
        self.message = QtWidgets.QLabel("")
        self.message.setWordWrap(True)
        style.tint(self.message, text=style.ERROR_COLOR)
        column.addWidget(self.message)
        self.buttons = QtWidgets.QDialogButtonBox(Buttons.Ok | Buttons.Cancel | Buttons.Reset)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        reset = self.buttons.button(Buttons.Reset)
        reset.setText("No race")
        reset.clicked.connect(self.no_race)
        default = self.buttons.addButton("Default", QtWidgets.QDialogButtonBox.ButtonRole.ResetRole)
        default.setToolTip(
            "Run 2: the panel's run against Pegasos, SGD, full-batch GD or the other output"
        )
        default.clicked.connect(self.set_default)
        column.addWidget(self.buttons)
        self.table.changed.connect(self._on_changed)
        offered = session.race or _racing(base, remembered)
        if offered:
            self.table.set_variations(offered)
        else:
            self.set_default()

    def set_default(self) -> None:
        """The default race, or why there is none."""
        try:
            self.table.set_variations(default_race(self.table.base))
        except InputError as exc:
            self.table.set_variations(())
            self.message.setText(f"No race: {exc}")

    def _on_changed(self) -> None:
        refused = self.table.refused()
        runs = not refused and self.table.variations()
        self.buttons.button(Buttons.Ok).setEnabled(bool(runs))
        if not refused:
            self.message.setText("" if runs else "Choose what run 2 changes (or No race).")
        if self.isVisible():  # (a reason's lines: taller, never cut)
            self.resize(self.width(), max(self.height(), self.sizeHint().height()))

    def accept(self) -> None:
        if not self.buttons.button(Buttons.Ok).isEnabled():
            return
        self.session.set_race(self.table.variations())
        self.state.set_race(True)
        super().accept()

    def no_race(self) -> None:
        self.session.set_race(())
        self.state.set_race(False)
        super().accept()


def _racing(base, race) -> tuple:
    """``race`` where it races ``base`` (else none)."""
    try:
        race_configs(base, list(race))
    except InputError:
        return ()
    return tuple(race)


def edit_race(session, state, parent, prefs=None) -> bool:
    """Show the dialog; whether the race was set or removed (a race set is remembered in
    ``prefs``, svmviz.app.preferences)."""
    dialog = RaceDialog(session, state, parent, remembered(prefs))
    if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
        return False
    if prefs is not None and session.race:
        prefs.set("race_runs", json.dumps([dict(v) for v in session.race]))
    return True


def race_toggled(session, state, parent, prefs=None) -> None:
    """View ▸ Race turned on (a click, Shift+R) without runs: the editor, with the default
    race; Race is off again unless a race is set."""
    if state.race and not session.race and not edit_race(session, state, parent, prefs):
        state.set_race(False)


def remembered(prefs) -> tuple:
    """The last race set (checked only as a list of dicts: the dialog checks the rest)."""
    try:
        race = json.loads(prefs.get("race_runs")) if prefs is not None else []
    except ValueError:
        return ()
    ok = isinstance(race, list) and all(isinstance(v, dict) for v in race)
    return tuple(race[: MAX_RUNS - 1]) if ok else ()
