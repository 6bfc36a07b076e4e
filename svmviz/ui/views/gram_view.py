"""The kernel matrix view: K(x_i, x_j) of the training points as a heat map, ordered by
class (and by α on request), the support vectors (as the plane rings them) marked on both
axes and α_i as bars beside it (issue 28). It makes "RBF with a large γ memorizes"
visible: K → identity.

The matrix is the solver's (svmviz.core.pictures.gram_matrix) and is recomputed only when the
points, the kernel or the bias change; α changes every frame and moves only the bars and
the marks. Hovering a cell names the pair; clicking a row emits ``selected`` with that
point's index in the session and the session's point set it indexes (the session ignores
a row of a matrix drawn before an edit).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from svmviz.core.lesson.explain_kernel import point_name
from svmviz.core.palette import CLASS_COLORS
from svmviz.core.pictures.gram_matrix import GramMatrix, kernel_matrix, ordered, too_many
from svmviz.core.pictures.rings import ringed
from svmviz.ui.views.reading import Pace, Reading

MARK = 0.035  # of the side: the width of the strips where the support vectors are marked
MARK_BRUSH = (200, 30, 30)
BARS_WIDTH = 56  # px: the α bars' column


class GramView(QtWidgets.QWidget):
    """The view (a reading: :func:`gram_reading`)."""

    selected = QtCore.Signal(object, object)  # a row's point index, the session's Points

    def __init__(self, parent=None):
        super().__init__(parent)
        self.matrix: GramMatrix | None = None
        self.points: np.ndarray = np.zeros(0, dtype=np.int64)  # display row → session index
        self.of = None  # the session's Points that ``points`` indexes
        self.alpha: np.ndarray | None = None  # |α| of the training points, own order
        self.support: np.ndarray | None = None  # the support vectors among them (a mask)
        self.names: list[str] = []
        self.range = ""  # the colours' range, in the matrix's title
        self._key = None
        self._K: np.ndarray | None = None
        self._y: np.ndarray | None = None
        self._X: np.ndarray | None = None
        self._drawn = None  # (the matrix's version, the order) the image shows
        self._version = 0

        self.by_alpha = QtWidgets.QCheckBox("Order by |α| in each class")
        self.by_alpha.setToolTip("Within each class, the points with the largest |α| first")
        self.by_alpha.toggled.connect(lambda _: self._reorder())
        self.readout = QtWidgets.QLabel("Train a kernel model to see its kernel matrix.")
        self.readout.setWordWrap(True)
        top = QtWidgets.QHBoxLayout()
        top.addWidget(self.by_alpha)
        top.addStretch(1)

        self.graphics = pg.GraphicsLayoutWidget()
        self.plot = self.graphics.addPlot(row=0, col=0, enableMenu=False)
        self.bars_plot = self.graphics.addPlot(row=0, col=1, enableMenu=False)
        self.graphics.ci.layout.setColumnStretchFactor(0, 6)
        self.graphics.ci.layout.setColumnStretchFactor(1, 1)
        for p in (self.plot, self.bars_plot):
            p.invertY(True)
            p.setMouseEnabled(False, False)
            p.hideButtons()
        self.plot.setAspectLocked(True)
        for p, title in ((self.plot, "K"), (self.bars_plot, "|α_i|")):
            p.hideAxis("bottom")
            p.hideAxis("left")
            p.setTitle(title)
        self.bars_plot.setYLink(self.plot)
        self.bars_plot.setFixedWidth(BARS_WIDTH)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setLookupTable(pg.colormap.get("viridis").getLookupTable(0.0, 1.0, 256))
        self.plot.addItem(self.image)
        self.lines: list[pg.InfiniteLine] = []
        # the support vectors' marks: a cell-wide tick left of each row and above each column
        self.row_marks = pg.BarGraphItem(x0=[], y=[], height=[], width=[], brush=MARK_BRUSH)
        self.column_marks = pg.BarGraphItem(x=[], y0=[], height=[], width=[], brush=MARK_BRUSH)
        for marks in (self.row_marks, self.column_marks):
            marks.setOpts(pen=None)
            self.plot.addItem(marks)
        self.bars = pg.BarGraphItem(x0=[], y=[], height=[], width=[], pen=None)
        self.bars_plot.addItem(self.bars)

        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.graphics, 1)
        lay.addWidget(self.readout)
        self.graphics.scene().sigMouseMoved.connect(self._on_moved)
        self.graphics.scene().sigMouseClicked.connect(self._on_clicked)

    # -- data -------------------------------------------------------------------------
    def show_points(self, X, y, points, kernel, bias, alpha, names, of=None, support=None):
        """Show the training points ``X`` (classes ``y``, indices ``points`` in ``of``, the
        session's Points) under ``kernel`` and ``bias`` as the solver uses them, with |α|
        (None: a linear model) and ``support`` a mask of the support vectors among them."""
        self.names = list(names)
        self.of = of
        message = too_many(len(X))
        if message:
            self._key, self.matrix, self._K, self._drawn = None, None, None, None
            self.graphics.hide()
            self.by_alpha.setEnabled(False)
            self.readout.setText(message)
            return
        self.graphics.show()
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        key = (kernel, bias, X.shape, X.tobytes(), y.tobytes())
        if key != self._key:
            self._key = key
            self._K, self._y, self._X = kernel_matrix(kernel, X, bias), y, X
            self._version += 1
            self.readout.setText("Hover a cell for its pair; click a row to select that point.")
        self.points = np.asarray(points, dtype=np.int64)
        self.alpha = None if alpha is None else np.asarray(alpha, dtype=float)
        self.support = support
        self.by_alpha.setEnabled(self.alpha is not None)
        self._reorder()

    def clear(self) -> None:
        """No model: nothing drawn."""
        self._key, self.matrix, self._K, self.alpha = None, None, None, None
        self._drawn = None
        self.image.clear()
        self.row_marks.setOpts(x0=[], y=[], height=[], width=[])
        self.column_marks.setOpts(x=[], y0=[], height=[], width=[])
        self.bars.setOpts(x0=[], y=[], height=[], width=[])
        for line in self.lines:
            self.plot.removeItem(line)
        self.lines = []
        self.range = ""
        self.plot.setTitle("K")
        self.readout.setText("Train a kernel model to see its kernel matrix.")

    def _reorder(self) -> None:
        """Put the matrix in display order (a new order: the image and the class lines
        too; the same order: only the α bars and the support vectors' marks)."""
        if self._K is None or self._y is None:
            return
        by_alpha = self.by_alpha.isChecked() and self.alpha is not None
        g = ordered(self._K, self._y, self.alpha, by_alpha, self._X)
        self.matrix = g
        drawn = (self._version, g.order.tobytes())
        if drawn != self._drawn:
            self._drawn = drawn
            self._draw_matrix(g)
        self._draw_alpha(g)

    def _draw_matrix(self, g: GramMatrix) -> None:
        n = len(g.order)
        lo, hi = float(np.min(g.values)), float(np.max(g.values))
        if hi <= lo:
            hi = lo + 1.0
        self.image.setImage(g.values, autoLevels=False, levels=(lo, hi))
        self.image.setRect(QtCore.QRectF(0, 0, n, n))
        self.range = f"K: {lo:.2g} dark … {hi:.2g} bright"  # the colours' range
        self.plot.setTitle(self.range)
        for line in self.lines:
            self.plot.removeItem(line)
        pen = pg.mkPen(255, 255, 255, width=1.5)
        self.lines = []
        for e in g.edges:
            for angle in (0, 90):
                line = pg.InfiniteLine(pos=float(e), angle=angle, pen=pen, movable=False)
                self.plot.addItem(line)
                self.lines.append(line)
        pad = max(1.0, MARK * n) * 1.5
        self.plot.setXRange(-pad, n, padding=0)
        self.plot.setYRange(-pad, n, padding=0)

    def _draw_alpha(self, g: GramMatrix) -> None:
        n = len(g.order)
        rows = g.support(self.support)
        strip = max(1.0, MARK * n)
        ones, at = np.ones(len(rows)), rows + 0.5
        self.row_marks.setOpts(x0=-1.25 * strip * ones, y=at, height=ones, width=strip * ones)
        self.column_marks.setOpts(x=at, y0=-1.25 * strip * ones, height=strip * ones, width=ones)
        if self.alpha is None:
            self.bars.setOpts(x0=[], y=[], height=[], width=[])
            self.bars_plot.setXRange(0, 1)
            return
        a = self.alpha[g.order]
        brushes = [pg.mkBrush(CLASS_COLORS[int(k) % len(CLASS_COLORS)]) for k in g.y]
        self.bars.setOpts(
            x0=np.zeros(n), y=np.arange(n) + 0.5, height=1.0, width=a, brushes=brushes
        )
        self.bars_plot.setXRange(0, max(float(np.max(a, initial=0.0)), 1e-12), padding=0.05)

    # -- the mouse --------------------------------------------------------------------
    def cell_at(self, scene_pos) -> tuple[int, int] | None:
        """(row, column) of the display cell under ``scene_pos``, or None."""
        if self.matrix is None or not self.plot.sceneBoundingRect().contains(scene_pos):
            return None
        p = self.plot.vb.mapSceneToView(scene_pos)
        n = len(self.matrix.order)
        r, c = int(np.floor(p.y())), int(np.floor(p.x()))
        if 0 <= r < n and 0 <= c < n:
            return r, c
        return None

    def describe(self, r: int, c: int) -> str:
        """The one-line readout of display cell (r, c)."""
        g = self.matrix
        assert g is not None
        i, j = int(self.points[g.order[r]]), int(self.points[g.order[c]])
        text = f"K({point_name(i)}, {point_name(j)}) = {g.values[r, c]:.3g}"  # (as the inspector)
        if self.names:
            text += f" ({self._name(g.y[r])}, {self._name(g.y[c])})"
        return text

    def _name(self, k) -> str:
        k = int(k)
        return f"class {self.names[k]}" if 0 <= k < len(self.names) else f"class {k}"

    def _on_moved(self, pos) -> None:
        cell = self.cell_at(pos)
        if cell is not None:
            self.readout.setText(self.describe(*cell))

    def _on_clicked(self, ev) -> None:
        cell = self.cell_at(ev.scenePos())
        if cell is not None and self.matrix is not None:
            ev.accept()
            self.selected.emit(np.array([self.points[self.matrix.order[cell[0]]]]), self.of)


def gram_reading(view: GramView) -> Reading:
    """The view as a reading: while on screen, with the curves (α moves every frame; the
    matrix is recomputed only when the points or the kernel change)."""

    def show(snap, router) -> None:
        data = router.session.dataset()
        if data is None or snap.model is None:
            view.clear()
            return
        m = len(data.y)
        if len(snap.frame.margins) != m or snap.alpha is not None and len(snap.alpha) != m:
            return  # points edited since; the restarted job's frame follows
        parts = router.state.parts
        if parts is None or len(parts) != m:
            train = np.arange(m)
        else:
            from svmviz.core.lesson.generalization import TRAIN

            train = np.flatnonzero(parts == TRAIN)
        alpha = None if snap.alpha is None else snap.alpha[train]
        model = snap.model
        view.show_points(
            data.X[train],
            data.y[train],
            train,
            model.kernel,
            model.bias,
            alpha,
            list(router.session.classes),
            router.session.points,
            ringed(snap.frame, parts)[train],
        )

    return Reading(show=show, pace=Pace.VISIBLE, widget=view, clear=view.clear)
