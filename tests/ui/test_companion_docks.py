"""A view's dock turned on from the View menu where the window keeps that dock hidden (its
view is beside the plane, or the readings' column makes way for the plane and its companion
in a window under 1,600 px wide) brings the view beside the plane, and the status bar says
so: never an empty dock, never nothing at all (issue 44)."""

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtGui

from svmviz.ui.views import registry
from svmviz.ui.window import layout
from svmviz.ui.window.companion import COMPANION_AREA


def docks_shown(w) -> list[str]:
    return [name for name, dock in w.docks.items() if dock.isVisible()]


def said(w) -> str:
    """The status bar's message, checked whole in its room (beside the timeline)."""
    bar, message = w.statusBar(), w.statusBar().currentMessage()
    assert QtGui.QFontMetrics(bar.font()).horizontalAdvance(message) < bar.width() - (
        w.timeline.width()
    ), message
    return message


def test_a_view_turned_on_where_its_dock_cannot_show_comes_beside_the_plane(make_window, qtbot):
    w = make_window(iterations=200, show=True)
    w.resize(1366, 768)
    w.state.set_companion("weight_space")
    qtbot.waitUntil(lambda: w.companion.crowded)
    assert not docks_shown(w)  # (the readings' column made way)
    for name in ("points", "kernel_matrix"):  # a tab on but hidden; a view off
        w.docks[name].toggleViewAction().trigger()
        view = w.made[name].widget
        qtbot.waitUntil(lambda view=view: view.isVisible())
        assert w.state.companion == name and w.companion.pane.isAncestorOf(view)
        assert not docks_shown(w)  # (neither an empty dock nor a squeezing one)
        assert said(w).startswith(f"{registry.spec(name).menu_text} beside the plane")
        qtbot.waitUntil(  # (once the centre is split again)
            lambda: (
                layout.plane_share(w) >= layout.PLANE_SHARE
                and layout.companion_share(w) >= COMPANION_AREA
            )
        )
    w.docks["kernel_matrix"].toggleViewAction().trigger()  # the view beside the plane
    assert not docks_shown(w) and "already" in said(w)
    w.resize(1920, 1080)  # the column back: the companion's entry still brings no dock
    qtbot.waitUntil(lambda: not w.companion.crowded and w.curves_dock.isVisible())
    w.docks["kernel_matrix"].toggleViewAction().trigger()
    assert not w.docks["kernel_matrix"].isVisible() and w.companion.name == "kernel_matrix"
    assert "already" in said(w)
