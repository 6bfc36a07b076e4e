"""The svmviz window: the points and the model's regions and margins, the per-iteration
curves, the class bar, the training controls and the solver panel.

Left click places a point of the current class (keys 1–9 choose it), right click removes
the nearest point, a left drag moves a point, Ctrl + drag selects and Delete removes the
selection, Ctrl+Z / Ctrl+Shift+Z undo and redo. Every edit restarts training from w = 0 (or
goes on from the current w with "warm start") and keeps playing if it was. Training runs in
a worker thread (svmviz.app.worker); the window draws the snapshots it publishes.
"""

from __future__ import annotations

import html
import time

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.app.session import Session
from svmviz.app.worker import TrainingController
from svmviz.core import bounds
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.frame import data_extent, slack_segments
from svmviz.core.generalization import TRAIN, subset
from svmviz.core.generate import generate
from svmviz.core.palette import MAX_CLASSES
from svmviz.core.scenario import list_scenarios, read_scenario
from svmviz.core.solvers import STATUS_TEXT
from svmviz.ui import style
from svmviz.ui.class_bar import ClassBar
from svmviz.ui.cost_editor import CostDialog
from svmviz.ui.curves import CurvePanel, scale_plot_text
from svmviz.ui.decision_plot import DecisionPlot
from svmviz.ui.generalization_panel import GeneralizationPanel
from svmviz.ui.generate_dialog import GenerateDialog
from svmviz.ui.hover import HoverReadout
from svmviz.ui.point_table import MarginHistogram, PointTable
from svmviz.ui.solver_panel import SPEEDS, SolverPanel
from svmviz.ui.step_view import StepOverlay, StepPanel
from svmviz.ui.theory_panel import TheoryPanel

DEFAULT_EXTENT = (-4.0, 4.0, -3.0, 3.0)
# while playing, the curves and the status text are redrawn this often, in a timer event of
# their own (never in the same pass as a frame of the plane): their axes and text re-render
# on every update, which at 60 Hz would take most of the GUI thread
CURVE_SECONDS = 0.15
MARKS_SECONDS = 0.1  # the rings and crosses, while playing at full speed
PRESENTATION_SCALE = 1.6  # text, markers and lines in presentation mode
PRESENTATION_REGION_ALPHA = 95  # of 255: stronger regions on a washed-out projector


KEYS_HELP = f"""<b>Points</b><br>
Left click: a point of the current class · keys 1–{MAX_CLASSES}: the current class<br>
Drag a point: move it (the selection, if it is selected) · right click: remove a point<br>
Ctrl + drag: select · Delete: remove the selection · Ctrl+Z / Ctrl+Shift+Z: undo / redo<br>
Drag the empty plane: pan · wheel: zoom · F: fit the view · Ctrl+G: generate a data set<br>
Class bar: double click or right click a class to rename or recolour it<br><br>
<b>Training</b><br>
Space: play / pause · →: one iteration · ←: back one · Shift+→: N iterations<br>
Ctrl+R: run to the budget · the timeline slider goes to any iteration reached so far<br>
R: restart from w = 0 · every edit restarts training (or goes on: Training ▸ Warm start)<br>
<br><b>View</b><br>F11: presentation mode · O: the exact optimum over the model<br>
I: the last iterate w<sub>t</sub> instead of the average · S: suboptimality F − F*<br>
X: slack segments from the points in the margin to their margin line<br>
Tabs below: Step inspector · Points · Margins · Theory · Generalization (a test set,
its error while training, a learning curve and a λ/γ/degree sweep; click a point to load it)<br>
<br><b>Window</b><br>F1: this help · Ctrl+Q: quit"""


def _union(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]))


class MainWindow(QtWidgets.QMainWindow):
    def __init__(self, data: Dataset | None, config: SolverConfig, play: bool = False):
        super().__init__()
        self.setWindowTitle("svmviz")
        self.session = Session(data, config)
        font = self.font()
        font.setPointSize(style.FONT_POINT_SIZE)
        self.setFont(font)
        pg.setConfigOptions(antialias=True, background="w", foreground="k")

        self.plot = DecisionPlot(self.session)
        self.view = self.plot.view
        self.view.selection_changed = self.plot.show_selection
        self.plot.scene().sigMouseClicked.connect(self._on_plot_click)
        # the regions follow the view (pan, zoom, resize), at most every 50 ms
        self._view_timer = QtCore.QTimer(self)
        self._view_timer.setSingleShot(True)
        self._view_timer.setInterval(50)
        self._view_timer.timeout.connect(self._on_view_settled)
        self.view.sigRangeChanged.connect(self._view_timer.start)

        self.curves = CurvePanel()
        split = QtWidgets.QSplitter()
        split.addWidget(self.plot)
        split.addWidget(self.curves)
        split.setSizes([700, 500])
        self.split = split
        # a scenario's caption: what to look for (hidden until a scenario is opened)
        self.caption = QtWidgets.QLabel()
        self.caption.setWordWrap(True)
        self.caption.setMargin(6)
        self.caption.setStyleSheet("background: #FFF6D5; border-bottom: 1px solid #C9B458;")
        self.caption.hide()
        central = QtWidgets.QWidget()
        column = QtWidgets.QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.caption)
        column.addWidget(split, 1)
        self.setCentralWidget(central)

        self._build_toolbar()
        self.class_bar = ClassBar(self.session, self)
        self.addToolBarBreak()
        self.addToolBar(self.class_bar)
        for k in range(MAX_CLASSES):
            shortcut = QtGui.QShortcut(QtGui.QKeySequence(str(k + 1)), self)
            shortcut.activated.connect(lambda k=k: self.session.set_current_class(k))
        self.status = QtWidgets.QLabel()
        self.statusBar().addWidget(self.status, 1)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setFormat("%p%")
        self.progress.setToolTip("iterations done of the budget T")
        self.statusBar().addPermanentWidget(self.progress)

        self.panel = SolverPanel(self.session.config, len(self.session.points))
        self.panel.setFont(self.font())  # before its size is measured below
        scroll = QtWidgets.QScrollArea()
        scroll.setWidget(self.panel)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # wide enough for every control, with room for the vertical scroll bar
        scroll.setMinimumWidth(
            self.panel.minimumSizeHint().width()
            + scroll.verticalScrollBar().sizeHint().width()
            + 2 * scroll.frameWidth()
            + 20  # the dock's own margins
        )
        scroll.setMaximumWidth(420)
        dock = QtWidgets.QDockWidget("Solver", self)
        dock.setObjectName("solver-dock")
        self.solver_dock = dock
        dock.setWidget(scroll)
        self.addDockWidget(QtCore.Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        self.hover = HoverReadout(self.plot)
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.plot.on_leave = lambda: self._show_hover(None)
        self.step_overlay = StepOverlay(self.plot)
        self.step_panel = StepPanel()
        self.step_dock = QtWidgets.QDockWidget("Step inspector", self)
        self.step_dock.setObjectName("step-dock")
        self.step_dock.setWidget(self.step_panel)
        self.addDockWidget(QtCore.Qt.DockWidgetArea.BottomDockWidgetArea, self.step_dock)
        self.point_table = PointTable()
        self.point_table.selected.connect(self.view.set_selection)
        self.histogram = MarginHistogram()
        self.points_dock = self._dock("Points", "points-dock", self.point_table)
        self.margins_dock = self._dock("Margins", "margins-dock", self.histogram)
        self.theory = TheoryPanel()
        self.theory.epsilon_changed.connect(lambda _: self._redraw_readings())
        self.theory_dock = self._dock("Theory", "theory-dock", self.theory)
        self.tabifyDockWidget(self.step_dock, self.points_dock)
        self.tabifyDockWidget(self.points_dock, self.margins_dock)
        self.generalization = GeneralizationPanel(self.session)
        # in a scroll area: the tabs of a dock area share its height, and the curves'
        # minimum would keep every tab tall (raising this one makes room: _room_for_curves)
        scroll = QtWidgets.QScrollArea()
        scroll.setWidget(self.generalization)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.generalization_dock = self._dock("Generalization", "generalization-dock", scroll)
        self.tabifyDockWidget(self.margins_dock, self.theory_dock)
        self.tabifyDockWidget(self.theory_dock, self.generalization_dock)
        # its curves need more height than the other tabs: taken when it comes to the front
        self.generalization_dock.visibilityChanged.connect(self._room_for_curves)
        self.step_dock.raise_()
        self.resizeDocks([self.step_dock], [150], QtCore.Qt.Orientation.Vertical)
        self._build_menus(dock)

        self.snapshot = None
        self._curves_of = None  # the snapshot the curves and text show
        self._last_marks = 0.0
        self._t_max = 0  # the furthest iteration of this job so far (the timeline's end)
        self._support = []
        self._curve_timer = QtCore.QTimer(self)
        self._curve_timer.setInterval(int(CURVE_SECONDS * 1000))
        self._curve_timer.timeout.connect(self._show_curves)
        self._present = np.arange(0)
        self._parts = None  # the job's train/test split (None: every point trains)
        self._region_colors = np.zeros(0, dtype=np.uint32)
        self.warm_start = False
        self._presenting = False
        self._step_key = None  # what the step inspector shows (to redraw only on a change)
        self._step_shown = object()  # not None: the first frame writes the hint
        self._saved_state = None
        self.controller = TrainingController(self)
        self.controller.snapshot_ready.connect(self._on_snapshot)
        self.controller.failed.connect(self._on_failed)
        self.session.points_changed.connect(self._on_points_changed)
        self.session.classes_changed.connect(self._on_classes_changed)
        self.session.config_changed.connect(self._on_config_changed)
        self.session.split_changed.connect(self._on_split_changed)
        self.panel.config_edited.connect(self.session.set_config)
        self.panel.speed_changed.connect(self.controller.set_speed)
        self.panel.warm_start_changed.connect(self._set_warm_start)
        self.panel.cost_requested.connect(self.edit_cost)
        X = self.session.points.X
        self.extent = _union(DEFAULT_EXTENT, data_extent(X)) if len(X) else DEFAULT_EXTENT
        self.plot.setRange(xRange=self.extent[:2], yRange=self.extent[2:], padding=0)
        self._has_job = False
        self.plot.draw_points()
        self._show_problem()
        screen = QtGui.QGuiApplication.primaryScreen().availableGeometry()
        self.resize(min(1500, int(screen.width() * 0.95)), min(850, int(screen.height() * 0.9)))
        self.reset(play=play)

    def _build_toolbar(self) -> None:
        """The training and editing actions, on the toolbar (the menus reuse them)."""
        bar = self.addToolBar("Training")
        bar.setObjectName("training-bar")
        self.play_action = self._action(bar, "Play", self.toggle_play, "Space",
                                        "Play / pause training (Space)")  # fmt: skip
        self.back_action = self._action(
            bar, "Back", self.step_back, "Left",
            "Back one iteration (←): replays the run from its seed to t − 1",
        )  # fmt: skip
        self.step_action = self._action(bar, "Step", lambda: self.advance(1), "Right",
                                        "One iteration (→)")  # fmt: skip
        self.step_n = QtWidgets.QSpinBox()
        self.step_n.setRange(1, 1_000_000)
        self.step_n.setValue(100)
        self.step_n.setToolTip("how many iterations Step N takes")
        # the field gives the keyboard back at Enter: Space and the digits are shortcuts
        self.step_n.editingFinished.connect(lambda: self.plot.setFocus())
        self.step_n_action = self._action(
            bar, "Step N", lambda: self.advance(self.step_n.value()), "Shift+Right",
            "Take N iterations (Shift+→)",
        )  # fmt: skip
        bar.addWidget(self.step_n)
        self.run_action = self._action(
            bar, "Run", self.run_to_budget, "Ctrl+R",
            "Run to the iteration budget at full speed (Ctrl+R)",
        )  # fmt: skip
        self.reset_action = self._action(bar, "Reset", lambda: self.reset(), "R",
                                         "Start again from w = 0 (R)")  # fmt: skip
        self.timeline = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.timeline.setMinimumWidth(120)
        self.timeline.setMaximumWidth(220)
        self.timeline.setRange(0, 0)
        self.timeline.setToolTip(
            "timeline: drag to go back to (or forward to) any iteration reached so far; the "
            "run is replayed from its seed, so each iterate is exactly the one seen before"
        )
        self._seek_timer = QtCore.QTimer(self)
        self._seek_timer.setSingleShot(True)
        self._seek_timer.setInterval(150)
        self._seek_timer.timeout.connect(self._on_timeline)
        self.timeline.valueChanged.connect(self._seek_timer.start)
        bar.addWidget(self.timeline)
        bar.addSeparator()
        self.generate_action = self._action(
            bar, "Generate…", self.generate_dialog, "Ctrl+G",
            "Replace the points by a generated data set (undoable; Ctrl+G)",
        )  # fmt: skip
        self.fit_action = self._action(bar, "Fit", self.fit_view, "F",
                                       "Fit the view to the points (F)")  # fmt: skip
        bar.addSeparator()
        self.undo_action = self._action(bar, "Undo", self.session.undo, "Ctrl+Z",
                                        "Undo the last edit (Ctrl+Z)")  # fmt: skip
        self.redo_action = self._action(bar, "Redo", self.session.redo, "Ctrl+Shift+Z",
                                        "Redo (Ctrl+Shift+Z)")  # fmt: skip
        self.clear_action = self._action(bar, "Clear", self.session.clear, None,
                                         "Remove every point (undoable)")  # fmt: skip
        self.delete_action = self._action(
            bar, "Delete", self.view.delete_selection, "Delete",
            "Remove the selected points (Ctrl + drag selects; Delete)",
        )  # fmt: skip

    def _build_menus(self, dock) -> None:
        menus = self.menuBar()
        file = menus.addMenu("&File")
        scenarios = file.addMenu("Scenarios")
        for path in list_scenarios():
            try:
                title = read_scenario(path).title
            except InputError as exc:  # a broken file: listed, and says why when chosen
                title = f"{path.stem} (cannot be read: {exc})"
            scenarios.addAction(title, lambda path=path: self.open_scenario(path))
        file.addSeparator()
        quit_action = file.addAction("Quit", self.close)
        quit_action.setShortcut(QtGui.QKeySequence("Ctrl+Q"))
        edit = menus.addMenu("&Edit")
        for action in (self.undo_action, self.redo_action, None, self.delete_action,
                       self.clear_action, self.generate_action):  # fmt: skip
            edit.addSeparator() if action is None else edit.addAction(action)
        edit.addSeparator()
        edit.addAction("Add a class", self.session.add_class)
        edit.addAction("Cost matrix Δ…", self.edit_cost)
        train = menus.addMenu("&Training")
        for action in (self.play_action, self.back_action, self.step_action, self.step_n_action,
                       self.run_action, self.reset_action):  # fmt: skip
            train.addAction(action)
        train.addSeparator()
        warm = train.addAction("Warm start after edits")
        warm.setCheckable(True)
        warm.toggled.connect(self.panel.warm.setChecked)
        self.panel.warm.toggled.connect(warm.setChecked)
        view = menus.addMenu("&View")
        view.addAction(self.fit_action)
        self.optimum_action = self._toggle(
            view, "Exact optimum overlay", "O", self._on_view_options,
            "the exact optimum's boundary and margins over the current model",
        )  # fmt: skip
        self.iterate_action = self._toggle(
            view, "Last iterate w_t (not the average w̄)", "I", self._on_view_options,
            "draw the last iterate, which each step moves, instead of the averaged output",
        )  # fmt: skip
        self.gap_action = self._toggle(
            view, "Suboptimality F − F* with rate guides", "S", self._on_view_options,
            "the objective panel shows F(w_t) − F* (log-log) beside O(log t/(λt)) and O(1/√t)",
        )  # fmt: skip
        view.addSeparator()
        self.slack_action = self._toggle(
            view, "Slack segments ξ", "X", self._on_view_options,
            "linear models: a segment from each point with slack to its margin line",
        )  # fmt: skip
        view.addSeparator()
        view.addAction(dock.toggleViewAction())
        for d in (self.step_dock, self.points_dock, self.margins_dock, self.theory_dock,
                  self.generalization_dock):  # fmt: skip
            view.addAction(d.toggleViewAction())
        view.addAction(self.class_bar.toggleViewAction())
        view.addSeparator()
        self.presentation_action = self._toggle(
            view, "Presentation mode", "F11", self.set_presentation,
            "full screen, larger text and markers, more contrast, panels folded away (F11)",
        )  # fmt: skip
        help_menu = menus.addMenu("&Help")
        keys = help_menu.addAction("Keyboard and mouse", self.show_keys)
        keys.setShortcut(QtGui.QKeySequence("F1"))

    def _dock(self, title, name, widget):
        dock = QtWidgets.QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(QtCore.Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        # a dock brought to the front shows the newest state at once
        dock.visibilityChanged.connect(self._refresh_readings)
        return dock

    @QtCore.Slot(bool)
    def _refresh_readings(self, visible):
        if visible:  # after the dock is laid out (before, its visible region is empty)
            QtCore.QTimer.singleShot(0, self._redraw_readings)

    @QtCore.Slot()
    def _redraw_readings(self):
        if self.snapshot is not None:
            self._curves_of = None
            self._show_curves()

    def _toggle(self, menu, text, key, slot, tip):
        action = menu.addAction(text)
        action.setCheckable(True)
        action.setShortcut(QtGui.QKeySequence(key))
        action.setToolTip(tip)
        action.setStatusTip(tip)
        action.toggled.connect(slot)
        self.addAction(action)  # its shortcut works with the menu bar hidden too
        return action

    @QtCore.Slot()
    def _on_view_options(self, *_):
        if self.snapshot is not None:
            self._draw_slack(self.snapshot)
        self.curves.set_suboptimality(self.gap_action.isChecked())
        self._curves_of = None  # redraw the curves in the new mode
        if self.snapshot is not None:
            self._show_curves()
        self.plot.show_optimum(self.snapshot.optimum if self.snapshot else None,
                               self.optimum_action.isChecked())  # fmt: skip
        if self.iterate_action.isChecked() != self.controller.showing_iterate:
            self.controller.show_iterate(self.iterate_action.isChecked())

    @QtCore.Slot(bool)
    def set_presentation(self, on: bool):
        """For a projector: full screen, text and markers PRESENTATION_SCALE times larger,
        regions with more contrast, the solver and step docks folded away (View brings them
        back; F11 restores everything as it was)."""
        if on == self._presenting:
            return
        self._presenting = on
        if on:
            self._saved_state = (self.saveState(), self.isMaximized(), self.font())
            self.solver_dock.hide()
            self.step_dock.hide()
            font = self.font()
            font.setPointSize(round(style.FONT_POINT_SIZE * PRESENTATION_SCALE))
            self.setFont(font)
            self.plot.set_scale(PRESENTATION_SCALE, PRESENTATION_REGION_ALPHA)
            self.curves.set_scale(PRESENTATION_SCALE)
            self._scale_dock_plots(PRESENTATION_SCALE)
            self._saved_split = self.split.sizes()
            self.showFullScreen()
            width = sum(self._saved_split)
            self.split.setSizes([int(0.68 * width), width - int(0.68 * width)])
            self._room_for_curves(self.generalization_dock.isVisible())
        else:
            state, maximized, font = self._saved_state
            self.setFont(font)
            self.plot.set_scale(1.0)
            self.curves.set_scale(1.0)
            self._scale_dock_plots(1.0)
            self.showMaximized() if maximized else self.showNormal()
            self.restoreState(state)
            self.split.setSizes(self._saved_split)
        self._region_colors = self.plot.region_colors(self._present)
        if self.snapshot is not None:
            self._draw_plane(self.snapshot)
        self.presentation_action.setChecked(on)
        QtCore.QTimer.singleShot(100, self.fit_view)  # once the new size is laid out

    @QtCore.Slot(bool)
    def _room_for_curves(self, visible: bool) -> None:
        dock = self.generalization_dock
        need = self.generalization.wanted_height() + 60  # the title and tab bars
        if visible and dock.height() < need:
            self.resizeDocks([dock], [need], QtCore.Qt.Orientation.Vertical)

    def _scale_dock_plots(self, k: float) -> None:
        """The plots of the docks (their widgets follow the window's font): text ``k``×."""
        scale_plot_text(self.histogram, k, sides=("left", "bottom", "right"))
        for plot in (self.generalization.learning, self.generalization.sweep):
            scale_plot_text(plot, k)

    def show_keys(self):
        QtWidgets.QMessageBox.information(self, "svmviz: keyboard and mouse", KEYS_HELP)

    def _action(self, bar, text, slot, key, tip):
        action = bar.addAction(text, slot)
        if key:
            action.setShortcut(QtGui.QKeySequence(key))
        action.setToolTip(tip)
        return action

    # -------------------------------------------------------------- state → screen
    @property
    def playing(self) -> bool:
        return self.controller.playing

    def _sync_actions(self):
        self.play_action.setText("Pause" if self.controller.playing else "Play")
        self.undo_action.setEnabled(self.session.can_undo)
        self.redo_action.setEnabled(self.session.can_redo)
        if self.controller.playing and not self._curve_timer.isActive():
            self._curve_timer.start()
        elif not self.controller.playing and self._curve_timer.isActive():
            self._curve_timer.stop()

    def _show_problem(self):
        present = self.session.present_classes()
        self.panel.set_problem(int(present.size), self.session.cost_for(present) is not None)

    def _clear_model(self, message):
        self.snapshot = None
        self.hover.hide()
        self.step_overlay.hide()
        self._curves_of = None
        self.plot.clear_model()
        self.curves.clear()
        self.progress.setValue(0)
        self.status.setText(message)
        self._sync_actions()

    # -------------------------------------------------------------- commands
    def reset(self, play: bool = False, warm: bool = False):
        """Submit the session's problem as a new job (from w = 0 unless ``warm``)."""
        dataset = self.session.dataset()
        self._has_job = dataset is not None
        self._show_problem()
        if dataset is None:
            self.controller.cancel()
            self._clear_model(
                "Click to place points of at least two classes "
                f"(keys 1–{MAX_CLASSES} choose the class, right click removes a point)"
            )
            return
        self._present = self.session.present_classes()
        self._t_max = 0
        self._support = []  # (t − t0, support vectors) of the frames of this job
        self._region_colors = self.plot.region_colors(self._present)
        config = self.session.job_config()
        self._parts = self.session.parts()
        self.plot.set_ring_meaning(kernel=not config.kernel.is_linear)
        self.plot.set_parts(self._parts)
        self.curves.set_budget(config.iterations)
        # regions over what is in view (and the data), not only around the data
        self.extent = _union(self.plot.view_extent(), data_extent(dataset.X))
        self.controller.submit(config, dataset, self.extent, play=play, warm=warm,
                               parts=self._parts)  # fmt: skip
        self._sync_actions()

    def toggle_play(self):
        if self.controller.playing:
            self.controller.pause()
        elif self._has_job:  # queued behind the job's set-up if that is still running
            self.controller.play()
        self._sync_actions()

    def advance(self, n):
        if self._has_job:
            self.controller.step(n)
        self._sync_actions()

    def step_back(self):
        """Iteration t − 1, replayed from the seed (the step into it is explained)."""
        if self._has_job and self.snapshot is not None and self.snapshot.t > 0:
            if self.snapshot.t0:
                self.status.setText(
                    "Back is not available after a warm start (its past belongs to the run "
                    "before the edit); press R to restart"
                )
                return
            self.controller.seek(self.snapshot.t - 1)
        self._sync_actions()

    @QtCore.Slot()
    def _on_timeline(self):
        if self._has_job and self.snapshot is not None and not self.snapshot.t0:
            if self.timeline.value() != self.snapshot.t:
                self.controller.seek(self.timeline.value())
                self._sync_actions()

    def _show_timeline(self, snap):
        self._t_max = max(self._t_max, snap.t)
        self.timeline.blockSignals(True)
        self.timeline.setRange(0, self._t_max)
        self.timeline.setValue(snap.t)
        self.timeline.blockSignals(False)

    def run_to_budget(self):
        """Every remaining iteration at full speed (frames as it goes)."""
        if self._has_job:
            self.panel.speed.setCurrentIndex(0)
            if not self.controller.playing:
                self.controller.play()
        self._sync_actions()

    def fit_view(self):
        X = self.session.points.X
        if len(X):
            x0, x1, y0, y1 = data_extent(X)
            self.plot.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def generate_dialog(self):
        dialog = GenerateDialog(self)
        if dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted:
            try:
                X, y = generate(**dialog.values())
            except InputError as exc:
                QtWidgets.QMessageBox.warning(self, "svmviz", str(exc))
                return
            self.session.replace_points(X, y)
            self.fit_view()

    def open_scenario(self, path):
        """Load a ready demo: its points (undoable), settings, speed, view and caption."""
        try:
            scenario = read_scenario(path)
        except InputError as exc:
            QtWidgets.QMessageBox.warning(self, "svmviz", str(exc))
            return
        playing = self.controller.playing
        self.controller.pause()
        self.session.load(scenario.data, scenario.config)
        speeds = list(SPEEDS.values())
        index = speeds.index(scenario.speed) if scenario.speed in speeds else 0
        self.panel.speed.setCurrentIndex(index)
        for name, action in (("optimum", self.optimum_action), ("iterate", self.iterate_action),
                             ("suboptimality", self.gap_action)):  # fmt: skip
            action.setChecked(name in scenario.view)
        self.caption.setText(f"<b>{html.escape(scenario.title)}</b> — "
                             f"{html.escape(scenario.caption)}")  # fmt: skip
        self.caption.show()
        self.fit_view()
        if playing:
            self.controller.play()
        self._sync_actions()

    def edit_cost(self):
        present = self.session.present_classes()
        if present.size < 3:
            return
        names = [self.session.classes[k] for k in present]
        dialog = CostDialog(names, self.session.cost[np.ix_(present, present)], self)
        if dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted:
            matrix = dialog.matrix()
            if matrix is not None:
                self.session.set_cost(present, matrix)

    # -------------------------------------------------------------- slots
    @QtCore.Slot(bool)
    def _set_warm_start(self, on: bool):
        self.warm_start = bool(on)

    @QtCore.Slot()
    def _on_points_changed(self):
        self.plot.draw_points()
        self.plot.show_selection(self.view.selected)
        self.panel.set_n_points(len(self.session.points))
        self.reset(play=self.controller.playing, warm=self.warm_start)

    @QtCore.Slot()
    def _on_classes_changed(self):
        """Names or colours: redraw, no new training (the problem is the same)."""
        self.plot.draw_points()
        if self._present.size:
            self._region_colors = self.plot.region_colors(self._present)
        if self.snapshot is not None:
            self._draw_plane(self.snapshot)

    @QtCore.Slot()
    def _on_split_changed(self):
        self.reset(play=self.controller.playing)

    @QtCore.Slot()
    def _on_view_settled(self):
        if self._has_job:
            self.controller.set_extent(self.plot.view_extent())

    @QtCore.Slot()
    def _on_config_changed(self):
        if self.panel.config() != self.session.config:  # set elsewhere (a scenario)
            self.panel.set_config(self.session.config)
            self.panel.set_n_points(len(self.session.points))
        self.reset(play=self.controller.playing, warm=self.warm_start)

    @QtCore.Slot(object)
    def _on_mouse_moved(self, scene_pos):
        pos = self.plot.data_at(scene_pos)
        if self.view._dragging is not None:
            pos = None  # moving or selecting points: no readout in the way
        self._show_hover(None if pos is None else (pos.x(), pos.y()))

    def _show_hover(self, pos):
        snap = self.snapshot
        model = snap.model if snap is not None and snap.t > 0 else None
        self.hover.show_at(pos, model, model.classes if model is not None else ())

    @QtCore.Slot(object)
    def _on_plot_click(self, event):
        # the keyboard leaves a field of the solver panel (which would otherwise keep Space,
        # the arrows and the digits): they act on the training and the classes again
        self.plot.setFocus(QtCore.Qt.FocusReason.MouseFocusReason)
        pos = self.plot.data_at(event.scenePos())
        if pos is None:
            return
        if event.button() == QtCore.Qt.MouseButton.LeftButton:
            self.session.add_point(pos.x(), pos.y())
        elif event.button() == QtCore.Qt.MouseButton.RightButton:
            i = self.view.pick(pos)
            if i is not None:
                self.session.delete_points([i])
        event.accept()

    @QtCore.Slot(str)
    def _on_failed(self, message):
        self._clear_model(f"Cannot train: {message}")

    @QtCore.Slot(object)
    def _on_snapshot(self, snap):
        self.snapshot = snap
        if snap.alpha is not None:
            t = snap.t - snap.t0
            while self._support and self._support[-1][0] >= t:  # a step back: its future goes
                self._support.pop()
            self._support.append((t, int(np.count_nonzero(snap.alpha))))
        self._draw_plane(snap)
        self.plot.show_optimum(snap.optimum, self.optimum_action.isChecked())
        self._show_step(snap)
        self._sync_actions()
        if not self.controller.playing:
            self._show_curves()  # stepping or stopped: everything at once

    def _draw_plane(self, snap):
        if int(snap.frame.region.max(initial=0)) >= len(self._region_colors):
            return  # a frame of other classes (replaced; its successor is on its way)
        # at full speed the rings and crosses follow at MARKS_SECONDS (setting them costs more
        # than a frame of the plane for a kernel model, whose α change at every step); when
        # stepping, in slow motion and at the end, every frame has them
        now = time.perf_counter()
        marks = not (self.controller.playing and self.controller.full_speed)
        marks = marks or now - self._last_marks >= MARKS_SECONDS
        if marks:
            self._last_marks = now
        self.plot.draw_frame(snap.frame, self._region_colors, snap.alpha, marks=marks)
        self._draw_slack(snap)

    def _draw_slack(self, snap):
        m, p = snap.model, self.session.points
        if (not self.slack_action.isChecked() or m.coef is None or not m.binary
                or len(snap.frame.margins) != len(p)):  # fmt: skip
            self.plot.show_slack(None)
            return
        y_sign = np.where(self._present[1] == p.y, 1.0, -1.0)  # the positive class: the second
        train = self._training_mask()
        self.plot.show_slack(*slack_segments(m.coef[0], float(m.intercept[0]), p.X[train],
                                             y_sign[train]))  # fmt: skip

    def _training_mask(self) -> np.ndarray:
        """Which of the session's points the current job trains on."""
        if self._parts is None or len(self._parts) != len(self.session.points):
            return np.ones(len(self.session.points), dtype=bool)
        return self._parts == TRAIN

    def _show_step(self, snap):
        """The step inspector: the last step explained, or its hint when not stepping."""
        p = self.session.points
        if snap.step is not None and len(snap.frame.margins) != len(p):
            return  # points edited since; the restarted job's frame follows
        key = (snap.step, snap.frame.extent, snap.iterate)
        if snap.step is None and self._step_shown is None:
            return  # nothing was shown and nothing is: no relayout of the panel per frame
        if key == self._step_key:
            return
        self._step_key, self._step_shown = key, snap.step
        self.step_overlay.show(snap.step, p.X, snap.frame.extent)
        labels = [self.session.classes[int(k)] for k in p.y]
        self.step_panel.show_record(snap.step, self.session.config, labels, p.X,
                                    self.step_overlay.scale, snap.model.classes,
                                    snap.iterate)  # fmt: skip

    @QtCore.Slot()
    def _show_curves(self):
        """The curves, the progress bar and the status text of the newest snapshot."""
        snap = self.snapshot
        if snap is None or snap is self._curves_of:
            return
        self._curves_of = snap
        self._show_timeline(snap)
        if self.hover.position is not None:
            self._show_hover(self.hover.position)  # the model under a resting mouse changed
        budget = self.session.config.iterations
        done = snap.t - snap.t0
        self.progress.setMaximum(budget)
        self.progress.setValue(min(done, budget))
        self.curves.show_history(snap.history, None if snap.reference is None
                                 else snap.reference.objective, t0=snap.t0)  # fmt: skip
        points = [(t, c) for t, c in self._support if t > 0]  # (log axis: t ≥ 1)
        if snap.alpha is not None and points:
            ts, counts = np.array(points, dtype=float).T
            self.curves.show_support(ts, counts / len(snap.alpha))
        else:
            self.curves.show_support([], [])
        if snap.test_error is not None:
            ts, errs = snap.test_error
            self.curves.show_test_error(ts - snap.t0, errs)
        else:
            self.curves.show_test_error([], [])
        self.status.setText(status_text(snap, len(self.session.points), self.session.config))
        p = self.session.points
        if len(snap.frame.margins) == len(p):
            # only what is on screen (a dock behind another tab counts as visible to Qt)
            if not self.point_table.viewport().visibleRegion().isEmpty():
                labels = [self.session.classes[int(k)] for k in p.y]
                self.point_table.show_points(labels, p.X, snap.frame.margins, snap.alpha,
                                             self._parts)  # fmt: skip
            if not self.histogram.viewport().visibleRegion().isEmpty():
                self.histogram.show_margins(snap.frame.margins[self._training_mask()])
        if not self.theory.visibleRegion().isEmpty() and len(snap.history["norm"]):
            self._show_bounds(snap)

    def _show_bounds(self, snap):
        data = self.session.dataset()
        if data is None:
            return
        if self._parts is not None and len(self._parts) == len(data.y):
            try:
                data = subset(data, np.flatnonzero(self._parts == TRAIN))
            except InputError:
                return
        config = self.session.config
        ref = snap.reference
        b = bounds.evaluate(
            data, config.kernel, config.bias, float(snap.history["norm"][-1]),
            None if ref is None else float(np.sqrt(ref.model.norm2())), snap.model.lam,
            snap.t, self.theory.epsilon.value(),
        )  # fmt: skip
        gap = None if ref is None else float(snap.history["objective"][-1] - ref.objective)
        self.theory.show_bounds(b, gap)

    def closeEvent(self, event):  # noqa: N802 (Qt override)
        self._curve_timer.stop()
        self.controller.shutdown()
        self.generalization.shutdown()
        super().closeEvent(event)


def status_text(snap, n_points: int, config: SolverConfig) -> str:
    """The status line: iteration, objective, training error and the gap to the optimum."""
    obj = snap.history["objective"]
    if not len(obj):
        return f"{n_points} points, {config.algorithm}: press Play (Space) or Step (→)"
    text = (
        f"iteration {snap.t}   objective {obj[-1]:.6g}   "
        f"training error {100 * snap.history['error'][-1]:.1f}%"
    )
    if snap.test_error is not None and len(snap.test_error[1]):
        text += f"   test error {100 * snap.test_error[1][-1]:.1f}%"
    if snap.reference is not None:
        text += f"   gap to the optimum {obj[-1] - snap.reference.objective:.3g}"
    elif snap.reference_error:
        text += f"   (no exact optimum: {snap.reference_error})"
    if snap.t0:
        text += f"   (warm start at t = {snap.t0})"
    if snap.iterate and config.average != "last":
        text += "   (plane: the last iterate w_t)"
    if snap.status not in ("ready", "running"):
        text += f"   — {STATUS_TEXT[snap.status]}"
    return text
