"""Regenerate the screenshots in this folder: python assets/screenshots/make_screenshots.py

Each scene trains to its budget in the real window, then the window is grabbed.
"""

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtCore, QtWidgets

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.files.scenario import list_scenarios
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import Split
from svmviz.ui.window.launch import build_window

HERE = Path(__file__).parent


def data(kind, **kw):
    X, y = generate(kind, **kw)
    return Dataset(X, y, tuple(f"class {k + 1}" for k in range(int(y.max()) + 1)))


SCENES = {
    "pegasos-linear-2-classes": (data("blobs", n=80, noise=0.3, seed=1), SolverConfig()),
    "sgd-rbf-moons": (
        data("moons", n=120, noise=0.2, seed=2),
        SolverConfig(algorithm="sgd", kernel=Kernel("rbf", gamma=1.0)),
    ),
    "gd-hard-margin": (
        data("separable", n=60, noise=0.1, margin=0.6, seed=3),
        SolverConfig(algorithm="gd", margin="hard", iterations=5000),
    ),
    "poly-xor": (
        data("xor", n=120, noise=0.1, seed=4),
        SolverConfig(kernel=Kernel("poly", gamma=0.5, degree=2, coef0=0.0)),
    ),
    "multiclass-3-classes": (data("blobs", n=120, classes=3, seed=5), SolverConfig()),
    "multiclass-8-classes": (
        data("blobs", n=160, classes=8, noise=0.0, seed=6),
        SolverConfig(kernel=Kernel("rbf", gamma=0.8), iterations=30000),
    ),
}


def wait_until(done, timeout_ms=120000):
    loop = QtCore.QEventLoop()
    timer = QtCore.QTimer()
    timer.timeout.connect(lambda: loop.quit() if done() else None)
    timer.start(50)
    QtCore.QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    timer.stop()


def settle(ms=500):  # let the view-following frame arrive (50 ms debounce)
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(ms, loop.quit)
    loop.exec()


def finished(w):
    """Trained to the end, and the exact optimum is in (it is computed beside the training,
    at a lower priority)."""
    snap = w.snapshot
    return (
        snap is not None
        and snap.status not in ("ready", "running")
        and (not snap.reference_pending)
    )


def inspector(w):
    """Stop after 40 steps and explain one more (a violating one if it comes soon)."""
    w.advance(40)
    wait_until(lambda: w.snapshot is not None and w.snapshot.t == 40)
    for _ in range(20):
        t = w.snapshot.t
        w.advance(1)
        wait_until(lambda t=t: w.snapshot.t == t + 1)
        if w.snapshot.step.violated.any():
            break


def point_table(w):
    w.run_to_budget()
    wait_until(lambda: finished(w))
    w.docks["points"].raise_()
    w.controls.slack.setChecked(True)
    settle()
    w.point_table.sortByColumn(5, QtCore.Qt.SortOrder.AscendingOrder)
    w.point_table.selectRow(0)


def generalization(w):
    """A 30% test split, trained to the end, with its learning curve and γ sweep."""
    w.session.set_split(Split(0.3, 1))
    w.docks["generalization"].raise_()
    w.run_to_budget()
    wait_until(lambda: finished(w) and w.snapshot.test_error is not None)
    panel = w.generalization
    panel.compute_learning_curve()
    wait_until(lambda: not panel.runner.running)
    panel.param.setCurrentIndex(panel.param.findData("gamma"))
    panel.compute_sweep()
    wait_until(lambda: not panel.runner.running)


def scenario(stem):
    def run(w):
        path = next(p for p in list_scenarios() if p.stem.endswith(stem))
        w.open_scenario(path)
        w.run_to_budget()  # (at the instant speed)
        wait_until(lambda: finished(w) and w.snapshot.t > 0)

    return run


# the teaching views (issue 4): a window set up by a function instead of played to the end
VIEWS = {
    "step-inspector": (data("blobs", n=60, noise=0.5, seed=1), SolverConfig(), inspector),
    "point-table": (data("blobs", n=60, noise=0.7, seed=1), SolverConfig(), point_table),
    "scenario-kernel-trick-circles": (
        data("blobs", n=20, seed=1),
        SolverConfig(),
        scenario("kernel-trick-circles"),
    ),
    "scenario-outlier-hard-margin": (
        data("blobs", n=20, seed=1),
        SolverConfig(),
        scenario("outlier-hard-margin"),
    ),
    "generalization": (
        data("moons", n=200, noise=0.3, seed=2),
        SolverConfig(kernel=Kernel("rbf", gamma=1.0), iterations=20000),
        generalization,
    ),
}


def main(names):
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])  # noqa: F841 (kept)
    for name in names or [*SCENES, *VIEWS]:
        if name in SCENES:
            dataset, config = SCENES[name]
            setup = None
        else:
            dataset, config, setup = VIEWS[name]
        # the default preferences for every picture (none of the user's, nor the last one's)
        os.environ["SVMVIZ_CONFIG_DIR"] = tempfile.mkdtemp(prefix="svmviz-screenshots-")
        w = build_window(dataset, config, play=setup is None)
        w.setWindowState(QtCore.Qt.WindowState.WindowNoState)  # (it opens maximized)
        w.resize(1500, 900 if setup else 820)
        w.show()
        if setup is None:
            for dock in (
                w.step_dock,
                w.docks["points"],
                w.docks["margins"],
                w.docks["theory"],
                w.docks["generalization"],
            ):
                dock.hide()  # the training pictures: the plane and the curves
            wait_until(lambda w=w: finished(w))
        else:
            wait_until(lambda w=w: w.snapshot is not None)
            setup(w)
        settle()
        w.grab().save(str(HERE / f"{name}.png"))
        print(name, w.status.text())
        w.files.saved = w.session.content()  # a picture's set-up is not work to keep
        w.close()


if __name__ == "__main__":
    main(sys.argv[1:])
