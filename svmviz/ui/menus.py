"""The window's toolbar and menus, and the keyboard help. The actions call the window's
commands (svmviz.ui.main_window), its files (svmviz.ui.files) and exports (svmviz.ui.export).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.pace import DECADE_SECONDS
from svmviz.core.palette import MAX_CLASSES
from svmviz.core.scenario import list_scenarios, read_scenario
from svmviz.ui.speed import SpeedCombo, SpeedMenu, SpeedSetting

KEYS_HELP = f"""<b>Points</b><br>
Left click: a point of the current class · keys 1–{MAX_CLASSES}: the current class<br>
Drag a point: move it (the selection, if it is selected) · right click: remove a point<br>
Ctrl + drag: select · Delete: remove the selection · Ctrl+Z / Ctrl+Shift+Z: undo / redo<br>
Drag the empty plane: pan · wheel: zoom · F: fit the view · Ctrl+G: generate a data set<br>
Class bar: double click or right click a class to rename or recolour it<br><br>
<b>Training</b><br>
Space: play / pause · →: one iteration · ←: back one · Shift+→: N iterations<br>
Ctrl+R: run to the budget · the timeline (status bar) goes to any iteration<br>
R: restart from w = 0 · every edit restarts training (or goes on: Training ▸ Warm start)<br>
Play at the end plays the run again from w = 0<br>
Speed (toolbar, Training ▸ Speed): log-t pace, the default (t = 1, 2, 3… one at a time, then
each decade of t in about {DECADE_SECONDS:g} s) · 1, 10, 100 or 1000 iterations per frame ·
instant (as fast as possible)<br>
<br><b>View</b><br>F11: presentation mode · O: the exact optimum over the model<br>
I: the last iterate w<sub>t</sub> instead of the average · S: suboptimality F − F*<br>
X: slack segments from the points in the margin to their margin line<br>
Tabs below: Step inspector · Points · Margins · Theory · Generalization (a test set,
its error while training, a learning curve and a λ/γ/degree sweep; click a point to load it)<br>
<br><b>Files</b><br>Ctrl+N: new · Ctrl+O: open (or drop a session or CSV on the window) ·
Ctrl+S: save · Ctrl+Shift+S: save as<br>Ctrl+E: export the decision plot (PNG / SVG) ·
Ctrl+Shift+C: copy it · File ▸ Export: the model, the history, an animation<br>
<br><b>Window</b><br>F1: this help · Ctrl+Q: quit"""


def build_toolbar(w) -> None:
    """The training and editing actions, on the toolbar (the menus reuse them)."""
    bar = QtWidgets.QToolBar("Training", w)  # on the menu bar's row (svmviz.ui.layout)
    bar.setObjectName("training-bar")
    w.play_action = add(bar, "Play", w.toggle_play, "Space",
                        "Play / pause training (Space); at the end, Play plays the run again "
                        "from w = 0")  # fmt: skip
    # as wide as "Pause": the buttons after it do not move when Play becomes Pause
    WideEnough(bar.widgetForAction(w.play_action), ("Play", "Pause"))
    w.back_action = add(
        bar,
        "Back",
        w.step_back,
        "Left",
        "Back one iteration (←): replays the run from its seed to t − 1",
    )
    w.step_action = add(bar, "Step", lambda: w.advance(1), "Right", "One iteration (→)")
    w.step_n = QtWidgets.QSpinBox()
    w.step_n.setRange(1, 1_000_000)
    w.step_n.setValue(100)
    w.step_n.setToolTip("how many iterations Step N takes")
    w.step_n_action = add(
        bar,
        "Step N",
        lambda: w.advance(w.step_n.value()),
        "Shift+Right",
        "Take N iterations (Shift+→)",
    )
    bar.addWidget(w.step_n)
    w.run_action = add(
        bar,
        "Run",
        w.run_to_budget,
        "Ctrl+R",
        "Run to the iteration budget at full speed (Ctrl+R)",
    )
    w.reset_action = add(bar, "Reset", lambda: w.reset(), "R", "Start again from w = 0 (R)")
    w.speed = SpeedSetting(w)  # the one place of truth; the worker, combo and menu follow it
    w.speed_combo = SpeedCombo(w.speed)
    bar.addWidget(w.speed_combo)
    bar.addSeparator()
    w.generate_action = add(
        bar,
        "Generate…",
        w.generate_dialog,
        "Ctrl+G",
        "Replace the points by a generated data set (undoable; Ctrl+G)",
    )
    w.fit_action = add(bar, "Fit", w.fit_view, "F", "Fit the view to the points (F)")
    bar.addSeparator()
    w.undo_action = add(bar, "Undo", w.session.undo, "Ctrl+Z", "Undo the last edit (Ctrl+Z)")
    w.redo_action = add(bar, "Redo", w.session.redo, "Ctrl+Shift+Z", "Redo (Ctrl+Shift+Z)")
    w.clear_action = add(bar, "Clear", w.session.clear, None, "Remove every point (undoable)")
    w.delete_action = add(
        bar,
        "Delete",
        w.view.delete_selection,
        "Delete",
        "Remove the selected points (Ctrl + drag selects; Delete)",
    )


def build_menus(w, dock) -> None:
    menus = w.menuBar()
    file = menus.addMenu("&File")
    files, exports = w.files, w.exports
    add(file, "&New", files.new, "Ctrl+N", "Start an empty session (asks to save changes)")
    add(
        file,
        "&Open…",
        files.open_dialog,
        "Ctrl+O",
        "Open a session (.json), a scenario or a CSV data set; or drop one on the window",
    )
    recent = file.addMenu("Open &Recent")
    recent.aboutToShow.connect(lambda: files.fill_recent_menu(recent))
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
        files.export_csv,
        None,
        "The data set in the format svmviz train reads",
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
    for action in (
        w.undo_action,
        w.redo_action,
        None,
        w.delete_action,
        w.clear_action,
        w.generate_action,
    ):
        edit.addSeparator() if action is None else edit.addAction(action)
    edit.addSeparator()
    edit.addAction("Add a class", w.session.add_class)
    edit.addAction("Cost matrix Δ…", w.edit_cost)
    edit.addSeparator()
    add(
        edit,
        "Copy the decision plot",
        lambda: w.exports.copy_picture("plane"),
        "Ctrl+Shift+C",
        "The plane as a picture on the clipboard (the export size and scale)",
    )
    add(
        edit,
        "Copy the objective plot",
        lambda: w.exports.copy_picture("objective"),
        None,
        "The objective curve as a picture on the clipboard",
    )
    train = menus.addMenu("&Training")
    for action in (
        w.play_action,
        w.back_action,
        w.step_action,
        w.step_n_action,
        w.run_action,
        w.reset_action,
    ):
        train.addAction(action)
    w.speed_menu = SpeedMenu(w.speed, train)
    train.addMenu(w.speed_menu)
    train.addSeparator()
    warm = train.addAction("Warm start after edits")
    warm.setCheckable(True)
    warm.toggled.connect(w.panel.warm.setChecked)
    w.panel.warm.toggled.connect(warm.setChecked)
    view = menus.addMenu("&View")
    view.addAction(w.fit_action)
    w.optimum_action = toggle(
        w,
        view,
        "Exact optimum overlay",
        "O",
        w._on_view_options,
        "the exact optimum's boundary and margins over the current model",
    )
    w.iterate_action = toggle(
        w,
        view,
        "Last iterate w_t (not the average w̄)",
        "I",
        w._on_view_options,
        "draw the last iterate, which each step moves, instead of the averaged output",
    )
    w.gap_action = toggle(
        w,
        view,
        "Suboptimality F − F* with rate guides",
        "S",
        w._on_view_options,
        "the objective panel shows F(w_t) − F* (log-log) beside O(log t/(λt)) and O(1/√t)",
    )
    view.addSeparator()
    w.slack_action = toggle(
        w,
        view,
        "Slack segments ξ",
        "X",
        w._on_view_options,
        "linear models: a segment from each point with slack to its margin line",
    )
    view.addSeparator()
    view.addAction(dock.toggleViewAction())
    for d in (w.step_dock, w.points_dock, w.margins_dock, w.theory_dock, w.generalization_dock):
        view.addAction(d.toggleViewAction())
    view.addAction(w.class_bar.toggleViewAction())
    view.addSeparator()
    w.presentation_action = toggle(
        w,
        view,
        "Presentation mode",
        "F11",
        w.set_presentation,
        "full screen, larger text and markers, more contrast, panels folded away (F11)",
    )
    help_menu = menus.addMenu("&Help")
    keys = help_menu.addAction("Keyboard and mouse", lambda: show_keys(w))
    keys.setShortcut(QtGui.QKeySequence("F1"))


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

    def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
        if event.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._fit(obj)
        return False


def toggle(w, menu, text, key, slot, tip):
    action = menu.addAction(text)
    action.setCheckable(True)
    action.setShortcut(QtGui.QKeySequence(key))
    action.setToolTip(tip)
    action.setStatusTip(tip)
    action.toggled.connect(slot)
    w.addAction(action)  # its shortcut works with the menu bar hidden too
    return action


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
