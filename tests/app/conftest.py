import gc

import pytest


@pytest.fixture(autouse=True)
def unsaved_changes_discarded(monkeypatch):
    """A window closed with unsaved changes asks whether to save them (a modal dialog that
    would wait forever here): unless a test answers otherwise, the answer is Discard. The
    prompts asked are in the returned list."""
    try:
        from PySide6 import QtWidgets
    except ImportError:  # PySide6 not installed
        yield []
        return
    asked = []

    def question(parent, title, text, *args):
        asked.append(text)
        return QtWidgets.QMessageBox.StandardButton.Discard

    monkeypatch.setattr(QtWidgets.QMessageBox, "question", question)
    yield asked


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
