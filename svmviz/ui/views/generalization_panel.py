"""Generalization (001) and how well the model does: the train/test split, the confusion
matrices, the ROC curve (binary), the residuals (regression) or the shares beside ν
(one-class), a learning curve and a complexity sweep, one page each below the split.

The readings of the model (svmviz.ui.views.scores_view) follow training at the curves' pace, and
only while their page is on screen (``show_snapshot``, called by the frame router). The
split's controls write the session's :class:`~svmviz.core.lesson.generalization.Split` (the
window retrains on it and draws test points hollow); the two curves are computed in the
background (svmviz.app.curve_runner) with a progress bar and a cancel button, each point
fitting the current solver to its budget. A click on a point of a curve loads that
configuration: the training-set size, or the value of λ, γ or the degree.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from PySide6 import QtCore, QtWidgets

from svmviz.app.curve_runner import CurveRunner
from svmviz.core.lesson.generalization import (
    MAX_TEST_FRACTION,
    SWEEPS,
    TEST,
    TRAIN,
    complexity_sweep,
    learning_curve,
    learning_sizes,
    sweep_config,
    sweep_problem,
    sweep_values,
)
from svmviz.core.limits import BOUNDS
from svmviz.ui.views.error_plot import CurvePlot
from svmviz.ui.views.reading import Pace, Reading
from svmviz.ui.views.scores_view import MatricesView, NuBars, ResidualPlot, RocPlot, readings
from svmviz.ui.views.tab_titles import fit_tab_titles

STALE_OPACITY = 0.35
MIN_PLOT_HEIGHT = 90  # below this the panel scrolls (its legend and axes take ~70 px)
CURVE_PAGES = {"svc": RocPlot, "regression": ResidualPlot, "one-class": NuBars}
CURVE_PAGE_TITLES = {"svc": "ROC", "regression": "Residuals", "one-class": "ν"}


class Message(QtWidgets.QLabel):
    """A wrapped line of news that takes no room when there is none."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setVisible(bool(text))


class GeneralizationPanel(QtWidgets.QWidget):
    """The split controls above the pages of readings: the confusion matrices, the ROC
    curve (or the residuals, or the shares beside ν), the learning curve and the sweep."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.runner = CurveRunner(self)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 2)  # (the plots' height at 1366×768)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Test set:"))
        self.fraction = QtWidgets.QSpinBox()
        self.fraction.setRange(0, int(MAX_TEST_FRACTION * 100))
        self.fraction.setSingleStep(5)
        self.fraction.setSuffix(" %")
        self.fraction.setSpecialValueText("none")
        self.fraction.setToolTip(
            "the share of each class held out for testing: not trained on, drawn hollow, "
            "its error shown beside the training error"
        )
        row.addWidget(self.fraction)
        self.reseed = QtWidgets.QPushButton("Reseed")
        self.reseed.setToolTip("draw another random split (the next seed)")
        row.addWidget(self.reseed)
        row.addStretch(1)
        layout.addLayout(row)
        row = QtWidgets.QHBoxLayout()  # (rows short enough for the window's side column)
        row.addWidget(QtWidgets.QLabel("Train on:"))
        self.size = QtWidgets.QSpinBox()
        self.size.setRange(1, int(BOUNDS["split_size"].high))  # (1: "all")
        self.size.setSpecialValueText("all")
        self.size.setToolTip(
            "train on the first n training points only (the learning curve's sets; the rest "
            "are drawn faded); 'all' uses every training point"
        )
        row.addWidget(self.size)
        for box in (self.fraction, self.size):  # (a narrow column: the summary beside)
            box.setMaximumWidth(box.fontMetrics().horizontalAdvance("000000 %") + 30)
        self.summary = QtWidgets.QLabel()  # (short, in the row; in full in its tooltip)
        row.addWidget(self.summary)
        row.addStretch(1)
        layout.addLayout(row)
        layout.setSpacing(4)

        # the readings, one page each (a page fills the tab: its plot is seen whole at
        # 1366×768, where the tab is about 250 px high)
        self.pages = QtWidgets.QTabWidget()
        self.pages.setDocumentMode(True)
        self.matrices = MatricesView()
        self.matrices.setToolTip(
            "the confusion matrices: a row per true class, a column per predicted class"
        )
        self.pages.addTab(self.matrices, "Matrix")
        # ROC, residuals or ν, by problem: each built when first drawn (a plot costs the
        # window's start about 17 ms)
        self.curve_pages = QtWidgets.QStackedWidget()
        self._curve_built: dict[str, QtWidgets.QWidget] = {}
        self.pages.addTab(self.curve_pages, "ROC")

        learning_page = QtWidgets.QWidget()
        column = QtWidgets.QVBoxLayout(learning_page)
        column.setContentsMargins(0, 4, 0, 0)
        row = QtWidgets.QHBoxLayout()
        self.learn_button = QtWidgets.QPushButton("Learning curve")
        self.learn_button.setToolTip(
            "error against the training-set size n: the solver trained to its budget on the "
            "first n training points, tested on the test set"
        )
        row.addWidget(self.learn_button)
        row.addStretch(1)
        column.addLayout(row)
        self.learning = CurvePlot("training-set size n")
        self.learning.set_log_x(True)
        column.addWidget(self.learning, 1)
        self.pages.addTab(learning_page, "Learning")

        sweep_page = QtWidgets.QWidget()
        column = QtWidgets.QVBoxLayout(sweep_page)
        column.setContentsMargins(0, 4, 0, 0)
        row = QtWidgets.QHBoxLayout()
        self.sweep_button = QtWidgets.QPushButton("Sweep")
        self.sweep_button.setToolTip(
            "error against λ, γ or the degree: the solver trained to its budget with each value"
        )
        row.addWidget(self.sweep_button)
        self.param = QtWidgets.QComboBox()
        for key, (label, _) in SWEEPS.items():
            self.param.addItem(label, key)
        self.param.setToolTip("the knob of the problem's complexity to sweep")
        row.addWidget(self.param)
        row.addStretch(1)
        column.addLayout(row)
        self.sweep = CurvePlot("λ")
        self.sweep.set_log_x(True)
        column.addWidget(self.sweep, 1)
        self.pages.addTab(sweep_page, "Sweep")
        for plot in (self.learning, self.sweep):
            # their size hint (480 px) would make the scroll area around the panel scroll
            plot.setSizePolicy(
                QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Ignored
            )
            plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        fit_tab_titles(self.pages.tabBar())
        layout.addWidget(self.pages, 1)

        self.progress_row = QtWidgets.QWidget()  # (shown while computing: the plots higher)
        row = QtWidgets.QHBoxLayout(self.progress_row)
        row.setContentsMargins(0, 0, 0, 0)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setFormat("%v of %m fits")
        self._fit_progress_text()
        row.addWidget(self.progress)
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        row.addWidget(self.cancel_button)
        row.addStretch(1)
        self.progress_row.hide()
        layout.addWidget(self.progress_row)
        self.message = Message()
        self.message.setText("")
        layout.addWidget(self.message)

        self._snapshot = None  # the newest snapshot, and the one the readings show
        self._shown = None
        self.readings = None  # what the readings pages show (svmviz.ui.views.scores_view.Readings)
        self.pages.currentChanged.connect(self._on_page)
        self._kind = None  # what the runner computes: "learning" or "sweep"
        self._points = {"learning": [], "sweep": []}
        self._keys = {"learning": None, "sweep": None}  # the state each curve was made for
        self._sweep_param = "lam"
        self.fraction.valueChanged.connect(self._on_split_edited)
        self.size.valueChanged.connect(self._on_split_edited)
        self.reseed.clicked.connect(self._on_reseed)
        self.learn_button.clicked.connect(self.compute_learning_curve)
        self.sweep_button.clicked.connect(self.compute_sweep)
        self.cancel_button.clicked.connect(self.runner.cancel)
        self.runner.point_ready.connect(self._on_point)
        self.runner.progressed.connect(self._on_progress)
        self.runner.finished.connect(self._on_finished)
        self.learning.picked.connect(self._load_size)
        self.sweep.picked.connect(self._load_value)
        # refreshed after the event that changed the session (a click reaches the worker
        # first), once for any number of changes
        self._refresh_later = QtCore.QTimer(self, singleShot=True, interval=0)
        self._refresh_later.timeout.connect(self.refresh)
        for signal in (session.points_changed, session.split_changed, session.config_changed):
            signal.connect(self._refresh_later.start)
        self.refresh()

    def _fit_progress_text(self) -> None:
        """Room for the progress bar's text at the current font (presentation mode)."""
        self.progress.setMinimumWidth(self.fontMetrics().horizontalAdvance("88 of 88 fits") + 40)

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._fit_progress_text()
        super().changeEvent(event)

    # ------------------------------------------------------------------ state → widgets
    def refresh(self) -> None:
        """The controls, the summary, the current-setting marks and staleness, from the
        session."""
        split, n = self.session.split, len(self.session.points)
        for box, value in (
            (self.fraction, round(100 * split.fraction)),
            (self.size, split.size or 1),
        ):
            box.blockSignals(True)
            box.setValue(value)
            box.blockSignals(False)
        parts = self.session.parts()
        if parts is None:
            self.summary.setText(f"{n} points")
            self.summary.setToolTip(f"all {n} points train (no test set)")
        else:
            counts = np.bincount(parts, minlength=3)
            self.summary.setText(f"{counts[TRAIN]} + {counts[TEST]} test")
            text = f"{counts[TRAIN]} training · {counts[TEST]} test points (seed {split.seed})"
            if counts[2]:
                text += f" · {counts[2]} unused"
            self.summary.setToolTip(text)
        self.learning.mark(n if parts is None else int(np.count_nonzero(parts == TRAIN)))
        config = self.session.config
        param = self._sweep_param
        if sweep_problem(config, param) is None:
            self.sweep.mark(self._value_of(config, param))
        else:
            self.sweep.mark(None)
        for kind, plot in (("learning", self.learning), ("sweep", self.sweep)):
            plot.setOpacity(STALE_OPACITY if self._stale(kind) else 1.0)
        if not self.runner.running:
            self._say_stale()

    def _say_stale(self) -> None:
        if self._stale("learning") or self._stale("sweep"):
            self.message.setText(
                "Faded: computed for other points or settings; press the button to recompute"
            )
        elif self.message.text().startswith("Faded"):
            self.message.setText("")

    @staticmethod
    def _value_of(config, param: str) -> float:
        return config.lam if param == "lam" else float(getattr(config.kernel, param))

    def _stale(self, kind: str) -> bool:
        """Whether the curve ``kind`` was computed for other points or settings."""
        key = self._keys[kind]
        if key is None:
            return False
        now = self._key(kind)
        return key[0] is not now[0] or key[1:] != now[1:]  # the points: by identity

    def _key(self, kind: str):
        """What a curve depends on: the points, the split and the settings except its own
        knob (the training-set size for the learning curve, the swept value for a sweep)."""
        s = self.session
        split = replace(s.split, size=None) if kind == "learning" else s.split
        config = s.job_config()
        if kind == "sweep":  # its own knob at a fixed value
            config = sweep_config(config, self._sweep_param, 1.0)
        return (s.points, split, config)

    # ------------------------------------------------------------------ the readings
    def show_snapshot(self, snap) -> None:
        """The readings of ``snap`` (at the curves' pace): drawn now if their page is on
        screen, else when it is shown."""
        self._snapshot = snap
        if snap is None:
            self._shown = self.readings = None
            return
        for plot in (self.learning, self.sweep):
            plot.set_measure(snap.model.kind)
        page = self.pages.currentWidget()
        if page in (self.matrices, self.curve_pages) and not page.visibleRegion().isEmpty():
            self._draw_readings()

    @QtCore.Slot(int)
    def _on_page(self, _) -> None:
        QtCore.QTimer.singleShot(0, self, self._draw_pending)  # (once it is laid out)

    @QtCore.Slot()
    def _draw_pending(self) -> None:
        if self._snapshot is not None:
            self.show_snapshot(self._snapshot)

    def _draw_readings(self) -> None:
        snap = self._snapshot
        if snap is self._shown:
            return
        data = self.session.dataset()
        if data is None:
            return
        r = readings(snap, data, self.session.parts(), self.session.job_config().cost)
        if r is None:
            return  # a frame of other points (its successor is on its way)
        self._shown, self.readings = snap, r
        self._set_kind(r.kind, r.roc is not None or r.roc_of != "")
        if r.kind == "svc":
            self.matrices.show_readings(r)
            if r.roc_of:
                self.roc.show_roc(r.roc, r.roc_of)
        elif r.kind == "regression":
            self.residuals.show_readings(r)
        else:
            self.nu_bars.show_readings(r)

    def _curve_page(self, kind: str):
        """The curve page of the problem ``kind``, built the first time it is asked for."""
        if kind not in self._curve_built:
            page = CURVE_PAGES[kind]()
            self._curve_built[kind] = page
            self.curve_pages.addWidget(page)
        return self._curve_built[kind]

    @property
    def roc(self) -> RocPlot:
        return self._curve_page("svc")

    @property
    def residuals(self) -> ResidualPlot:
        return self._curve_page("regression")

    @property
    def nu_bars(self) -> NuBars:
        return self._curve_page("one-class")

    def _set_kind(self, kind: str, binary: bool) -> None:
        """The pages the problem has: the matrices for classes, the ROC curve for two of
        them, the residuals for a regression, the shares beside ν for one class."""
        self.curve_pages.setCurrentWidget(self._curve_page(kind))
        self.pages.setTabText(1, CURVE_PAGE_TITLES[kind])
        self.pages.setTabVisible(0, kind == "svc")
        self.pages.setTabVisible(1, kind != "svc" or binary)

    # ------------------------------------------------------------------ the split
    @QtCore.Slot()
    def _on_split_edited(self) -> None:
        fraction = self.fraction.value() / 100.0
        size = self.size.value()
        self.session.set_split(
            replace(self.session.split, fraction=fraction, size=None if size < 2 else size)
        )

    @QtCore.Slot()
    def _on_reseed(self) -> None:
        split = self.session.split
        if split.fraction == 0:
            split = replace(split, fraction=0.3)  # a reseed without a test set: make one
        seed = (split.seed + 1) % (int(BOUNDS["split_seed"].high) + 1)  # (a seed files take)
        self.session.set_split(replace(split, seed=seed))

    @QtCore.Slot(float)
    def _load_size(self, n: float) -> None:
        parts = self.session.parts()
        pool = len(self.session.points) if parts is None else int(np.sum(parts != TEST))
        size = None if int(n) >= pool else int(n)
        self.session.set_split(replace(self.session.split, size=size))

    @QtCore.Slot(float)
    def _load_value(self, value: float) -> None:
        if sweep_problem(self.session.config, self._sweep_param) is None:
            self.session.set_config(sweep_config(self.session.config, self._sweep_param, value))

    # ------------------------------------------------------------------ computing
    def _inputs(self):
        """(config, data, parts) to compute with, or None with the reason said."""
        data = self.session.dataset()
        if data is None:
            self.message.setText("Place points of at least two classes first")
            return None
        parts = self.session.parts()
        if parts is None or not np.any(parts == TEST):
            self.message.setText(
                "Hold out a test set first (Test set above): the curves compare the error on "
                "points trained on with the error on points never seen"
            )
            return None
        return self.session.job_config(), data, parts

    @QtCore.Slot()
    def compute_learning_curve(self) -> None:
        inputs = self._inputs()
        if inputs is None:
            return
        config, data, parts = inputs
        sizes = learning_sizes(int(np.sum(parts != TEST)))
        seed = self.session.split.seed

        def make(stop):
            return learning_curve(config, data, parts, seed, sizes, stop)

        self._start("learning", len(sizes), make)

    @QtCore.Slot()
    def compute_sweep(self) -> None:
        inputs = self._inputs()
        if inputs is None:
            return
        config, data, parts = inputs
        param = self.param.currentData()
        problem = sweep_problem(config, param)
        if problem is not None:
            self.message.setText(f"Cannot sweep: {problem}")
            return
        self._sweep_param = param
        self.sweep.setLabel("bottom", SWEEPS[param][0])
        self.sweep.set_log_x(param != "degree")
        values = sweep_values(config, param)

        def make(stop):
            return complexity_sweep(config, data, parts, param, values, stop)

        self._start("sweep", len(values), make)

    def _start(self, kind: str, total: int, make) -> None:
        self._kind = kind
        self._points[kind] = []
        self._keys[kind] = self._key(kind)
        (self.learning if kind == "learning" else self.sweep).show_points([])
        name = "learning curve" if kind == "learning" else "sweep"
        self.message.setText(f"Computing the {name}…")
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress_row.show()
        self.runner.start(make, total)
        self.pages.setCurrentIndex(2 if kind == "learning" else 3)
        self.refresh()

    @QtCore.Slot(object)
    def _on_point(self, p) -> None:
        points = self._points[self._kind]
        points.append(p)
        (self.learning if self._kind == "learning" else self.sweep).show_points(points)

    @QtCore.Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)

    @QtCore.Slot(str)
    def _on_finished(self, message: str) -> None:
        self.cancel_button.setEnabled(False)
        self.progress_row.hide()
        problems = [p for p in self._points[self._kind] if p.problem]
        if message:
            self.message.setText(f"Stopped: {message}")
        elif problems:
            p = problems[0]
            self.message.setText(
                f"{len(problems)} of {len(self._points[self._kind])} fits failed "
                f"(e.g. at {p.value:g}: {p.problem}); click a point to load it"
            )
        else:
            self.message.setText("Done: click a point to load that configuration")
        self.refresh()

    def shutdown(self) -> None:
        self.runner.shutdown()


def generalization_reading(panel: GeneralizationPanel) -> Reading:
    """The Test set tab's readings of the training: given every snapshot at the curves'
    pace, drawn when their page is on screen (:meth:`GeneralizationPanel.show_snapshot`)."""
    return Reading(
        lambda snap, router: panel.show_snapshot(snap),
        Pace.CURVES,
        panel,
        lambda: panel.show_snapshot(None),
    )
