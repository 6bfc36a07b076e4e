"""The race's runs as a table: run 1 (the solver panel's settings, read only) and runs 2–4,
each a row of choices of what it changes: a drop-down for each choice of the solver panel
(the same options, labels and words: svmviz.ui.panels.solver_choices, ChoiceBox: "modified
Huber" shown, modified_huber read) and a number field for λ, the batch
and the seed, "same" or blank where the run keeps run 1's. A row is checked as it is
edited (svmviz.core.training.race_setup): a run that cannot race run 1 is refused with the reason
beside it. A run's settings that no column shows (a session's η₀, say) are kept, and named.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.config import SolverConfig
from svmviz.core.errors import InputError
from svmviz.core.limits import BOUNDS
from svmviz.core.problems import words
from svmviz.core.training.race import MAX_RUNS
from svmviz.core.training.race_setup import describe, run_config, trains_alike
from svmviz.ui import style
from svmviz.ui.panels.choice_box import ChoiceBox
from svmviz.ui.panels.number_field import NumberField, exact
from svmviz.ui.panels.solver_choices import CHOICES, PROBLEM_CHOICES
from svmviz.ui.panels.wrapped_label import WrappedLabel

SAME = "same"  # a drop-down's first option: run 1's setting
CHOICE = {name: (label, options, tip) for name, label, options, tip in (*PROBLEM_CHOICES, *CHOICES)}
NUMBERS = {"lam": "λ", "batch": "Batch k", "seed": "Seed"}  # (their bounds: BOUNDS)


def columns(multiclass: bool) -> tuple[str, ...]:
    """The settings a row changes: the loss is the multiclass one on three classes or
    more."""
    loss = "multiclass" if multiclass else "loss"
    return ("algorithm", "schedule", "lam", loss, "average", "batch", "seed")


class RaceTable(QtWidgets.QWidget):
    """Runs 2–4 of a race against ``base`` (run 1's SolverConfig); ``changed`` after each
    edit, when ``refused()`` and ``variations()`` may have changed."""

    changed = QtCore.Signal()

    def __init__(self, base: SolverConfig, multiclass: bool = False, parent=None):
        super().__init__(parent)
        self.base = base
        self.names = columns(multiclass)
        grid = QtWidgets.QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for c, name in enumerate(self.names, start=1):
            head = QtWidgets.QLabel(
                f"<b>{CHOICE[name][0] if name in CHOICE else NUMBERS[name]}</b>"
            )
            head.setToolTip(CHOICE[name][2] if name in CHOICE else BOUNDS[name].rule())
            grid.addWidget(head, 0, c)
        grid.addWidget(QtWidgets.QLabel("<b>Run 1</b>"), 1, 0)
        for c, name in enumerate(self.names, start=1):
            grid.addWidget(QtWidgets.QLabel(self._shown(name)), 1, c)
        grid.addWidget(QtWidgets.QLabel("the solver panel's"), 1, len(self.names) + 1)
        self.widgets: list[dict[str, QtWidgets.QWidget]] = []
        self.extras: list[dict] = [{} for _ in range(MAX_RUNS - 1)]
        self.notes: list[WrappedLabel] = []
        for k in range(2, MAX_RUNS + 1):
            grid.addWidget(QtWidgets.QLabel(f"<b>Run {k}</b>"), k, 0)
            row = {name: self._control(name) for name in self.names}
            for c, name in enumerate(self.names, start=1):
                grid.addWidget(row[name], k, c)
            note = WrappedLabel()
            note.setMinimumWidth(280)
            grid.addWidget(note, k, len(self.names) + 1)
            self.widgets.append(row)
            self.notes.append(note)
        grid.setColumnStretch(len(self.names) + 1, 1)
        self.check()

    def _shown(self, name: str) -> str:
        value = getattr(self.base, name)
        return exact(value) if isinstance(value, float) else words(str(value))

    def _control(self, name: str) -> QtWidgets.QWidget:
        if name in CHOICE:
            combo = ChoiceBox()
            combo.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.setMinimumContentsLength(0)  # (whole: the table has the room)
            combo.addItem(SAME)  # (its data None: run 1's)
            combo.add_options(CHOICE[name][1])
            combo.setToolTip(f"{CHOICE[name][2]} ({SAME}: run 1's, {self._shown(name)})")
            if name in ("loss", "multiclass") and self.base.problem != "svc":
                combo.setEnabled(False)  # (the other problems have no choice of loss)
            combo.currentIndexChanged.connect(self.check)
            return combo
        field = NumberField(NUMBERS[name], BOUNDS[name], empty="run 1's")
        field.setPlaceholderText(self._shown(name))
        field.setMinimumWidth(field.fontMetrics().horizontalAdvance("0.0001") + 16)
        field.setToolTip(f"{field.rule()}: {self._shown(name)}")
        field.textEdited.connect(self.check)
        return field

    # ------------------------------------------------------------------ the runs
    def set_variations(self, variations) -> None:
        """Show ``variations`` (runs 2… as dicts of the settings each changes)."""
        for i, row in enumerate(self.widgets):
            change = dict(variations[i]) if i < len(variations) else {}
            for name, widget in row.items():
                value = change.pop(name, None)
                if isinstance(widget, ChoiceBox):
                    widget.blockSignals(True)
                    widget.setCurrentIndex(max(widget.findData(value), 0))
                    widget.blockSignals(False)
                else:
                    widget.show_value(value)
            self.extras[i] = change  # (settings no column shows: kept as they are)
        self.check()

    def change(self, i: int) -> dict:
        """What run ``i + 2`` changes (an InputError for a bad number)."""
        out = dict(self.extras[i])
        for name, widget in self.widgets[i].items():
            if isinstance(widget, ChoiceBox):
                if widget.currentIndex() > 0:
                    out[name] = widget.value()
            elif (value := widget.value()) is not None:
                out[name] = value
        return out

    def variations(self) -> list[dict]:
        """Runs 2… as the session keeps them (rows that change nothing are no run)."""
        return [c for c in (self.change(i) for i in range(len(self.widgets))) if c]

    def refused(self) -> dict[int, str]:
        """The runs (2…) that cannot race run 1, each with the reason."""
        out = {}
        for i in range(len(self.widgets)):
            try:
                change = self.change(i)
                if change:
                    run_config(self.base, change, f"run {i + 2}")
            except InputError as exc:  # (the row says which run: the reason only)
                out[i + 2] = str(exc).removeprefix(f"run {i + 2}: ").removeprefix("config: ")
        return out

    @QtCore.Slot()
    def check(self) -> None:
        """Each row's note: why it is refused, or what else it keeps; then ``changed``."""
        refused = self.refused()
        plain = self.palette().color(QtGui.QPalette.ColorRole.WindowText).name()
        for i, note in enumerate(self.notes):
            k = i + 2
            words, color = "", plain
            if k in refused:
                words, color = refused[k], style.ERROR_COLOR
            else:
                change = self.change(i)
                extra = describe(self.extras[i])
                if change and trains_alike(self.base, run_config(self.base, change, "")):
                    words = "trains as run 1"
                if extra:
                    words = ", ".join(filter(None, (words, f"also {extra}")))
            note.setText(words)
            note.fit_height()
            style.tint(note, text=color)
        self.changed.emit()
