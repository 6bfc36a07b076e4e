"""The mouse on the plane and files dropped on the window.

A left click places a point of the current class, a right click removes the nearest point
(dragging and selecting: svmviz.ui.plane.point_editor); the hover readout follows the mouse,
except while a drag moves points or draws the selection band. A session or CSV dropped on
the window opens.
"""

from __future__ import annotations

from PySide6 import QtCore

from svmviz.ui.window.files import Files


class PlaneInput(QtCore.QObject):
    """Clicks edit the ``session``'s points; the mouse's position goes to ``show_hover``
    (a data point (x, y), or None to hide the readout); ``point_hovered`` says which point
    is under the mouse (its index, −1: none) when that changes."""

    point_hovered = QtCore.Signal(int)

    def __init__(self, plot, session, show_hover, parent=None):
        super().__init__(parent)
        self.plot, self.session, self._show_hover = plot, session, show_hover
        self.hovered = -1
        plot.scene().sigMouseClicked.connect(self._on_click)
        plot.scene().sigMouseMoved.connect(self._on_moved)
        plot.mouse_left.connect(self._on_left)

    @QtCore.Slot(object)
    def _on_moved(self, scene_pos) -> None:
        pos = self.plot.data_at(scene_pos)
        if self.plot.view.dragging:
            pos = None  # moving or selecting points: no readout in the way
        self._show_hover(None if pos is None else (pos.x(), pos.y()))
        picked = None if pos is None else self.plot.view.pick(pos)
        self._hover(-1 if picked is None else picked)

    def _on_left(self) -> None:
        self._show_hover(None)
        self._hover(-1)

    def _hover(self, i: int) -> None:
        if i != self.hovered:
            self.hovered = i
            self.point_hovered.emit(i)

    @QtCore.Slot(object)
    def _on_click(self, event) -> None:
        # the keyboard leaves a field of the solver panel (which would otherwise keep Space,
        # the arrows and the digits): they act on the training and the classes again
        self.plot.setFocus(QtCore.Qt.FocusReason.MouseFocusReason)
        pos = self.plot.data_at(event.scenePos())
        if pos is None or not self.plot.view.editable:
            return
        if event.button() == QtCore.Qt.MouseButton.LeftButton:
            self.session.add_point(pos.x(), pos.y())
        elif event.button() == QtCore.Qt.MouseButton.RightButton:
            i = self.plot.view.pick(pos)
            if i is not None:
                self.session.delete_points([i])
        event.accept()


class DropOpener(QtCore.QObject):
    """Opens (with ``open_path``) a file dropped on ``window``."""

    def __init__(self, window, open_path):
        super().__init__(window)
        self._open_path = open_path
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def eventFilter(self, obj, event):
        kind = event.type()
        if kind == QtCore.QEvent.Type.DragEnter:
            if Files.dropped_file(event.mimeData()) is not None:
                event.acceptProposedAction()
                return True
        elif kind == QtCore.QEvent.Type.Drop:
            path = Files.dropped_file(event.mimeData())
            if path is not None:
                event.acceptProposedAction()
                # after the drop returns: the prompt and any dialog must not hold the drag
                # source
                QtCore.QTimer.singleShot(0, lambda: self._open_path(path))
                return True
        return False
