"""The svmviz window: the data, the model's regions and margins, the objective.

Training runs in a worker thread (svmviz.app.worker); the window draws the snapshots it
publishes. The point editor and the solver panel come with the window issue.
"""

from __future__ import annotations

import threading

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.frame import data_extent
from svmviz.core.solvers import STATUS_TEXT, Solver
from svmviz.ui import style


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


def build_window(data: Dataset, config: SolverConfig):
    import pyqtgraph as pg
    from PySide6 import QtCore, QtGui, QtWidgets

    from svmviz.app.worker import TrainingController

    class MainWindow(QtWidgets.QMainWindow):
        def __init__(self):
            super().__init__()
            self.setWindowTitle("svmviz")
            self.data = data
            self.config = config
            font = self.font()
            font.setPointSize(style.FONT_POINT_SIZE)
            self.setFont(font)
            pg.setConfigOptions(antialias=True, background="w", foreground="k")

            self.plot = pg.PlotWidget()
            self.plot.setAspectLocked(True)
            self.plot.setLabel("bottom", "x₁")
            self.plot.setLabel("left", "x₂")
            legend = self.plot.addLegend(offset=(10, 10), brush=(255, 255, 255, 210))
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
            for item, label in (
                (self.boundary, "boundary f = 0"),
                (self.margin, "margins f = ±1"),
                (self.rings, "support vectors (y f ≤ 1)"),
            ):
                self.plot.addItem(item)
                legend.addItem(item, label)
            for k, name in enumerate(data.classes):
                pts = data.X[data.y == k]
                self.plot.plot(
                    pts[:, 0], pts[:, 1], pen=None, symbol=style.class_symbol(k),
                    symbolSize=style.POINT_SIZE, symbolBrush=style.class_color(k),
                    symbolPen=pg.mkPen("w", width=1), name=name,
                )  # fmt: skip

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

            split = QtWidgets.QSplitter()
            split.addWidget(self.plot)
            split.addWidget(self.curve_plot)
            split.setSizes([700, 500])
            self.setCentralWidget(split)

            bar = self.addToolBar("Training")
            self.play_action = bar.addAction("Play", self.toggle_play)
            self.play_action.setShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_Space))
            self.play_action.setToolTip("Play / pause training (Space)")
            step = bar.addAction("Step", lambda: self.advance(1))
            step.setShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_Right))
            step.setToolTip("One iteration (→)")
            reset = bar.addAction("Reset", self.reset)
            reset.setShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_R))
            reset.setToolTip("Start again from w = 0 (R)")
            self.status = QtWidgets.QLabel()
            self.statusBar().addWidget(self.status, 1)

            self.snapshot = None
            self.controller = TrainingController(self)
            self.controller.snapshot_ready.connect(self._on_snapshot)
            self.controller.failed.connect(self._on_failed)
            self.extent = data_extent(data.X)
            self.status.setText("Setting up: computing the exact optimum…")
            self.reset()
            self.resize(1300, 720)

        @property
        def playing(self) -> bool:
            return self.controller.playing

        def reset(self):
            self.controller.submit(self.config, self.data, self.extent)
            self._sync_play_text()

        def toggle_play(self):
            if self.controller.playing:
                self.controller.pause()
            else:
                self.controller.play()
            self._sync_play_text()

        def advance(self, n):
            self.controller.step(n)
            self._sync_play_text()

        def _sync_play_text(self):
            self.play_action.setText("Pause" if self.controller.playing else "Play")

        @QtCore.Slot(str)
        def _on_failed(self, message):
            self.snapshot = None
            self.status.setText(f"Cannot train: {message}")
            self._sync_play_text()

        @QtCore.Slot(object)
        def _on_snapshot(self, snap):
            self.snapshot = snap
            frame = snap.frame
            colors = np.array(
                [QtGui.QColor(style.class_color(k)).getRgb() for k in range(self.data.n_classes)],
                dtype=np.ubyte,
            )
            colors[:, 3] = style.REGION_ALPHA
            rgba = colors[frame.region]  # (ny, nx, 4)
            self.region.setImage(np.ascontiguousarray(rgba.transpose(1, 0, 2)), autoLevels=False)
            x0, x1, y0, y1 = frame.extent
            self.region.setRect(QtCore.QRectF(x0, y0, x1 - x0, y1 - y0))
            self.boundary.setData(*_polylines(frame.contours["boundary"]))
            self.margin.setData(*_polylines(frame.contours["margin"]))
            self.rings.setData(self.data.X[frame.support, 0], self.data.X[frame.support, 1])
            obj = snap.history["objective"]
            ref = snap.reference
            if len(obj):
                step = max(1, len(obj) // 4000)
                t = np.arange(1, len(obj) + 1)[::step]
                self.curve.setData(t, np.maximum(obj[::step], 1e-300))
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
                self.curve.setData([], [])
                self.optimum.setData([], [])
                text = f"{self.config.algorithm}: press Play (Space) or Step (→)"
            self.status.setText(text)
            self._sync_play_text()

        def closeEvent(self, event):  # noqa: N802 (Qt override)
            self.controller.shutdown()
            super().closeEvent(event)

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
    window = build_window(data, config)
    window.show()
    # compile the solver's loop once the first frame is up (seconds once after install; it
    # holds the GIL much of the time, so it must not delay that frame)
    warm = threading.Thread(target=Solver.warm_up, name="svmviz-warm-up", daemon=True)
    QtCore.QTimer.singleShot(0, warm.start)
    if getattr(args, "play", False):
        window.toggle_play()
    return app.exec()
