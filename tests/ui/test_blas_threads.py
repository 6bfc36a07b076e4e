"""The window's process runs BLAS on one thread (its helpers would spin on the cores the
window and the training need)."""

import pytest

pytest.importorskip("PySide6.QtWidgets")


def test_the_window_limits_blas_to_one_thread(make_window):
    from threadpoolctl import threadpool_info, threadpool_limits

    with threadpool_limits(2, user_api="blas"):  # as a fresh process may have it
        w = make_window(iterations=100)
        blas = [p for p in threadpool_info() if p["user_api"] == "blas"]
        assert blas
        assert all(p["num_threads"] == 1 for p in blas)
        w.files.saved = w.session.content()
        w.close()
