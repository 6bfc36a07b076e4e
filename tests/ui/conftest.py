"""Fixtures of the window's tests: ``make_window`` builds a window (napari's
``make_napari_viewer`` is the pattern) and ``wait_frame`` waits for the frame a test needs.

    def test_one_step(make_window, wait_frame):
        w = make_window(iterations=100)          # the demo data, waited for its first frame
        w.advance(1)
        wait_frame(w, lambda s: s.t == 1)        # s: the window's snapshot (its frame)
"""

import os

import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.config import SolverConfig
from svmviz.ui.style import plot_options
from svmviz.ui.views.gl_probe import share_contexts
from svmviz.ui.window.launch import build_window, demo_data

share_contexts()  # before pytest-qt makes the QApplication, as the app does
plot_options()  # pyqtgraph set up as the window and the notebook set it up

# the OpenGL tests only when asked (tests/conftest.py: SVMVIZ_GL_TESTS, under Xvfb in CI)
collect_ignore = [] if os.environ.get("SVMVIZ_GL_TESTS") == "1" else ["gl"]

FRAME_TIMEOUT_MS = 30000  # a frame is due long before; only a hang or a lost job reaches it
DEMO = object()  # make_window's default data: the demo's two blobs


@pytest.fixture
def wait_frame(qtbot):
    """``wait_frame(w, until=None, timeout=FRAME_TIMEOUT_MS)``: wait until the window has a
    frame (``w.snapshot``) for which ``until(frame)`` holds, and return that frame."""

    def wait(window, until=None, timeout=FRAME_TIMEOUT_MS):
        def shown():
            snap = window.snapshot
            return snap is not None and (until is None or bool(until(snap)))

        qtbot.waitUntil(shown, timeout=timeout)
        return window.snapshot

    return wait


@pytest.fixture
def make_window(qtbot, wait_frame):
    """``make_window(data=DEMO, config=None, *, play=False, show=False, active=False,
    first_frame=True, **settings)``: a window built as the app builds it, registered with
    qtbot and closed at the end of the test.

    data: a Dataset; by default the demo data; None is the empty plane. config: the
    SolverConfig, or else ``settings`` are its fields (``make_window(iterations=500)``).
    show: shown on screen; active: also the active window (the keyboard shortcuts need it).
    first_frame: wait for the first frame when the points make a job (two classes); False
    where the test looks at the window before it, or the job cannot train."""
    windows = []

    def make(
        data=DEMO,
        config=None,
        *,
        play=False,
        show=False,
        active=False,
        first_frame=True,
        **settings,
    ):
        if config is not None and settings:
            raise TypeError("make_window: give a config or its settings, not both")
        config = SolverConfig(**settings) if config is None else config
        w = build_window(demo_data() if data is DEMO else data, config, play=play)
        qtbot.addWidget(w)
        windows.append(w)
        if show or active:
            w.show()
        if active:
            from PySide6.QtWidgets import QApplication

            w.activateWindow()
            qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
        if first_frame and w.session.dataset() is not None:
            wait_frame(w)
        return w

    yield make
    for w in windows:  # (closing twice is harmless: qtbot closes them too)
        w.close()
