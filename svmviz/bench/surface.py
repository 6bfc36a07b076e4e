"""The 3-D view's cost: the window's frame rate while training an RBF job at m = 1,000 at
full speed, with the view on and off (it follows every frame, drawn at most every
DRAW_SECONDS), and the time of one of its drawings in the GUI thread (the surface of f
over its grid, the points' heights and the items' data).

It needs OpenGL: on a platform without (Qt's offscreen, where the other rows run) the
rows are measured in a child process under Xvfb with Mesa (``xvfb-run``), off and on in
that same process; without either, the rows say why they were not measured."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

from svmviz.bench.report import row
from svmviz.bench.window import (
    TARGET_FPS,
    paint_counter,
    qt_app,
    quiet_config,
    steady_window,
    wait,
)

M = 1000
DRAW_MS = 20  # one drawing, in the GUI thread (at most 20 a second while playing)


def frame_rate(on: bool, seconds: float) -> tuple[float, float, float]:
    """(frames of the plane painted per second, of the 3-D view, the mean ms of one of
    its drawings) while playing at full speed with the view ``on`` or off."""
    from svmviz.bench.engine import _data
    from svmviz.core.config import SolverConfig
    from svmviz.core.kernels import Kernel
    from svmviz.core.training.pace import INSTANT

    config = SolverConfig(iterations=10_000_000, kernel=Kernel("rbf", gamma=1.0))
    w = steady_window(_data(M), config)
    w.state.set_view("surface", on)
    wait(500)
    view = w.surface
    draws = []
    if view.items is not None:
        draw = view._draw

        def timed(*args):
            t0 = time.perf_counter()
            draw(*args)
            draws.append(time.perf_counter() - t0)

        view._draw = timed
    plane = paint_counter()
    w.plot.viewport().installEventFilter(plane)
    w.state.set_speed(INSTANT)
    w.toggle_play()
    wait(500)
    plane.count = 0
    painted = view.gl.paints if view.gl is not None else 0
    draws.clear()
    t0 = time.perf_counter()
    wait(seconds * 1000)
    elapsed = time.perf_counter() - t0
    painted = (view.gl.paints if view.gl is not None else 0) - painted
    w.controller.pause()
    w.files.saved = w.session.content()
    w.close()
    mean_ms = 1000 * sum(draws) / len(draws) if draws else float("nan")
    return plane.count / elapsed, painted / elapsed, mean_ms


def rows_here(quick: bool) -> list[dict]:
    """The rows, measured in this process (it has OpenGL)."""
    from svmviz.ui.views.surface_view import GRID

    seconds = 1.5 if quick else 3.0
    off, _, _ = frame_rate(False, seconds)
    on, view, draw_ms = frame_rate(True, seconds)
    where = f"window, rbf m={M:,} (Xvfb, Mesa)"
    return [
        row(f"{where}: frames painted, 3-D view off", off, "frames/s", TARGET_FPS),
        row(
            f"{where}: frames painted, 3-D view on",
            on,
            "frames/s",
            TARGET_FPS,
            f"the 3-D view painted {view:.0f}/s",
        ),
        row(
            f"3-D view: one drawing (surface {GRID}², m={M:,}, rbf)",
            draw_ms,
            "ms",
            DRAW_MS,
            "in the GUI thread, while playing",
            lower_is_better=True,
        ),
    ]


def measure(quick: bool = False) -> list[dict]:
    from svmviz.ui.views.gl_probe import gl_unavailable

    config = quiet_config()
    qt_app()
    try:
        reason = gl_unavailable()
        if reason is None:
            return rows_here(quick)
        if shutil.which("xvfb-run") is None:
            return [_unmeasured(f"{reason} (and no xvfb-run)")]
        command = [
            "xvfb-run", "-a", "-s", "-screen 0 1920x1080x24",
            sys.executable, "-m", "svmviz.bench.surface", *(["--quick"] if quick else []),
        ]  # fmt: skip
        env = {**os.environ, "QT_QPA_PLATFORM": "xcb"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            return [_unmeasured(f"the child under Xvfb failed: {done.stderr[-300:]}")]
        return json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        config.cleanup()


def _unmeasured(why: str) -> dict:
    r = row(f"window, rbf m={M:,}: frames painted, 3-D view on", 0.0, "frames/s", TARGET_FPS)
    return {**r, "anchor": f"not measured: {why}"}


if __name__ == "__main__":  # the child process of measure(), under Xvfb
    quiet = quiet_config()
    qt_app()
    print(json.dumps(rows_here("--quick" in sys.argv)))
    quiet.cleanup()
