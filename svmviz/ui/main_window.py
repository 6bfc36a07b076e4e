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

from svmviz.app.preferences import Preferences
from svmviz.app.session import Session
from svmviz.app.worker import TrainingController
from svmviz.core import bounds
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.frame import data_extent, slack_segments
from svmviz.core.generalization import TRAIN, subset
from svmviz.core.generate import generate
from svmviz.core.pace import INSTANT
from svmviz.core.palette import MAX_CLASSES
from svmviz.core.session_file import View
from svmviz.ui import focus, layout, style
from svmviz.ui.class_bar import ClassBar
from svmviz.ui.cost_editor import CostDialog
from svmviz.ui.curves import CurvePanel
from svmviz.ui.decision_plot import DecisionPlot
from svmviz.ui.export import Exports
from svmviz.ui.files import Files
from svmviz.ui.generalization_panel import GeneralizationPanel
from svmviz.ui.generate_dialog import GenerateDialog
from svmviz.ui.hover import HoverReadout
from svmviz.ui.menus import build_menus, build_toolbar
from svmviz.ui.point_table import MarginHistogram, PointTable
from svmviz.ui.preferences_dialog import PreferencesDialog
from svmviz.ui.presentation import Presentation
from svmviz.ui.render import PlaneState
from svmviz.ui.solver_panel import SolverPanel
from svmviz.ui.status import StatusLine, status_text
from svmviz.ui.step_view import StepOverlay, StepPanel
from svmviz.ui.theory_panel import TheoryPanel
from svmviz.ui.timeline import Timeline

DEFAULT_EXTENT = (-4.0, 4.0, -3.0, 3.0)
# while playing, the curves and the status text are redrawn this often, in a timer event of
# their own (never in the same pass as a frame of the plane): their axes and text re-render
# on every update, which at 60 Hz would take most of the GUI thread
CURVE_SECONDS = 0.35  # the curve panels while playing (their paint costs a plane's)
MARKS_SECONDS = 0.1  # the rings and crosses, while playing at full speed


def _union(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]))


class MainWindow(QtWidgets.QMainWindow):
    def __init__(self, data: Dataset | None, config: SolverConfig, play: bool = False):
        super().__init__()
        self.setWindowTitle("svmviz")
        self.setAcceptDrops(True)  # a session or CSV dropped on the window opens
        self.session = Session(data, config)
        self.prefs = Preferences()
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
        # a scenario's caption: what to look for (hidden until a scenario is opened)
        self.caption = QtWidgets.QLabel()
        self.caption.setWordWrap(True)
        self.caption.setMargin(6)
        style.tint(self.caption, background=style.CAPTION_BACKGROUND)
        self.caption.hide()
        central = QtWidgets.QWidget()
        column = QtWidgets.QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.caption)
        column.addWidget(self.plot, 1)
        self.setCentralWidget(central)

        build_toolbar(self)
        self.class_bar = ClassBar(self.session, self)
        self.addToolBar(self.class_bar)
        for k in range(MAX_CLASSES):
            shortcut = QtGui.QShortcut(QtGui.QKeySequence(str(k + 1)), self)
            shortcut.activated.connect(lambda k=k: self.session.set_current_class(k))
        self.status = StatusLine()
        self.statusBar().addWidget(self.status, 1)
        self.timeline = Timeline()
        self.timeline.seek.connect(self._on_timeline)
        self.statusBar().addPermanentWidget(self.timeline)

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
        )
        scroll.setMaximumWidth(420)
        self.solver_dock = layout.dock(self, "Solver", "solver-dock", scroll, layout.LEFT)
        self.curves_dock = layout.dock(self, "Curves", "curves-dock", self.curves)
        self.hover = HoverReadout(self.plot)
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.plot.on_leave = lambda: self._show_hover(None)
        self.step_overlay = StepOverlay(self.plot)
        self.step_panel = StepPanel()
        self.point_table = PointTable()
        self.point_table.selected.connect(self.view.set_selection)
        self.histogram = MarginHistogram()
        self.theory = TheoryPanel()
        self.theory.epsilon_changed.connect(lambda _: self._redraw_readings())
        self.generalization = GeneralizationPanel(self.session)
        self.step_dock, self.points_dock, self.margins_dock, self.theory_dock, \
            self.generalization_dock = readings = [
                self._dock(title, name, widget) for title, name, widget in (
                    ("Step inspector", "step-dock", layout.scrolled(self.step_panel)),
                    ("Points", "points-dock", self.point_table),
                    ("Margins", "margins-dock", self.histogram),
                    ("Theory", "theory-dock", layout.scrolled(self.theory)),
                    ("Generalization", "generalization-dock",
                     layout.scrolled(self.generalization)))]  # fmt: skip
        layout.arrange_readings(self, readings)
        self.files = Files(self, self.prefs)
        self.exports = Exports(self, self.prefs)
        build_menus(self, self.solver_dock)
        bar = self.findChild(QtWidgets.QToolBar, "training-bar")
        layout.arrange_toolbars(self, bar, self.class_bar, self.generate_action)
        self.presentation = Presentation(self)
        focus.give_back_keys([bar, self.panel, self.generalization, self.theory], self.plot)

        self.snapshot = None
        self._curves_of = None  # the snapshot the curves and text show
        self._last_marks = 0.0
        self._support = []
        self._curve_timer = QtCore.QTimer(self)
        self._curve_timer.setInterval(int(CURVE_SECONDS * 1000))
        self._curve_timer.timeout.connect(self._show_curves)
        self._present = np.arange(0)
        self._parts = None  # the job's train/test split (None: every point trains)
        self._region_colors = np.zeros(0, dtype=np.uint32)
        self.warm_start = False
        self._step_key = None  # what the step inspector shows (to redraw only on a change)
        self._step_shown = object()  # not None: the first frame writes the hint
        self.controller = TrainingController(self)
        self.controller.snapshot_ready.connect(self._on_snapshot)
        self.controller.failed.connect(self._on_failed)
        self.session.points_changed.connect(self._on_points_changed)
        self.session.classes_changed.connect(self._on_classes_changed)
        self.session.config_changed.connect(self._on_config_changed)
        self.session.split_changed.connect(self._on_split_changed)
        self.session.caption_changed.connect(self._show_caption)
        self.panel.config_edited.connect(self.session.set_config)
        self.speed.bind(self.controller.set_speed)
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
        self._restore_preferences()
        self.reset(play=play)
        self.plot.setFocus()  # Space plays at once (not typed into the toolbar's field)

    def _dock(self, title, name, widget):
        dock = layout.dock(self, title, name, widget)
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
        """For a projector (svmviz.ui.presentation; F11 or Esc restores the window)."""
        self.presentation.set(on)
        self.presentation_action.setChecked(on)
        self._region_colors = self.plot.region_colors(self._present)
        if self.snapshot is not None:
            self._draw_plane(self.snapshot)
            self._redraw_readings()
        QtCore.QTimer.singleShot(100, self.fit_view)  # once the new size is laid out

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
        self._step_key = self._step_shown = None
        self.step_panel.show_record(None, None, (), np.zeros((0, 2)))  # no step of these points
        self._curves_of = None
        self.plot.clear_model()
        self.curves.clear()
        self.timeline.show_t(0, 0, self.session.config.iterations)
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
        config = self.session.job_config()
        self._parts = self.session.parts()
        # regions over what is in view (and the data), not only around the data
        self.extent = _union(self.plot.view_extent(), data_extent(dataset.X))
        # submitted first: the worker sets the job up while the window updates
        self.controller.submit(config, dataset, self.extent, play=play, warm=warm,
                               parts=self._parts)  # fmt: skip
        # at full speed, the new job's first frames come without rings and crosses (at
        # 20,000 points, all ringed at w = 0, they cost more than the frame); they follow
        # at MARKS_SECONDS
        self._last_marks = time.perf_counter()
        self._present = self.session.present_classes()
        self._support = []  # (t − t0, support vectors) of the frames of this job
        self._region_colors = self.plot.region_colors(self._present)
        self.plot.set_ring_meaning(kernel=not config.kernel.is_linear)
        self.plot.set_parts(self._parts)
        self.curves.set_budget(config.iterations)
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

    @QtCore.Slot(int)
    def _on_timeline(self, t: int):
        if self._has_job and self.snapshot is not None and not self.snapshot.t0:
            if t != self.snapshot.t:
                self.controller.seek(t)
                self._sync_actions()

    def run_to_budget(self):
        """Every remaining iteration at full speed (frames as it goes)."""
        if self._has_job:
            self.speed.set(INSTANT)
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

    def open_scenario(self, path) -> bool:
        """Open a ready demo (File ▸ Scenarios): like any file, after the unsaved-changes
        prompt; a scenario that cannot be read is a dialog and nothing changes."""
        return self.files.open_path(path)

    def apply_scenario(self, scenario) -> None:
        """A scenario's points (undoable), settings, speed, view options and caption."""
        self.session.load(scenario.data, scenario.config)
        self.session.set_caption((scenario.title, scenario.caption))
        self.apply_view(View(toggles=scenario.view, speed=scenario.speed,
                             warm_start=self.warm_start), fit=True)  # fmt: skip

    # -------------------------------------------------------------- the document's view
    def view_state(self) -> View:
        """What the session file keeps of the window: extent, toggles, speed, class."""
        toggles = tuple(name for name, action in self._view_toggles() if action.isChecked())
        return View(self.plot.view_extent(), toggles, self.speed.value.code, self.warm_start,
                    self.session.current_class)  # fmt: skip

    def apply_view(self, view: View, fit: bool = True) -> None:
        self.speed.set(view.speed)
        for name, action in self._view_toggles():
            action.setChecked(name in view.toggles)
        self.panel.warm.setChecked(view.warm_start)
        if fit:
            self.fit_view()
        elif view.extent is not None:
            x0, x1, y0, y1 = view.extent
            self.plot.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def _view_toggles(self):
        return (("optimum", self.optimum_action), ("iterate", self.iterate_action),
                ("suboptimality", self.gap_action), ("slack", self.slack_action))  # fmt: skip

    @QtCore.Slot()
    def _show_caption(self):
        caption = self.session.caption
        if caption is None:
            self.caption.hide()
            return
        self.caption.setText(f"<b>{html.escape(caption[0])}</b> — {html.escape(caption[1])}")
        self.caption.show()

    def pause_training(self) -> None:
        """Before a file replaces the session: pause (resume_training plays again)."""
        self._was_playing = self.controller.playing
        self.controller.pause()

    def resume_training(self) -> None:
        if getattr(self, "_was_playing", False):
            self.controller.play()
        self._was_playing = False
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
        # the new job first: the worker sets it up while the points are drawn
        self.reset(play=self.controller.playing, warm=self.warm_start)
        self.plot.draw_points()
        self.plot.show_selection(self.view.selected)
        self.panel.set_n_points(len(self.session.points))

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
            if len(self._support) > 4096:  # a frame each: thinned as the history is
                self._support = self._support[:256] + self._support[257::2]
        self._draw_plane(snap)
        self.plot.show_optimum(snap.optimum, self.optimum_action.isChecked())
        self.panel.show_lam_used(None if snap.reference is None else snap.reference.lam_hard)
        self._show_step(snap)
        self._sync_actions()
        if not self.controller.playing:
            self._show_curves()  # stepping or stopped: everything at once
        elif snap.step is not None or self.speed.value.per_frame:
            self._show_status(snap)  # beside the inspector's step, or in slow motion

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
        old = self._step_key
        # (the step by identity: a StepRecord holds arrays, which == compares elementwise;
        # found by the monkey test)
        if old is not None and old[0] is snap.step and old[1:] == key[1:]:
            return
        self._step_key, self._step_shown = key, snap.step
        self.step_overlay.show(snap.step, p.X, snap.frame.extent)
        labels = [self.session.classes[int(k)] for k in p.y]
        self.step_panel.show_record(snap.step, self.session.config, labels, p.X,
                                    self.step_overlay.scale, snap.model.classes,
                                    snap.iterate)  # fmt: skip

    @QtCore.Slot()
    def _show_curves(self):
        """The curves, the timeline and the status text of the newest snapshot."""
        snap = self.snapshot
        if snap is None or snap is self._curves_of:
            return
        self._curves_of = snap
        if self.hover.position is not None:
            self._show_hover(self.hover.position)  # the model under a resting mouse changed
        self._feed_curves(self.curves, snap)
        self._show_status(snap)
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

    def _show_status(self, snap) -> None:
        """The status line, the timeline and the presenter's lines: with every frame when
        stepping, in slow motion or when a frame explains its step (never behind the step
        inspector), with the curves otherwise (60 frames/s at the pace's later decades)."""
        self.timeline.show_t(snap.t, snap.t0, self.session.config.iterations)
        self.status.setText(status_text(snap, len(self.session.points), self.session.config))
        self.presentation.show(snap, self.session)

    def _feed_curves(self, panel, snap) -> None:
        """A snapshot's history, support-vector share and test error into ``panel``."""
        panel.show_history(snap.history, None if snap.reference is None
                           else snap.reference.objective, t0=snap.t0)  # fmt: skip
        points = [(t, c) for t, c in self._support if t > 0]  # (log axis: t ≥ 1)
        if snap.alpha is not None and points:
            ts, counts = np.array(points, dtype=float).T
            panel.show_support(ts, counts / len(snap.alpha))
        else:
            panel.show_support([], [])
        if snap.test_error is not None:
            ts, errs = snap.test_error
            panel.show_test_error(ts - snap.t0, errs)
        else:
            panel.show_test_error([], [])

    def fill_curves(self, panel) -> None:
        """Show in another CurvePanel (an export's) what the window's curves show."""
        panel.set_budget(self.session.config.iterations)
        panel.set_suboptimality(self.gap_action.isChecked())
        if self.snapshot is not None:
            self._feed_curves(panel, self.snapshot)

    def plane_state(self) -> PlaneState:
        """What the decision plot shows, for an export's twin of it."""
        snap = self.snapshot
        extent = self.plot.view_extent()
        if snap is None:
            return PlaneState(
                self.session,
                extent,
                parts=self._parts,
                scale=self.plot.scale,
                region_alpha=self.plot.region_alpha,
            )
        slack = None
        if self.plot.slack.isVisible():
            x, y = self.plot.slack.getData()
            slack = (np.column_stack([x[0::3], y[0::3]]), np.column_stack([x[1::3], y[1::3]]))
        optimum = None
        if self.optimum_action.isChecked() and snap.reference is not None:
            optimum = snap.reference.model
        return PlaneState(self.session, extent, snap.model, snap.frame, snap.alpha,
                          self._parts, optimum, slack, snap.model.coef is None,
                          self.plot.scale, self.plot.region_alpha)  # fmt: skip

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

    # -------------------------------------------------------------- files and preferences
    def dragEnterEvent(self, event):  # noqa: N802 (Qt override)
        if Files.dropped_file(event.mimeData()) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event):  # noqa: N802 (Qt override)
        path = Files.dropped_file(event.mimeData())
        if path is not None:
            event.acceptProposedAction()
            # after the drop returns: the prompt and any dialog must not hold the drag source
            QtCore.QTimer.singleShot(0, lambda: self.files.open_path(path))

    def edit_preferences(self) -> None:
        dialog = PreferencesDialog(self.prefs, self)
        dialog.reset_requested.connect(self.reset_preferences)
        if dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted:
            dialog.apply(self.prefs)
            self.files.set_autosave_seconds(self.prefs.get("autosave_seconds"))

    def reset_preferences(self) -> None:
        """Forget every remembered setting: the default layout, view, speed and sizes."""
        self.prefs.reset()
        if self.presentation.on:
            self.set_presentation(False)
        layout.restore(self, self._default_layout)
        layout.size_columns(self)
        self.apply_view(View(), fit=False)
        self.files.set_autosave_seconds(self.prefs.get("autosave_seconds"))
        self.status.setText("Preferences reset to their defaults")

    def _restore_preferences(self) -> None:
        self._default_layout = self.saveState(layout.LAYOUT_VERSION)
        p = self.prefs
        geometry, state = p.get_bytes("geometry"), p.get_bytes("layout")
        if geometry is not None:
            self.restoreGeometry(geometry)
        layout.when_shown(self, size=not layout.restore(self, state))
        toggles = tuple(name for name, _ in self._view_toggles() if p.get(name))
        self.apply_view(View(None, toggles, p.speed_code(), p.get("warm_start")), fit=False)

    def _save_preferences(self) -> None:
        p = self.prefs
        if self.presentation.on:  # remember the window as it is outside presentation mode
            self.set_presentation(False)
        p.set_bytes("geometry", self.saveGeometry())
        p.set_bytes("layout", self.saveState(layout.LAYOUT_VERSION))
        view = self.view_state()
        for name, _ in self._view_toggles():
            p.set(name, name in view.toggles)
        p.set("pace", view.speed)
        p.set("warm_start", view.warm_start)
        p.sync()

    def closeEvent(self, event):  # noqa: N802 (Qt override)
        if not self.files.confirm_discard("closing"):
            event.ignore()
            return
        try:
            if self.exports.animation is not None:
                self.exports.animation.cancel()
            self._save_preferences()
            self.files.close()
        finally:  # the threads stop whatever happened above
            self._curve_timer.stop()
            self.controller.shutdown()
            self.generalization.shutdown()
            super().closeEvent(event)
