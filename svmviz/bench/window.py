"""The window while its worker trains at full speed: how many times per second the plane is
painted, how late a 10 ms QTimer in the GUI thread fires (p99), and how long a click (a new
point, through real mouse events) and a parameter change (λ) take to show on screen. At
m = 1,000 for linear and RBF models, and at the scales the window supports (20,000 points
with a linear model, 3,000 with a kernel), where "interactive" means at least
SCALE_FPS frames/s and SCALE_LATENCY_MS to show an edit."""

from __future__ import annotations

import sys
import tempfile
import time

import numpy as np

from svmviz.bench.report import row

# frames painted per second while training at full speed (a 60 Hz display), also with a
# second view following the frames (the weight space, the 3-D view)
TARGET_FPS = 58
TARGET_LATENESS_MS = 50  # QTimer lateness at the 99th percentile while training
TARGET_LATENCY_MS = 50  # a click or a parameter change, to the frame that shows it
SCALE_FPS = 30  # "interactive" at the largest sizes
SCALE_LATENCY_MS = 100
CASES = [  # (kernel, m, fps target, latency target, problem family)
    ("linear", 1000, TARGET_FPS, TARGET_LATENCY_MS, "binary"),
    ("rbf", 1000, TARGET_FPS, TARGET_LATENCY_MS, "binary"),
    ("linear", 20_000, SCALE_FPS, SCALE_LATENCY_MS, "binary"),
    ("rbf", 3000, SCALE_FPS, SCALE_LATENCY_MS, "binary"),
    # each other problem family the window trains, at m = 1,000
    ("linear", 1000, TARGET_FPS, TARGET_LATENCY_MS, "multiclass"),
    ("linear", 1000, TARGET_FPS, TARGET_LATENCY_MS, "regression"),
    ("rbf", 1000, TARGET_FPS, TARGET_LATENCY_MS, "one-class"),
]
# the configuration of each family (its data: svmviz.bench.losses' data sets)
FAMILIES = {
    "binary": {},
    "multiclass": {},  # (the default multiclass loss, Crammer–Singer)
    "regression": dict(problem="epsilon-svr", epsilon=0.1),
    "one-class": dict(problem="one-class", nu=0.5),
}


def quiet_config():
    """Measuring windows keep their preferences and autosave in a folder of their own,
    never the user's (the caller cleans it up)."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    config = tempfile.TemporaryDirectory(prefix="svmviz-bench-")
    os.environ["SVMVIZ_CONFIG_DIR"] = config.name
    return config


def qt_app():
    from PySide6 import QtCore, QtWidgets

    from svmviz.ui.views.gl_probe import share_contexts

    share_contexts()
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])

    def quiet(mode, context, message):  # the offscreen plugin's notice on every show()
        if "propagateSizeHints" not in message:
            print(message, file=sys.stderr)

    QtCore.qInstallMessageHandler(quiet)
    return app


def wait(ms: float) -> None:
    from PySide6 import QtCore

    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(int(ms), loop.quit)
    loop.exec()


def paint_counter():
    """An event filter that counts the Paint events of what it is installed on (``count``):
    the frames a widget painted."""
    from PySide6 import QtCore

    class PaintCounter(QtCore.QObject):
        count = 0

        def eventFilter(self, obj, event):
            if event.type() == QtCore.QEvent.Type.Paint:
                self.count += 1
            return False

    return PaintCounter()


def steady_window(data, config):
    """A window of ``data`` and ``config``, shown at 1400×800, once its first frame and the
    exact optimum (computed beside the training) are in: the steady state to measure."""
    from svmviz.ui.window.launch import build_window

    w = build_window(data, config)
    w.resize(1400, 800)
    w.show()
    start = time.perf_counter()
    while (
        w.snapshot is None or w.snapshot.reference_pending
    ) and time.perf_counter() - start < 120:
        wait(50)
    return w


def _until_shown(w, act, shows, timeout: float = 10.0) -> float:
    """Seconds from ``act()`` to the repaint of the first frame for which ``shows(snap)``."""
    from PySide6 import QtCore

    shown = []

    def on_snapshot(snap):  # connected after the window's own slot: it has drawn the frame
        if not shown and shows(snap):
            w.plot.viewport().repaint()
            shown.append(time.perf_counter())

    w.controller.snapshot_ready.connect(on_snapshot)
    start = time.perf_counter()
    act()
    app = qt_app()
    while not shown and time.perf_counter() - start < timeout:
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 5)
    w.controller.snapshot_ready.disconnect(on_snapshot)
    return (shown[0] if shown else float("inf")) - start


def _click(w, x: float, y: float) -> None:
    """A real left click at data coordinates (x, y): press and release on the viewport."""
    from PySide6 import QtCore
    from PySide6.QtTest import QTest

    scene = w.plot.view.mapViewToScene(QtCore.QPointF(x, y))
    pos = w.plot.mapFromScene(scene)
    QTest.mouseClick(
        w.plot.viewport(),
        QtCore.Qt.MouseButton.LeftButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
        pos,
    )


def still_training(w) -> None:
    """Play again if the run has ended (a fast linear loss reaches the largest budget in a
    few seconds): an edit is measured while training, not as a catch-up to the budget."""
    if w.snapshot is not None and w.snapshot.status not in ("ready", "running"):
        w.toggle_play()
        wait(200)


def measure_case(
    kernel_name: str,
    m: int,
    seconds: float,
    edits: int,
    race: list | None = None,
    family: str = "binary",
) -> dict:
    """One case's figures; with ``race`` (runs 2–4: svmviz.core.training.race_setup), the window
    races them beside its own run (svmviz.bench.race)."""
    from PySide6 import QtCore

    from svmviz.bench.losses import _datasets
    from svmviz.core.config import MAX_ITERATIONS, SolverConfig
    from svmviz.core.kernels import Kernel
    from svmviz.core.training.pace import INSTANT
    from svmviz.ui.window.launch import build_window

    kernel = Kernel() if kernel_name == "linear" else Kernel("rbf", gamma=1.0)
    config = SolverConfig(kernel=kernel, iterations=MAX_ITERATIONS, **FAMILIES[family])
    w = build_window(_datasets(m)[family], config)
    if race:
        w.session.set_race(race)
        w.state.set_race(True)
    w.resize(1400, 800)
    w.show()
    start = time.perf_counter()
    while (w.snapshot is None or (race and w.snapshot.race is None)) and (
        time.perf_counter() - start < 120
    ):
        wait(50)
    ready = time.perf_counter() - start
    # the steady state: once the exact optimum (computed beside the training) is in
    while w.snapshot.reference_pending and time.perf_counter() - start < 120:
        wait(50)
    optimum = time.perf_counter() - start
    counter = paint_counter()
    w.plot.viewport().installEventFilter(counter)
    ticks: list[float] = []
    probe = QtCore.QTimer()
    probe.setInterval(10)
    probe.timeout.connect(lambda: ticks.append(time.perf_counter()))
    w.state.set_speed(INSTANT)  # the engine's full speed (the window's default is the log-t pace)
    w.toggle_play()
    wait(500)  # past the first frames
    t_start, counter.count = w.snapshot.t, 0
    t0 = time.perf_counter()
    probe.start()
    wait(seconds * 1000)
    probe.stop()
    elapsed = time.perf_counter() - t0
    fps = counter.count / elapsed
    its = (w.snapshot.t - t_start) / elapsed
    late = (np.diff(ticks) - 0.010) * 1000 if len(ticks) > 2 else np.array([np.inf])
    # edits while training at full speed: clicks (new points), then λ changes
    rng = np.random.default_rng(0)
    clicks, params = [], []
    for k in range(edits):
        still_training(w)
        n = len(w.session.points) + 1
        x, y = rng.uniform(-1.5, 1.5, 2)
        clicks.append(
            _until_shown(
                w, lambda x=x, y=y: _click(w, x, y), lambda s, n=n: len(s.frame.margins) == n
            )
        )
        wait(100)
        still_training(w)
        lam = 0.01 * (1.5 if k % 2 == 0 else 1.0)
        config = w.session.config.replace(lam=lam)
        gen = w.controller.generation
        params.append(
            _until_shown(
                w,
                lambda config=config: w.session.set_config(config),
                lambda s, gen=gen: s.generation > gen,
            )
        )
        wait(100)
    w.controller.pause()
    w.files.saved = w.session.content()  # the clicks are not work to keep
    w.close()
    return dict(
        fps=fps,
        its=its,
        p99=float(np.percentile(late, 99)),
        ready=ready,
        optimum=optimum,
        click=1000 * float(np.median(clicks)),
        click_max=1000 * max(clicks),
        param=1000 * float(np.median(params)),
        param_max=1000 * max(params),
    )


def measure(quick: bool = False) -> list[dict]:
    config = quiet_config()
    qt_app()
    rows = []
    for kernel, m, fps_target, latency_target, family in CASES:
        r = measure_case(kernel, m, 1.5 if quick else 3.0, 3 if quick else 8, family=family)
        where = f"window, {kernel} m={m:,}" + ("" if family == "binary" else f", {family}")
        rows.append(
            row(
                f"{where}: frames painted while training",
                r["fps"],
                "frames/s",
                fps_target,
                f"{r['its']:,.0f} iterations/s meanwhile",
            )
        )
        rows.append(
            row(
                f"{where}: QTimer lateness p99",
                r["p99"],
                "ms",
                TARGET_LATENESS_MS,
                lower_is_better=True,
            )
        )
        rows.append(
            row(
                f"{where}: click to frame on screen, median",
                r["click"],
                "ms",
                latency_target,
                f"max {r['click_max']:.0f} ms",
                lower_is_better=True,
            )
        )
        rows.append(
            row(
                f"{where}: λ change to frame on screen, median",
                r["param"],
                "ms",
                latency_target,
                f"max {r['param_max']:.0f} ms; first frame "
                f"{1000 * r['ready']:,.0f} ms after the window opened, exact optimum "
                f"{1000 * r['optimum']:,.0f} ms",
                lower_is_better=True,
            )
        )
    config.cleanup()
    return rows
