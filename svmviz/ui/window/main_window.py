"""The svmviz window: the points and the model's regions and margins, the per-iteration
curves, the class bar, the training controls and the solver panel.

Left click places a point of the current class (keys 1–9 choose it), right click removes
the nearest point, a left drag moves a point, Ctrl + drag selects and Delete removes the
selection, Ctrl+Z / Ctrl+Shift+Z undo and redo. Every edit retrains: while playing, the
edited problem plays from w = 0; paused, it is trained to the iteration the run was at, and
to the end of its budget once the run ended (or it goes on from the current w with "warm
start"), so the plane never shows an untrained model after an edit. Training runs in a
worker thread (svmviz.app.worker); the window draws the snapshots it publishes.

The window composes: what it shows is a model (svmviz.app.window_state), which the menus
and the toolbar (svmviz.ui.window.menus) are views of; each snapshot goes to the views
through svmviz.ui.window.frame_router, the views' docks placed by
svmviz.ui.window.view_docks; the mouse and dropped files through
svmviz.ui.window.plane_input; files, exports and remembered settings in
svmviz.ui.window.files, svmviz.ui.window.export and svmviz.ui.window.window_prefs; the
training commands in svmviz.ui.window.training_commands. What is left here: building
the window, and a new job at each change of the session.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.app.preferences import Preferences
from svmviz.app.session import Session
from svmviz.app.window_state import WindowState
from svmviz.app.worker import TrainingController
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.palette import MAX_CLASSES
from svmviz.core.pictures.frame import data_extent
from svmviz.core.training.start import Start, start_t0
from svmviz.ui import style
from svmviz.ui.panels import cost_editor
from svmviz.ui.panels.class_bar import ClassBar
from svmviz.ui.panels.solver_panel import SolverPanel
from svmviz.ui.panels.status import Caption, StatusLine
from svmviz.ui.panels.timeline import Timeline
from svmviz.ui.plane.decision_plot import DecisionPlot
from svmviz.ui.plane.hand_boundary import HandBoundary
from svmviz.ui.plane.hover import HoverReadout
from svmviz.ui.plane.step_arrows import StepOverlay
from svmviz.ui.views import registry
from svmviz.ui.views.race_view import RaceCurves, race_readings
from svmviz.ui.window import (
    builtin_views,  # noqa: F401  (registers the views)
    focus,
    layout,
)
from svmviz.ui.window.companion import Companion, SolverStrip, companion_menu
from svmviz.ui.window.export import Exports
from svmviz.ui.window.files import Files
from svmviz.ui.window.frame_router import FrameRouter, Views
from svmviz.ui.window.generate_dialog import generate_points
from svmviz.ui.window.menus import build_actions, build_menus, build_toolbar
from svmviz.ui.window.plane_input import DropOpener, PlaneInput
from svmviz.ui.window.presentation import Presentation
from svmviz.ui.window.race_dialog import edit_race, race_toggled
from svmviz.ui.window.session_follow import SessionFollower
from svmviz.ui.window.training_commands import Training
from svmviz.ui.window.view_docks import ViewDocks
from svmviz.ui.window.window_prefs import WindowPreferences

DEFAULT_EXTENT = (-4.0, 4.0, -3.0, 3.0)


def _union(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]))


class MainWindow(QtWidgets.QMainWindow):
    closed = QtCore.Signal()  # closed for good (not when a prompt kept it open): threads stopped
    hand_changed = QtCore.Signal(object)  # the boundary moved by hand: its Model, or None

    def __init__(self, data: Dataset | None, config: SolverConfig, play: bool = False):
        super().__init__()
        self.setWindowTitle("svmviz")
        self.session = Session(data, config)
        self.state = WindowState(self.session, self)
        self.prefs = Preferences()
        font = self.font()
        font.setPointSize(style.FONT_POINT_SIZE)
        self.setFont(font)
        style.plot_options()
        self._build_plane()
        self.controls = build_actions(self, self.state)
        bar = build_toolbar(self, self.controls)  # (on the menu bar's row: arrange_toolbars)
        self.class_bar = ClassBar(self.session, self)
        self.addToolBar(self.class_bar)
        for k in range(MAX_CLASSES):
            shortcut = QtGui.QShortcut(QtGui.QKeySequence(str(k + 1)), self)
            shortcut.activated.connect(lambda k=k: self.session.set_current_class(k))
        self.status = StatusLine()
        self.statusBar().addWidget(self.status, 1)
        self.timeline = Timeline()
        self.statusBar().addPermanentWidget(self.timeline)
        self._build_docks()
        self._build_parts()
        view_menu = build_menus(
            self, self.controls, [self.solver_dock, *self.docks.values(), self.class_bar]
        )
        companion_menu(self, view_menu)
        layout.arrange_toolbars(self, bar, self.class_bar, self.controls.generate)
        focus.give_back_keys([bar, self.panel], self.plot)
        self.follower = SessionFollower(self)
        self.state.presentation_changed.connect(self._on_presentation)

        X = self.session.points.X
        self.extent = _union(DEFAULT_EXTENT, data_extent(X)) if len(X) else DEFAULT_EXTENT
        self.plot.setRange(xRange=self.extent[:2], yRange=self.extent[2:], padding=0)
        self.state.set_extent(self.plot.view_extent())
        self.plot.draw_points()
        self.show_problem()
        self.preferences.restore()  # (the remembered geometry, or the whole screen)
        self.reset(play=play)
        self.plot.setFocus()  # Space plays at once (not typed into the toolbar's field)

    def _build_plane(self) -> None:
        """The plane in the middle, below the scenario's caption; beside it, the companion
        (svmviz.ui.window.companion)."""
        self.plot = DecisionPlot(self.session, fit_later=True)  # (once built and shown)
        self.view = self.plot.view
        self.session.selection_changed.connect(self.plot.show_selection)
        # the regions follow the view (pan, zoom, resize), at most every 50 ms
        self._view_timer = QtCore.QTimer(self)
        self._view_timer.setSingleShot(True)
        self._view_timer.setInterval(50)
        self._view_timer.timeout.connect(self._on_view_settled)
        self.view.sigRangeChanged.connect(self._view_timer.start)
        self.view.sigRangeChanged.connect(self._report_extent)
        self.state.extent_requested.connect(self._show_extent)
        self.caption = Caption(self.session)
        self.plane_column = QtWidgets.QWidget()
        column = QtWidgets.QVBoxLayout(self.plane_column)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.plot, 1)
        self.companion = Companion(self, self.plane_column)
        # the caption over both (its lines as wide as the centre: fewer of them), the
        # presenter's lines below both when presenting
        central = QtWidgets.QWidget()
        rows = QtWidgets.QVBoxLayout(central)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(0)
        rows.addWidget(self.caption)
        rows.addWidget(self.companion.splitter, 1)
        self.setCentralWidget(central)

    def _build_docks(self) -> None:
        """The solver on the left; every registered view (svmviz.ui.views.registry) in a dock of its
        own: the curves on the right, the tabs below them, the views that are off until
        asked in front of the curves. A view is made when its dock is first shown or the
        view is first read (``made[name]``, or its ``spec.attr``): a dock holds an empty
        widget until then (a start makes only what is on screen)."""
        self.panel = SolverPanel(self.session.config, len(self.session.points))
        self.panel.setFont(self.font())  # before its size is measured below
        self.solver_dock = layout.dock(
            self, "Solver", "solver-dock", layout.side_column(self.panel), layout.LEFT
        )
        self.solver_strip = SolverStrip(self, self.solver_dock)
        self.hover = HoverReadout(self.plot)
        self.step_overlay = StepOverlay(self.plot)
        self.view_docks = ViewDocks(self)
        self.docks, self.made = self.view_docks.docks, self.view_docks.made
        self.specs = self.view_docks.specs
        self.curves_dock = self.docks["curves"]
        tabs = [self.docks[s.name] for s in self.specs.values() if s.home is registry.Home.TAB]
        self.step_dock = tabs[0]  # (the first tab: the column's lower part is sized by it)
        layout.arrange_readings(self, tabs)
        for s in self.specs.values():  # off until the View menu, a session or the preferences
            if s.home is registry.Home.FRONT:
                self.docks[s.name].hide()
        self.state.set_views(s.name for s in self.specs.values() if s.on_by_default)
        self.companion.set_choices()

    def __getattr__(self, name: str):
        """A view's attribute (``spec.attr``) read before the view was first shown: the
        view, made now."""
        docks = self.__dict__.get("view_docks")
        view = None if docks is None else docks.attrs.get(name)
        if view is None:
            raise AttributeError(name)
        return self.made[view].view

    def _build_parts(self) -> None:
        """What runs the window: the training, the routing of its frames, the mouse, the
        files, the exports and the remembered settings."""
        self.controller = TrainingController(self)
        self.presentation = Presentation(self, self.controls, self.state)
        self.frames = FrameRouter(
            self.session,
            self.state,
            self.controller,
            Views(
                plot=self.plot,
                curves=self.curves,
                hover=self.hover,
                step_overlay=self.step_overlay,
                step_panel=self.step_panel,
                timeline=self.timeline,
                status=self.status,
                panel=self.panel,
                presentation=self.presentation,
            ),
            self,
        )
        self.view_docks.route()
        self.race_curves = RaceCurves(self.curves)
        for name, reading in race_readings(self.plot, self.race_curves, self.race_steps).items():
            self.frames.register(name, reading)
        self.input = PlaneInput(self.plot, self.session, self.frames.show_hover, self)
        self.files = Files(self, self.session, self.state, self.prefs, self.status.setText)
        self.training = Training(
            self.controller, self.state, self.frames, self.status.setText, self
        )
        self.training.changed.connect(self.sync_actions)
        self.timeline.seek.connect(self.training.seek)
        self.files.replacing.connect(self.training.pause)
        self.files.replaced.connect(self.training.resume)
        DropOpener(self, self.files.open_path)  # a session or CSV dropped on the window
        self.exports = Exports(self, self.session, self.prefs, self.frames, self.status.setText)
        self.preferences = WindowPreferences(
            self, self.prefs, self.state, self.files, self.status.setText
        )
        self.hand = HandBoundary(self)  # the boundary moved by hand (svmviz.ui.plane.hand_boundary)
        self.hand.hand_changed.connect(self.hand_changed)

    @property
    def snapshot(self):
        """The newest snapshot shown (None: no model)."""
        return self.frames.snapshot

    @property
    def playing(self) -> bool:
        return self.controller.playing

    def set_presentation(self, on: bool) -> None:
        """For a projector (svmviz.ui.window.presentation; F11 or Esc restores the window)."""
        self.state.set_presentation(on)

    @QtCore.Slot(bool)
    def _on_presentation(self, on: bool) -> None:
        self.presentation.set(on)
        self.view_docks.show_companion(None)
        self.frames.redraw_all()
        QtCore.QTimer.singleShot(150, self.companion.split)  # (once the new size is laid out)
        QtCore.QTimer.singleShot(100, self.fit_view)  # once the new size is laid out

    # -------------------------------------------------------------- state → screen
    def sync_actions(self):
        self.controls.play.setText("Pause" if self.controller.playing else "Play")
        self.controls.undo.setEnabled(self.session.can_undo)
        self.controls.redo.setEnabled(self.session.can_redo)
        self.controls.zero_start.setEnabled(self.session.start is not None)
        self.controls.train_here.setEnabled(self.hand.active)
        self.frames.follow_play(self.controller.playing)

    def show_problem(self):
        present = self.session.present_classes()
        self.panel.set_problem(
            int(present.size), self.session.cost_for(present) is not None, self.session.has_targets
        )

    def clear_model(self, message):
        self.frames.clear(message)
        self.sync_actions()

    # -------------------------------------------------------------- commands
    def reset(self, play: bool = False, warm: bool = False, at: tuple[int, bool] = (0, False)):
        """Submit the session's problem as a new job (from w = 0 unless ``warm``; its first
        frame at iteration ``at``: see Training.resume_point); from the session's start w₀
        when it has one."""
        self.hand.leave(restore=False)
        dataset = self.session.dataset()
        self.training.has_job = dataset is not None
        self.show_problem()
        if dataset is None:
            self.training.submitted(at)  # (two classes again: the run goes on from there)
            self.controller.cancel()
            self.clear_model(self.session.needed())
            return
        config = self.session.job_config()
        self.state.set_parts(self.session.parts())
        # regions over what is in view (and the points), not only around the points
        self.extent = _union(self.plot.view_extent(), data_extent(self.session.points.X))
        race = ()
        if self.state.race:
            try:
                race = self.session.race_configs()
            except InputError as exc:
                self.status.setText(f"Race off: {exc}")
        # submitted first: the worker sets the job up while the window updates
        at = (0, False) if warm else at
        self.controller.submit(
            config,
            dataset,
            self.extent,
            play=play,
            warm=warm,
            parts=self.state.parts,
            catch_up=at[0],
            explain=at[1],
            start=self.session.job_start(dataset, config),
            race=race,
        )
        self.training.submitted(at)
        self.frames.start_job(
            self.session.present_classes(), not config.kernel.is_linear, config.iterations
        )
        self.sync_actions()

    def train_from(self, W, b, play: bool = False) -> None:
        """Set the start w₀ = (``W`` (K, d), ``b`` (K,)) and train from there (playing with
        ``play``); its steps are sized as at t = one pass over the points
        (svmviz.core.training.start.start_t0). A start that is not valid is said in the
        status line."""
        data = self.session.dataset()
        if data is None:
            return
        m = (
            len(data.y)
            if self.state.parts is None
            else int(self.state.training_mask(len(data.y)).sum())
        )
        classes = data.classes if self.session.kind == "svc" else ()
        try:
            start = Start(W, b, start_t0(m), classes)
        except InputError as exc:
            self.status.setText(f"Cannot train from there: {exc}")
            return
        self.session.set_start(start)
        self.reset(play=play)

    def train_from_row(self, k: int, w, play: bool = False) -> None:
        """Train from the current model with row ``k`` of W set to ``w`` (a click in weight
        space on class k's weights; the other rows and the biases stay the model's)."""
        snap = self.snapshot
        if snap is None or snap.model.coef is None:
            return
        W = np.array(snap.model.coef, dtype=float)
        W[k] = w
        self.train_from(W, np.array(snap.model.intercept, dtype=float), play)

    def start_from_zero(self) -> None:
        """Forget the start w₀: training begins at w = 0 again (Training ▸ Start from w = 0)."""
        if self.session.start is not None:
            self.session.clear_start("Start from w = 0")
            self.reset()

    def retrain(self, warm: bool = False) -> None:
        """After an edit: the edited problem's job (from where Training.resume_point says),
        playing if the run was."""
        self.hand.leave()  # (where the run was is the run's frame, not the hand's)
        self.reset(play=self.controller.playing, warm=warm, at=self.training.resume_point())

    def toggle_play(self):
        self.hand.leave()
        self.training.toggle_play()

    def advance(self, n):
        self.hand.leave()
        self.training.advance(n)

    def step_back(self):
        """Iteration t − 1, replayed from the seed (the step into it is explained)."""
        self.hand.leave()
        self.training.step_back()

    def run_to_budget(self):
        """Every remaining iteration at full speed (frames as it goes)."""
        self.hand.leave()
        self.training.run_to_budget()

    @QtCore.Slot()
    def _report_extent(self, *_) -> None:
        self.state.set_extent(self.plot.view_extent())

    @QtCore.Slot(object)
    def _show_extent(self, extent) -> None:
        """What a View asks for: ``extent`` (x0, x1, y0, y1), or None to fit the points."""
        if extent is None:
            self.fit_view()
        else:
            x0, x1, y0, y1 = extent
            self.plot.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def fit_view(self):
        X = self.session.points.X
        if len(X):
            x0, x1, y0, y1 = data_extent(X)
            self.plot.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def generate_dialog(self):
        if generate_points(self.session, self):
            self.fit_view()

    def open_scenario(self, path) -> bool:
        """Open a ready demo (File ▸ Scenarios): like any file, after the unsaved-changes
        prompt; a scenario that cannot be read is a dialog and nothing changes."""
        return self.files.open_path(path)

    def edit_cost(self):
        cost_editor.edit_cost(self.session, self)

    def edit_race(self):
        """View ▸ Race…: the race's runs 2–4 (svmviz.ui.window.race_dialog)."""
        edit_race(self.session, self.state, self, self.prefs)

    def race_clicked(self):
        """View ▸ Race turned by the user: without runs, the editor
        (svmviz.ui.window.race_dialog)."""
        race_toggled(self.session, self.state, self, self.prefs)

    # -------------------------------------------------------------- slots
    @QtCore.Slot()
    def _on_view_settled(self):
        if self.training.has_job:
            self.controller.set_extent(self.plot.view_extent())

    # -------------------------------------------------------------- preferences
    def edit_preferences(self) -> None:
        self.preferences.edit()

    def reset_preferences(self) -> None:
        """Forget every remembered setting: the default layout, view, speed and sizes."""
        self.preferences.reset()

    def closeEvent(self, event):
        if not self.files.confirm_discard("closing"):
            event.ignore()
            return
        try:
            if self.exports.animation is not None:
                self.exports.animation.cancel()
            self.preferences.save()
            self.files.close()
        finally:  # the threads stop whatever happened above
            self.frames.follow_play(False)
            self.controller.shutdown()
            for made in self.made.values():
                if made.shutdown is not None:
                    made.shutdown()
            super().closeEvent(event)
            self.closed.emit()
