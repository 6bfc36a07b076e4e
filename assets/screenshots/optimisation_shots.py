"""The screenshots of the optimisation itself (issue 27), at a screen of the given size: the
weight-space view during a step (linear binary) and for a multiclass job (class 3's row),
the boundary moved by hand (its w marked in weight space), and a race of four runs (their
paths in weight space too), each also in presentation mode but the step: NAME-WxH.png, and
with --views the weight-space view alone, NAME-view-WxH.png.

    python assets/screenshots/optimisation_shots.py --size 1920x1080 --out assets/screenshots
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from svmviz.ui.notebook.headless import offscreen_platform


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--out", default=str(Path(__file__).parent))
    parser.add_argument("--views", action="store_true", help="also the view alone")
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
    from svmviz.ui.window.launch import build_window, demo_data

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
        if args.views:
            w.weight_space.grab().save(str(out / f"{name}-view-{tag}.png"))

    def window(data, config):
        w = build_window(data, config)
        w.show()
        until(w, lambda s: True)
        w.state.set_view("weight_space", True)
        wait(300)
        return w

    def close(w) -> None:
        w.controller.pause()
        w.files.saved = w.session.content()
        w.close()

    # the weight-space view: a linear binary job (the hinge) during a step, its shrink and
    # push arrows in weight space as in the plane
    w = window(demo_data(), SolverConfig(iterations=2000, seed=1))
    w.advance(3)
    until(w, lambda s: s.t == 3)
    w.advance(1)
    until(w, lambda s: s.t == 4 and s.step is not None)
    shot(w, "weight-space-step")
    # the boundary moved by hand: its w marked in weight space, the slack segments on
    w.run_to_budget()
    until(w, lambda s: s.t >= 2000)
    w.state.set_slack(True)
    w.controls.hand.trigger()
    until(w, lambda s: s.status == "hand")
    h0, h1 = w.hand.handles.h0, w.hand.handles.h1
    w.hand._on_drag(1, (h0[0] + 1.3 * (h1[0] - h0[0]) + 0.25, h1[1] + 0.35), True)
    until(w, lambda s: s.status == "hand")
    shot(w, "hand-moved-boundary")
    w.set_presentation(True)
    wait(800)
    shot(w, "hand-moved-boundary-presentation")
    w.set_presentation(False)
    wait(800)
    w.controls.hand.trigger()
    close(w)

    # a race of four runs, their boundaries in the plane, their curves against the common
    # optimum and their paths in weight space
    w = window(demo_data(), SolverConfig(iterations=20000, seed=1))
    w.session.set_race(
        [{"algorithm": "sgd", "schedule": "inv_sqrt_t", "eta": 10.0}, {"lam": 0.1},
         {"average": "last"}]
    )  # fmt: skip
    w.state.set_race(True)
    w.state.set_suboptimality(True)
    until(w, lambda s: s.race is not None)
    w.advance(300)
    until(w, lambda s: s.t == 300 and s.race is not None)
    w.frames.redraw_readings()
    shot(w, "race-four-runs")
    w.set_presentation(True)
    wait(800)
    w.frames.redraw_readings()
    wait(300)
    shot(w, "race-four-runs-presentation")
    w.set_presentation(False)
    wait(800)
    close(w)

    # a multiclass job: class 3's row varies, the others held
    rng = np.random.default_rng(2)
    centres = np.array([[-2.0, -1.0], [2.0, -1.0], [0.0, 2.0]])
    X = np.vstack([c + 0.7 * rng.normal(size=(40, 2)) for c in centres])
    y = np.repeat(np.arange(3), 40)
    w = window(
        Dataset(X, y, ("class 1", "class 2", "class 3")), SolverConfig(iterations=3000, seed=1)
    )
    w.state.set_weight_class(2)
    w.toggle_play()
    until(w, lambda s: s.t >= 400)
    w.toggle_play()
    until(w, lambda s: not w.playing)
    shot(w, "weight-space-multiclass")
    w.set_presentation(True)
    wait(800)
    shot(w, "weight-space-multiclass-presentation")
    w.set_presentation(False)
    wait(800)
    close(w)
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
