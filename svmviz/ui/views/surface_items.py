"""What the 3-D view draws, as pyqtgraph.opengl items on one GL view: the decision
surface z = f(x) with its reference planes and the plane's boundary and margin lines on
it, or the lift (the points at φ(x) and the plane ⟨w, φ⟩ + b = 0); the points, the
support vectors ringed and stemmed to z = 0, the step's sampled point, the box and the
axes' names. The items are made once and updated per frame (setData), never rebuilt.

Imported only when OpenGL can be used (svmviz.ui.views.gl_probe): pyqtgraph.opengl needs
PyOpenGL at import.
"""

from __future__ import annotations

import itertools

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from pyqtgraph.opengl.GLViewWidget import GLViewMixin
from PySide6 import QtGui

from svmviz.core.pictures.lift import Lift
from svmviz.core.pictures.scene3d import Box, plane_in_box
from svmviz.core.pictures.surface import Surface

POINT_PX = 9  # the points' size; a support vector's ring and the sampled point's below
RING_PX = 15
SAMPLED_PX = 24
INK = (0.1, 0.1, 0.1, 1.0)  # the box, the rings, the stems, the names
PLANE = (0.45, 0.45, 0.5, 0.16)  # z = 0 and the lift's separating plane
LEVEL = (0.45, 0.45, 0.5, 0.07)  # z = ±1 (the margins' levels), the tube's sheets
SAMPLED = (0.0, 0.0, 0.0, 0.85)
# drawn over an equal depth: the points' sprites over their rings (same centres)
OVER = {GL.GL_DEPTH_TEST: True, GL.GL_BLEND: True, "glDepthFunc": (GL.GL_LEQUAL,)}
CAMERA = {"distance": 3.5, "elevation": 24, "azimuth": -62}
NAME_POINTS = 11  # the axes' names


def rgba(color: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    """A colour "#rrggbb" as GL's four floats."""
    c = QtGui.QColor(color)
    return (c.redF(), c.greenF(), c.blueF(), alpha)


def _flat(z: float, box: Box, n: int = 2):
    """A horizontal square over the box at height z (data units): x, y, Z for a surface."""
    a = np.linspace(-1.0, 1.0, n)
    return a, a, np.full((n, n), float(box.heights(z)))


def _outline(z: float) -> np.ndarray:
    """The square's edge at box height z, as a closed line."""
    return np.array([[-1, -1, z], [1, -1, z], [1, 1, z], [-1, 1, z], [-1, -1, z]], dtype=float)


def _cube_edges(h: float) -> np.ndarray:
    """The 12 edges of the box [−1, 1]² × [−h, h], as pairs of points (GL "lines")."""
    corners = np.array(list(itertools.product((-1, 1), (-1, 1), (-h, h))), dtype=float)
    pairs = [
        (i, j) for i, j in itertools.combinations(range(8), 2)
        if np.count_nonzero(corners[i] != corners[j]) == 1
    ]  # fmt: skip
    return corners[np.array(pairs).ravel()]


def _vertex_colors(colors: np.ndarray) -> np.ndarray:
    """A grid's (nx, ny, 4) colours as the mesh's one row per vertex (pyqtgraph's surface
    indexes them by its flattened vertices)."""
    return np.ascontiguousarray(colors.reshape(-1, 4), dtype=np.float32)


def _stems(bottom: np.ndarray, top: np.ndarray) -> np.ndarray:
    """Vertical segments from each ``bottom`` to its ``top`` (GL "lines")."""
    out = np.empty((2 * len(top), 3))
    out[0::2], out[1::2] = bottom, top
    return out


class SurfaceItems:
    """The items of one GL view (``view``: svmviz.ui.views.gl_window's); :meth:`show_surface` or
    :meth:`show_lift` per frame."""

    def __init__(self, view: GLViewMixin):
        self.view = view
        view.setBackgroundColor("w")
        self.surface = gl.GLSurfacePlotItem(
            shader="shaded", computeNormals=True, smooth=False, glOptions="opaque"
        )
        self.sheets = [
            gl.GLSurfacePlotItem(computeNormals=False, glOptions="translucent") for _ in range(2)
        ]
        self.levels = [  # z = 0 first, then the margins' levels
            gl.GLSurfacePlotItem(computeNormals=False, glOptions="translucent") for _ in range(3)
        ]
        self.edges = [
            gl.GLLinePlotItem(mode="line_strip", color=INK, width=1, antialias=True)
            for _ in range(3)
        ]
        self.lines = gl.GLLinePlotItem(mode="lines", width=2.5, antialias=True)
        self.plane = gl.GLMeshItem(smooth=False, glOptions="translucent")
        self.box = gl.GLLinePlotItem(
            mode="lines", color=(0.6, 0.6, 0.6, 1.0), width=1, antialias=True
        )
        self.stems = gl.GLLinePlotItem(mode="lines", color=INK, width=1.5, antialias=True)
        self.rings = gl.GLScatterPlotItem(color=INK, size=RING_PX, glOptions="opaque")
        self.points = gl.GLScatterPlotItem(size=POINT_PX, glOptions=OVER)
        self.sampled = gl.GLScatterPlotItem(color=SAMPLED, size=SAMPLED_PX, glOptions="opaque")
        self.sampled_stem = gl.GLLinePlotItem(mode="lines", color=SAMPLED, width=3)
        self.names = [gl.GLTextItem(color=(20, 20, 20)) for _ in range(3)]
        self.set_scale(1.0)
        self.rings.setDepthValue(-1)  # before the points (drawn over them at equal depth)
        self.sampled.setDepthValue(-2)
        for item in (*self.levels, *self.sheets, self.plane):  # translucent: after the rest
            item.setDepthValue(10)
        for item in self.all():
            view.addItem(item)
        self.clear()
        self.reset_camera()

    def all(self) -> list:
        return [
            self.surface, *self.sheets, *self.levels, *self.edges, self.lines, self.plane,
            self.box, self.stems, self.rings, self.points, self.sampled, self.sampled_stem,
            *self.names,
        ]  # fmt: skip

    def set_scale(self, k: float) -> None:
        """The axes' names at ``k`` times their size (presentation mode)."""
        font = QtGui.QFont()
        font.setPointSizeF(NAME_POINTS * k)
        for item in self.names:
            item.setData(font=font)

    def reset_camera(self) -> None:
        """The camera as the view opens: from the front left, a little above."""
        self.view.opts["center"] = QtGui.QVector3D(0, 0, 0)
        self.view.setCameraPosition(**CAMERA)

    def clear(self) -> None:
        for item in self.all():
            item.setVisible(False)

    # ------------------------------------------------------------------ the surface
    def show_surface(
        self, s: Surface, X, box: Box, colors, point_colors, support, sampled, lines
    ) -> None:
        """``s`` in ``box``, its points at ``X``: the grid's vertex ``colors`` ((ny, nx, 4)
        floats); each point's colour ((m, 4)); ``support`` a mask of the support vectors;
        ``sampled`` the step's point index (None); ``lines`` [(polyline (n × 2), its
        heights (n), its rgba)] in data units, drawn on the surface: the boundary and
        the margins."""
        self.clear()
        gx = (s.xs - box.center[0]) * box.scale[0]
        gy = (s.ys - box.center[1]) * box.scale[1]
        Z = box.heights(s.heights)
        self.surface.setData(
            x=gx, y=gy, z=Z.T, colors=_vertex_colors(np.transpose(colors, (1, 0, 2)))
        )
        self.surface.setVisible(True)
        for item, edge, z, color in zip(
            self.levels, self.edges, s.planes[:3], (PLANE, LEVEL, LEVEL), strict=False
        ):
            x, y, flat = _flat(z, box)
            item.setData(x=x, y=y, z=flat, colors=_vertex_colors(np.tile(color, (2, 2, 1))))
            edge.setData(pos=_outline(float(box.heights(z))))
            item.setVisible(True)
            edge.setVisible(True)
        if s.tube is not None:
            for sheet, sign in zip(self.sheets, (1, -1), strict=True):
                sheet.setData(
                    x=gx, y=gy, z=box.heights(s.heights + sign * s.tube).T,
                    colors=_vertex_colors(np.tile(LEVEL, (len(gx), len(gy), 1))),
                )  # fmt: skip
                sheet.setVisible(True)
        self._lines(lines, box)
        heights = s.point_heights if s.point_targets is None else s.point_targets
        m = len(heights)
        P = box.to_box(np.column_stack([X, heights])) if m else np.zeros((0, 3))
        self._points(P, point_colors, support, sampled, box.heights(0.0))
        self._box(box.heights(box.clip) if box.clip else 1.0)
        top = float(box.heights(box.clip)) if box.clip else 1.0
        self._names(("x₁", "x₂", s.shown), top)

    def _lines(self, lines, box: Box) -> None:
        pos, color = [], []
        for xy, z, c in lines:
            xy = np.asarray(xy, dtype=float)
            if len(xy) < 2:
                continue
            P = box.to_box(np.column_stack([xy, np.broadcast_to(z, len(xy))]))
            inside = np.all(np.abs(P[:, :2]) <= 1.0, axis=1)  # (the plane's view is wider)
            keep = inside[:-1] & inside[1:]
            if not keep.any():
                continue
            pos.append(_stems(P[:-1][keep], P[1:][keep]))  # each polyline as its segments
            color.append(np.tile(c, (2 * int(keep.sum()), 1)))
        if pos:
            self.lines.setData(pos=np.concatenate(pos), color=np.concatenate(color))
            self.lines.setVisible(True)

    # ------------------------------------------------------------------ the lift
    def show_lift(self, lifted: Lift, box: Box, point_colors, support, sampled) -> None:
        """The points at φ(x) and the plane ⟨w, φ⟩ + b = 0, in ``box``."""
        self.clear()
        P = box.to_box(lifted.points)
        polygon = plane_in_box(lifted, box)
        if polygon is not None:  # a fan of triangles from its first corner
            faces = np.array([(0, i, i + 1) for i in range(1, len(polygon) - 1)])
            self.plane.setMeshData(meshdata=gl.MeshData(vertexes=polygon, faces=faces))
            self.plane.setColor(PLANE)
            self.plane.setVisible(True)
            self.edges[0].setData(pos=np.vstack([polygon, polygon[:1]]))
            self.edges[0].setVisible(True)
        self._points(P, point_colors, support, sampled, None)
        self._box(1.0)
        self._names(lifted.names, 1.0)

    # ------------------------------------------------------------------ shared
    def _points(self, P, colors, support, sampled, floor) -> None:
        """The points at ``P`` (box coordinates); support vectors ringed (and, over a
        surface, stemmed down to the plane z = ``floor``); the sampled point marked."""
        if not len(P):
            return
        self.points.setData(pos=P, color=np.asarray(colors, dtype=float))
        self.points.setVisible(True)
        support = np.asarray(support, dtype=bool)
        if support.any():
            self.rings.setData(pos=P[support])
            self.rings.setVisible(True)
            if floor is not None:
                base = P[support].copy()
                base[:, 2] = floor
                self.stems.setData(pos=_stems(base, P[support]))
                self.stems.setVisible(True)
        if sampled is not None and 0 <= sampled < len(P):
            self.sampled.setData(pos=P[sampled : sampled + 1])
            self.sampled.setVisible(True)
            low, high = P[sampled].copy(), P[sampled].copy()
            low[2], high[2] = (floor if floor is not None else -1.0), P[sampled][2]
            self.sampled_stem.setData(pos=np.array([low, high]))
            self.sampled_stem.setVisible(True)

    def _box(self, h: float) -> None:
        self.box.setData(pos=_cube_edges(max(float(h), 0.2)))
        self.box.setVisible(True)

    def _names(self, names, top: float) -> None:
        at = ((0.0, -1.2, -top), (1.2, 0.0, -top), (-1.05, -1.05, top + 0.1))
        for item, name, pos in zip(self.names, names, at, strict=True):
            item.setData(text=str(name), pos=np.array(pos, dtype=float))
            item.setVisible(True)
