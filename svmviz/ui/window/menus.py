"""The window's actions, toolbar and menus, and the keyboard help. The actions call the
window's commands (svmviz.ui.window.main_window), its files (svmviz.ui.window.files) and exports
(svmviz.ui.window.export); the checkable ones are views of the window's state
(svmviz.app.window_state), bound both ways. The window keeps the :class:`Actions`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.files.scenario import list_scenarios, read_scenario
from svmviz.core.palette import MAX_CLASSES
from svmviz.core.training.pace import DECADE_SECONDS
from svmviz.ui.panels.speed import SpeedCombo, SpeedMenu
from svmviz.ui.window import points_export, recent_files

KEYS_HELP = f"""<b>Points</b><br>
Left click: a point of the current class · keys 1–{MAX_CLASSES}: the current class<br>
Drag a point: move it (the selection, if it is selected) · right click: remove a point<br>
Ctrl + drag: select · Delete: remove the selection · Ctrl+Z / Ctrl+Shift+Z: undo / redo<br>
Drag the empty plane: pan · wheel: zoom · F: fit the view · Ctrl+G: generate a data set<br>
Class bar: double click or right click a class to rename or recolour it<br><br>
<b>Training</b><br>
Space: play / pause · →: one iteration · ←: back one · Shift+→: N iterations<br>
Ctrl+R: run to the budget · the timeline (status bar) goes to any iteration<br>
R: restart from w = 0 (or from the start w₀ set by Train from here) · an edit retrains
(paused: to where the run was; or Warm start)<br>
Play at the end plays the run again from w = 0 (or w₀) · Training ▸ Start from w = 0 forgets w₀<br>
H: move the boundary by hand (two linear classes): drag h₀ on f = 0 to move the line, h₁ on
f = +1 to turn it and widen the margin · Enter: train from here · H again: back to the run<br>
Speed (toolbar, Training ▸ Speed): log-t pace, the default (t = 1, 2, 3… one at a time, then
each decade of t in about {DECADE_SECONDS:g} s) · 1, 10, 100 or 1000 iterations per frame ·
instant (as fast as possible)<br>
<br><b>View</b><br>F11: presentation mode · O: the exact optimum over the model<br>
I: the last iterate w<sub>t</sub> instead of the average · S: suboptimality F − F*<br>
X: slack segments from the points in the margin to their margin line<br>
Shift+R: the race (runs 2–4 beside the solver's run, on the same samples; View ▸ Race… sets
them; without runs, Shift+R opens it with the last race or a default)<br>
Tabs beside the plane: Step (the step inspector) · Points · Margins · Theory · Test set (a test set,
its error while training, a learning curve and a λ/γ/degree sweep; click a point to load it)<br>
Beside the plane, large: C the next view · Ctrl+1 the curves · Ctrl+2 the weight space ·
Ctrl+3 the 3-D view · Ctrl+4 the kernel matrix · F9 folds the solver panel to a strip<br>
<br><b>Files</b><br>Ctrl+N: new · Ctrl+O: open (or drop a session or data set on the window) ·
Ctrl+S: save · Ctrl+Shift+S: save as<br>Ctrl+E: export the decision plot (PNG / SVG) ·
Ctrl+Shift+C: copy it · File ▸ Export: the model, the history, an animation<br>
<br><b>Window</b><br>F1: this help · Ctrl+Q: quit"""


@dataclass
class Actions:
    """The window's named actions (and the toolbar's two widgets), placed on the toolbar
    and in the menus; the checkable ones are views of the window's state."""

    play: QtGui.QAction
    back: QtGui.QAction
    step: QtGui.QAction
    step_n: QtWidgets.QSpinBox  # how many iterations Step N takes
    step_n_action: QtGui.QAction
    run: QtGui.QAction
    reset: QtGui.QAction
    speed_combo: SpeedCombo
    speed_menu: SpeedMenu
    generate: QtGui.QAction
    fit: QtGui.QAction
    undo: QtGui.QAction
    redo: QtGui.QAction
    clear: QtGui.QAction
    delete: QtGui.QAction
    warm_start: QtGui.QAction
    optimum: QtGui.QAction
    iterate: QtGui.QAction
    suboptimality: QtGui.QAction
    slack: QtGui.QAction
    race: QtGui.QAction  # the session's race beside its own run (svmviz.ui.views.race_view)
    race_dialog: QtGui.QAction
    presentation: QtGui.QAction
    hand: QtGui.QAction  # move the boundary by hand (checkable: the mode)
    train_here: QtGui.QAction  # in that mode: train from the hand-made w
    zero_start: QtGui.QAction  # forget the start w₀


def build_actions(w, state) -> Actions:
    """The actions, calling the window's commands; the checkable ones bound both ways to
    ``state`` (svmviz.app.window_state.WindowState)."""
    step_n = QtWidgets.QSpinBox()
    step_n.setRange(1, 1_000_000)
    step_n.setValue(100)
    step_n.setToolTip("how many iterations Step N takes")
    warm = QtGui.QAction("Warm start after edits", w)
    warm.setCheckable(True)
    bind(warm, state, "warm_start")
    hand = action(
        w,
        "Move the boundary by hand",
        None,
        "H",
        "Drag the line f = 0 and its margin by two handles (H); training pauses",
    )
    hand.setCheckable(True)
    w.addAction(hand)  # its shortcut works with the menu bar hidden too
    train_here = action(
        w,
        "Train from here",
        lambda: w.hand.train_here(),
        "Return",
        "Train from the boundary moved by hand (Enter)",
    )
    train_here.setEnabled(False)
    w.addAction(train_here)
    return Actions(
        play=action(
            w,
            "Play",
            w.toggle_play,
            "Space",
            "Play / pause training (Space); at the end, Play plays the run again from w = 0",
        ),
        back=action(
            w,
            "Back",
            w.step_back,
            "Left",
            "Back one iteration (←): replays the run from its seed to t − 1",
        ),
        step=action(w, "Step", lambda: w.advance(1), "Right", "One iteration (→)"),
        step_n=step_n,
        step_n_action=action(
            w,
            "Step N",
            lambda: w.advance(step_n.value()),
            "Shift+Right",
            "Take N iterations (Shift+→)",
        ),
        run=action(
            w,
            "Run",
            w.run_to_budget,
            "Ctrl+R",
            "Run to the iteration budget at full speed (Ctrl+R)",
        ),
        reset=action(
            w, "Reset", lambda: w.reset(), "R", "Start again from w = 0, or from the start w₀ (R)"
        ),
        speed_combo=SpeedCombo(state),
        speed_menu=SpeedMenu(state, w),
        generate=action(
            w,
            "Generate…",
            w.generate_dialog,
            "Ctrl+G",
            "Replace the points by a generated data set (undoable; Ctrl+G)",
        ),
        fit=action(w, "Fit", w.fit_view, "F", "Fit the view to the points (F)"),
        undo=action(w, "Undo", w.session.undo, "Ctrl+Z", "Undo the last edit (Ctrl+Z)"),
        redo=action(w, "Redo", w.session.redo, "Ctrl+Shift+Z", "Redo (Ctrl+Shift+Z)"),
        clear=action(w, "Clear", w.session.clear, None, "Remove every point (undoable)"),
        delete=action(
            w,
            "Delete",
            w.session.delete_selection,
            "Delete",
            "Remove the selected points (Ctrl + drag selects; Delete)",
        ),
        warm_start=warm,
        optimum=toggle(
            w,
            state,
            "optimum",
            "Exact optimum overlay",
            "O",
            "the exact optimum's boundary and margins over the current model",
        ),
        iterate=toggle(
            w,
            state,
            "iterate",
            "Last iterate w_t (not the average w̄)",
            "I",
            "draw the last iterate, which each step moves, instead of the averaged output",
        ),
        suboptimality=toggle(
            w,
            state,
            "suboptimality",
            "Suboptimality F − F* with rate guides",
            "S",
            "the objective panel shows F(w_t) − F* (log-log) beside O(log t/(λt)) and O(1/√t)",
        ),
        slack=toggle(
            w,
            state,
            "slack",
            "Slack segments ξ",
            "X",
            "linear models: a segment from each point with slack to its margin line",
        ),
        race=toggle(
            w,
            state,
            "race",
            "Race",
            "Shift+R",
            "runs 2–4 of the race trained beside the solver panel's run on the same samples: "
            "their boundaries, curves and steps (View ▸ Race… sets them; without runs, "
            "turning it on opens that editor)",
            w.race_clicked,
        ),
        race_dialog=action(
            w,
            "Race…",
            w.edit_race,
            None,
            "Set the race: up to three runs that each change some of the solver's settings",
        ),
        presentation=toggle(
            w,
            state,
            "presentation",
            "Presentation mode",
            "F11",
            "full screen, larger text and markers, more contrast, panels folded away (F11)",
        ),
        hand=hand,
        train_here=train_here,
        zero_start=action(
            w,
            "Start from w = 0",
            lambda: w.start_from_zero(),
            None,
            "Forget the start w₀ that Train from here set: training begins at w = 0",
        ),
    )


def build_toolbar(w, a: Actions) -> QtWidgets.QToolBar:
    """The training and editing actions, on the toolbar (the menus reuse them)."""
    bar = QtWidgets.QToolBar("Training", w)  # on the menu bar's row (svmviz.ui.window.layout)
    bar.setObjectName("training-bar")
    bar.addAction(a.play)
    # as wide as "Pause": the buttons after it do not move when Play becomes Pause
    WideEnough(bar.widgetForAction(a.play), ("Play", "Pause"))
    for entry in (
        a.back,
        a.step,
        a.step_n_action,
        a.step_n,
        a.run,
        a.reset,
        a.speed_combo,
        None,
        a.generate,
        a.fit,
        None,
        a.undo,
        a.redo,
        a.clear,
        a.delete,
    ):
        if entry is None:
            bar.addSeparator()
        elif isinstance(entry, QtWidgets.QWidget):
            bar.addWidget(entry)
        else:
            bar.addAction(entry)
    return bar


def build_menus(w, a: Actions, docks) -> QtWidgets.QMenu:
    """The menu bar (its View menu returned); ``docks``: the docks the View menu shows and
    hides, in its order."""
    menus = w.menuBar()
    file = menus.addMenu("&File")
    files, exports = w.files, w.exports
    add(file, "&New", files.new, "Ctrl+N", "Start an empty session (asks to save changes)")
    add(
        file,
        "&Open…",
        files.open_dialog,
        "Ctrl+O",
        "Open a session (.json), a scenario or a data set (CSV or svm-toy); or drop one "
        "on the window",
    )
    recent = file.addMenu("Open &Recent")
    recent.aboutToShow.connect(lambda: recent_files.fill_recent_menu(files, recent))
    scenarios = file.addMenu("Scenarios")
    for path in list_scenarios():
        try:
            title = read_scenario(path).title
        except InputError as exc:  # a broken file: listed, and says why when chosen
            title = f"{path.stem} (cannot be read: {exc})"
        scenarios.addAction(title, lambda path=path: w.open_scenario(path))
    file.addSeparator()
    add(
        file,
        "&Save",
        files.save,
        "Ctrl+S",
        "Save the session: points, classes, settings, split, view and caption",
    )
    add(file, "Save &As…", files.save_as, "Ctrl+Shift+S", "Save the session in a new file")
    export = file.addMenu("&Export")
    add(
        export,
        "Decision plot as PNG / SVG…",
        lambda: exports.save_picture("plane"),
        "Ctrl+E",
        "A picture of the plane at a chosen size (2× for slides), or SVG",
    )
    add(
        export,
        "Objective plot as PNG / SVG…",
        lambda: exports.save_picture("objective"),
        None,
        "A picture of the objective curve",
    )
    add(
        export,
        "Loss and error plot as PNG / SVG…",
        lambda: exports.save_picture("loss"),
        None,
        "A picture of the loss, error and margin curves",
    )
    add(
        export,
        "Animation of the training (GIF / PNG frames)…",
        exports.save_animation,
        None,
        "The run replayed from w = 0 as an animated GIF or numbered PNG frames",
    )
    export.addSeparator()
    add(
        export,
        "Trained model (MODEL.json / NPZ)…",
        exports.save_model,
        None,
        "The model as svmviz train --out writes it, or as NumPy arrays",
    )
    add(
        export,
        "Training history (CSV)…",
        exports.save_history,
        None,
        "One row per iteration: objective, loss, error, ‖w‖, violations",
    )
    add(
        export,
        "Points as CSV…",
        lambda: points_export.export_csv(files),
        None,
        "The data set in the format svmviz train reads",
    )
    add(
        export,
        "Points as svm-toy file…",
        lambda: points_export.export_svmtoy(files),
        None,
        "The points as libsvm's svm-toy saves them (class 1:x 2:y, or target 1:x for "
        "a regression), y pointing down as in svm-toy; svmviz opens them too",
    )
    file.addSeparator()
    add(
        file,
        "Preferences…",
        w.edit_preferences,
        None,
        "Autosave interval, and resetting every remembered setting",
    )
    file.addSeparator()
    add(file, "Quit", w.close, "Ctrl+Q", "Close the window (asks to save changes)")
    edit = menus.addMenu("&Edit")
    for entry in (a.undo, a.redo, None, a.delete, a.clear, a.generate):
        edit.addSeparator() if entry is None else edit.addAction(entry)
    edit.addSeparator()
    edit.addAction("Add a class", w.session.add_class)
    edit.addAction("Cost matrix Δ…", w.edit_cost)
    edit.addSeparator()
    add(
        edit,
        "Copy the decision plot",
        lambda: exports.copy_picture("plane"),
        "Ctrl+Shift+C",
        "The plane as a picture on the clipboard (the export size and scale)",
    )
    add(
        edit,
        "Copy the objective plot",
        lambda: exports.copy_picture("objective"),
        None,
        "The objective curve as a picture on the clipboard",
    )
    train = menus.addMenu("&Training")
    for entry in (a.play, a.back, a.step, a.step_n_action, a.run, a.reset):
        train.addAction(entry)
    train.addMenu(a.speed_menu)
    train.addSeparator()
    train.addAction(a.warm_start)
    train.addSeparator()
    for entry in (a.hand, a.train_here, a.zero_start):
        train.addAction(entry)
    view = menus.addMenu("&View")
    view.addAction(a.fit)
    entries = (a.optimum, a.iterate, a.suboptimality, None, a.slack, a.race, a.race_dialog, None)
    for entry in entries:
        view.addSeparator() if entry is None else view.addAction(entry)
    for d in docks:
        view.addAction(d.toggleViewAction())
    view.addSeparator()
    view.addAction(a.presentation)
    help_menu = menus.addMenu("&Help")
    keys = help_menu.addAction("Keyboard and mouse", lambda: show_keys(w))
    keys.setShortcut(QtGui.QKeySequence("F1"))
    return view


class WideEnough(QtCore.QObject):
    """Keeps a button at least as wide as the widest of ``texts`` (again after a change of
    font, e.g. presentation mode)."""

    def __init__(self, button: QtWidgets.QWidget, texts):
        super().__init__(button)
        self._texts = tuple(texts)
        self._fit(button)
        button.installEventFilter(self)

    def _fit(self, button) -> None:
        shown = button.text()
        widths = []
        for text in self._texts:
            button.setText(text)
            widths.append(button.sizeHint().width())
        button.setText(shown)
        button.setMinimumWidth(max(widths))

    def eventFilter(self, obj, event):
        if event.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._fit(obj)
        return False


def bind(action: QtGui.QAction, state, name: str) -> None:
    """A checkable ``action`` as a view of ``state``'s boolean ``name``, both ways (an equal
    value sets nothing, so neither side echoes)."""
    action.setChecked(getattr(state, name))
    action.toggled.connect(getattr(state, f"set_{name}"))
    getattr(state, f"{name}_changed").connect(action.setChecked)


def toggle(w, state, name, text, key, tip, clicked=None) -> QtGui.QAction:
    """A checkable action bound to ``state``'s ``name``, with its shortcut and tip;
    ``clicked`` after the user turned it (not when ``state`` did)."""
    entry = action(w, text, clicked, key, tip)
    entry.setCheckable(True)
    bind(entry, state, name)
    w.addAction(entry)  # its shortcut works with the menu bar hidden too
    return entry


def action(w, text, slot, key, tip) -> QtGui.QAction:
    """An action of the window with its shortcut and tip (shown in the status bar)."""
    entry = QtGui.QAction(text, w)
    if slot is not None:
        entry.triggered.connect(slot)
    if key:
        entry.setShortcut(QtGui.QKeySequence(key))
    entry.setToolTip(tip)
    entry.setStatusTip(tip)
    return entry


def add(menu, text, slot, key, tip):
    """A menu entry with its shortcut and tip (shown in the status bar)."""
    entry = menu.addAction(text, slot)
    if key:
        entry.setShortcut(QtGui.QKeySequence(key))
    entry.setToolTip(tip)
    entry.setStatusTip(tip)
    return entry


def show_keys(w):
    QtWidgets.QMessageBox.information(w, "svmviz: keyboard and mouse", KEYS_HELP)
