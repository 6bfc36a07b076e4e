"""From the command to the first drawn frame: a fresh Python process that starts the window
as `svmviz` does (the demo data set) and reports the moment its first frame is painted.

Measured as a user's `svmviz` starts: from the bytecode Python keeps of its modules (an
install writes it, and so does a first run). A first, unmeasured run writes it here, with
PYTHONDONTWRITEBYTECODE (which a shell may set) left out of the children's environment:
otherwise every run compiles svmviz's sources anew, about half a second."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from svmviz.bench.report import row

TARGET_START_S = 1.5

CHILD = """
import time
from svmviz.core.command_line import window_parser  # (before Qt, as svmviz.cli imports it)
from PySide6 import QtCore
from svmviz.ui.window.launch import leave, start

app, w = start(window_parser().parse_args([]))
done = []

def first(snap):
    if done:
        return
    w.plot.viewport().repaint()
    done.append(time.time())
    print(repr(done[0]), flush=True)
    w.files.saved = w.session.content()
    QtCore.QTimer.singleShot(0, w.close)
    QtCore.QTimer.singleShot(0, app.quit)

w.controller.snapshot_ready.connect(first)  # after the window's own slot has drawn it
leave(app.exec())
"""


def measure(quick: bool = False) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="svmviz-bench-") as config:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SVMVIZ_CONFIG_DIR=config)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        first, *times = [_start(env) for _ in range(3 if quick else 4)]
    return [
        row(
            "start: command to the first frame on screen, median",
            float(np.median(times)),
            "s",
            TARGET_START_S,
            "runs " + ", ".join(f"{t:.2f}" for t in times) + f" s (a first run, which writes "
            f"any missing bytecode: {first:.2f} s)",
            lower_is_better=True,
        )
    ]


def _start(env: dict) -> float:
    """Seconds from starting a child process to its first frame painted."""
    start = time.time()
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300
    )
    lines = done.stdout.split()
    return float(lines[0]) - start if done.returncode == 0 and lines else np.inf
