"""Whether this machine can draw the 3-D view, asked once: PyOpenGL importable (pyqtgraph's
OpenGL items need it) and an OpenGL context made on Qt's platform. Qt's offscreen platform
has none, and a QOpenGLWidget there only warns and stays blank: the view asks first and
says why in one line instead (the rest of the window never depends on it)."""

from __future__ import annotations

import functools

from PySide6 import QtCore, QtGui


@functools.cache
def gl_unavailable() -> str | None:
    """None when the 3-D view can be drawn; else one line saying why not."""
    try:
        import OpenGL.GL  # noqa: F401  (pyqtgraph.opengl's dependency)
    except Exception as error:  # (ImportError, or a library PyOpenGL cannot load)
        return f"The 3-D view needs PyOpenGL, which cannot be loaded here ({error})."
    context = QtGui.QOpenGLContext()
    if not context.create():
        platform = QtGui.QGuiApplication.platformName()
        return (
            f"The 3-D view needs OpenGL, and Qt's “{platform}” platform cannot make an "
            "OpenGL context here; the rest of the window works without it."
        )
    return None


def share_contexts() -> None:
    """Every OpenGL context in one share group, asked before the QApplication is made:
    pyqtgraph.opengl compiles its shaders once per process, so a second context (a second
    window's 3-D view) must see the first one's programs."""
    if QtCore.QCoreApplication.instance() is None:
        QtCore.QCoreApplication.setAttribute(QtCore.Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
