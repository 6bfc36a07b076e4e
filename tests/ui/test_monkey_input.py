"""A monkey at the input: random clicks, drags and wheel turns on the window's own widgets
(the plane, the docks' tabs, the kernel matrix, the weight space, the 3-D view, the Points
table, the timeline) and every menu action, with the new views on, while training runs.
No exception (pytest-qt fails a test on one raised inside a Qt event handler), no
abort, and at the end the plane, its selection and the frame agree with the points.

``SVMVIZ_MONKEY_ACTIONS`` (default 100) and ``SVMVIZ_MONKEY_SEED`` set the run. The
issue's long runs are this test under a real X server, with faulthandler (pytest's
default) printing the stacks of a crash::

    SVMVIZ_MONKEY_ACTIONS=5000 SVMVIZ_MONKEY_SEED=1 xvfb-run -a -s "-screen 0 1366x768x24" \\
        env QT_QPA_PLATFORM=xcb python -m pytest tests/ui/test_monkey_input.py -s
"""

import os
import time
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.files.scenario import list_scenarios
from svmviz.core.kernels import Kernel

ACTIONS = int(os.environ.get("SVMVIZ_MONKEY_ACTIONS", 100))
SEED = int(os.environ.get("SVMVIZ_MONKEY_SEED", 0))
# menu entries that end the run or leave the window (the monkey would close its own window)
LEAVING = ("quit", "exit", "close", "new window")
MOUSE = QtCore.Qt.MouseButton
MODS = QtCore.Qt.KeyboardModifier


def _no_dialogs(monkeypatch) -> list:
    """Every modal dialog answered at once (Cancel, or no file): they would wait forever."""
    shown: list = []
    box = QtWidgets.QMessageBox
    for kind in ("warning", "critical", "information"):
        monkeypatch.setattr(
            box,
            kind,
            lambda *a, _k=kind, **k: (
                shown.append((_k, a[2] if len(a) > 2 else "")) or box.StandardButton.Cancel
            ),
        )
    monkeypatch.setattr(QtWidgets.QDialog, "exec", lambda self: 0)
    monkeypatch.setattr(QtWidgets.QMenu, "exec", lambda self, *a: None)
    for name in ("getOpenFileName", "getSaveFileName"):
        monkeypatch.setattr(QtWidgets.QFileDialog, name, lambda *a, **k: ("", ""))
    monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", lambda *a, **k: "")
    monkeypatch.setattr(QtWidgets.QInputDialog, "getText", lambda *a, **k: ("", False))
    monkeypatch.setattr(QtWidgets.QColorDialog, "getColor", lambda *a, **k: QtGui.QColor())
    return shown


def _menu_actions(w) -> list:
    """Every enabled entry of the menu bar's menus (not the submenus' titles, not those
    that would leave the window)."""
    found, menus = [], [a.menu() for a in w.menuBar().actions() if a.menu()]
    while menus:
        for entry in menus.pop().actions():
            if entry.menu():
                menus.append(entry.menu())
            elif not entry.isSeparator() and not any(
                word in entry.text().lower().replace("&", "") for word in LEAVING
            ):
                found.append(entry)
    return found


def _send_mouse(widget, kind, pos, button, buttons, mods):
    """A mouse event with its button state (QTest's mouseMove carries no buttons)."""
    types = {
        "press": QtCore.QEvent.Type.MouseButtonPress,
        "move": QtCore.QEvent.Type.MouseMove,
        "release": QtCore.QEvent.Type.MouseButtonRelease,
        "double": QtCore.QEvent.Type.MouseButtonDblClick,
    }
    glob = QtCore.QPointF(widget.mapToGlobal(pos.toPoint()))
    event = QtGui.QMouseEvent(types[kind], pos, glob, button, buttons, mods)
    QtWidgets.QApplication.sendEvent(widget, event)


def _target(widget):
    """Where a widget's mouse events go (a scroll area's or a graphics view's viewport)."""
    return widget.viewport() if isinstance(widget, QtWidgets.QAbstractScrollArea) else widget


def test_monkey_at_the_input(qtbot, make_window, monkeypatch):
    dialogs = _no_dialogs(monkeypatch)
    rng = np.random.default_rng(SEED)
    w = make_window(iterations=20000, show=True)
    qtbot.waitExposed(w)
    session = w.session
    scenarios = list_scenarios()
    for dock in (w.docks["weight_space"], w.docks["kernel_matrix"], w.docks["surface"]):
        dock.toggleViewAction().setChecked(True)  # the new views on (as View ▸ … does)
    entries = _menu_actions(w)
    app = QtWidgets.QApplication.instance()

    def plane_point(near_a_point: bool) -> QtCore.QPointF:
        """A position on the plane's viewport: on a point, or anywhere in view."""
        vb = w.plot.getPlotItem().getViewBox()
        X = session.points.X
        if near_a_point and len(X):
            x, y = X[rng.integers(len(X))]
        else:
            (x0, x1), (y0, y1) = vb.viewRange()
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
        return QtCore.QPointF(w.plot.mapFromScene(vb.mapViewToScene(QtCore.QPointF(x, y))))

    def gesture(widget, start, end, button, mods, steps):
        """Press at ``start``, ``steps`` moves to ``end``, release (a click when 0)."""
        target = _target(widget)
        _send_mouse(target, "press", start, button, button, mods)
        for k in range(1, steps + 1):
            _send_mouse(
                target, "move", start + (end - start) * (k / steps), MOUSE.NoButton, button, mods
            )
            if rng.random() < 0.3:
                app.processEvents()
        _send_mouse(target, "release", end, button, MOUSE.NoButton, mods)

    def on_plane():
        kind = rng.choice(
            ["click", "right", "drag", "band", "pan", "double"], p=[0.3, 0.15, 0.2, 0.15, 0.1, 0.1]
        )
        start = plane_point(near_a_point=kind in ("right", "drag") or rng.random() < 0.3)
        end = plane_point(near_a_point=False)
        mods = MODS.ControlModifier if kind == "band" else MODS.NoModifier
        button = MOUSE.RightButton if kind == "right" else MOUSE.LeftButton
        if kind == "double":
            _send_mouse(_target(w.plot), "double", start, button, button, mods)
        else:
            steps = 0 if kind in ("click", "right") else int(rng.integers(1, 8))
            gesture(w.plot, start, end, button, mods, steps)

    def in_view():
        """A click or drag inside a visible reading: the kernel matrix, the weight space,
        the 3-D view, the Points table, the Margins histogram, the timeline."""
        views = [w.gram, w.weight_space, w.surface, w.point_table, w.histogram, w.timeline]
        shown = [v for v in views if v.isVisible() and v.width() > 2 and v.height() > 2]
        if not shown:
            return
        view = shown[int(rng.integers(len(shown)))]
        size = _target(view).size()

        def anywhere():
            return QtCore.QPointF(rng.uniform(0, size.width()), rng.uniform(0, size.height()))

        button = MOUSE.RightButton if rng.random() < 0.15 else MOUSE.LeftButton
        mods = MODS.ControlModifier if rng.random() < 0.2 else MODS.NoModifier
        gesture(view, anywhere(), anywhere(), button, mods, int(rng.integers(0, 6)))

    def wheel():
        target = _target(w.plot)
        pos = plane_point(near_a_point=False)
        event = QtGui.QWheelEvent(
            pos,
            QtCore.QPointF(target.mapToGlobal(pos.toPoint())),
            QtCore.QPoint(),
            QtCore.QPoint(0, int(rng.choice([-240, -120, 120, 240]))),
            MOUSE.NoButton,
            MODS.NoModifier,
            QtCore.Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QtWidgets.QApplication.sendEvent(target, event)

    def tab():
        bars = [b for b in w.findChildren(QtWidgets.QTabBar) if b.isVisible() and b.count()]
        if bars:
            bar = bars[int(rng.integers(len(bars)))]
            bar.setCurrentIndex(int(rng.integers(bar.count())))

    def menu():
        entry = entries[int(rng.integers(len(entries)))]
        if entry.isEnabled():
            entry.trigger()

    def settings():
        config = session.config
        kernel = [
            Kernel(),
            Kernel("rbf", gamma=float(rng.choice([0.5, 5.0]))),
            Kernel("poly", degree=2, coef0=0.0),
        ][int(rng.integers(3))]
        session.set_config(replace(config, kernel=kernel, lam=float(rng.choice([1e-3, 1e-2, 1.0]))))

    actions = {
        "plane": (on_plane, 10),
        "view": (in_view, 5),
        "wheel": (wheel, 1),
        "tab": (tab, 3),
        "menu": (menu, 6),
        "settings": (settings, 1),
        "scenario": (lambda: w.open_scenario(scenarios[int(rng.integers(len(scenarios)))]), 0.3),
        "class": (lambda: session.set_current_class(int(rng.integers(0, 4))), 1),
    }
    names = list(actions)
    weights = np.array([actions[n][1] for n in names], dtype=float)
    done = Counter()
    start = time.perf_counter()
    for _ in range(ACTIONS):
        if not w.isVisible():  # (a menu entry hid or closed the window: show it again)
            w.show()
        name = names[rng.choice(len(names), p=weights / weights.sum())]
        actions[name][0]()
        done[name] += 1
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, int(rng.integers(0, 8)))
        n = len(session.points)
        assert all(0 <= i < n for i in session.selection), (name, session.selection, n)
    seconds = time.perf_counter() - start
    marked = w.plot.selection.getData()[0]
    assert len(marked if marked is not None else []) == len(session.selection)

    if w.presentation.on:
        w.presentation.set(False)
    if w.playing:
        w.toggle_play()
    if session.dataset() is not None:
        w.advance(1)  # a frame of the current job must come (no deadlock)
        qtbot.waitUntil(
            lambda: (
                ("Cannot train" in w.status.text())
                or (w.snapshot is not None and w.snapshot.generation == w.controller.generation)
            ),
            timeout=60000,
        )
        if "Cannot train" not in w.status.text():
            assert len(w.snapshot.frame.margins) == len(session.points)
    assert all(kind != "critical" for kind, _ in dialogs), dialogs
    print(f"\n{ACTIONS} actions in {seconds:.1f} s ({dict(done)}); dialogs: {len(dialogs)}")
