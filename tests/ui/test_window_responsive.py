"""The window stays responsive while its worker trains at full speed."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.data import Dataset
from svmviz.core.training.pace import INSTANT


def test_the_gui_thread_goes_on_while_the_window_trains_at_full_speed(qtbot, make_window):
    """While the worker trains at full speed (m = 1000), the GUI thread is not starved: a
    10 ms QTimer keeps firing, new frames arrive and the plane is repainted, and the training
    advances meanwhile. (How late the timer fires is a figure of `svmviz bench`: "window,
    linear m=1,000: QTimer lateness p99".)"""
    from PySide6.QtCore import QEvent, QObject, QTimer

    rng = np.random.default_rng(0)
    X = rng.normal(size=(1000, 2))
    data = Dataset.from_labels(X, (X[:, 0] + 0.4 * rng.normal(size=1000) > 0).astype(int))
    w = make_window(data, iterations=10**7, show=True)
    w.resize(1400, 800)
    qtbot.waitExposed(w)

    class Paints(QObject):
        count = 0

        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                Paints.count += 1
            return False

    paints = Paints()
    w.plot.viewport().installEventFilter(paints)
    frames, ticks = [], []
    w.controller.snapshot_ready.connect(lambda s: frames.append(s.t))
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(1))
    w.state.set_speed(INSTANT)
    w.toggle_play()
    assert w.playing
    t_start = w.snapshot.t
    timer.start()

    def going_on():
        trained = w.snapshot.t - t_start
        return len(ticks) >= 100 and len(frames) >= 30 and Paints.count >= 30 and trained > 10000

    qtbot.waitUntil(going_on, timeout=60000)  # (a starved GUI thread never gets there)
    timer.stop()
    assert w.playing, "the training stopped while the window was busy"
    w.toggle_play()
