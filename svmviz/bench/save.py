"""Saving a large session from the window (Ctrl+S): the window's longest stall, the longest
time its GUI thread's event loop did not turn during the save (a QTimer ticking every
TICK_MS in the GUI thread measures it), beside the time the save takes, at the largest
sizes the window takes."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from svmviz.bench.report import row
from svmviz.bench.window import qt_app, quiet_config, wait

TICK_MS = 2
TARGET_STALL_MS = 100  # the window stays responsive: no frame or click waits longer
SIZES = (40_000, 50_000)


def longest_stall(act) -> tuple[float, float]:
    """``(seconds act() took, longest seconds between two turns of the event loop while it
    ran)``: ticks of a TICK_MS QTimer in the GUI thread, from the call to the first tick
    after it returned."""
    from PySide6 import QtCore

    ticks: list[float] = []
    timer = QtCore.QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    wait(50)  # ticking
    start = time.perf_counter()
    act()
    took = time.perf_counter() - start
    wait(20)  # the first tick after it returned ends the last stall
    timer.stop()
    turns = np.array([start] + [t for t in ticks if t > start])
    return took, float(np.diff(turns).max()) if len(turns) > 1 else took


def measure_save(m: int, folder: Path, repeat: int = 3) -> tuple[float, float, float]:
    """Saves of ``m`` points (a linear model, paused): the medians of their seconds and
    longest stalls, and the longest stall of the idle window over a second before (the
    machine's own, for comparison)."""
    from svmviz.core.config import SolverConfig
    from svmviz.core.data import Dataset
    from svmviz.ui.window.launch import build_window

    rng = np.random.default_rng(0)
    X = rng.normal(size=(m, 2))
    w = build_window(Dataset.from_labels(X, (X[:, 0] + X[:, 1] > 0).astype(int)), SolverConfig())
    w.resize(1400, 800)
    w.show()
    start = time.perf_counter()
    while w.snapshot is None and time.perf_counter() - start < 120:
        wait(50)
    w.controller.pause()
    wait(300)
    path = folder / f"session-{m}.json"
    w.files.path = path  # (Save writes there without asking where)
    _, idle = longest_stall(lambda: wait(1000))  # the machine's own: other processes
    runs = [longest_stall(w.files.save) for _ in range(repeat)]
    if w.files.dirty or not path.exists():
        runs = [(float("inf"), float("inf"))]
    w.close()
    took, stall = np.median(runs, axis=0)
    return float(took), float(stall), idle


def measure(quick: bool = False) -> list[dict]:
    import tempfile

    config = quiet_config()
    qt_app()
    rows = []
    with tempfile.TemporaryDirectory(prefix="svmviz-bench-save-") as folder:
        for m in SIZES:
            took, stall, idle = measure_save(m, Path(folder), 1 if quick else 3)
            rows.append(
                row(
                    f"window: save {m:,} points (Ctrl+S), longest stall, median",
                    1000 * stall,
                    "ms",
                    TARGET_STALL_MS,
                    f"a save took {1000 * took:,.0f} ms; idle, the longest stall in a "
                    f"second was {1000 * idle:,.0f} ms",
                    lower_is_better=True,
                )
            )
    config.cleanup()
    return rows
