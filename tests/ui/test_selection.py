"""The selection in the window is the session's (issue 42): Delete deletes exactly the points
selected after any edit, a view drawn before an edit never selects a stale index, and an
edit during a drag ends its moving."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore
from PySide6.QtTest import QTest
from test_gram_view import cell_point, gram_window
from test_window import _send, click, drag

from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel

LEFT = QtCore.Qt.MouseButton.LeftButton
CTRL = QtCore.Qt.KeyboardModifier.ControlModifier


def band(qtbot, w, xy, half=0.05):
    """Ctrl + drag a small box around the data point ``xy``."""
    x, y = xy
    drag(qtbot, w, (x - half, y - half), (x + half, y + half), CTRL)


def marked(w) -> np.ndarray:
    """The positions of the plane's selection marks."""
    if not w.plot.selection.isVisible():
        return np.zeros((0, 2))
    return np.column_stack(w.plot.selection.getData())


def test_delete_after_a_right_click_deletes_the_point_selected(qtbot, make_window):
    """Select point 30 (a band), right-click point 10 (removed), press Delete."""
    w = make_window(iterations=1000, show=True)
    qtbot.waitExposed(w)
    X = np.array(w.session.points.X)
    band(qtbot, w, X[30])
    np.testing.assert_array_equal(marked(w), X[[30]])
    click(qtbot, w, *X[10], QtCore.Qt.MouseButton.RightButton)
    assert len(w.session.points) == 59
    np.testing.assert_array_equal(marked(w), X[[30]])  # (the marks follow the point)
    w.controls.delete.trigger()
    np.testing.assert_array_equal(w.session.points.X, np.delete(X, [10, 30], axis=0))
    assert w.session.selection == () and len(marked(w)) == 0
    w.controls.undo.trigger()  # the point back, selected again
    assert w.session.selection == (29,)
    np.testing.assert_array_equal(marked(w), X[[30]])


def test_delete_after_undoing_a_point_added_and_selected(qtbot, make_window):
    """Click an empty spot (a point added), Ctrl+drag a box around it, Ctrl+Z, Delete."""
    w = make_window(iterations=1000, show=True)
    qtbot.waitExposed(w)
    X = np.array(w.session.points.X)
    spot = (3.0, -2.5)
    assert np.min(np.hypot(*(X - spot).T)) > 0.5  # (empty)
    click(qtbot, w, *spot)
    assert len(w.session.points) == 61
    band(qtbot, w, w.session.points.X[60])
    assert len(marked(w)) == 1
    w.controls.undo.trigger()
    w.controls.delete.trigger()  # (the point selected is gone: nothing to delete)
    np.testing.assert_array_equal(w.session.points.X, X)
    assert w.session.selection == () and len(marked(w)) == 0
    w.controls.redo.trigger()  # the point back, with the selection it was undone with
    assert w.session.selection == (60,) and len(marked(w)) == 1


def test_a_kernel_matrix_row_drawn_before_a_delete_selects_nothing(make_window, wait_frame, qtbot):
    w = gram_window(make_window, wait_frame, qtbot, kernel=Kernel("rbf", gamma=1.0))
    view = w.gram
    n = len(w.session.points)
    r = int(np.flatnonzero(view.points[view.matrix.order] == n - 1)[0])  # the last point's row
    emitted = []
    view.selected.connect(lambda *a: emitted.append(a))
    w.session.delete_points([0])
    # a click on the matrix before the next frame redraws it (no events processed between)
    QTest.mouseClick(view.graphics.viewport(), LEFT, pos=cell_point(view, r, r))
    assert len(emitted) == 1 and list(emitted[0][0]) == [n - 1]
    w.controls.delete.trigger()
    assert len(w.session.points) == n - 1
    assert w.session.selection == ()


def test_a_point_table_row_drawn_before_a_delete_selects_nothing(make_window, wait_frame, qtbot):
    w = make_window(iterations=1000, show=True)
    w.docks["points"].raise_()
    w.advance(100)
    wait_frame(w, lambda s: s.t >= 100)
    table, n = w.point_table, len(w.session.points)
    qtbot.waitUntil(lambda: table.model_.rowCount() == n, timeout=5000)
    w.session.delete_points([0])
    row = table.model().mapFromSource(table.model_.index(n - 1, 0)).row()
    table.selectRow(row)  # (the table not yet redrawn: its last row is no point now)
    w.controls.delete.trigger()
    assert len(w.session.points) == n - 1
    assert w.session.selection == ()
    # the rows of the points now: selected in the table and the plane, both ways
    qtbot.waitUntil(lambda: table.model_.rowCount() == n - 1, timeout=5000)
    w.session.select([3, 5])
    rows = {table.model().mapToSource(ix).row() for ix in table.selectionModel().selectedRows()}
    assert rows == {3, 5}
    table.selectRow(table.model().mapFromSource(table.model_.index(7, 0)).row())
    assert w.session.selection == (7,)


POINTS = np.array([[-2.0, 0.0], [-1.0, 0.0], [1.0, 0.0], [2.0, 0.0]])


@pytest.mark.parametrize("edit", ["delete", "undo", "open"])
def test_an_edit_during_a_drag_ends_its_moving(qtbot, make_window, edit):
    """A drag of point 3; mid-drag an edit (a right click on point 0, Ctrl+Z, a scenario
    opened) changes the points under it: the rest of the drag moves nothing."""
    w = make_window(Dataset.from_labels(POINTS, [0, 0, 1, 1]), iterations=1000, show=True)
    qtbot.waitExposed(w)
    qtbot.wait(100)
    _send(w, "press", 2.0, 0.0, LEFT)
    for y in (0.25, 0.5, 0.75, 1.0):
        _send(w, "move", 2.0, y, LEFT)
        qtbot.wait(5)
    np.testing.assert_allclose(w.session.points.X[3], [2.0, 1.0], atol=0.05)
    opened = np.array([[0.0, 0.0], [0.5, 0.5]])
    if edit == "delete":
        w.session.delete_points([0])
        expected = np.array(w.session.points.X)
    elif edit == "undo":
        w.session.undo()
        expected = POINTS
    else:
        w.session.load(Dataset.from_labels(opened, [0, 1]), w.session.config)
        expected = opened
    for y in (1.25, 1.5):
        _send(w, "move", 2.0, y, LEFT)
        qtbot.wait(5)
    _send(w, "release", 2.0, 1.5, QtCore.Qt.MouseButton.NoButton)
    np.testing.assert_allclose(w.session.points.X, expected)
    if edit == "delete":  # the drag and the delete: two steps
        w.session.undo()
        w.session.undo()
        np.testing.assert_allclose(w.session.points.X, POINTS)
    assert not w.session.can_undo
    assert not w.view.dragging
