"""The menus' checkable actions are views of the window's state (svmviz.app.window_state),
bound both ways."""

import pytest

QtGui = pytest.importorskip("PySide6.QtGui")

from svmviz.app.window_state import WindowState  # noqa: E402
from svmviz.ui.window.menus import bind  # noqa: E402


def test_a_checkable_action_is_a_view_of_the_state_both_ways(qtbot):
    state = WindowState()
    action = QtGui.QAction("Slack")
    action.setCheckable(True)
    state.set_slack(True)
    bind(action, state, "slack")
    assert action.isChecked(), "the model's value at once"
    seen = []
    state.slack_changed.connect(seen.append)
    action.trigger()  # the menu sets the model...
    assert state.slack is False
    assert seen == [False]
    state.set_slack(True)  # ...and the model the menu, without an echo
    assert action.isChecked()
    assert seen == [False, True], "no echo back from the action"


def test_files_and_exports_need_no_window(qtbot, tmp_path, monkeypatch):
    """Files and Exports work from the session, the state and a status line: any widget
    will do as the dialogs' parent."""
    import numpy as np
    from PySide6 import QtWidgets

    from svmviz.app.preferences import Preferences
    from svmviz.app.session import Session
    from svmviz.core.data import Dataset, write_csv
    from svmviz.core.files.session_file import read_document
    from svmviz.ui.window.export import Exports
    from svmviz.ui.window.files import Files

    parent = QtWidgets.QWidget()
    qtbot.addWidget(parent)
    session = Session()
    state = WindowState(session)
    said, events, asked = [], [], []
    files = Files(parent, session, state, Preferences(), said.append)
    files.replacing.connect(lambda: events.append("replacing"))
    files.replaced.connect(lambda: events.append("replaced"))
    state.extent_requested.connect(asked.append)
    csv = tmp_path / "three.csv"
    write_csv(csv, Dataset.from_labels(np.array([[0.0, 0], [1, 1], [2, 0]]), ["p", "q", "p"]))
    assert files.open_path(csv)
    assert events == ["replacing", "replaced"], "training pauses, then resumes"
    assert len(session.points) == 3
    assert asked == [None], "a data set is shown whole"
    assert parent.windowTitle().startswith("three"), "the title names the document"
    state.set_slack(True)
    state.set_extent((0.0, 2.0, -1.0, 1.0))  # (as a plane would report it)
    path = tmp_path / "three.json"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    assert files.save()
    assert said[-1] == f"Saved {path}"
    view = read_document(path).view
    assert view.toggles == ("slack",), "the state's toggles are saved"
    assert view.extent == (0.0, 2.0, -1.0, 1.0)
    files.close()

    class NothingShown:
        snapshot = None
        scale = 1.0

    shown = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "information", lambda *a: shown.append(a[2]))
    exports = Exports(parent, session, Preferences(), NothingShown(), said.append)
    assert not exports.save_model()
    assert "Train first" in shown[0]
