"""The window's layout on a laptop (1366×768) and a 1920×1080 screen: the size it opens at,
the right-hand column (its tabs all in view, the Points table, the Generalization tab's
pages seen whole), a long
status message, and presentation mode's layout while it plays and after it ends (the lesson
walk of test_lesson_layout.py checks the same at a 1366×768 screen)."""

import html
import re

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import Qt

from svmviz.app.preferences import Preferences
from svmviz.core.problems import DECLARED, words
from svmviz.ui.views import tab_titles
from svmviz.ui.window import layout

LAPTOP = (1366, 768)
# a message of the exact solver's, longer than a laptop's status bar
LONG_MESSAGE = (
    "Cannot train: no exact optimum: the sigmoid kernel matrix is not positive semidefinite "
    "on these data (smallest eigenvalue -3.21), so the SVM objective is unbounded below; "
    "try a smaller gamma or a negative coef0"
)


@pytest.fixture
def laptop(make_window, qtbot):
    """A window first shown at 1366×768 (its columns sized for it)."""

    def make(**settings):
        w = make_window(**settings)
        w.setWindowState(Qt.WindowState.WindowNoState)
        w.resize(*LAPTOP)
        w.show()
        qtbot.waitUntil(lambda: w.isVisible() and w.width() == LAPTOP[0])
        settle(qtbot)
        return w

    return make


def settle(qtbot, ms: int = 300) -> None:
    qtbot.wait(ms)


def docks(w) -> dict:
    """Where each shown dock is, and the split of the curves."""
    shown = {d.objectName(): d.geometry() for d in w.findChildren(QtWidgets.QDockWidget)}
    return {k: v for k, v in shown.items() if w.findChild(QtWidgets.QDockWidget, k).isVisible()}


def plain(tooltip: str) -> str:
    return html.unescape(re.sub("<[^>]+>", "", tooltip))


# ------------------------------------------------------------------ item 14: the screen
def test_without_remembered_settings_the_window_uses_the_screen(make_window, qtbot):
    w = make_window(show=True)
    area = w.screen().availableGeometry()
    qtbot.waitUntil(lambda: w.width() >= 0.95 * area.width())
    assert w.isMaximized()
    assert w.height() >= 0.95 * area.height()


def test_a_remembered_geometry_wins(make_window, qtbot):
    w = make_window(show=True)
    w.showNormal()
    w.setGeometry(100, 80, 1000, 700)
    qtbot.waitUntil(lambda: not w.isMaximized() and w.width() == 1000)
    w.close()
    w2 = make_window(show=True)
    qtbot.waitUntil(lambda: w2.isVisible())
    assert not w2.isMaximized()
    assert (w2.width(), w2.height()) == (1000, 700)


# ------------------------------------------------------------------ item 11: status line
def test_a_long_status_message_is_readable_whole_and_keeps_the_layout(laptop, qtbot):
    w = laptop()
    w.status.setText("iteration 1   objective 1")
    settle(qtbot)
    height, plane = w.statusBar().height(), w.plot.size()
    assert not w.status.toolTip()  # (nothing to add to a message shown whole)
    w.status.setText(LONG_MESSAGE)
    settle(qtbot)
    # the window, the status bar and the plane keep their sizes
    assert w.minimumSizeHint().width() <= LAPTOP[0]
    assert w.width() == LAPTOP[0]
    assert w.statusBar().height() == height
    assert w.plot.size() == plane
    # cut where it ends, visibly, and whole in the tooltip
    shown = w.status.shown_text()
    assert shown.endswith("…") and LONG_MESSAGE.startswith(shown[:-1])
    drawn = QtGui.QFontMetrics(w.status.shown_font())  # (a little smaller first)
    assert drawn.horizontalAdvance(shown) <= w.status.contentsRect().width()
    assert plain(w.status.toolTip()) == LONG_MESSAGE
    assert w.status.text() == LONG_MESSAGE


# ------------------------------------------------------------------ item 12: the column
def assert_titles_fit(w) -> None:
    """Every shown tab bar's titles whole and in view, none scrolled away or elided."""
    bars = [b for b in w.findChildren(QtWidgets.QTabBar) if b.isVisible() and b.count()]
    assert len(bars) >= 2  # the docks' and the Generalization tab's pages
    for bar in bars:
        shown = [i for i in range(bar.count()) if bar.isTabVisible(i)]
        titles = [bar.tabText(i) for i in shown]
        room = bar.parentWidget()
        width = room.width() if isinstance(room, QtWidgets.QTabWidget) else bar.width()
        assert sum(bar.tabRect(i).width() for i in shown) <= width, titles
        for i in shown:  # in the bar's view (not scrolled out) and none elided
            rect = bar.tabRect(i)
            assert 0 <= rect.left() and rect.right() <= bar.width(), (titles, i)
            assert rect.width() > bar.fontMetrics().horizontalAdvance(bar.tabText(i))
        assert bar.font().pointSize() >= tab_titles.MIN_TAB_POINTS


def test_every_tab_title_fits_at_1920x1080(make_window, qtbot):
    w = make_window(show=True)
    qtbot.waitUntil(lambda: w.isMaximized() and w.step_dock.isVisible())
    w.docks["generalization"].raise_()
    settle(qtbot)
    assert_titles_fit(w)
    for bar in w.findChildren(QtWidgets.QTabBar):  # in the window's type: there is room
        if bar.isVisible() and bar.count() and bar.parentWidget() is w:
            assert bar.font().pointSize() == w.font().pointSize()
    names = [d.toggleViewAction().text() for d in (w.step_dock, w.docks["generalization"])]
    assert names == ["Step inspector", "Generalization"]  # the View menu's names in full


def test_every_tab_title_is_in_view_at_1366x768(laptop, qtbot):
    """Five tabs in the 300 px column: all titles seen (smaller type, not a scrolling bar),
    and again after the column is made narrower and wider."""
    w = laptop()
    w.docks["generalization"].raise_()
    settle(qtbot)
    assert_titles_fit(w)
    for width in (layout.RIGHT_MIN - 20, layout.RIGHT_MAX):
        w.resizeDocks([w.curves_dock], [width], Qt.Orientation.Horizontal)
        settle(qtbot)
        assert_titles_fit(w)


def test_the_points_table_shows_its_columns_at_1366x768(laptop, qtbot, wait_frame):
    w = laptop()
    w.docks["points"].raise_()
    w.advance(1)
    wait_frame(w, lambda s: s.t == 1)
    table = w.point_table
    qtbot.waitUntil(lambda: table.isVisible() and table.model().rowCount() > 0)
    settle(qtbot)
    header = table.horizontalHeader()
    width = table.viewport().width()
    for name in ("i", "class", "y f(x)", "slack ξ", "α"):
        c = list(table.model_.headerData(k, Qt.Orientation.Horizontal) for k in range(9)).index(
            name
        )
        left, size = header.sectionViewportPosition(c), header.sectionSize(c)
        assert 0 <= left and left + size <= width, name
        assert size > table.fontMetrics().horizontalAdvance(name), name
        text = table.model().index(0, c).data()
        assert table.fontMetrics().horizontalAdvance(text) < size, (name, text)
    assert table.viewport().height() >= 8 * table.rowHeight(0)  # 8 rows and more


def test_the_generalization_pages_are_seen_whole_at_1366x768(laptop, qtbot, wait_frame):
    """Each page of the Generalization tab (confusion matrices, ROC, learning curve, sweep)
    in one click, its plot whole without scrolling."""
    w = laptop()
    w.docks["generalization"].raise_()
    panel = w.generalization
    panel.fraction.setValue(30)
    w.run_to_budget()
    wait_frame(w, lambda s: s.status == "budget")
    area = w.docks["generalization"].widget()
    pages = panel.pages
    shown = {
        0: panel.matrices.tables[1],
        1: panel.roc.plot,
        2: panel.learning,
        3: panel.sweep,
    }
    for index, widget in shown.items():
        pages.tabBar().setCurrentIndex(index)  # (one click on its tab)
        qtbot.waitUntil(widget.isVisible)
        settle(qtbot, 100)
        assert area.verticalScrollBar().maximum() == 0, index
        assert area.horizontalScrollBar().maximum() == 0, index
        top = widget.mapTo(area.viewport(), QtCore.QPoint(0, 0)).y()
        assert top >= 0 and top + widget.height() <= area.viewport().height(), index
        assert widget.height() >= 90, index


def test_a_curve_being_computed_is_brought_to_the_front(laptop, qtbot):
    w = laptop()
    w.docks["generalization"].raise_()
    panel = w.generalization
    panel.fraction.setValue(30)  # a test set
    qtbot.waitUntil(lambda: w.session.parts() is not None)
    assert panel.pages.currentIndex() == 0
    panel.sweep_button.click()
    qtbot.waitUntil(panel.sweep.isVisible)
    assert panel.pages.currentWidget().isAncestorOf(panel.sweep)
    qtbot.waitUntil(lambda: not panel.runner.running, timeout=60000)


# ------------------------------------------------------------------ item 3: presentation
def present(w, qtbot, on: bool) -> None:
    w.set_presentation(on)
    qtbot.waitUntil(lambda: w.isFullScreen() == on)
    settle(qtbot)


def test_presentation_lines_of_any_length_leave_the_plane_and_the_curve(make_window, qtbot):
    w = make_window(show=True)
    present(w, qtbot, True)
    bar = w.presentation.bar
    bar.show_lines("t = 1 · F = 1", "")
    settle(qtbot)
    extent, curve = w.plot.view_extent(), w.curves.geometry()
    plane, height = w.plot.geometry(), bar.height()
    long_status = "t = 1,234,567 · F = 1.23457e+06 · error 12.5% · gap 1.23457e+06" * 4
    step = "Step 1234567: point 123 (a class with a long name), y f(x) = -0.123, " * 3
    bar.show_lines(long_status, step)
    settle(qtbot)
    assert w.plot.view_extent() == extent
    assert w.curves.geometry() == curve
    assert (w.plot.geometry(), bar.height()) == (plane, height)
    for label, text in ((bar.status, long_status), (bar.step, step)):
        assert label.text() == text and plain(label.toolTip()) == text  # whole on demand


def test_leaving_presentation_restores_the_docks_and_the_curves(make_window, qtbot, wait_frame):
    w = make_window(show=True, iterations=3000)
    qtbot.waitUntil(w.isMaximized)
    settle(qtbot)
    before, split, geometry = docks(w), w.curves.sizes(), w.geometry()
    present(w, qtbot, True)
    w.toggle_play()
    wait_frame(w, lambda s: s.t > 10)
    w.toggle_play()
    present(w, qtbot, False)
    qtbot.waitUntil(lambda: w.geometry() == geometry)
    settle(qtbot)
    assert docks(w) == before
    assert w.curves.sizes() == split
    assert w.curves.loss_plot.isVisible()


def test_the_remembered_layout_is_the_normal_one(make_window, qtbot):
    w = make_window(show=True)
    qtbot.waitUntil(w.isMaximized)
    settle(qtbot)
    before, split = docks(w), w.curves.sizes()
    normal = w.saveState(layout.LAYOUT_VERSION)
    present(w, qtbot, True)
    w.close()  # in presentation mode
    assert Preferences().get_bytes("layout") == normal
    w2 = make_window(show=True)
    qtbot.waitUntil(w2.isMaximized)
    settle(qtbot)
    assert not w2.isFullScreen()
    assert docks(w2) == before
    assert w2.curves.sizes() == split


def test_a_presentation_line_a_little_too_long_is_drawn_smaller_not_cut(qtbot):
    from svmviz.ui.panels.status import OneLine
    from svmviz.ui.window.presentation import SHRINK

    line = OneLine(shrink=SHRINK)
    qtbot.addWidget(line)
    font = QtGui.QFont()
    font.setPointSize(19)  # (presentation mode's size)
    font.setBold(True)
    line.setFont(font)
    text = "t = 20,000 · F = 3.531 · error 0.0% · gap 0.022"
    for excess in (1.02, 1.1, 1.25):
        line.resize(int(line.fontMetrics().horizontalAdvance(text) / excess), 40)
        line.setText(text)
        assert line.shown_text() == text, excess
        assert not line.toolTip()
    line.setText(text * 3)  # beyond what a smaller size holds: cut, and whole on demand
    assert line.is_cut()
    assert plain(line.toolTip()) == text * 3


def test_a_long_caption_presented_keeps_three_lines_and_comes_back_whole(laptop, qtbot):
    """Presenting at 1366×768, a caption is drawn smaller rather than taking the plane's
    room (scenario 08's took four lines and the plane 49%); leaving, the window's font."""
    from svmviz.ui.window.presentation import CAPTION_LINES, SHRINK

    w = laptop()
    size = w.caption.font().pointSizeF()
    present(w, qtbot, True)
    caption, presented = w.caption, w.font().pointSizeF()
    text = ""
    while caption.line_count(w.font()) <= CAPTION_LINES:  # one line more than it may take
        text += "every point pushes w. "
        w.session.set_caption(("Full-batch GD vs SGD", text))
    settle(qtbot)
    assert caption.line_count() <= CAPTION_LINES
    assert SHRINK * presented <= caption.font().pointSizeF() < presented
    line = QtGui.QFontMetrics(caption.font()).lineSpacing()
    assert caption.height() <= 2 * caption.margin() + (CAPTION_LINES + 0.5) * line
    present(w, qtbot, False)
    assert caption.font().pointSizeF() == size == w.font().pointSizeF()


def test_every_choice_of_the_solver_panel_is_whole_or_cut_with_an_ellipsis(laptop):
    """At 1366×768 "weston_watkins" was clipped mid-letter in its box: an option that does
    not fit is drawn cut with "…" (whole in its list)."""
    w = laptop()
    cut, texts = [], []
    for combo in w.panel.findChildren(QtWidgets.QComboBox):
        for i in range(combo.count()):
            text = combo.itemText(i)
            texts.append(text)
            shown, room = combo.shown_text(text)
            assert combo.fontMetrics().horizontalAdvance(shown) <= room, text
            assert shown == text or shown.endswith("…"), text
            cut += [text] if shown != text else []
    # only the registry's longer names, which are shown in words, never as identifiers
    assert set(cut) <= {words(name) for name in DECLARED}, cut
    assert not {name for name in DECLARED if "_" in name} & set(texts)
