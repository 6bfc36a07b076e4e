"""The kernel matrix view: the solver's K in class (and α) order, the support vectors'
marks, the hover readout, a row's click selecting its point, the cap, the View menu."""

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtTest import QTest

from svmviz.core.data import Dataset
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.explain_kernel import point_name
from svmviz.core.pictures.gram_matrix import CAP, too_many
from svmviz.ui.views.gram_view import GramView


def moons(n=60):
    X, y = generate("moons", n=n, noise=0.15, seed=2)
    return Dataset(np.asarray(X, float), np.asarray(y), ("a", "b"))


def gram_window(make_window, wait_frame, qtbot, **settings):
    w = make_window(moons(), show=True, **settings)
    w.resize(1400, 900)
    w.docks["kernel_matrix"].toggleViewAction().trigger()
    w.docks["kernel_matrix"].raise_()
    w.advance(200)
    wait_frame(w, lambda s: s.t >= 200)
    qtbot.waitUntil(lambda: w.gram.alpha is not None and np.any(w.gram.alpha), timeout=10000)
    return w


def cell_point(view, r, c):
    """The viewport position of display cell (r, c)'s centre."""
    scene = view.plot.vb.mapViewToScene(QtCore.QPointF(c + 0.5, r + 0.5))
    return view.graphics.mapFromScene(scene)


def test_the_values_are_the_solvers_kernel_matrix_by_class(make_window, wait_frame, qtbot):
    kernel = Kernel("rbf", gamma=5.0)
    w = gram_window(make_window, wait_frame, qtbot, kernel=kernel, bias="regularized")
    view, X, y = w.gram, w.session.points.X, w.session.points.y
    g = view.matrix
    assert g is not None and len(g.order) == len(y)
    expected = kernel.gram(X, X) + 1.0  # the regularized bias's constant feature
    np.testing.assert_allclose(g.values, expected[np.ix_(g.order, g.order)], atol=1e-12)
    assert np.all(np.diff(y[g.order]) >= 0)
    assert len(g.edges) == 1 and g.edges[0] == np.sum(y == 0)
    # the marks on both axes: the support vectors, as the plane rings them (y f ≤ 1)
    rows = g.support(view.support)
    assert sorted(g.order[rows].tolist()) == w.snapshot.frame.support.tolist()
    marked_rows = np.asarray(view.row_marks.opts["y"]) - 0.5
    marked_columns = np.asarray(view.column_marks.opts["x"]) - 0.5
    assert len(rows) == len(w.plot.rings.data) > 0
    np.testing.assert_array_equal(marked_rows, rows)
    np.testing.assert_array_equal(marked_columns, rows)
    # ordered by α within each class on request
    view.by_alpha.setChecked(True)
    g = view.matrix
    for k in (0, 1):
        a = view.alpha[g.order][g.y == k]
        assert np.all(np.diff(a) <= 0)
    np.testing.assert_allclose(g.values, expected[np.ix_(g.order, g.order)], atol=1e-12)
    bars = view.bars.opts["width"]
    np.testing.assert_array_equal(bars, view.alpha[g.order])


def test_hover_names_the_pair_and_a_click_selects_the_row(make_window, wait_frame, qtbot):
    w = gram_window(make_window, wait_frame, qtbot, kernel=Kernel("rbf", gamma=1.0))
    view = w.gram
    g = view.matrix
    r, c = 3, len(g.order) - 2
    i, j = int(g.order[r]), int(g.order[c])
    # a move event to the viewport (QTest.mouseMove goes through the cursor, which the
    # offscreen platform places relative to the window)
    at = QtCore.QPointF(cell_point(view, r, c))
    move = QtGui.QMouseEvent(
        QtCore.QEvent.Type.MouseMove,
        at,
        view.graphics.viewport().mapToGlobal(at),
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
    )
    QtWidgets.QApplication.sendEvent(view.graphics.viewport(), move)
    qtbot.waitUntil(lambda: view.readout.text().startswith("K("), timeout=3000)
    value = float(
        Kernel("rbf", gamma=1.0).gram(w.session.points.X[[i]], w.session.points.X[[j]])[0, 0]
    )
    names = f"{point_name(i)}, {point_name(j)}"  # 0-based, as the step inspector's
    assert view.readout.text() == f"K({names}) = {value:.3g} (class a, class b)"
    QTest.mouseClick(
        view.graphics.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=cell_point(view, r, c)
    )
    qtbot.waitUntil(lambda: w.session.selection == (i,), timeout=3000)


def test_the_dock_is_in_the_view_menu(make_window, qtbot):
    w = make_window(show=True)
    dock = w.docks["kernel_matrix"]
    assert dock.objectName() == "kernel-matrix-dock"
    assert not dock.isVisible()
    menus = [a.menu() for a in w.menuBar().actions() if a.menu() is not None]
    view_menu = next(m for m in menus if m.title().replace("&", "") == "View")
    assert dock.toggleViewAction() in view_menu.actions()
    assert dock.toggleViewAction().text() == "Kernel matrix"
    dock.toggleViewAction().trigger()
    assert dock.isVisible()
    # in front of the curves, sharing their room (the readings' tabs are full at 1366×768)
    assert w.curves_dock in w.tabifiedDockWidgets(dock)
    dock.toggleViewAction().trigger()
    assert not dock.isVisible() and w.curves_dock not in w.tabifiedDockWidgets(dock)


def test_a_linear_model_and_the_cap(qtbot):
    view = GramView()
    qtbot.addWidget(view)
    rng = np.random.default_rng(4)
    X, y = rng.normal(size=(12, 2)), np.arange(12) % 2
    view.show_points(X, y, np.arange(12), Kernel("linear"), "free", None, ["a", "b"])
    g = view.matrix
    np.testing.assert_allclose(g.values, (X @ X.T)[np.ix_(g.order, g.order)], atol=1e-12)
    assert len(view.row_marks.opts["y"]) == 0 and not view.by_alpha.isEnabled()
    big = rng.normal(size=(CAP + 1, 2))
    view.show_points(
        big, np.arange(CAP + 1) % 2, np.arange(CAP + 1), Kernel("rbf"), "free", None, []
    )
    assert view.readout.text() == too_many(CAP + 1) != ""
    assert view.graphics.isHidden() and view.matrix is None
    assert isinstance(view.graphics, QtWidgets.QGraphicsView)


def test_the_toggle_is_kept_in_the_session_and_the_preferences(make_window, qtbot):
    from svmviz.core.files.session_file import View

    w = make_window(show=True)
    dock = w.docks["kernel_matrix"]
    assert "kernel_matrix" not in w.state.view().views
    dock.toggleViewAction().trigger()
    assert dock.isVisible() and "kernel_matrix" in w.state.view().views
    dock.close()
    assert not w.state.view_on("kernel_matrix")
    w.state.apply_view(View(flags=(("kernel_matrix", True),)))  # a session opened
    assert dock.isVisible() and w.curves_dock in w.tabifiedDockWidgets(dock)
    w.close()  # the preferences remember it
    again = make_window(show=True)
    assert again.state.view_on("kernel_matrix") and again.docks["kernel_matrix"].isVisible()
