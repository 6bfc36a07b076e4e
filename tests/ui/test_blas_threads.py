"""The window's process runs BLAS on one thread (its helpers would spin on the cores the
window and the training need)."""

import pytest

pytest.importorskip("PySide6.QtWidgets")


def test_the_window_limits_blas_to_one_thread(qtbot):
    from threadpoolctl import threadpool_info, threadpool_limits

    from svmviz.core.config import SolverConfig
    from svmviz.ui.app import build_window, demo_data

    with threadpool_limits(2, user_api="blas"):  # as a fresh process may have it
        w = build_window(demo_data(), SolverConfig(iterations=100))
        qtbot.addWidget(w)
        blas = [p for p in threadpool_info() if p["user_api"] == "blas"]
        assert blas and all(p["num_threads"] == 1 for p in blas)
        w.files.saved = w.session.content()
        w.close()
