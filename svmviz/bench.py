"""`svmviz bench`: the engine's speed figures, each beside its target and anchor.

Every figure is measured in this run, on this machine; comparisons are made in the same run.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

TARGET_LINEAR = 500_000  # linear Pegasos updates/s with full telemetry, m = 1000
TARGET_KERNEL = 100_000  # kernel SGD updates/s with full telemetry, m = 1000
TARGET_GUI_FPS = 50  # GUI repaints per second while training at full speed
TARGET_LATENESS_MS = 50  # QTimer lateness at the 99th percentile while training


def _data(m: int, seed: int = 0):
    from svmviz.core.data import Dataset

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 2))
    y = (X[:, 0] + 0.5 * X[:, 1] + 0.4 * rng.normal(size=m) > 0).astype(int)
    return Dataset.from_labels(X, y)


def _rate(config, data, n: int, repeats: int) -> float:
    """Best-of-``repeats`` updates/s of ``n`` iterations (after one warm-up call)."""
    from svmviz.core.solvers import Solver

    Solver(config.replace(iterations=10)).reset(data).step(10)  # compile / warm caches
    best = 0.0
    for _ in range(repeats):
        s = Solver(config.replace(iterations=n)).reset(data)
        start = time.perf_counter()
        s.step(n)
        best = max(best, n / (time.perf_counter() - start))
    return best


def _sklearn_rate(data, epochs: int, repeats: int) -> float:
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import SGDClassifier

    m = data.X.shape[0]
    best = 0.0
    for _ in range(repeats):
        clf = SGDClassifier(
            loss="hinge", alpha=0.01, learning_rate="optimal", max_iter=epochs, tol=None,
            shuffle=True, random_state=0, average=False,
        )  # fmt: skip
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(data.X, data.y)
        best = max(best, epochs * m / (time.perf_counter() - start))
    return best


def measure(quick: bool = False) -> list[dict]:
    from svmviz.core.config import SolverConfig
    from svmviz.core.kernels import Kernel
    from svmviz.core.solvers._jit import HAVE_NUMBA

    m = 1000
    data = _data(m)
    n = 50_000 if quick else 200_000
    reps = 2 if quick else 3
    rows = []
    base = SolverConfig(algorithm="pegasos", lam=0.01)
    lin = _rate(base, data, n, reps)
    skl = _sklearn_rate(data, epochs=max(1, n // m), repeats=reps)
    rows.append(
        dict(name="linear Pegasos, m=1000, full telemetry", value=lin, unit="updates/s",
             target=TARGET_LINEAR, anchor=f"sklearn SGDClassifier {skl:,.0f} updates/s "
             f"(no telemetry), ratio {lin / skl:.2f}", ok=lin >= TARGET_LINEAR)
    )  # fmt: skip
    for bias in ("none", "regularized"):
        r = _rate(base.replace(bias=bias), data, n, reps)
        rows.append(dict(name=f"linear Pegasos, bias {bias}", value=r, unit="updates/s",
                         target=TARGET_LINEAR, anchor="", ok=r >= TARGET_LINEAR))  # fmt: skip
    kern = _rate(base.replace(kernel=Kernel("rbf", gamma=1.0)), data, n // 2, reps)
    rows.append(
        dict(name="kernel (rbf) SGD, m=1000, full telemetry", value=kern, unit="updates/s",
             target=TARGET_KERNEL, anchor="", ok=kern >= TARGET_KERNEL)
    )  # fmt: skip
    data3 = _data(m, seed=1)
    y3 = np.where(data3.X[:, 1] > 0.6, 2, data3.y)
    from svmviz.core.data import Dataset

    data3 = Dataset.from_labels(data3.X, y3)
    mc = _rate(base, data3, n // 2, reps)
    rows.append(dict(name="linear multiclass (K=3) Pegasos, m=1000", value=mc,
                     unit="updates/s", target=None, anchor="", ok=True))  # fmt: skip
    gd = _rate(base.replace(algorithm="gd"), data, 2000, reps)
    rows.append(dict(name="linear full-batch GD, m=1000", value=gd, unit="iterations/s",
                     target=None, anchor="", ok=True))  # fmt: skip
    for r in rows:
        r["numba"] = HAVE_NUMBA
    return rows


def measure_gui(seconds: float = 3.0) -> list[dict]:
    """The window while its worker trains at full speed (m = 1000): how many times per second
    the decision plot is actually painted (each snapshot drawn is one paint), and how late a
    10 ms QTimer in the GUI thread fires (p99)."""
    import os
    import tempfile

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # the measuring windows keep their preferences and autosave apart from the user's
    config = tempfile.TemporaryDirectory(prefix="svmviz-bench-")
    os.environ["SVMVIZ_CONFIG_DIR"] = config.name
    from PySide6 import QtCore, QtWidgets

    from svmviz.core.config import SolverConfig
    from svmviz.core.kernels import Kernel
    from svmviz.ui.app import build_window

    QtWidgets.QApplication.instance() or QtWidgets.QApplication([])

    def quiet(mode, context, message):  # the offscreen plugin's notice on every show()
        if "propagateSizeHints" not in message:
            print(message, file=sys.stderr)

    QtCore.qInstallMessageHandler(quiet)
    rows = []

    def wait(ms):
        loop = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(int(ms), loop.quit)
        loop.exec()

    class PaintCounter(QtCore.QObject):
        def __init__(self):
            super().__init__()
            self.count = 0

        def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
            if event.type() == QtCore.QEvent.Type.Paint:
                self.count += 1
            return False

    for name, kernel in (("linear", Kernel()), ("rbf", Kernel("rbf", gamma=1.0))):
        w = build_window(_data(1000), SolverConfig(kernel=kernel, iterations=10_000_000))
        w.resize(1400, 800)
        w.show()
        while w.snapshot is None:
            wait(50)
        counter = PaintCounter()
        w.plot.viewport().installEventFilter(counter)
        ticks: list[float] = []
        probe = QtCore.QTimer()
        probe.setInterval(10)
        probe.timeout.connect(lambda ticks=ticks: ticks.append(time.perf_counter()))
        w.toggle_play()
        wait(500)  # past the first frames
        t_start = w.snapshot.t
        counter.count = 0
        t0 = time.perf_counter()
        probe.start()
        wait(seconds * 1000)
        probe.stop()
        elapsed = time.perf_counter() - t0
        fps = counter.count / elapsed
        its = (w.snapshot.t - t_start) / elapsed
        w.controller.pause()
        late = (np.diff(ticks) - 0.010) * 1000 if len(ticks) > 2 else np.array([np.inf])
        p99 = float(np.percentile(late, 99))
        rows.append(
            dict(
                name=f"window, {name} m=1000: frames painted while training",
                value=fps,
                unit="frames/s",
                target=TARGET_GUI_FPS,
                anchor=f"{its:,.0f} iterations/s meanwhile",
                ok=fps >= TARGET_GUI_FPS,
            )
        )
        rows.append(dict(name=f"window, {name} m=1000: QTimer lateness p99", value=p99,
                         unit="ms", target=TARGET_LATENESS_MS, anchor="",
                         ok=p99 <= TARGET_LATENESS_MS, lower_is_better=True))  # fmt: skip
        w.close()
    config.cleanup()
    return rows


def main(args) -> int:
    rows = measure(quick=getattr(args, "quick", False))
    rows += measure_gui(1.5 if getattr(args, "quick", False) else 3.0)
    if getattr(args, "json", False):
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        sign = "≤" if r.get("lower_is_better") else "≥"
        target = f"target {sign} {r['target']:,}" if r["target"] else "no target"
        flag = "" if r["target"] is None else ("  ok" if r["ok"] else "  BELOW TARGET")
        anchor = f"  [{r['anchor']}]" if r["anchor"] else ""
        value = f"{r['value']:>12,.1f}" if r["value"] < 100 else f"{r['value']:>12,.0f}"
        print(f"{r['name']:52s} {value} {r['unit']:12s} {target}{flag}{anchor}")
    return 0
