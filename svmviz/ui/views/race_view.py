"""A race in the window (svmviz.app.race_runner's RaceFrame in each snapshot): the
companion runs' boundaries and, lighter, their margins over the plane in their colours and
dashes, named in the plane's legend by what differs; their objective (or suboptimality
F − F*) curves over run 1's on the log-log objective plot; and, when stepping, one line per
run in the step inspector saying what its step did.

Run 1 is the solver panel's run, drawn as the plane always draws a model (the black
boundary); runs 2–4 take RACE_COLORS and RACE_DASHES (svmviz.core.palette). The decision
plot and the curve panel each own one helper here (a hook of a few lines there); the frame
router shows each snapshot through :func:`race_reading`.
"""

from __future__ import annotations

import html

import numpy as np
import shiboken6
from PySide6 import QtCore, QtWidgets

from svmviz.core.palette import RACE_COLORS
from svmviz.core.telemetry import HeldRows
from svmviz.ui.plane.race_lines import COMPANIONS, pen, run_name
from svmviz.ui.views.reading import Pace, Reading
from svmviz.ui.views.step_words import step_summary


class RaceCurves(QtCore.QObject):
    """The companions' objective curves on ``panel``'s objective plot (a CurvePanel), in
    their colours and dashes, F − F* in suboptimality mode (against each run's optimum:
    the common one when the runs solve one problem); run 1's curve turns black with them.
    Their legend has as many columns as the plot's width holds whole."""

    def __init__(self, panel):
        super().__init__(panel)
        self.panel = panel
        plot = panel.objective_plot
        plot.installEventFilter(self)  # (a resize: the legend's columns again)
        self.curves = [plot.plot() for _ in range(COMPANIONS)]
        self._main_pen = panel.objective.opts["pen"]
        self._named: list = []
        # each curve's pen set, and run 1's (a pen set anew makes pyqtgraph build its curve
        # again: set only when it changes)
        self._pens: list = [None] * COMPANIONS
        self._held = [HeldRows() for _ in range(COMPANIONS)]
        self._main_key = None

    def show(self, race, suboptimality: bool) -> None:
        """Draw ``race``'s companions (None: none) after the panel drew run 1."""
        panel = self.panel
        runs = () if race is None else race.runs
        lo, hi = panel.objective_range
        legend = panel.objective_plot.getPlotItem().legend
        names = []
        for i, curve in enumerate(self.curves):
            if i >= len(runs):
                curve.setData([], [])
                continue
            run = runs[i]
            key = (run.color, run.dash, panel.scale)
            if key != self._pens[i]:
                self._pens[i] = key
                curve.setPen(pen(run.color, run.dash, 2 * panel.scale))
            optimum = run.objective if suboptimality else None
            t, f = _curve(run.history, optimum, suboptimality, self._held[i])
            curve.setData(t, f, connect="finite")
            finite = f[np.isfinite(f) & (f > 0)]
            if finite.size:
                lo, hi = min(lo, float(finite.min())), max(hi, float(finite.max()))
            own = suboptimality and not race.common  # (another problem: another F*)
            tip = f"run {i + 2}: {run.label}" + (", F − F* against its own F*" if own else "")
            names.append((curve, run_name(i + 2, run.short), tip))
        main_key = panel.scale if runs else None
        if main_key != self._main_key:
            self._main_key = main_key
            main = pen(RACE_COLORS[0], "solid", 2 * panel.scale) if runs else self._main_pen
            panel.objective.setPen(main)
        if names != self._named:  # the legend: run 1's entry stays the panel's
            for curve, *_ in self._named:
                _remove_entry(legend, curve)
            for curve, name, tip in names:  # (short names: whole in a narrow column)
                legend.addItem(curve, name)
                legend.getLabel(curve).setToolTip(tip)
            self._named = names
        self.fit_columns()
        if runs:
            panel.include_objective(lo, hi)

    def fit_columns(self) -> None:
        """Up to three columns (presentation mode's larger text: two), fewer where the
        widest entry would be cut: the plot keeps its height, and every name is whole."""
        if not self._named:
            return  # (the panel's own legend)
        legend = self.panel.objective_plot.getPlotItem().legend
        gap = 2 * legend.layout.horizontalSpacing() + 4
        widest = max(
            s.boundingRect().width() + t.item.boundingRect().width() for s, t in legend.items
        )
        most = 3 if self.panel.scale <= 1 else 2
        columns = max(1, min(most, int(self.panel.objective_plot.width() // (widest + gap))))
        if legend.columnCount != columns:
            legend.setColumnCount(columns)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QtCore.QEvent.Type.Resize:
            self.fit_columns()
        return False


def _curve(history: dict, optimum, suboptimality: bool, held: HeldRows):
    """(t, F or F − F*) of a run's history, log-sampled as the panel samples run 1's (by
    ``held``, the curve's); in suboptimality mode without its optimum: nothing."""
    obj = history["objective"]
    if len(obj) == 0 or (suboptimality and optimum is None):
        return np.zeros(0), np.zeros(0)
    rows_t = history["t"]
    pick = held.samples(rows_t, obj)
    t = rows_t[pick].astype(float)
    f = obj[pick] - optimum if suboptimality else obj[pick]
    return t, np.where(f > 0, f, np.nan)


class RaceSteps(QtWidgets.QLabel):
    """The step inspector's lines of runs 2–4: what each one's step did, in its colour
    (empty without a race, or when the frame follows no single step)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.setMargin(8)
        self.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def show_race(self, race, name_of, class_names=(), kind: str = "svc") -> None:
        lines = []
        if race is not None:
            for i, run in enumerate(race.runs):
                if run.step is None:
                    continue
                words = html.escape(step_summary(run.step, name_of, class_names, kind))
                lines.append(f'<span style="color:{run.color}"><b>run {i + 2}</b></span>: {words}')
        if lines:
            head = "<b>The other runs' steps</b> (the same sample where they sample alike):"
            self.setText("<br>".join([head, *lines]))
        self.setVisible(bool(lines))


def with_race_steps(panel: QtWidgets.QWidget, steps: RaceSteps) -> QtWidgets.QWidget:
    """The step inspector's widget with the race's lines above its formula."""
    box = QtWidgets.QWidget()
    column = QtWidgets.QVBoxLayout(box)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(0)
    column.addWidget(steps)
    column.addWidget(panel, 1)
    return box


def race_readings(plot, curves: RaceCurves, steps: RaceSteps) -> dict[str, Reading]:
    """The race's readings for the frame router: its lines on the plane and its step
    lines with every frame, its curves with the curve panel's (after run 1's)."""

    def show_plane(snap, router) -> None:
        race = snap.race
        plot.set_race(race)
        session = router.session
        classes, y = session.classes, session.points.y

        def name_of(i):
            return classes[int(y[i])] if 0 <= i < len(y) else "?"

        steps.show_race(race, name_of, snap.model.classes, session.config.kind)

    def show_curves(snap, router) -> None:
        curves.show(snap.race, router.state.suboptimality and snap.reference is not None)

    def clear() -> None:
        plot.set_race(None)
        curves.show(None, False)
        steps.show_race(None, str)

    return {
        "race": Reading(show_plane, Pace.FRAME, clear=clear),
        "race-curves": Reading(show_curves, Pace.CURVES),
    }


def _remove_entry(legend, curve) -> None:
    """Take ``curve``'s entry out of ``legend`` and delete its sample and label now: pyqtgraph
    hands them back to Python, and one freed later by the garbage collector has its Python
    half cleared before Qt's destructor calls into it (pyqtgraph issue 472's errors)."""
    parts = next(((s, t) for s, t in legend.items if s.item is curve), ())
    legend.removeItem(curve)
    for part in parts:
        shiboken6.delete(part)
