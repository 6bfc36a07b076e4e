"""Screenshots of the weight-space view (issue 27): a linear binary job with the hinge
mid-run and at its end, a step's arrows (with b sliced and profiled), Pegasos projecting
onto its ball, a multiclass job (class 3's row varying), and
presentation mode, at a screen of the given size.

    python assets/screenshots/weight_space_shots.py --size 1920x1080 --out /tmp/shots-ws
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from svmviz.ui.headless import offscreen_platform


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--out", default="/tmp/shots-ws")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ["QT_QPA_PLATFORM"] = offscreen_platform(width, height)
    os.environ["SVMVIZ_CONFIG_DIR"] = tempfile.mkdtemp()

    import numpy as np
    from PySide6 import QtCore, QtWidgets

    app = QtWidgets.QApplication(sys.argv[:1])
    from svmviz.core.config import SolverConfig
    from svmviz.core.data import Dataset
    from svmviz.ui.app import build_window, demo_data

    def wait(ms: int) -> None:
        loop = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def until(w, test, timeout=60.0) -> None:
        import time

        start = time.perf_counter()
        while not (w.snapshot is not None and test(w.snapshot)):
            wait(30)
            if time.perf_counter() - start > timeout:
                raise TimeoutError
        wait(600)  # the landscape (its own thread) and the paint

    def shot(w, name: str) -> None:
        tag = f"{width}x{height}"
        w.grab().save(str(out / f"{name}-{tag}.png"))
        w.weight_space.grab().save(str(out / f"{name}-view-{tag}.png"))

    def window(data, config):
        w = build_window(data, config)
        w.show()
        until(w, lambda s: True)
        w.state.set_weight_space(True)
        wait(300)
        return w

    def close(w) -> None:
        w.controller.pause()
        w.files.saved = w.session.content()
        w.close()

    # a linear binary job, the hinge: mid-run (played at the log-t pace), then at its end
    w = window(demo_data(), SolverConfig(iterations=2000, seed=1))
    w.toggle_play()
    until(w, lambda s: s.t >= 150)
    w.toggle_play()
    until(w, lambda s: not w.playing)
    shot(w, "binary-mid-run")
    w.run_to_budget()
    until(w, lambda s: s.t >= 2000)
    shot(w, "binary-end")
    # one step early in a run: the shrink and push arrows
    gen = w.snapshot.generation
    w.reset()
    until(w, lambda s: s.generation > gen and s.t == 0)
    w.advance(3)
    until(w, lambda s: s.t == 3)
    w.advance(1)
    until(w, lambda s: s.t == 4 and s.step is not None)
    shot(w, "binary-step")
    # b profiled out (the best b at each w)
    w.weight_space.hold_box.setCurrentIndex(2)
    wait(1500)
    shot(w, "binary-step-profiled")
    w.weight_space.hold_box.setCurrentIndex(0)
    wait(800)
    # presentation mode, the weight space below the curve
    w.set_presentation(True)
    wait(800)
    until(w, lambda s: True)
    shot(w, "presentation")
    w.set_presentation(False)
    wait(800)
    close(w)

    # Pegasos projecting onto the ball ‖w‖ ≤ 1/√λ, mid-run
    w = window(demo_data(), SolverConfig(iterations=2000, seed=1, project=True))
    w.toggle_play()
    until(w, lambda s: s.t >= 60)
    w.toggle_play()
    until(w, lambda s: not w.playing)
    shot(w, "binary-projected")
    close(w)

    # a multiclass job: class 3's row varies
    rng = np.random.default_rng(2)
    centres = np.array([[-2.0, -1.0], [2.0, -1.0], [0.0, 2.0]])
    X = np.vstack([c + 0.7 * rng.normal(size=(40, 2)) for c in centres])
    y = np.repeat(np.arange(3), 40)
    w = window(Dataset.from_labels(X, y), SolverConfig(iterations=3000, seed=1))
    w.state.set_weight_class(2)
    w.toggle_play()
    until(w, lambda s: s.t >= 400)
    w.toggle_play()
    until(w, lambda s: not w.playing)
    shot(w, "multiclass-class3")
    close(w)
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
