"""From Play to the first training frame on screen, with numba's cache empty (the first run
after installing: the loop trains as plain Python while the compiled one is prepared) and
with it warm; and, with the cache empty and not ``quick``, the hand-over from the Python
loop to the compiled one: when it came, and the longest gap between frames around it.

Each figure comes from a fresh Python process that starts the window as `svmviz` does (the
demo data set), waits for the first frame, presses Play and watches the frames that follow.
The empty cache is a temporary NUMBA_CACHE_DIR; the warm one is the usual cache (the engine
figures, measured first, filled it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from svmviz.bench.report import row

TARGET_PLAY_S = 2.0

CHILD = """
import json, sys, time
from PySide6 import QtCore
from svmviz.core.command_line import window_parser
from svmviz.ui.window.launch import leave, start

handover = sys.argv[1] == "1"
app, w = start(window_parser().parse_args(sys.argv[2:]))
marks = {}
frames = []  # (seconds since Play, t, preparing) of each training frame drawn

def finish():
    print(json.dumps(dict(play=marks["play"], frames=frames)), flush=True)
    w.files.saved = w.session.content()
    QtCore.QTimer.singleShot(0, w.close)
    QtCore.QTimer.singleShot(0, app.quit)

def press_play():
    marks["play"] = time.perf_counter()
    w.toggle_play()

def on_snapshot(snap):
    if "play" not in marks:
        if "asked" not in marks:
            marks["asked"] = True
            QtCore.QTimer.singleShot(0, press_play)
        return
    if snap.t == 0 or "done" in marks:
        return
    w.plot.viewport().repaint()
    frames.append((time.perf_counter() - marks["play"], int(snap.t), bool(snap.preparing)))
    after = sum(1 for f in frames if not f[2])
    if not handover or after >= 60 or snap.status not in ("ready", "running"):
        marks["done"] = True
        finish()

w.controller.snapshot_ready.connect(on_snapshot)  # after the window's own slot has drawn it
leave(app.exec())
"""


def _run(cache_dir: str | None, handover: bool, config: str) -> dict | None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SVMVIZ_CONFIG_DIR=config)
    env.pop("SVMVIZ_NO_NUMBA", None)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    # a budget the Python loop cannot finish before the hand-over
    args = ["--iterations", "5000000"] if handover else []
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "1" if handover else "0", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if done.returncode == 0 and lines else None


def _first(result: dict | None) -> float:
    return result["frames"][0][0] if result and result["frames"] else float("inf")


def measure(quick: bool = False) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="svmviz-bench-") as config:
        cold, warm = [], []
        for i in range(1 if quick else 2):
            with tempfile.TemporaryDirectory(prefix="svmviz-numba-") as cache:
                last = i == 0 and not quick  # the hand-over once: it waits for the compiler
                result = _run(cache, last, config)
                cold.append(_first(result))
                if last:
                    handover = result
            warm.append(_first(_run(None, False, config)))
    rows.append(
        row(
            "play: Play to the first training frame, empty numba cache",
            float(np.median(cold)),
            "s",
            TARGET_PLAY_S,
            "runs " + ", ".join(f"{t:.2f}" for t in cold) + " s (first run after "
            "installing: plain Python until compiled)",
            lower_is_better=True,
        )
    )
    rows.append(
        row(
            "play: Play to the first training frame, warm numba cache",
            float(np.median(warm)),
            "s",
            TARGET_PLAY_S,
            "runs " + ", ".join(f"{t:.2f}" for t in warm) + " s",
            lower_is_better=True,
        )
    )
    if not quick:
        rows += _handover_rows(handover)
    return rows


def _handover_rows(result: dict | None) -> list[dict]:
    """When the compiled loop took over (seconds after Play), and the frame gaps: the median
    while the Python loop ran, and the longest within a second of the hand-over."""
    if not result or not any(not f[2] for f in result["frames"]):
        return [row("play: hand-over to the compiled loop (not seen)", float("inf"), "s")]
    times = np.array([f[0] for f in result["frames"]])
    python = np.array([f[2] for f in result["frames"]])
    k = int(np.argmin(python))  # the first compiled frame
    gaps = np.diff(times)
    near = gaps[max(0, k - 30) : k + 30]
    before = gaps[: max(0, k - 1)]
    median_before = float(np.median(before)) if len(before) else float("nan")
    return [
        row(
            "play: hand-over to the compiled loop, after Play (empty cache)",
            times[k],
            "s",
            anchor=f"t = {result['frames'][k][1]:,} by then, trained in plain Python",
        ),
        row(
            "play: longest frame gap around the hand-over",
            1000 * float(near.max()),
            "ms",
            anchor=f"median {1000 * median_before:.0f} ms between frames while in Python, "
            f"{1000 * float(np.median(gaps[k:])):.0f} ms after",
        ),
    ]
