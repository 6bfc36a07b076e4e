"""The 3-D view (issue 28): the decision function as a surface z = f(x) over the plane, or
the points lifted to φ(x) where the kernel SVM is a flat plane. Rotate with the mouse;
"Reset view" puts the camera back.

It follows training while on screen (svmviz.ui.views.draw_pace: at most every DRAW_SECONDS while
playing, and its drawings with their painting take at most a share of the GUI thread: the
plane's frames come first). Its OpenGL view (svmviz.ui.views.gl_window: a window
of its own, so that the rest is not composed through OpenGL) is made the first time the
view is shown, so a window that never shows it never makes an OpenGL context; where none
can be made (svmviz.ui.views.gl_probe), one line says why and the rest of the window works.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.palette import CLASS_COLORS
from svmviz.core.pictures.frame import data_extent, input_dim
from svmviz.core.pictures.lift import lift
from svmviz.core.pictures.rings import ringed
from svmviz.core.pictures.scene3d import lift_box, surface_box, surface_colors
from svmviz.core.pictures.surface import MAX, frame_values, heights_at, surface
from svmviz.ui.views.draw_pace import DrawPace
from svmviz.ui.views.gl_probe import gl_unavailable
from svmviz.ui.views.reading import Pace, Reading, on_screen

DRAW_SECONDS = 1 / 12  # the least time between two drawings (svmviz.ui.views.draw_pace: a drawing
# and its painting take ~13 ms, mostly pyqtgraph's Python for each item, with a GPU as with
# Mesa's llvmpipe: a drawing every ~0.3 s while training flat out)
GRID = 48  # cells a side of the surface
PAD = 0.1  # the surface's margin around the points, of their span
OUTLIERS = "#999999"  # a one-class model's outside (the plane's grey)
SURFACE, LIFT = "surface", "lift"
NO_MODEL = "Nothing to draw: no model trained yet."


class SurfaceView(QtWidgets.QWidget):
    """The view (a reading: :func:`surface_reading`)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.gl = None  # the GL view (svmviz.ui.views.gl_window.GLViewWindow), once made
        self.gl_box = None  # the widget that holds it in the column
        self.items = None  # its svmviz.ui.views.surface_items.SurfaceItems
        self.reason: str | None = None  # why there is no 3-D view here (no OpenGL)
        self.shown = ""  # what was drawn last: SURFACE, LIFT or ""
        self.scale = 1.0  # of the text (presentation mode: larger)
        self.drawn = None  # the snapshot drawn last
        self.lifted = None  # the Lift drawn last
        self.surf = None  # the Surface drawn last
        self._last = None
        self.pace = DrawPace(self, self.redraw, DRAW_SECONDS)

        self.mode = QtWidgets.QComboBox()
        self.mode.addItem("Surface f(x)", SURFACE)
        self.mode.addItem("Lift φ(x)", LIFT)
        self.mode.setToolTip(
            "Surface: f over the plane, each point at its f(x). Lift: each point at its "
            "feature vector φ(x), where the kernel SVM is a flat plane (polynomial of "
            "degree 2 or 1, linear)"
        )
        self.cls = QtWidgets.QComboBox()
        self.cls.setToolTip("A multiclass model: the largest f_k, or one class's f_k")
        for box in (self.mode, self.cls):  # (narrow: the column is the curves', not the view's)
            box.setSizeAdjustPolicy(
                QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            box.setMinimumContentsLength(12)
        self.reset = QtWidgets.QPushButton("Reset view")
        self.reset.setToolTip("The camera as the view opened (drag to rotate, wheel to zoom)")
        self.reset.clicked.connect(self.reset_camera)
        for box in (self.mode, self.cls):
            box.currentIndexChanged.connect(lambda _: self.redraw())
        row = QtWidgets.QHBoxLayout()
        for widget in (self.mode, self.cls):
            row.addWidget(widget)
        row.addStretch(1)
        row.addWidget(self.reset)
        self.message = QtWidgets.QLabel(NO_MODEL)
        self.message.setWordWrap(True)
        self.message.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.caption = QtWidgets.QLabel()
        self.caption.setWordWrap(True)
        self.caption.setToolTip(
            "Surface: each point stands at its f(x); black lines: where the plane's "
            "boundary (and margins) lie on the surface; stems: support vectors down to "
            "z = 0; the tall black mark: the step's sampled point. Lift: each point at its "
            "feature vector φ(x), the SVM's plane flat among them."
        )
        self.caption.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.column = QtWidgets.QVBoxLayout(self)
        self.column.setContentsMargins(2, 2, 2, 2)
        self.column.setSpacing(2)
        self.column.addLayout(row)
        self.column.addWidget(self.message, 1)
        self.column.addWidget(self.caption)
        self._set_classes(())

    # ------------------------------------------------------------------ OpenGL, once
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.gl is None and self.reason is None:
            self._make_gl()
            QtCore.QTimer.singleShot(0, self, self.redraw)

    def _make_gl(self) -> None:
        """The OpenGL widget and its items, or the one line saying why not."""
        self.reason = gl_unavailable()
        if self.reason is not None:
            self.message.setText(self.reason)
            self.caption.hide()
            for widget in (self.mode, self.cls, self.reset):
                widget.setEnabled(False)
            return
        from svmviz.ui.views.gl_window import gl_view
        from svmviz.ui.views.surface_items import SurfaceItems

        self.gl, self.gl_box = gl_view(self)
        self.gl_box.setMinimumSize(120, 120)
        self.column.insertWidget(1, self.gl_box, 1)
        self.items = SurfaceItems(self.gl)
        self.items.set_scale(self.scale)
        self.gl_box.hide()

    def reset_camera(self) -> None:
        if self.items is not None:
            self.items.reset_camera()

    # ------------------------------------------------------------------ the public part
    def show_snapshot(self, snap, inputs, flat_out: bool = False) -> None:
        """Draw ``snap``'s model; ``inputs()`` gives, when it is drawn (never for a frame
        while the view is off screen), the plane's points (Dataset; its y the model's
        output indices), the class colour and the name of each output, and the split's
        part of each point (None: no split); ``flat_out``: training plays at full speed
        (svmviz.ui.views.draw_pace)."""
        self._last = (snap, inputs)
        if not on_screen(self):
            return  # (drawn when shown)
        if self.pace.ready(flat_out):
            self.redraw()

    def redraw(self) -> None:
        """The newest snapshot again (shown, a setting changed)."""
        self.pace.stop()
        if self._last is None or self.items is None:
            return
        self.pace.began()
        snap, inputs = self._last
        self._draw(snap, *inputs())
        self.drawn = snap
        self.pace.ended(self.gl.paint_seconds)

    def clear(self, message: str = NO_MODEL) -> None:
        self._last = None
        self.drawn = self.lifted = self.surf = None
        self.shown = ""
        self.say(message)

    def say(self, message: str) -> None:
        """One line instead of the picture."""
        if self.items is not None:
            self.items.clear()
            self.gl_box.hide()
        self.message.setText(self.reason or message)
        self.message.show()
        self.caption.clear()

    # ------------------------------------------------------------------ drawing
    def _draw(self, snap, data, colors, names, parts) -> None:
        model = snap.model
        if model is None or data is None:
            self.say(NO_MODEL)
            return
        if len(data.X) != len(snap.frame.margins):
            return  # points edited since this frame: the restarted job's frame follows
        if input_dim(model) != 2:
            self.say("The 3-D view draws models of points with two coordinates.")
            return
        self._set_classes(names if not model.single_output else ())
        k = self.cls.currentData()
        support = ringed(snap.frame, parts)  # (as the plane rings them)
        sampled = None
        if snap.step is not None and len(snap.step.samples):
            sampled = int(snap.step.samples[0])
        point_colors = _point_colors(model, data, colors)
        note = ""
        if self.mode.currentData() == LIFT:
            try:
                lifted = lift(model, data.X, 0 if k in (None, MAX) else int(k))
            except InputError as error:
                note = f"No lift: {error}."
            else:
                self.items.show_lift(lifted, lift_box(lifted), point_colors, support, sampled)
                self.lifted, self.surf, self.shown = lifted, None, LIFT
                short = f"{html.escape(lifted.words)} · grey: ⟨w, φ(x)⟩ + b = 0"
                self._show(_lift_words(lifted, model, k, names), short)
                return
        target = data.target if model.kind == "regression" else None
        values = frame_values(snap.frame, model, data.y)  # (f at the points, known)
        cls = MAX if k is None else k
        # over the points (the plane's view may be zoomed out, or in)
        s = surface(model, data.X, data_extent(data.X, PAD), GRID, cls, target, values)
        box = surface_box(s)
        fill = (colors[0], OUTLIERS) if model.kind == "one-class" else colors
        lines = _lines(snap.frame, model, cls)
        self.items.show_surface(
            s, data.X, box, surface_colors(s, model.kind, fill), point_colors, support,
            sampled, lines,
        )  # fmt: skip
        self.surf, self.lifted, self.shown = s, None, SURFACE
        words = _surface_words(s, model, box) + (f"<br>{html.escape(note)}" if note else "")
        self._show(words, _surface_words(s, model, box, short=True))

    def _show(self, words: str, short: str) -> None:
        """The picture, and under it ``words`` (``short`` at a larger scale: presenting)."""
        self.message.hide()
        self.gl_box.show()
        self.caption.setText(short if self.scale > 1 else words)
        self.caption.show()

    def set_scale(self, k: float) -> None:
        """Text at ``k`` times its size (presentation mode): the axes' names larger, the
        caption its short form."""
        self.scale = k
        if self.items is not None:
            self.items.set_scale(k)
        self.redraw()

    def _set_classes(self, names) -> None:
        """The class chooser: the largest f_k or one class's (hidden when binary)."""
        items = [("largest f_k", MAX)] + [(f"f of {n}", k) for k, n in enumerate(names)]
        have = [(self.cls.itemText(i), self.cls.itemData(i)) for i in range(self.cls.count())]
        if have != items:
            keep = self.cls.currentData()
            self.cls.blockSignals(True)
            self.cls.clear()
            for text, data in items:
                self.cls.addItem(text, data)
            at = self.cls.findData(keep)
            self.cls.setCurrentIndex(max(at, 0))
            self.cls.blockSignals(False)
        self.cls.setVisible(bool(names))


def _point_colors(model, data, colors) -> np.ndarray:
    """Each point's class colour, as GL's floats (a one-class model's points: the class's)."""
    from svmviz.ui.views.surface_items import rgba

    if model.kind in ("regression", "one-class"):
        return np.tile(rgba(colors[0]), (len(data.X), 1))
    table = np.array([rgba(c) for c in colors])
    return table[np.asarray(data.y, dtype=np.int64)]


def _lines(frame, model, cls) -> list:
    """The plane's boundary (black) and margin lines (grey) on the surface, each point at
    the surface's height there: z = 0 and ±1 for a binary f, the crease where two
    classes' f_k tie for the largest f_k."""
    out = []
    if frame.kind not in ("svc", "one-class"):
        return out
    for name, color in (("boundary", (0.0, 0.0, 0.0, 1.0)), ("margin", (0.35, 0.35, 0.35, 1.0))):
        for xy in frame.contours.get(name, []):
            xy = np.asarray(xy, dtype=float)
            if len(xy) >= 2:
                out.append((xy, heights_at(model, xy, cls), color))
    return out


def _surface_words(s, model, box, short: bool = False) -> str:
    """The caption under the surface: what the heights, lines and planes are (``short``:
    the first part only, for presentation mode)."""
    what = {"f": "f(x)", "max_k f_k": "the largest f<sub>k</sub>(x)"}.get(
        s.shown, html.escape(s.shown)
    )
    if s.tube is not None:
        parts = [f"z = f(x); grey sheets f ± {s.tube:.3g}: the tube; points at their targets"]
    elif model.kind == "one-class":
        parts = ["z = f(x); black: f = 0, the boundary; points at f(x<sub>i</sub>)"]
    elif len(s.planes) > 1:
        parts = [f"z = {what}; black: f = 0; grey planes z = 0, ±{max(s.planes):.3g} (the margins)"]
    else:
        parts = [f"z = {what}; black: the boundary, where classes tie"]
    if short:
        return parts[0]
    parts.append("ringed: support vectors")
    top = float(np.max(np.abs(s.heights), initial=0.0))
    if box.clip is not None and top > box.clip:
        parts.append(f"cut at |z| = {box.clip:.3g}")
    return " · ".join(parts)


def _lift_words(lifted, model, k, names) -> str:
    """The caption under the lift."""
    whose = ""
    if not model.single_output:
        kk = 0 if k in (None, MAX) else int(k)
        whose = f" of {html.escape(str(names[kk]))}" if names else ""
    return (
        f"{html.escape(lifted.words)} · grey: the plane ⟨w, φ(x)⟩ + b = 0{whose}, flat "
        "here, curved in the plane · ringed: support vectors"
    )


def surface_reading(view: SurfaceView) -> Reading:
    """The view as a reading: every frame while on screen (throttled by the view)."""

    def inputs(router):
        data = router.session.dataset()  # (every point, as the plane: its frame's)
        colors = [
            router.session.colors[int(c)] if int(c) < len(router.session.colors)
            else CLASS_COLORS[int(c) % len(CLASS_COLORS)]
            for c in router.present
        ]  # fmt: skip
        names = [router.session.classes[int(c)] for c in router.present]
        return data, colors, names, router.state.parts

    def show(snap, router) -> None:
        view.show_snapshot(snap, lambda: inputs(router), router.flat_out)

    return Reading(show=show, pace=Pace.FRAME, widget=view, clear=view.clear)
