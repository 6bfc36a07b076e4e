import gc

import pytest


@pytest.fixture(autouse=True)
def no_dangling_training_threads():
    """Fail a test that leaves a training QThread running (napari's _dangling_qthreads);
    then collect the test's garbage here, in the GUI thread (a Qt object freed by the
    collector in the training thread hangs the process; the app collects on a GUI timer)."""
    yield
    gc.collect()
    try:
        from svmviz.app.worker import running_threads
    except ImportError:  # PySide6 not installed
        return
    left = running_threads()
    assert not left, f"training threads still running after the test: {left}"
