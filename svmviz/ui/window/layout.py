"""Where the window's parts go: the plane in the middle (the central widget, the largest
thing on screen), the solver on the left, and on the right the curves above the tabbed
readings (Step inspector, Points, Margins, Theory, Generalization: tabs titled short enough
to fit one row in the column at 1920×1080, the View menu naming them in full). The weight
space, when on, shares the curves' area, in a tab beside them.

The plane keeps its room: every dock's content scrolls inside the dock (a long step text
never makes its dock taller), raising a tab changes no size, and the side columns take a
fixed share of the window that leaves the plane at least PLANE_SHARE of its area at
1366×768 (tested in tests/ui/test_lesson_layout.py).
"""

from __future__ import annotations

import itertools

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.ui.views.tab_titles import fit_tab_titles

# the version of the dock layout kept in the preferences: a layout saved by an older
# version (the readings below the plane) is not restored
LAYOUT_VERSION = 2
PLANE_SHARE = 0.35  # of the window's area, at least, for the plane's view box
RIGHT_SHARE = 0.22  # of the window's width, for the curves and the readings
RIGHT_MIN, RIGHT_MAX = 300, 560  # px
CURVES_SHARE = 0.55  # of the right column's height, for the curves

RIGHT = QtCore.Qt.DockWidgetArea.RightDockWidgetArea
LEFT = QtCore.Qt.DockWidgetArea.LeftDockWidgetArea


def scrolled(widget: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    """``widget`` in a frameless scroll area: a dock sized by the user, whatever it holds.
    The wheel over a plot in it scrolls the area (the plots there do not zoom)."""
    area = QtWidgets.QScrollArea()
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    wheel = _WheelScrolls(area)
    for view in widget.findChildren(QtWidgets.QGraphicsView):
        view.viewport().installEventFilter(wheel)
    return area


def bring_into_view(widget: QtWidgets.QWidget) -> None:
    """Scroll the scroll area ``widget`` is in (if any) to show it (its top part, if it is
    taller than the area), once the area's contents are laid out."""
    area = widget.parentWidget()
    while area is not None and not isinstance(area, QtWidgets.QScrollArea):
        area = area.parentWidget()
    if area is None:
        return

    def scroll() -> None:
        top = widget.mapTo(area.widget(), QtCore.QPoint(0, 0)).y()
        half = min(widget.height(), area.viewport().height()) // 2
        area.ensureVisible(0, top + half, 0, half)

    QtCore.QTimer.singleShot(0, area, scroll)


class _WheelScrolls(QtCore.QObject):
    """A wheel event over a watched widget goes to ``area``'s scroll bars instead."""

    def __init__(self, area: QtWidgets.QScrollArea):
        super().__init__(area)
        self.area = area

    def eventFilter(self, obj, event):
        if event.type() != QtCore.QEvent.Type.Wheel:
            return False
        delta = event.angleDelta()
        bar = self.area.verticalScrollBar()
        if abs(delta.x()) > abs(delta.y()):
            bar = self.area.horizontalScrollBar()
        QtCore.QCoreApplication.sendEvent(bar, event)
        return True


def side_column(panel: QtWidgets.QWidget, max_width: int = 420) -> QtWidgets.QScrollArea:
    """``panel`` scrolling vertically, wide enough for every control in it (with room for
    the scroll bar), at most ``max_width``."""
    scroll = QtWidgets.QScrollArea()
    scroll.setWidget(panel)
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll.setMinimumWidth(
        panel.minimumSizeHint().width()
        + scroll.verticalScrollBar().sizeHint().width()
        + 2 * scroll.frameWidth()
    )
    scroll.setMaximumWidth(max_width)
    return scroll


def dock(
    window, title: str, name: str, widget, area=RIGHT, menu: str | None = None
) -> QtWidgets.QDockWidget:
    """A dock of ``widget`` titled ``title`` (its tab's text), shown and hidden by an action
    named ``menu`` (by default the title) in the View menu."""
    d = QtWidgets.QDockWidget(title, window)
    if menu is not None:
        d.toggleViewAction().setText(menu)
    d.setObjectName(name)
    d.setWidget(widget)
    d.setFeatures(d.features() & ~QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetFloatable)
    window.addDockWidget(area, d)
    return d


def arrange_readings(window, docks) -> None:
    """The reading docks tabbed together below the curves dock, the first in front."""
    window.splitDockWidget(window.curves_dock, docks[0], QtCore.Qt.Orientation.Vertical)
    for before, after in itertools.pairwise(docks):
        window.tabifyDockWidget(before, after)
    docks[0].raise_()


def place_beside_curves(window, dock, on: bool) -> None:
    """``dock`` in front of the curves, sharing their area (the column's larger part: a
    plot of its own needs room), or hidden in a place of its own when off (hidden in the
    curves' tab group, it would leave a tab bar of one tab; out of the layout, a restored
    layout would bring it back)."""
    tabbed = dock in window.tabifiedDockWidgets(window.curves_dock)
    if not on:
        if tabbed:
            window.removeDockWidget(dock)
            window.addDockWidget(RIGHT, dock)
            hide_stale_tab_bars(window)
        dock.hide()
        return
    if not tabbed:
        window.tabifyDockWidget(window.curves_dock, dock)
    dock.show()
    dock.raise_()
    show_tab_bar(window, dock)


def show_tab_bar(window, dock) -> None:
    """The tab bar of ``dock``'s group on screen (Qt reuses a bar hide_stale_tab_bars hid
    when a group forms again, and leaves it hidden)."""
    title = dock.windowTitle()
    for bar in window.findChildren(QtWidgets.QTabBar):
        titles = [bar.tabText(i) for i in range(bar.count())]
        if bar.parent() is window and bar.count() > 1 and title in titles:
            bar.show()


def place_in_tabs(window, dock, anchor, on: bool) -> None:
    """``dock`` among the readings' tabs (those of ``anchor``), or hidden: back in their
    group when it was taken out of it (a view beside the plane)."""
    if not on:
        dock.hide()
        return
    if anchor is not dock and dock not in window.tabifiedDockWidgets(anchor):
        window.tabifyDockWidget(anchor, dock)
    dock.show()
    show_tab_bar(window, dock)


def take_out(window, dock) -> None:
    """``dock`` out of its tab group and hidden (its view goes beside the plane; a hidden
    dock left in a group keeps a tab bar of the group on screen)."""
    window.removeDockWidget(dock)
    window.addDockWidget(RIGHT, dock)
    dock.hide()
    hide_stale_tab_bars(window)


def arrange_toolbars(
    window, training: QtWidgets.QToolBar, points: QtWidgets.QToolBar, first_edit: QtGui.QAction
) -> None:
    """The training controls on the menu bar's row (not a row of their own: that height is
    the plane's), and what edits the points, from ``first_edit`` on, beside the classes."""
    actions = training.actions()
    start = actions.index(first_edit)
    points.addSeparator()
    for action in actions[start:]:
        training.removeAction(action)
        points.addAction(action)
    for action in actions[:start][::-1]:  # no separator left at the row's end
        if not action.isSeparator():
            break
        training.removeAction(action)
    training.setMovable(False)
    window.menuBar().setCornerWidget(training, QtCore.Qt.Corner.TopRightCorner)
    training.show()


def restore(window, state) -> bool:
    """A layout saved by saveState (of this LAYOUT_VERSION; False for another)."""
    if state is None or not window.restoreState(state, LAYOUT_VERSION):
        return False
    whole_tab_titles(window)  # (the dock tab bars are made anew)
    return True


def use_screen(window) -> None:
    """The window over the whole of its screen (maximized, over the available area when it
    is un-maximized): the default size, where no geometry is remembered."""
    screen = window.screen() or QtGui.QGuiApplication.primaryScreen()
    area = screen.availableGeometry()
    window.resize(area.size())  # (the columns are sized for it at the first show)
    window.move(area.topLeft())
    window.setWindowState(window.windowState() | QtCore.Qt.WindowState.WindowMaximized)


def right_width(window_width: int) -> int:
    return max(RIGHT_MIN, min(RIGHT_MAX, int(RIGHT_SHARE * window_width)))


def size_columns(window) -> None:
    """The side columns at their default widths for the window's size (the plane takes
    the rest), and the curves above the readings."""
    width, height = window.width(), window.height()
    solver = window.solver_dock.widget().minimumWidth()
    window.resizeDocks(
        [window.solver_dock, window.curves_dock],
        [solver, right_width(width)],
        QtCore.Qt.Orientation.Horizontal,
    )
    column = max(200, height - 120)
    curves = int(CURVES_SHARE * column)
    window.resizeDocks(
        [window.curves_dock, window.step_dock],
        [curves, column - curves],
        QtCore.Qt.Orientation.Vertical,
    )
    whole_tab_titles(window)


def hide_stale_tab_bars(window) -> None:
    """Hide the dock tab bars the window's layout left behind: a dock taken out of a tab
    group and docked again (the weight space, below the curve when presenting) can leave
    the group's old bar on screen, its tabs naming docks that are no longer tabbed."""
    docks = {d.windowTitle(): d for d in window.findChildren(QtWidgets.QDockWidget)}
    for bar in window.findChildren(QtWidgets.QTabBar):
        if bar.parent() is not window or bar.count() < 2:
            continue
        group = [docks.get(bar.tabText(i)) for i in range(bar.count())]
        first = group[0]
        tabbed = first is not None and all(
            d is not None and d in window.tabifiedDockWidgets(first) for d in group[1:]
        )
        if not tabbed:
            bar.hide()


def whole_tab_titles(window) -> None:
    """The dock tabs' titles in full and all of them in view: in smaller type where the
    column is narrow (fit_tab_titles), the bar scrolling only below MIN_TAB_POINTS (Qt
    elides them to "P…" and "M…" in a narrow column)."""
    for bar in window.findChildren(QtWidgets.QTabBar):
        fit_tab_titles(bar)


def plane_share(window) -> float:
    """The plane's view box (where the data are drawn) as a share of the window's area."""
    view = window.view
    if not view.isVisible():
        return 0.0
    rect = view.mapRectToScene(view.boundingRect())
    top_left = window.plot.mapTo(window, window.plot.mapFromScene(rect.topLeft()))
    bottom_right = window.plot.mapTo(window, window.plot.mapFromScene(rect.bottomRight()))
    area = max(0, bottom_right.x() - top_left.x()) * max(0, bottom_right.y() - top_left.y())
    return area / float(window.width() * window.height())


def companion_share(window) -> float:
    """The companion's pane beside the plane as a share of the window's area (0: none)."""
    pane = window.companion.pane
    if not pane.isVisible():
        return 0.0
    return pane.width() * pane.height() / float(window.width() * window.height())


class _FirstShow(QtCore.QObject):
    def __init__(self, window, size: bool):
        super().__init__(window)
        self.size = size

    def eventFilter(self, obj, event):
        if event.type() == QtCore.QEvent.Type.Show:
            obj.removeEventFilter(self)
            obj.layout().activate()  # (the docks' sizes are known before the first paint)
            size_columns(obj) if self.size else whole_tab_titles(obj)
        return False


def when_shown(window, size: bool) -> None:
    """Once the window is first shown (at its real size): the default column widths
    (``size``; not after a remembered layout is restored) and whole tab titles."""
    window.installEventFilter(_FirstShow(window, size))
