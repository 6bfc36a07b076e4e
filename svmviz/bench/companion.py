"""The window with each registered view beside the plane (svmviz.ui.window.companion): how many
times per second the plane and the companion are painted while a linear job of m = 1,000
trains at full speed, the plane alone first, in the same run. The 3-D view needs OpenGL
(svmviz.bench.surface measures it under a display); offscreen it says why and is skipped."""

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


def frame_rates(name: str | None, seconds: float) -> tuple[float, float]:
    """(plane frames/s, companion frames/s) while playing at full speed with the view
    ``name`` beside the plane (None: the plane alone)."""
    from PySide6 import QtWidgets

    from svmviz.bench.engine import _data
    from svmviz.core.config import SolverConfig
    from svmviz.core.training.pace import INSTANT

    w = steady_window(_data(M), SolverConfig(iterations=10_000_000))
    w.resize(1920, 1080)
    w.state.set_companion(name)
    wait(300)
    plane, view = paint_counter(), paint_counter()
    w.plot.viewport().installEventFilter(plane)
    if name is not None:
        widget = w.made[name].widget
        for part in [widget, *widget.findChildren(QtWidgets.QWidget)]:
            part.installEventFilter(view)  # (a paint of any of it: a frame of the view)
    w.state.set_speed(INSTANT)
    w.toggle_play()
    wait(500)
    plane.count = view.count = 0
    t0 = time.perf_counter()
    wait(seconds * 1000)
    elapsed = time.perf_counter() - t0
    w.controller.pause()
    w.files.saved = w.session.content()
    w.close()
    return plane.count / elapsed, view.count / elapsed


def measure(quick: bool = False) -> list[dict]:
    from svmviz.ui.views import registry
    from svmviz.ui.views.gl_probe import gl_unavailable
    from svmviz.ui.window import builtin_views

    assert builtin_views  # (the views registered)
    config = quiet_config()
    qt_app()
    seconds = 1.5 if quick else 3.0
    rows = []
    alone, _ = frame_rates(None, seconds)
    rows.append(
        row(f"window, linear m={M:,}, the plane alone: frames", alone, "frames/s", TARGET_FPS)
    )
    for spec in registry.REGISTRY:
        if spec.name == "surface" and gl_unavailable():
            continue
        plane, beside = frame_rates(spec.name, seconds)
        rows.append(
            row(
                f"window, linear m={M:,}, {spec.title} beside the plane: plane frames",
                plane,
                "frames/s",
                TARGET_FPS,
                f"the plane alone {alone:.0f} in the same run; the view's paints {beside:.0f}/s",
            )
        )
    config.cleanup()
    return rows
