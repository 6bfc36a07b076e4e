"""Regenerate the screenshots in this folder: python assets/screenshots/make_screenshots.py

Each scene trains to its budget in the real window, then the window is grabbed.
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtCore, QtWidgets  # noqa: E402

from svmviz.core.config import SolverConfig  # noqa: E402
from svmviz.core.data import Dataset  # noqa: E402
from svmviz.core.generate import generate  # noqa: E402
from svmviz.core.kernels import Kernel  # noqa: E402
from svmviz.ui.app import build_window  # noqa: E402

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


def main(names):
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])  # noqa: F841 (kept)
    for name in names or SCENES:
        dataset, config = SCENES[name]
        w = build_window(dataset, config, play=True)
        w.resize(1500, 820)
        w.show()
        loop = QtCore.QEventLoop()
        timer = QtCore.QTimer()
        timer.timeout.connect(
            lambda w=w, loop=loop: (
                loop.quit()
                if w.snapshot is not None and w.snapshot.status not in ("ready", "running")
                else None
            )
        )
        timer.start(100)
        QtCore.QTimer.singleShot(120000, loop.quit)
        loop.exec()
        timer.stop()
        settle = QtCore.QEventLoop()  # let the view-following frame arrive (50 ms debounce)
        QtCore.QTimer.singleShot(500, settle.quit)
        settle.exec()
        w.grab().save(str(HERE / f"{name}.png"))
        print(name, w.status.text())
        w.close()


if __name__ == "__main__":
    main(sys.argv[1:])
