"""The menus' checkable actions are views of the window's state (svmviz.app.window_state),
bound both ways."""

import pytest

QtGui = pytest.importorskip("PySide6.QtGui")

from svmviz.app.window_state import WindowState  # noqa: E402
from svmviz.ui.menus import bind  # noqa: E402


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
