"""The session's start w₀: set, kept in its content, and cleared with a notice when the
problem no longer fits it."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtCore")

from svmviz.app.session import Session
from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.core.training.start import Start


def test_a_start_is_part_of_the_content_and_cleared_when_the_kernel_changes(qtbot, blobs2):
    s = Session(blobs2)
    start = Start(np.array([[1.0, -1.0]]), [0.5], 40, blobs2.classes)
    with qtbot.waitSignal(s.start_changed):
        s.set_start(start)
    assert s.content().start == start
    data = s.dataset()
    assert s.job_start(data, s.job_config()) == start
    assert s.notice == ""
    s.set_config(SolverConfig(kernel=Kernel("rbf")))
    assert s.job_start(data, s.job_config()) is None
    assert s.start is None
    assert "start w₀ was cleared" in s.notice and "rbf" in s.notice


def test_a_start_is_cleared_when_a_third_class_comes(qtbot, blobs2):
    s = Session(blobs2)
    s.set_start(Start(np.array([[1.0, -1.0]]), [0.5], 40, blobs2.classes))
    s.set_current_class(2)
    s.add_point(0.0, 0.0)
    assert s.job_start(s.dataset(), s.job_config()) is None
    assert "classes changed" in s.notice


def test_a_restored_session_brings_its_start_and_a_loaded_document_clears_it(qtbot, blobs2):
    s = Session(blobs2)
    start = Start(np.array([[1.0, -1.0]]), [0.5], 40, blobs2.classes)
    s.set_start(start)
    content = s.content()
    s.load(blobs2, SolverConfig())
    assert s.start is None
    s.restore(content)
    assert s.start == start
