"""The screenshots of the kernel trick (issue 28), of the screen as it is shown: the 3-D
view needs OpenGL, so run this on an X display with it, e.g. Xvfb (with Mesa) and a window
manager that maximizes the window, at the screen's size:

    Xvfb :99 -screen 0 1366x768x24 & DISPLAY=:99 openbox &
    DISPLAY=:99 python assets/screenshots/kernel_shots.py --size 1366x768 --out assets/screenshots

It saves NAME-WxH.png, each also in presentation mode (NAME-presentation-WxH.png):
kernel-trick-lift (the circles scenario with the polynomial kernel of degree 2: the points
lifted to φ(x), a flat plane between them), kernel-trick-surface (the same scenario as
shipped, RBF: f as a surface) and surface-moons-rbf (moons, RBF, during training, a step's
sampled point marked), and kernel-matrix-moons (the kernel matrix beside the plane).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--out", default=str(Path(__file__).parent))
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    os.environ["SVMVIZ_CONFIG_DIR"] = tempfile.mkdtemp()

    from PySide6 import QtCore, QtWidgets

    from svmviz.ui.views.gl_probe import gl_unavailable, share_contexts

    share_contexts()
    app = QtWidgets.QApplication(sys.argv[:1])
    if gl_unavailable():
        print(gl_unavailable(), file=sys.stderr)
        return 1
    from svmviz.core.config import SolverConfig
    from svmviz.core.data import Dataset
    from svmviz.core.files.scenario import list_scenarios
    from svmviz.core.generate import generate
    from svmviz.core.kernels import Kernel
    from svmviz.ui.views.surface_view import LIFT, SURFACE
    from svmviz.ui.window.launch import build_window, demo_data

    def wait(ms: int) -> None:
        loop = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def until(w, test, timeout=60.0) -> None:
        start = time.perf_counter()
        while not (w.snapshot is not None and test(w.snapshot)):
            wait(30)
            if time.perf_counter() - start > timeout:
                raise TimeoutError
        wait(600)  # the 3-D view's next drawing and the paint

    def shot(name: str) -> None:
        """The screen as shown (the window's grab() leaves out the 3-D view's labels)."""
        wait(300)
        screen = app.primaryScreen().grabWindow(0)
        screen.save(str(out / f"{name}-{width}x{height}.png"))

    def window(data, config):
        w = build_window(data, config)
        w.showMaximized()
        until(w, lambda s: True)
        return w

    def both(w, name: str) -> None:
        shot(name)
        w.set_presentation(True)
        wait(1000)
        shot(f"{name}-presentation")
        w.set_presentation(False)
        wait(1000)

    def close(w) -> None:
        w.controller.pause()
        w.files.saved = w.session.content()
        w.close()

    circles = next(p for p in list_scenarios() if p.stem.startswith("03"))
    w = window(demo_data(), SolverConfig(iterations=2000, seed=1))
    w.open_scenario(circles)  # (the 3-D view opens with it)
    w.run_to_budget()
    until(w, lambda s: s.status == "budget")
    w.surface.mode.setCurrentIndex(w.surface.mode.findData(SURFACE))
    both(w, "kernel-trick-surface")
    poly = Kernel("poly", gamma=1.0, degree=2, coef0=0.0)
    w.session.set_config(w.session.config.replace(kernel=poly))
    w.run_to_budget()
    until(w, lambda s: s.status == "budget" and s.model.kernel.name == "poly")
    w.surface.mode.setCurrentIndex(w.surface.mode.findData(LIFT))
    both(w, "kernel-trick-lift")
    close(w)

    X, y = generate("moons", n=200, noise=0.2, seed=3)
    moons = Dataset(X, y, ("class 1", "class 2"))
    w = window(moons, SolverConfig(iterations=20000, seed=1, kernel=Kernel("rbf", gamma=2.0)))
    w.state.set_view("surface", True)
    w.advance(400)
    until(w, lambda s: s.t >= 400)
    w.advance(1)
    until(w, lambda s: s.step is not None)
    both(w, "surface-moons-rbf")
    w.state.set_view("surface", False)
    w.state.set_view("kernel_matrix", True)
    wait(800)
    shot("kernel-matrix-moons")
    close(w)
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
