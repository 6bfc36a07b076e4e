"""The svmviz window: the points, the model's regions and margins, the objective.

Left click places a point of the current class (keys 1–8 choose it), right click removes the
nearest point, a left drag moves a point, Ctrl + drag selects and Delete removes the
selection, Ctrl+Z / Ctrl+Shift+Z undo and redo. Every edit restarts training from w = 0
(and keeps playing if it was). Training runs in a worker thread (svmviz.app.worker); the
window draws the snapshots it publishes. The solver panel comes with the window issue.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.frame import MARGIN_TOLERANCE, data_extent
from svmviz.core.generate import KINDS, generate
from svmviz.core.solvers import STATUS_TEXT, Solver
from svmviz.ui import style

DEFAULT_EXTENT = (-4.0, 4.0, -3.0, 3.0)


def demo_data() -> Dataset:
    """Two overlapping Gaussian blobs: a soft margin has something to do."""
    rng = np.random.default_rng(7)
    X = np.vstack([rng.normal([-1.2, -0.6], 0.8, (30, 2)), rng.normal([1.2, 0.7], 0.8, (30, 2))])
    return Dataset.from_labels(X, ["circle"] * 30 + ["square"] * 30)


def _polylines(lines):
    """Join polylines into one (x, y) pair with NaN breaks (one PlotCurveItem per level)."""
    if not lines:
        return np.array([]), np.array([])
    parts = []
    for line in lines:
        parts.append(line)
        parts.append(np.full((1, 2), np.nan))
    xy = np.vstack(parts)
    return xy[:, 0], xy[:, 1]


CURVE_POINTS = 400  # samples per curve: log-spaced, since the iteration axis is logarithmic
# the curves and the status text are redrawn at most this often: their axes re-range and
# re-render on every update, which at 60 Hz would take most of the GUI thread
TEXT_SECONDS = 0.12


def _log_samples(n: int) -> np.ndarray:
    """About CURVE_POINTS indices in 0..n−1, evenly spaced on a log axis, the last included."""
    if n <= CURVE_POINTS:
        return np.arange(n)
    idx = np.unique(np.geomspace(1, n, CURVE_POINTS).astype(np.int64) - 1)
    return idx if idx[-1] == n - 1 else np.append(idx, n - 1)


def _loss_axis_top(t, *curves) -> float:
    """The loss panel's upper limit: the curves after the first iterations (the hinge loss
    of the first Pegasos steps can be 20× its final value and would flatten everything)."""
    late = t > max(10.0, 0.02 * t[-1])
    if not late.any():  # stepping through the first iterations: show them all
        late = np.ones_like(late)
    values = np.concatenate([c[late] for c in curves])
    top = np.nanmax(values) if np.isfinite(values).any() else 1.0
    return float(max(1.0, 1.1 * top))


def _union(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]))


def build_window(data: Dataset | None, config: SolverConfig, play: bool = False):
    import pyqtgraph as pg
    from PySide6 import QtCore, QtGui, QtWidgets

    from svmviz.app.session import MAX_CLASSES, Session
    from svmviz.app.worker import TrainingController
    from svmviz.ui.point_editor import EditorViewBox
    from svmviz.ui.solver_panel import SolverPanel

    class MainWindow(QtWidgets.QMainWindow):
        def __init__(self):
            super().__init__()
            self.setWindowTitle("svmviz")
            self.session = Session(data, config)
            font = self.font()
            font.setPointSize(style.FONT_POINT_SIZE)
            self.setFont(font)
            pg.setConfigOptions(antialias=True, background="w", foreground="k")

            self.view = EditorViewBox(self.session)
            self.plot = pg.PlotWidget(viewBox=self.view)
            self.plot.setAspectLocked(True)
            self.plot.setLabel("bottom", "x₁")
            self.plot.setLabel("left", "x₂")
            self.plot.setMenuEnabled(False)  # right click removes a point
            self.legend = self.plot.addLegend(offset=(10, 10), brush=(255, 255, 255, 210))
            # the legend rarely changes: paint it from a cached pixmap (3 ms a frame otherwise)
            self.legend.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
            self.region = pg.ImageItem()
            self.region.setZValue(-10)
            self.plot.addItem(self.region)
            self.boundary = pg.PlotCurveItem(
                pen=pg.mkPen("k", width=style.LINE_WIDTH), connect="finite"
            )
            self.margin = pg.PlotCurveItem(
                pen=pg.mkPen("k", width=2, style=QtCore.Qt.PenStyle.DashLine), connect="finite"
            )
            self.rings = pg.ScatterPlotItem(
                size=style.POINT_SIZE + 10, pen=pg.mkPen("k", width=2), brush=None, symbol="o"
            )
            self.wrong = pg.ScatterPlotItem(
                size=style.POINT_SIZE + 12, pen=pg.mkPen(style.ERROR_COLOR, width=3),
                brush=None, symbol="x",
            )  # fmt: skip
            self.wrong.setZValue(5)
            for item, label in (
                (self.boundary, "boundary f = 0"),
                (self.margin, "margins f = ±1"),
                (self.rings, "on or inside the margin (y f ≤ 1)"),
                (self.wrong, "misclassified (y f &lt; 0)"),  # the label is HTML
            ):
                self.plot.addItem(item)
                self.legend.addItem(item, label)
            # one persistent scatter per class; setData on every edit
            self.scatters = []
            for k in range(MAX_CLASSES):
                item = pg.ScatterPlotItem(
                    size=style.POINT_SIZE, symbol=style.class_symbol(k),
                    brush=pg.mkBrush(style.class_color(k)), pen=pg.mkPen("w", width=1),
                )  # fmt: skip
                self.plot.addItem(item)
                self.scatters.append(item)
            self._in_legend = set()
            self.selection = pg.ScatterPlotItem(
                size=style.POINT_SIZE + 8, symbol="s", brush=None,
                pen=pg.mkPen((40, 40, 40), width=2, style=QtCore.Qt.PenStyle.DotLine),
            )  # fmt: skip
            self.plot.addItem(self.selection)
            self.view.selection_changed = self._show_selection
            self.plot.scene().sigMouseClicked.connect(self._on_plot_click)
            # the regions follow the view (pan, zoom, resize), at most every 50 ms
            self._view_timer = QtCore.QTimer(self)
            self._view_timer.setSingleShot(True)
            self._view_timer.setInterval(50)
            self._view_timer.timeout.connect(self._on_view_settled)
            self.plot.getPlotItem().getViewBox().sigRangeChanged.connect(
                lambda *_: self._view_timer.start()
            )

            self.curve_plot = pg.PlotWidget()
            self.curve_plot.setLogMode(x=True, y=True)
            self.curve_plot.setLabel("bottom", "iteration t")
            self.curve_plot.setLabel("left", "objective F(w)")
            self.curve_plot.addLegend(brush=(255, 255, 255, 210))
            self.curve = self.curve_plot.plot(
                pen=pg.mkPen(style.class_color(0), width=2), name="F(w_t)"
            )
            self.optimum = self.curve_plot.plot(
                pen=pg.mkPen(style.class_color(1), width=2, style=QtCore.Qt.PenStyle.DashLine),
                name="exact optimum F*",
            )

            self.loss_plot = pg.PlotWidget()
            self.loss_plot.setLogMode(x=True, y=False)
            self.loss_plot.setLabel("bottom", "iteration t")
            self.loss_plot.addLegend(brush=(255, 255, 255, 210))
            self.loss_curves = {
                name: self.loss_plot.plot(pen=pg.mkPen(color, width=2, style=dash), name=label)
                for name, label, color, dash in (
                    ("loss", "mean hinge loss", style.class_color(0), QtCore.Qt.PenStyle.SolidLine),
                    ("error", "training error", style.ERROR_COLOR, QtCore.Qt.PenStyle.SolidLine),
                    ("width", "margin width 2/‖w‖", style.class_color(2),
                     QtCore.Qt.PenStyle.DashLine),
                )
            }  # fmt: skip
            curves = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
            curves.addWidget(self.curve_plot)
            curves.addWidget(self.loss_plot)
            split = QtWidgets.QSplitter()
            split.addWidget(self.plot)
            split.addWidget(curves)
            split.setSizes([700, 500])
            self.setCentralWidget(split)

            bar = self.addToolBar("Training")
            self.play_action = self._action(bar, "Play", self.toggle_play, "Space",
                                            "Play / pause training (Space)")  # fmt: skip
            self._action(bar, "Step", lambda: self.advance(1), "Right", "One iteration (→)")
            self.step_n = QtWidgets.QSpinBox()
            self.step_n.setRange(1, 1_000_000)
            self.step_n.setValue(100)
            self.step_n.setToolTip("how many iterations Step N takes")
            self._action(bar, "Step N", lambda: self.advance(self.step_n.value()), "Shift+Right",
                         "Take N iterations (Shift+→)")  # fmt: skip
            bar.addWidget(self.step_n)
            self._action(bar, "Run", self.run_to_budget, "Ctrl+R",
                         "Run to the iteration budget at full speed (Ctrl+R)")  # fmt: skip
            self._action(bar, "Reset", self.reset, "R", "Start again from w = 0 (R)")
            bar.addSeparator()
            self._action(bar, "Generate…", self.generate_dialog, "Ctrl+G",
                         "Replace the points by a generated data set (undoable)")  # fmt: skip
            self._action(bar, "Fit", self.fit_view, "F", "Fit the view to the points (F)")
            bar.addSeparator()
            self.undo_action = self._action(bar, "Undo", self.session.undo, "Ctrl+Z",
                                            "Undo the last edit (Ctrl+Z)")  # fmt: skip
            self.redo_action = self._action(bar, "Redo", self.session.redo, "Ctrl+Shift+Z",
                                            "Redo (Ctrl+Shift+Z)")  # fmt: skip
            self._action(bar, "Clear", self.session.clear, None, "Remove every point (undoable)")
            self._action(bar, "Delete", self.view.delete_selection, "Delete",
                         "Remove the selected points (Ctrl + drag selects; Delete)")  # fmt: skip
            bar.addSeparator()
            self.class_label = QtWidgets.QLabel()
            bar.addWidget(self.class_label)
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
            scroll = QtWidgets.QScrollArea()
            scroll.setWidget(self.panel)
            scroll.setWidgetResizable(True)
            dock = QtWidgets.QDockWidget("Solver", self)
            dock.setObjectName("solver-dock")
            dock.setWidget(scroll)
            self.addDockWidget(QtCore.Qt.DockWidgetArea.LeftDockWidgetArea, dock)

            self.snapshot = None
            self._last_text = 0.0
            self._present = np.arange(0)
            self.controller = TrainingController(self)
            self.controller.snapshot_ready.connect(self._on_snapshot)
            self.controller.failed.connect(self._on_failed)
            self.session.points_changed.connect(self._on_points_changed)
            self.session.config_changed.connect(self._on_config_changed)
            self.panel.config_edited.connect(self.session.set_config)
            self.panel.speed_changed.connect(self.controller.set_speed)
            self.session.current_class_changed.connect(self._show_current_class)
            X = self.session.points.X
            self.extent = _union(DEFAULT_EXTENT, data_extent(X)) if len(X) else DEFAULT_EXTENT
            self.plot.setRange(xRange=self.extent[:2], yRange=self.extent[2:], padding=0)
            self._has_job = False
            self._show_current_class()
            self._draw_points()
            screen = QtGui.QGuiApplication.primaryScreen().availableGeometry()
            self.resize(min(1500, int(screen.width() * 0.95)), min(850, int(screen.height() * 0.9)))
            self.reset(play=play)

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

        def _show_current_class(self, *_):
            k = self.session.current_class
            self.class_label.setText(
                f'  placing: <b><span style="color:{style.class_color(k)}">'
                f"{self.session.classes[k]}</span></b> (keys 1–{MAX_CLASSES})"
            )

        def _draw_points(self):
            p = self.session.points
            for k, item in enumerate(self.scatters):
                sel = p.y == k
                item.setData(p.X[sel, 0], p.X[sel, 1])
                has = bool(sel.any())
                item.setVisible(has)  # an empty scatter still costs a paint call
                if has and k not in self._in_legend:
                    self.legend.addItem(item, self.session.classes[k])
                    self._in_legend.add(k)
                elif not has and k in self._in_legend:
                    self.legend.removeItem(item)
                    self._in_legend.discard(k)
            self.legend.setColumnCount(2 if len(self._in_legend) > 3 else 1)

        def _clear_model(self, message):
            self.snapshot = None
            self.region.clear()
            for item in (self.boundary, self.margin, self.curve, self.optimum,
                         *self.loss_curves.values()):  # fmt: skip
                item.setData([], [])
            self.rings.setData([], [])
            self.wrong.setData([], [])
            self.progress.setValue(0)
            self.status.setText(message)
            self._sync_actions()

        # -------------------------------------------------------------- commands
        def reset(self, play: bool = False):
            dataset = self.session.dataset()
            self._has_job = dataset is not None
            if dataset is None:
                self.controller.cancel()
                self._clear_model(
                    "Click to place points of at least two classes "
                    f"(keys 1–{MAX_CLASSES} choose the class, right click removes a point)"
                )
                return
            self._present = self.session.present_classes()
            self._region_colors = np.array(
                [QtGui.QColor(style.class_color(int(k))).getRgb() for k in self._present],
                dtype=np.ubyte,
            )
            self._region_colors[:, 3] = style.REGION_ALPHA
            # regions over what is in view (and the data), not only around the data
            self.extent = _union(self._view_extent(), data_extent(dataset.X))
            self.controller.submit(self.session.config, dataset, self.extent, play=play)
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

        # -------------------------------------------------------------- slots
        def _show_selection(self, indices):
            X = self.session.points.X
            indices = indices[indices < len(X)]
            self.selection.setData(X[indices, 0], X[indices, 1])
            self.selection.setVisible(bool(indices.size))

        @QtCore.Slot()
        def _on_points_changed(self):
            self._draw_points()
            self._show_selection(self.view.selected)
            self.panel.set_n_points(len(self.session.points))
            self.reset(play=self.controller.playing)

        def _view_extent(self):
            (x0, x1), (y0, y1) = self.plot.getPlotItem().getViewBox().viewRange()
            return (x0, x1, y0, y1)

        @QtCore.Slot()
        def _on_view_settled(self):
            if self._has_job:
                self.controller.set_extent(self._view_extent())

        @QtCore.Slot()
        def _on_config_changed(self):
            self.reset(play=self.controller.playing)

        @QtCore.Slot(object)
        def _on_plot_click(self, event):
            vb = self.plot.getPlotItem().getViewBox()
            if not vb.sceneBoundingRect().contains(event.scenePos()):
                return
            pos = vb.mapSceneToView(event.scenePos())
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
            frame = snap.frame
            rgba = self._region_colors[frame.region]  # (ny, nx, 4)
            self.region.setImage(np.ascontiguousarray(rgba.transpose(1, 0, 2)), autoLevels=False)
            x0, x1, y0, y1 = frame.extent
            self.region.setRect(QtCore.QRectF(x0, y0, x1 - x0, y1 - y0))
            self.boundary.setData(*_polylines(frame.contours["boundary"]))
            self.margin.setData(*_polylines(frame.contours["margin"]))
            X = self.session.points.X
            if len(frame.margins) == len(X):
                inside = (frame.margins <= 1.0 + MARGIN_TOLERANCE) & (frame.margins >= 0)
                wrong = frame.margins < 0
                self.rings.setData(X[inside, 0], X[inside, 1])
                self.wrong.setData(X[wrong, 0], X[wrong, 1])
                self.wrong.setVisible(bool(wrong.any()))
            self._sync_actions()
            now = time.perf_counter()
            if self.controller.playing and now - self._last_text < TEXT_SECONDS:
                return  # the plane is drawn at full rate; curves and text catch up soon
            self._last_text = now
            self.progress.setMaximum(self.session.config.iterations)
            self.progress.setValue(snap.t)
            obj = snap.history["objective"]
            ref = snap.reference
            if len(obj):
                pick = _log_samples(len(obj))
                t = pick + 1.0
                self.curve.setData(t, np.maximum(obj[pick], 1e-300))
                h = snap.history
                self.loss_curves["loss"].setData(t, h["loss"][pick])
                self.loss_curves["error"].setData(t, h["error"][pick])
                norm = h["norm"][pick]
                width = np.where(norm > 0, 2.0 / np.maximum(norm, 1e-300), np.nan)
                self.loss_curves["width"].setData(t, width, connect="finite")
                self.loss_plot.setYRange(0.0, _loss_axis_top(t, h["loss"][pick], width),
                                         padding=0.02)  # fmt: skip
                if ref is not None:
                    f_star = max(ref.objective, 1e-300)
                    self.optimum.setData([1, max(len(obj), 2)], [f_star, f_star])
                text = (
                    f"iteration {snap.t}   objective {obj[-1]:.6g}   "
                    f"training error {100 * snap.history['error'][-1]:.1f}%"
                )
                if ref is not None:
                    text += f"   gap to the optimum {obj[-1] - ref.objective:.3g}"
                elif snap.reference_error:
                    text += f"   (no exact optimum: {snap.reference_error})"
                if snap.status not in ("ready", "running"):
                    text += f"   — {STATUS_TEXT[snap.status]}"
            else:
                for item in (self.curve, self.optimum, *self.loss_curves.values()):
                    item.setData([], [])
                text = (
                    f"{len(X)} points, {self.session.config.algorithm}: "
                    "press Play (Space) or Step (→)"
                )
            self.status.setText(text)
            self._sync_actions()

        def closeEvent(self, event):  # noqa: N802 (Qt override)
            self.controller.shutdown()
            super().closeEvent(event)

    class GenerateDialog(QtWidgets.QDialog):
        """Kind, number of points, noise, classes, margin and seed of a generated data set."""

        def __init__(self, parent):
            super().__init__(parent)
            self.setWindowTitle("Generate data")
            form = QtWidgets.QFormLayout(self)
            self.kind = QtWidgets.QComboBox()
            self.kind.addItems(list(KINDS))
            self.n = QtWidgets.QSpinBox()
            self.n.setRange(2, 20000)
            self.n.setValue(100)
            self.noise = QtWidgets.QDoubleSpinBox()
            self.noise.setRange(0.0, 3.0)
            self.noise.setSingleStep(0.05)
            self.noise.setValue(0.2)
            self.classes = QtWidgets.QSpinBox()
            self.classes.setRange(2, MAX_CLASSES)
            self.classes.setToolTip("for blobs and spirals")
            self.margin = QtWidgets.QDoubleSpinBox()
            self.margin.setRange(0.0, 3.0)
            self.margin.setSingleStep(0.1)
            self.margin.setValue(0.5)
            self.margin.setToolTip("for separable: the empty band on each side of the line")
            self.seed = QtWidgets.QSpinBox()
            self.seed.setRange(0, 2**31 - 1)
            for label, widget in (("Kind", self.kind), ("Points", self.n), ("Noise", self.noise),
                                  ("Classes", self.classes), ("Margin", self.margin),
                                  ("Seed", self.seed)):  # fmt: skip
                form.addRow(label, widget)
            buttons = QtWidgets.QDialogButtonBox(
                QtWidgets.QDialogButtonBox.StandardButton.Ok
                | QtWidgets.QDialogButtonBox.StandardButton.Cancel
            )
            buttons.accepted.connect(self.accept)
            buttons.rejected.connect(self.reject)
            form.addRow(buttons)

        def values(self) -> dict:
            return dict(kind=self.kind.currentText(), n=self.n.value(),
                        noise=self.noise.value(), classes=self.classes.value(),
                        margin=self.margin.value(), seed=self.seed.value())  # fmt: skip

    return MainWindow()


def run(args) -> int:
    from PySide6 import QtCore, QtWidgets

    from svmviz.cli import config_from_args
    from svmviz.core.data import read_csv

    data = read_csv(args.data) if args.data else demo_data()
    if data.X.shape[1] != 2:
        raise InputError(
            f"{args.data}: the window draws 2-D data and this file has {data.X.shape[1]} "
            "coordinates; use `svmviz train` for other dimensions"
        )
    config = config_from_args(args, data)
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(["svmviz"])
    window = build_window(data, config, play=getattr(args, "play", False))
    window.show()
    # compile the solver's loop once the first frame is up (seconds once after install; it
    # holds the GIL much of the time, so it must not delay that frame)
    warm = threading.Thread(target=Solver.warm_up, name="svmviz-warm-up", daemon=True)
    QtCore.QTimer.singleShot(0, warm.start)
    return app.exec()
