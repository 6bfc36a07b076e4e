"""Walk a lesson in the real window and grab every state: start, Play, a step, each reading
tab raised, each problem that no scenario opens with opened, stepped and presented, each
scenario opened and stepped, presentation mode (F11) stepped, played to its end at the
log-t pace and left.

    python assets/screenshots/lesson_walk.py --size 1366x768 --out /tmp/lesson
    python assets/screenshots/lesson_walk.py --size 1920x1080 --json   # the plane's shares

Without a display (or with QT_QPA_PLATFORM=offscreen) it runs on Qt's offscreen platform
with a screen of the given size; under an X server (e.g. Xvfb + openbox at that size) it
grabs the whole screen, window manager included. The plane's share of the window (its view
box's area over the window's) is printed for each state; tests/ui/test_lesson_layout.py
runs this script and fails under 35% (50% in presentation mode). With --json it also prints
each state's layout (the docks' and the objective plot's geometry, the curves' split, the
plane's range, the tabs' widths, the loss or problem trained): the tests compare them
between states.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from svmviz.ui.notebook.headless import offscreen_platform


def problem_sessions(folder: Path) -> list[Path]:
    """A session file for each problem and loss that no scenario opens with (ν-SVC, each
    binary loss but the hinge, Weston–Watkins, one-vs-rest, softmax, ν-SVR, and ε-SVR on 2-D
    inputs with a target), written in ``folder``: the walk opens them as a teacher opens a
    saved lesson."""
    import numpy as np

    from svmviz.app.session import points_of
    from svmviz.core.config import BINARY_LOSSES, SolverConfig
    from svmviz.core.data import Dataset
    from svmviz.core.files.session_file import SessionFile, write_session
    from svmviz.core.generate import generate
    from svmviz.core.kernels import Kernel

    two = Dataset(*generate("blobs", n=80, noise=0.4, seed=2), ("class 1", "class 2"))
    X3, y3 = generate("blobs", n=90, noise=0.4, classes=3, seed=5)
    three = Dataset(X3, y3, ("class 1", "class 2", "class 3"))
    sine = generate("sine", n=60, noise=0.15, seed=3)[0]
    curve = Dataset.regression(sine[:, :1], sine[:, 1])
    X2 = np.random.default_rng(4).uniform(-2.5, 2.5, (80, 2))
    surface = Dataset.regression(X2, np.sin(X2[:, 0]) + 0.5 * X2[:, 1])
    rbf = Kernel("rbf")
    demos = [
        ("nu-svc", two, SolverConfig(problem="nu-svc", nu=0.3)),
        *(
            (loss.replace("_", "-"), two, SolverConfig(loss=loss))
            for loss in BINARY_LOSSES
            if loss != "hinge"  # (the scenarios' loss)
        ),
        ("weston-watkins", three, SolverConfig(multiclass="weston_watkins")),
        ("one-vs-rest", three, SolverConfig(multiclass="ovr")),
        ("softmax", three, SolverConfig(multiclass="softmax")),
        ("nu-svr", curve, SolverConfig(problem="nu-svr", nu=0.3, kernel=rbf)),
        ("epsilon-svr-2d", surface, SolverConfig(problem="epsilon-svr", kernel=rbf)),
    ]
    paths = []
    for name, data, config in demos:
        p = points_of(data)
        K = max(2, data.n_classes)
        session = SessionFile(p.X, p.y, p.names, p.colors, K, config=config, target=p.target)
        paths.append(folder / f"{name}.json")
        write_session(paths[-1], session)
    return paths


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1366x768", help="WxH of the screen")
    parser.add_argument("--out", help="save a PNG of each state in this folder")
    parser.add_argument("--json", action="store_true", help="print the shares as JSON")
    parser.add_argument("--scenarios", type=int, default=None, help="only the first N")
    parser.add_argument("--settle", type=float, default=0.6, help="seconds before a grab")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    offscreen = not os.environ.get("DISPLAY") or os.environ.get("QT_QPA_PLATFORM", "").startswith(
        "offscreen"
    )
    if offscreen:
        os.environ["QT_QPA_PLATFORM"] = offscreen_platform(width, height)
    os.environ["SVMVIZ_CONFIG_DIR"] = tempfile.mkdtemp()  # the default layout, no one's prefs

    from PySide6 import QtCore, QtWidgets

    app = QtWidgets.QApplication(sys.argv[:1])
    from svmviz.core.config import SolverConfig
    from svmviz.core.files.scenario import list_scenarios
    from svmviz.core.solvers.losses import module_for
    from svmviz.core.training.pace import LOG_PACE
    from svmviz.ui.window.launch import build_window, demo_data
    from svmviz.ui.window.layout import companion_share, plane_share

    def settle(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
            time.sleep(0.01)

    def wait(done, seconds: float = 60) -> None:
        end = time.perf_counter() + seconds
        while not done() and time.perf_counter() < end:
            settle(0.05)

    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    w = build_window(demo_data(), SolverConfig())
    w.show()  # (maximized: the default without remembered settings)
    wait(lambda: w.snapshot is not None)
    settle(1.0)
    shares, layouts = {}, {}

    def box(widget) -> list:
        if not widget.isVisible():
            return []
        rect = widget.rect()
        rect.moveTopLeft(widget.mapTo(w, rect.topLeft()))
        return list(rect.getRect())

    def layout_of() -> dict:
        data = w.session.dataset()
        trains = module_for(w.session.config, data.n_classes).NAME
        tab_bars = [b for b in w.findChildren(QtWidgets.QTabBar) if b.isVisible() and b.count()]
        return {
            "docks": {d.objectName(): box(d) for d in w.findChildren(QtWidgets.QDockWidget)},
            "objective": box(w.curves.objective_plot),
            "curves": w.curves.sizes(),
            "range": [round(v, 3) for v in w.plot.view_extent()],
            "tabs": [
                [sum(b.tabRect(i).width() for i in range(b.count())), b.width()] for b in tab_bars
            ],
            "trains": [trains, data.X.shape[1]],  # the loss or problem, on inputs of this many
            # the plane's legend: its rows below the plane (0: inside it, or none)
            "legend": round(w.plot.legend.height()) if w.plot.legend.placed else 0,
            # the companion's pane beside the plane: its share of the window (0: none)
            "companion": round(companion_share(w), 4),
        }

    def shot(name: str) -> None:
        settle(args.settle)
        shares[name] = round(plane_share(w), 4)
        layouts[name] = layout_of()
        if not args.json:
            print(f"{name:44s} {100 * shares[name]:5.1f}%   window {w.width()}×{w.height()}")
        if out is not None:
            picture = w.grab() if offscreen else w.screen().grabWindow(0)
            picture.save(str(out / f"{len(shares):02d}-{name}.png"))

    def stepped(t: int) -> bool:
        return w.snapshot is not None and w.snapshot.t >= t and w.snapshot.step is not None

    def presented(name: str) -> None:
        """The state as a lecturer shows it: F11, a grab, and back."""
        w.set_presentation(True)
        settle(0.5)
        shot("present-" + name)
        w.set_presentation(False)
        settle(0.5)

    def open_and_step(path: Path, name: str) -> None:
        w.files.open_path(path)
        wait(lambda: w.snapshot is not None and w.snapshot.t == 0)
        shot("open-" + name)
        for _ in range(3):
            t = w.snapshot.t if w.snapshot is not None else 0
            w.advance(1)
            wait(lambda t=t: stepped(t + 1))
        shot("step-" + name)
        presented("step-" + name)

    shot("start")
    w.toggle_play()
    settle(1.5)
    shot("playing")
    w.toggle_play()
    w.reset()
    wait(lambda: w.snapshot is not None and w.snapshot.t == 0)
    w.advance(1)
    wait(lambda: stepped(1))
    shot("step")
    for dock in (
        w.docks["points"],
        w.docks["margins"],
        w.docks["theory"],
        w.docks["generalization"],
        w.step_dock,
    ):
        dock.raise_()
        shot("tab-" + dock.objectName().removesuffix("-dock"))
    for path in problem_sessions(Path(tempfile.mkdtemp())):  # what no scenario opens with
        open_and_step(path, "problem-" + path.stem)
    for path in list_scenarios()[: args.scenarios]:
        open_and_step(path, path.stem)
    w.reset()
    wait(lambda: w.snapshot is not None and w.snapshot.t == 0)
    for name in w.specs:  # each view beside the plane, and presented so
        w.state.set_companion(name)
        shot("companion-" + name)
        presented("companion-" + name)
    w.state.set_companion(None)
    shot("before-present")
    w.set_presentation(True)
    settle(1.0)
    shot("present")
    w.advance(1)
    wait(lambda: w.snapshot is not None and w.snapshot.step is not None)
    shot("present-step")
    w.state.set_speed(LOG_PACE)  # (the scenario's speed may be instant)
    w.toggle_play()
    settle(1.5)
    shot("present-playing")
    wait(lambda: not w.playing, seconds=300)
    shot("present-end")
    w.set_presentation(False)
    settle(1.0)
    shot("after-present")
    if args.json:
        print(json.dumps({"size": [width, height], "shares": shares, "layouts": layouts}))
    w.close()
    app.processEvents()
    # no interpreter teardown: the solver's compiler or the exact optimum may still be at
    # work in threads of their own (a first run), and native code torn down under them
    # aborted the process after the walk was done
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
