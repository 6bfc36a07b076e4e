"""The companion: one view beside the plane, in the centre of the window, both large.

The centre is a splitter: the plane's column (caption, plane, presenter's lines) and the
companion's pane (a chooser above the view). A view made the companion leaves its dock (its
widget moves into the pane; the dock hides) and goes back to it when another takes its place.
The window's state says which (``WindowState.companion``); the View menu's "Beside the plane"
entries and C (the next view) choose it; so does a view's own View menu entry where its
dock cannot show (``Companion.asked``).
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.ui.window import layout

PLANE_SHARE = 0.55  # of the centre's width, at least, for the plane (with its axes)
PRESENTING_SHARE = 0.6
# of the window's area for the plane's view box: at least (the layout's promise, 35% and
# half presenting), and more where the companion keeps its own share
PLANE_LEAST, PLANE_AREA = 0.355, 0.38
PRESENTING_LEAST, PRESENTING_AREA = 0.505, 0.54
COMPANION_AREA = 0.25  # of the window's area, at least, for the companion's pane
SHORT_BELOW = 900  # px: presenting on a shorter screen, the plane's axes go unnamed
NARROW_BELOW = 1600  # px: a window narrower gives the readings' column to the two
SAID_MS = 8000  # why a view asked for came beside the plane, in the status bar


class CompanionPane(QtWidgets.QWidget):
    """The companion's pane: the chooser (every registered view, or none) and the view."""

    chosen = QtCore.Signal(object)  # a view's name, or None

    def __init__(self, parent=None):
        super().__init__(parent)
        column = QtWidgets.QVBoxLayout(self)
        column.setContentsMargins(2, 0, 0, 0)
        column.setSpacing(0)
        row = QtWidgets.QHBoxLayout()
        row.setContentsMargins(4, 2, 4, 2)
        self.label = QtWidgets.QLabel("Beside the plane:")
        self.chooser = QtWidgets.QComboBox()
        self.chooser.setToolTip("The view beside the plane (C: the next one)")
        self.chooser.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # the keys stay the window's
        self.close_button = QtWidgets.QToolButton()
        self.close_button.setText("×")
        self.close_button.setToolTip("The plane alone (its view goes back to its tab)")
        self.close_button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.close_button.clicked.connect(lambda: self.chosen.emit(None))
        row.addWidget(self.label)
        row.addWidget(self.chooser, 1)
        row.addWidget(self.close_button)
        column.addLayout(row)
        self.header = row
        self.body = QtWidgets.QVBoxLayout()
        self.body.setContentsMargins(0, 0, 0, 0)
        column.addLayout(self.body, 1)
        self.chooser.activated.connect(lambda i: self.chosen.emit(self.chooser.itemData(i)))

    def show_header(self, shown: bool) -> None:
        """The chooser's row (hidden presenting: the view has the whole height)."""
        for i in range(self.header.count()):
            self.header.itemAt(i).widget().setVisible(shown)

    def set_choices(self, specs) -> None:
        self.chooser.clear()
        for spec in specs:
            self.chooser.addItem(spec.title, spec.name)

    def show_choice(self, name: str | None) -> None:
        i = self.chooser.findData(name)
        if i >= 0:
            self.chooser.setCurrentIndex(i)


class Companion(QtCore.QObject):
    """Keeps ``window``'s centre (a splitter of ``plane_column`` and the pane) as its state
    says: the companion's widget in the pane, the others in their docks."""

    def __init__(self, window, plane_column: QtWidgets.QWidget):
        super().__init__(window)
        self.w = window
        self.name: str | None = None
        self._folded = False  # the solver panel folded when a companion came (unfolded after)
        self.crowded = False  # the readings' column made way (a small screen)
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(plane_column)
        self.pane = CompanionPane()
        self.splitter.addWidget(self.pane)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.pane.hide()
        self.pane.chosen.connect(window.state.set_companion)
        self._resplit = QtCore.QTimer(self, singleShot=True, interval=0)
        self._resplit.timeout.connect(self.split)
        window.installEventFilter(self)
        self.splitter.installEventFilter(self)
        window.view.sigResized.connect(self._box_resized)

    def eventFilter(self, obj, event):
        """A new size of the window (its first show, full screen) or of the centre (a
        caption's lines, the docks): the split again."""
        if event.type() == QtCore.QEvent.Type.Resize and self.name is not None:
            self._resplit.start()
        return False

    def _box_resized(self, *_) -> None:
        """The plane's box made shorter under its share (the legend's strip came below
        it): the split again, the plane wider."""
        if self.name is not None:
            least = PRESENTING_LEAST if self.w.state.presentation else PLANE_LEAST
            if layout.plane_share(self.w) < least:
                self._resplit.start()

    def set_choices(self) -> None:
        self.pane.set_choices(list(self.w.specs.values()))

    def apply(self, name: str | None) -> None:
        """``name``'s view beside the plane (None or an unknown name: the plane alone)."""
        w = self.w
        name = name if name in w.docks else None
        if name == self.name:
            return
        old, self.name = self.name, name
        if old is not None:  # back to its dock, shown as the state says
            widget = w.made[old].widget
            self.pane.body.removeWidget(widget)
            placeholder = w.docks[old].widget()
            w.docks[old].setWidget(widget)
            placeholder.deleteLater()
            w.view_docks.place_dock(old)
        strip = w.solver_strip
        if name is None:
            self.pane.hide()
            self.set_crowded(False)
            self.split()  # (the plane's axes named again)
            if self._folded:
                strip.fold(False)
            self._folded = False
            return
        if not strip.folded and not w.state.presentation:
            strip.fold(True)  # (the plane and its companion need the room: F9 unfolds)
            self._folded = True
        dock = w.docks[name]
        widget = w.made[name].widget
        self.pane.body.addWidget(widget)
        dock.setWidget(QtWidgets.QWidget())  # (the dock keeps a placeholder while away)
        layout.take_out(w, dock)
        widget.show()
        self.pane.show_choice(name)
        self.pane.show()
        self.split()
        w.frames.bring(name)  # the current state, whatever it was drawing before

    def split(self) -> None:
        """The plane and the companion side by side: the companion's pane at least
        COMPANION_AREA of the window, the plane's view box PLANE_AREA (PRESENTING_AREA
        presenting) where that leaves room, and never under PLANE_LEAST (PRESENTING_LEAST);
        the plane PLANE_SHARE of the centre if that is more. Presenting on a short screen,
        the plane's axes go unnamed to make the room."""
        w = self.w
        presenting = w.state.presentation
        short = presenting and self.name is not None and w.height() < SHORT_BELOW
        w.plot.name_axes(not short)
        if self.name is None:
            return
        self.set_crowded(not presenting and w.width() < NARROW_BELOW)
        w.plot.plotItem.layout.activate()  # (the axes' names in or out: the box's height)
        width = max(2, self.splitter.width() - self.splitter.handleWidth())
        window = w.width() * w.height()
        least = math.ceil(COMPANION_AREA * window / max(1, self.splitter.height()))
        plane = int((PRESENTING_SHARE if presenting else PLANE_SHARE) * width)
        box = w.view.sceneBoundingRect()
        if box.height() > 0 and w.plot.width() > 0:
            aim, floor = (
                (PRESENTING_AREA, PRESENTING_LEAST) if presenting else (PLANE_AREA, PLANE_LEAST)
            )
            overhead = w.plot.width() - box.width()

            def pixels(share: float) -> int:  # (the plane's column for its box at share)
                return int(share * window / box.height() + overhead) + 2

            plane = max(min(max(plane, pixels(aim)), width - least), pixels(floor))
        plane = max(0, min(plane, width - 2))
        self.splitter.setSizes([plane, width - plane])
        self.pane.setMinimumWidth(min(least, width // 3))

    def set_crowded(self, crowded: bool) -> None:
        """On a small screen the readings' column makes way for the plane and its companion
        (their docks hidden, not turned off: the chooser or a dock's View menu entry shows
        any of them beside the plane; they come back with the plane alone)."""
        if crowded != self.crowded:
            self.crowded = crowded
            self.w.view_docks.place_docks()
            self.splitter.parentWidget().layout().activate()
            if not crowded and self.w.curves_dock.isVisible():
                layout.size_columns(self.w)  # (back at the default widths and split)

    def asked(self, name: str) -> None:
        """``name``'s dock turned on from the View menu: where the centre keeps that dock
        hidden (its view is beside the plane, or the readings' column makes way) the view
        comes beside the plane instead of an empty or squeezing dock, and the status bar
        says why."""
        if name != self.name and not self.crowded:
            return
        w, title = self.w, self.w.specs[name].menu_text
        if name == self.name:
            said = f"{title} is beside the plane already (×: back to its dock)"
        else:
            said = f"{title} beside the plane (under {NARROW_BELOW:,} px wide: no readings' column)"
        w.state.set_companion(name)
        w.view_docks.place_dock(name)  # (the dock Qt showed, hidden: its view is in the pane)
        # (over the status line for a while, as a menu entry's tip: a frame rewrites the line)
        w.statusBar().showMessage(said, SAID_MS)

    def cycle(self) -> None:
        """The next registered view beside the plane (after the last: the plane alone)."""
        order = [*self.w.specs, None]
        i = order.index(self.name) if self.name in order else len(order) - 1
        self.w.state.set_companion(order[(i + 1) % len(order)])


def companion_menu(window, menu: QtWidgets.QMenu) -> None:
    """View ▸ Beside the plane: none or each registered view (its shortcut), and C for the
    next; and the solver panel folded to a strip (F9)."""
    sub = menu.addMenu("Beside the plane")
    group = QtGui.QActionGroup(window)
    entries = {}
    for spec in [None, *window.specs.values()]:
        name = None if spec is None else spec.name
        entry = sub.addAction("Nothing (the plane alone)" if spec is None else spec.menu_text)
        entry.setCheckable(True)
        entry.setActionGroup(group)
        if spec is not None:
            entry.setToolTip(f"{spec.menu_text} beside the plane; it draws {spec.draws}")
            entry.setStatusTip(entry.toolTip())
            if spec.shortcut:
                entry.setShortcut(QtGui.QKeySequence(spec.shortcut))
                window.addAction(entry)  # (its shortcut works with the menu bar hidden too)
        entry.triggered.connect(lambda _=False, name=name: window.state.set_companion(name))
        entries[name] = entry
    entries[window.state.companion if window.state.companion in entries else None].setChecked(True)
    window.state.companion_changed.connect(
        lambda name: entries.get(name if name in entries else None).setChecked(True)
    )
    sub.addSeparator()
    cycle = sub.addAction("Next view beside the plane", window.companion.cycle)
    cycle.setShortcut(QtGui.QKeySequence("C"))
    window.addAction(cycle)
    fold = menu.addAction("Fold the solver panel to a strip")
    fold.setCheckable(True)
    fold.setShortcut(QtGui.QKeySequence("F9"))
    fold.setToolTip("The solver panel as a thin strip at the left: the plane's room (F9)")
    fold.toggled.connect(window.solver_strip.fold)
    window.solver_strip.folded_changed.connect(fold.setChecked)
    window.addAction(fold)


class SolverStrip(QtWidgets.QToolBar):
    """The solver panel folded: a thin strip at the window's left edge in its place; the
    panel comes back when the mouse rests on the strip, on a click, or F9."""

    folded_changed = QtCore.Signal(bool)
    HOVER_MS = 400

    def __init__(self, window, dock: QtWidgets.QDockWidget):
        super().__init__("Solver strip", window)
        self.setObjectName("solver-strip")
        self.dock = dock
        self.setMovable(False)
        self.setOrientation(QtCore.Qt.Orientation.Vertical)
        self.button = QtWidgets.QToolButton()
        self.button.setText("S\no\nl\nv\ne\nr\n\n▸")
        self.button.setToolTip("The solver panel (F9, or rest the mouse here)")
        self.button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.button.clicked.connect(lambda: self.fold(False))
        self.addWidget(self.button)
        window.addToolBar(QtCore.Qt.ToolBarArea.LeftToolBarArea, self)
        self.hide()
        self._timer = QtCore.QTimer(self, singleShot=True, interval=self.HOVER_MS)
        self._timer.timeout.connect(lambda: self.fold(False))
        self.folded = False

    def fold(self, folded: bool) -> None:
        if folded == self.folded:
            return
        self.folded = folded
        self.dock.setVisible(not folded)
        self.setVisible(folded)
        self.folded_changed.emit(folded)

    def enterEvent(self, event) -> None:
        self._timer.start()
        super().enterEvent(event)

    def leaveEvent(self, event) -> None:
        self._timer.stop()
        super().leaveEvent(event)
