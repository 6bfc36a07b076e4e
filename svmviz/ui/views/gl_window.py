"""The 3-D view's OpenGL surface: pyqtgraph's GL view as a window of its own (a
QOpenGLWindow in a container widget), not a QOpenGLWidget.

A QOpenGLWidget makes Qt compose its whole top-level window through OpenGL at every
repaint of any widget in it. Under a software renderer (Mesa's llvmpipe: a virtual
machine, a remote desktop, a classroom PC without a driver) each composition of the window
costs about a frame of the plane, so the plane lost a fifth of its frames while the 3-D
view followed training. A window swaps its own buffers; the rest stays raster-painted.
"""

from __future__ import annotations

import time

from pyqtgraph.opengl.GLViewWidget import GLViewMixin
from PySide6 import QtCore, QtGui, QtOpenGL, QtWidgets

# A window made in Python is Python's to PySide, even once a container holds it: its wrapper
# collected would delete it under the container (which then crashes, at the latest when
# the application ends, in QWindowContainer::toplevelAboutToBeDestroyed). Made as a child
# of this window that is never shown, it is C++'s: its container deletes it.
_HOLDER: list[QtGui.QWindow] = []


class GLViewWindow(GLViewMixin, QtOpenGL.QOpenGLWindow):
    """pyqtgraph's GLViewWidget (camera, mouse, items), drawn in a window; ``paints``
    counts its drawings, ``paint_seconds`` is the last one's time until its frame was
    swapped (OpenGL in software renders the picture there, on the GUI thread's watch)."""

    paints = 0
    paint_seconds = 0.0
    _painted_at = 0.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.frameSwapped.connect(self._swapped)

    def rect(self) -> QtCore.QRect:  # (pyqtgraph's text items ask their view, as a widget)
        return QtCore.QRect(0, 0, self.width(), self.height())

    def paintGL(self) -> None:
        self._painted_at = time.perf_counter()
        self.paints += 1
        super().paintGL()
        self.paint_seconds = time.perf_counter() - self._painted_at

    def _swapped(self) -> None:
        self.paint_seconds = time.perf_counter() - self._painted_at


def gl_view(parent: QtWidgets.QWidget) -> tuple[GLViewWindow, QtWidgets.QWidget]:
    """A GL view and the widget that holds it in a layout (show, hide and size that)."""
    if not _HOLDER:
        _HOLDER.append(QtGui.QWindow())
    view = GLViewWindow(parent=_HOLDER[0])
    box = QtWidgets.QWidget.createWindowContainer(view, parent)
    box.setFocusPolicy(QtCore.Qt.FocusPolicy.ClickFocus)  # (GLViewWidget's: the arrow keys)
    return view, box
