"""Reliability of the window: a crash found in a fresh process, divergence, degenerate data."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("PySide6.QtWidgets")

FIRST_KERNEL_FRAME = """
import sys
from PySide6 import QtCore, QtWidgets
from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.ui.app import build_window, demo_data

app = QtWidgets.QApplication(sys.argv)
Discard = QtWidgets.QMessageBox.StandardButton.Discard
QtWidgets.QMessageBox.question = lambda *args: Discard  # (closing: unsaved changes)
w = build_window(demo_data(), SolverConfig(iterations=1000))  # linear: no contourpy yet
w.show()

def wait(cond):
    timer = QtCore.QElapsedTimer()
    timer.start()
    while not cond():
        if timer.elapsed() > 60000:
            sys.exit(3)
        app.processEvents()
        QtCore.QThread.msleep(5)

wait(lambda: w.snapshot is not None)
w.session.set_config(SolverConfig(kernel=Kernel("rbf"), iterations=1000))
w.toggle_play()
wait(lambda: w.snapshot.generation == w.controller.generation and w.snapshot.t > 100)
print("kernel frames", w.snapshot.t)
w.close()
"""


def test_the_first_kernel_frame_of_a_fresh_process_does_not_crash():
    """Found by hand while testing divergence: a window that started linear crashed
    (SIGSEGV in pybind11's set-up, called first from the training QThread) at its first
    kernel frame, 4 times in 4. A fresh process: nothing here may contour first."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    r = subprocess.run([sys.executable, "-c", FIRST_KERNEL_FRAME], env=env,
                       capture_output=True, text=True, timeout=180)  # fmt: skip
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert "kernel frames" in r.stdout
