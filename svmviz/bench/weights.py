"""The weight-space view's cost: the window's frame rate while training a linear job at
m = 1,000 at full speed, with the view on and off (its path and markers follow every
frame; its landscape is recomputed on its own thread only when the held part moves), and
the time to compute one landscape F(w) at the view's default grid."""

from __future__ import annotations

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
LANDSCAPE_MS = 250  # one landscape, off the GUI thread: a few a second at most are asked


def frame_rate(on: bool, seconds: float) -> tuple[float, float, int]:
    """(frames of the plane painted per second, of the weight space, landscapes
    computed meanwhile) while playing at full speed with the view ``on`` or off."""
    from svmviz.bench.engine import _data
    from svmviz.core.config import SolverConfig
    from svmviz.core.training.pace import INSTANT

    w = steady_window(_data(M), SolverConfig(iterations=10_000_000))
    w.state.set_view("weight_space", on)
    wait(300)
    plane, view = paint_counter(), paint_counter()
    w.plot.viewport().installEventFilter(plane)
    w.weight_space.plot.viewport().installEventFilter(view)
    w.state.set_speed(INSTANT)
    w.toggle_play()
    wait(500)
    plane.count = view.count = 0
    computed = w.weight_space.runner.cache.computed
    t0 = time.perf_counter()
    wait(seconds * 1000)
    elapsed = time.perf_counter() - t0
    computed = w.weight_space.runner.cache.computed - computed
    w.controller.pause()
    w.files.saved = w.session.content()
    w.close()
    return plane.count / elapsed, view.count / elapsed, computed


def landscape_ms(repeats: int) -> float:
    """Best-of-``repeats`` milliseconds of one landscape at the default grid, m = M."""
    from svmviz.bench.engine import _data
    from svmviz.core.config import SolverConfig
    from svmviz.core.pictures.landscape import DEFAULT_GRID, grid_around, landscape
    from svmviz.core.solvers import Solver

    data = _data(M)
    solver = Solver(SolverConfig(iterations=2000)).reset(data)
    solver.step(2000)
    model = solver.model()
    w1, w2 = grid_around(model, 0, n=DEFAULT_GRID)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        landscape(model, data, w1, w2)
        best = min(best, time.perf_counter() - t0)
    return 1000 * best


def measure(quick: bool = False) -> list[dict]:
    from svmviz.core.pictures.landscape import DEFAULT_GRID

    config = quiet_config()
    qt_app()
    seconds = 1.5 if quick else 3.0
    off, _, _ = frame_rate(False, seconds)
    on, view, computed = frame_rate(True, seconds)
    config.cleanup()
    where = f"window, linear m={M:,}"
    return [
        row(f"{where}: frames painted, weight space off", off, "frames/s", TARGET_FPS),
        row(
            f"{where}: frames painted, weight space on",
            on,
            "frames/s",
            TARGET_FPS,
            f"the view painted {view:.0f}/s; {computed} landscapes computed in {seconds:g} s",
        ),
        row(
            f"weight space: landscape F(w), {DEFAULT_GRID}×{DEFAULT_GRID} grid, m={M:,}",
            landscape_ms(2 if quick else 5),
            "ms",
            LANDSCAPE_MS,
            "off the GUI thread",
            lower_is_better=True,
        ),
    ]
