"""The class bar: one button per class (its marker, colour, number key and name), the current
class checked; double click or the context menu renames or recolours it; "+" adds a class.

It says what a click places under the problem in force: a point of the current class
(svc); for one-class the same, with the word that the classes are kept but ignored; for a
regression the class buttons give way to what a click places: the input x and the target y
(1-D), or a point of the target set in the bar's field (2-D inputs, points with targets).
"""

from __future__ import annotations

import pyqtgraph as pg
from pyqtgraph.graphicsItems.ScatterPlotItem import drawSymbol
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.limits import BOUNDS
from svmviz.core.palette import MAX_CLASSES
from svmviz.ui import style
from svmviz.ui.panels.number_field import NumberField

ONE_CLASS_NOTE = "  one-class: the classes are kept but ignored (every point is one data set)"
REGRESSION_1D = "Click: a point of input x and target y (the plane: x against the target)"
REGRESSION_2D = "Click: a point at (x₁, x₂) of target"
TARGET_TIP = (
    "the target of the next point a click places: the value f should take there (the points "
    "are coloured by their targets); Enter applies it"
)


def class_icon(k: int, color: str, size: int = 22) -> QtGui.QIcon:
    """The class's marker in its colour, as the plot draws it."""
    pixmap = QtGui.QPixmap(size, size)
    pixmap.fill(QtCore.Qt.GlobalColor.transparent)
    painter = QtGui.QPainter(pixmap)
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    painter.translate(size / 2, size / 2)
    drawSymbol(painter, style.class_symbol(k), size - 6, pg.mkPen("w", width=1), pg.mkBrush(color))
    painter.end()
    return QtGui.QIcon(pixmap)


class ClassButton(QtWidgets.QToolButton):
    rename_requested = QtCore.Signal(int)

    def __init__(self, k: int, parent=None):
        super().__init__(parent)
        self.k = k
        self.setCheckable(True)
        self.setAutoRaise(True)
        self.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextBesideIcon)

    def mouseDoubleClickEvent(self, event):
        self.rename_requested.emit(self.k)


class ClassBar(QtWidgets.QToolBar):
    """Bound to the session: shows its classes, sets its current class, renames, recolours."""

    def __init__(self, session, parent=None):
        super().__init__("Classes", parent)
        self.setObjectName("class-bar")
        self.session = session
        self.class_label = self.addWidget(QtWidgets.QLabel(" Class: "))
        self.group = QtWidgets.QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: list[ClassButton] = []
        for k in range(MAX_CLASSES):
            b = ClassButton(k)
            b.clicked.connect(lambda _=False, k=k: self.session.set_current_class(k))
            b.rename_requested.connect(self.rename)
            b.setContextMenuPolicy(QtCore.Qt.ContextMenuPolicy.CustomContextMenu)
            b.customContextMenuRequested.connect(lambda pos, b=b: self._menu(b, pos))
            self.group.addButton(b, k)
            b.action = self.addWidget(b)
            self.buttons.append(b)
        self.add_button = QtWidgets.QToolButton()
        self.add_button.setText("+")
        self.add_button.setToolTip(f"Add a class (at most {MAX_CLASSES})")
        self.add_button.clicked.connect(self.session.add_class)
        self.add_action = self.addWidget(self.add_button)
        self.kind_label = QtWidgets.QLabel()
        self.kind_action = self.addWidget(self.kind_label)
        self.target = NumberField("the target", BOUNDS["target"])
        self.target.setToolTip(f"{TARGET_TIP}; {self.target.rule()}")
        self.target.setMaximumWidth(self.target.fontMetrics().horizontalAdvance("−0.000000") + 16)
        self.target.show_value(session.current_target)
        self.target.editingFinished.connect(self._on_target)
        self.target_action = self.addWidget(self.target)
        session.classes_changed.connect(self.refresh)
        session.current_class_changed.connect(self.refresh)
        session.config_changed.connect(self.show_kind)
        session.points_changed.connect(self.show_kind)
        session.target_changed.connect(lambda: self.target.show_value(session.current_target))
        self.refresh()

    @QtCore.Slot()
    def refresh(self, *_) -> None:
        s = self.session
        for k, b in enumerate(self.buttons):
            b.action.setVisible(k < s.class_count)
            b.setText(f"{k + 1} {s.classes[k]}")
            b.setIcon(class_icon(k, s.colors[k]))
            b.setToolTip(
                f"{s.classes[k]} ({style.SYMBOL_NAMES[style.class_symbol(k)]}): key {k + 1} "
                "places points of this class; double click or right click to rename or recolour"
            )
            b.setChecked(k == s.current_class)
        self.add_action.setEnabled(s.class_count < MAX_CLASSES)
        self.show_kind()

    @QtCore.Slot()
    def show_kind(self) -> None:
        """What a click places under the problem in force (after a switch of the problem, or
        an edit that gives the points targets or takes them)."""
        s = self.session
        regression = s.kind == "regression"
        self.class_label.setVisible(not regression)
        for k, b in enumerate(self.buttons):
            b.action.setVisible(k < s.class_count and not regression)
        self.add_action.setVisible(not regression)
        if regression:
            text = REGRESSION_2D if s.has_targets else REGRESSION_1D
        else:
            text = ONE_CLASS_NOTE if s.kind == "one-class" else ""
        self.kind_label.setText(f" {text} " if text else "")
        self.kind_label.setToolTip(
            "one-class learns where the points lie, whatever their class: the classes stay "
            "with the points for a switch back to svc"
            if s.kind == "one-class"
            else ""
        )
        self.kind_action.setVisible(bool(text))
        self.target_action.setVisible(regression and s.has_targets)

    @QtCore.Slot()
    def _on_target(self) -> None:
        try:
            value = self.target.value()
        except InputError as exc:
            self.target.revert()
            self.target.setToolTip(f"{exc}. {TARGET_TIP}")
            return
        self.target.setToolTip(f"{TARGET_TIP}; {self.target.rule()}")
        if value is not None:
            self.session.set_current_target(value)

    def _menu(self, button, pos) -> None:
        menu = QtWidgets.QMenu(self)
        menu.addAction("Rename…", lambda: self.rename(button.k))
        menu.addAction("Colour…", lambda: self.recolor(button.k))
        menu.addAction(
            "Default colour",
            lambda: self.session.set_class(button.k, color=style.class_color(button.k)),
        )
        menu.popup(button.mapToGlobal(pos))

    def rename(self, k: int) -> None:
        name, ok = QtWidgets.QInputDialog.getText(
            self, "Rename class", f"Name of class {k + 1}:", text=self.session.classes[k]
        )
        if ok:
            try:
                self.session.set_class(k, name=name)
            except ValueError as exc:
                QtWidgets.QMessageBox.warning(self, "svmviz", str(exc))

    def recolor(self, k: int) -> None:
        color = QtWidgets.QColorDialog.getColor(
            QtGui.QColor(self.session.colors[k]), self, f"Colour of {self.session.classes[k]}"
        )
        if color.isValid():
            self.session.set_class(k, color=color.name())
