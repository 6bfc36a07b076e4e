"""From the command to the first drawn frame: a fresh Python process that starts the window
as `svmviz` does (the demo data set) and reports the moment its first frame is painted."""

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
from PySide6 import QtCore
from svmviz.core.arguments import window_parser
from svmviz.ui.app import leave, start

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
    times = []
    with tempfile.TemporaryDirectory(prefix="svmviz-bench-") as config:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SVMVIZ_CONFIG_DIR=config)
        for _ in range(2 if quick else 3):
            start = time.time()
            done = subprocess.run(
                [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300
            )
            lines = done.stdout.split()
            times.append(float(lines[0]) - start if done.returncode == 0 and lines else np.inf)
    return [
        row(
            "start: command to the first frame on screen, median",
            float(np.median(times)),
            "s",
            TARGET_START_S,
            "runs " + ", ".join(f"{t:.2f}" for t in times) + " s",
            lower_is_better=True,
        )
    ]
