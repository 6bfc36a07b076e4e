"""Tab titles whole and in view: a tab bar's type shrinks until its titles fit its width
(the dock tabs of the window's right column, the Generalization tab's pages)."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

MIN_TAB_POINTS = 8  # the smallest type of a tab title (a plot's tick labels are 9 pt)
TAB_SPACE = 12  # px beside a tab's title, both sides together


def fit_tab_titles(bar: QtWidgets.QTabBar) -> None:
    """Every title of ``bar`` whole and in view: the bar's type shrinks, one point at a
    time down to MIN_TAB_POINTS, until the titles fit its width (again at each resize or
    change of its tabs), and grows back where there is room."""
    bar.setElideMode(QtCore.Qt.TextElideMode.ElideNone)
    bar.setUsesScrollButtons(True)
    if bar.findChild(_FitTitles) is None:
        style = _CompactTabs(bar.style().name())
        style.setParent(bar)
        bar.setStyle(style)
        fit = _FitTitles(bar)
        bar.installEventFilter(fit)
        if isinstance(bar.parentWidget(), QtWidgets.QTabWidget):
            bar.parentWidget().installEventFilter(fit)
    _fit(bar)


class _CompactTabs(QtWidgets.QProxyStyle):
    """Tabs with less room around their titles than the style's (24 px): five titles in
    a 300 px column."""

    def pixelMetric(self, metric, option=None, widget=None):
        if metric == QtWidgets.QStyle.PixelMetric.PM_TabBarTabHSpace:
            return TAB_SPACE
        return super().pixelMetric(metric, option, widget)


def _titles_width(bar: QtWidgets.QTabBar) -> int:
    return sum(bar.tabSizeHint(i).width() for i in range(bar.count()) if bar.isTabVisible(i))


def _room(bar: QtWidgets.QTabBar) -> int:
    """The width the titles have (a tab widget's bar is as wide as its tabs; a dock
    area's spans the area)."""
    parent = bar.parentWidget()
    return (parent.width() if isinstance(parent, QtWidgets.QTabWidget) else bar.width()) - 2


def _fit(bar: QtWidgets.QTabBar) -> None:
    parent = bar.parentWidget()
    full = (parent.font() if parent is not None else QtGui.QFont()).pointSize()
    if full <= 0 or _room(bar) <= 0:
        return
    room = _room(bar)
    size = full
    font = QtGui.QFont(bar.font())
    while size > MIN_TAB_POINTS:
        font.setPointSize(size)
        bar.setFont(font)
        if _titles_width(bar) <= room:
            break
        size -= 1
    font.setPointSize(size)
    if bar.font().pointSize() != size:
        bar.setFont(font)


class _FitTitles(QtCore.QObject):
    """Fits its bar's titles when the bar is resized or its tabs change."""

    def __init__(self, bar: QtWidgets.QTabBar):
        super().__init__(bar)
        self.bar = bar
        self.busy = False
        self.width = -1
        self.titles: tuple = ()

    def eventFilter(self, obj, event):
        kind = event.type()
        if not self.busy and kind in (QtCore.QEvent.Type.Resize, QtCore.QEvent.Type.LayoutRequest):
            bar = self.bar
            titles = tuple(bar.tabText(i) for i in range(bar.count()) if bar.isTabVisible(i))
            if _room(bar) != self.width or titles != self.titles:
                self.width, self.titles = _room(bar), titles
                self.busy = True
                try:
                    _fit(bar)
                finally:
                    self.busy = False
        return False
