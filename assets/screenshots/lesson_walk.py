"""Walk a lesson in the real window and grab every state: start, Play, a step, each reading
tab raised, each scenario opened and stepped, presentation mode (F11) stepped, played to its
end at the log-t pace and left.

    python assets/screenshots/lesson_walk.py --size 1366x768 --out /tmp/lesson
    python assets/screenshots/lesson_walk.py --size 1920x1080 --json   # the plane's shares

Without a display (or with QT_QPA_PLATFORM=offscreen) it runs on Qt's offscreen platform
with a screen of the given size; under an X server (e.g. Xvfb + openbox at that size) it
grabs the whole screen, window manager included. The plane's share of the window (its view
box's area over the window's) is printed for each state; tests/ui/test_lesson_layout.py
runs this script and fails under 35% (50% in presentation mode). With --json it also prints
each state's layout (the docks' and the objective plot's geometry, the curves' split, the
plane's range, the tabs' widths): the tests compare them between states.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from svmviz.ui.headless import offscreen_platform


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
    from svmviz.core.pace import LOG_PACE
    from svmviz.core.scenario import list_scenarios
    from svmviz.ui.app import build_window, demo_data
    from svmviz.ui.layout import plane_share

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
        tab_bars = [b for b in w.findChildren(QtWidgets.QTabBar) if b.isVisible() and b.count()]
        return {
            "docks": {d.objectName(): box(d) for d in w.findChildren(QtWidgets.QDockWidget)},
            "objective": box(w.curves.objective_plot),
            "curves": w.curves.sizes(),
            "range": [round(v, 3) for v in w.plot.view_extent()],
            "tabs": [
                [sum(b.tabRect(i).width() for i in range(b.count())), b.width()] for b in tab_bars
            ],
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
    for dock in (w.points_dock, w.margins_dock, w.theory_dock, w.generalization_dock, w.step_dock):
        dock.raise_()
        shot("tab-" + dock.objectName().removesuffix("-dock"))
    for path in list_scenarios()[: args.scenarios]:
        w.files.open_path(path)
        wait(lambda: w.snapshot is not None and w.snapshot.t == 0)
        shot("open-" + path.stem)
        for _ in range(3):
            t = w.snapshot.t if w.snapshot is not None else 0
            w.advance(1)
            wait(lambda t=t: stepped(t + 1))
        shot("step-" + path.stem)
    w.reset()
    wait(lambda: w.snapshot is not None and w.snapshot.t == 0)
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
