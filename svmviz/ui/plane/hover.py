"""The hover readout: f(x) (or every f_k(x)) under the mouse in the words of the problem (a
classifier's class, a regression's prediction and, on 1-D inputs, where the point under the
mouse is against the ε-tube, one-class's inlier or outlier), and for kernel models lines to
the support vectors that contribute most to it (svmviz.core.lesson.point_readout)."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from svmviz.core.lesson.point_readout import readout
from svmviz.core.model_io import OUTCOMES
from svmviz.core.pictures.frame import input_dim

GAP = 14  # pixels (at scale 1) between the cursor and the readout: clear of a point there


def place_box(cursor, size, area, gap, avoid=None):
    """Top-left corner of a box of ``size`` (w, h) beside ``cursor`` (x, y), inside ``area``
    (x0, y0, x1, y1), all in pixels with y down: above right of the cursor if it fits, else
    flipped to the left and/or below; a box that fits neither side is pushed inside the area
    with the cursor above or below it (never under it). ``avoid`` (a rectangle like
    ``area``, e.g. the legend) is kept clear where a position allows."""
    (cx, cy), (w, h), (x0, y0, x1, y1) = cursor, size, area
    xs = (cx + gap, cx - gap - w)  # right, left
    ys = (cy - gap - h, cy + gap)  # above, below

    def inside(x, y):
        return x >= x0 and y >= y0 and x + w <= x1 and y + h <= y1

    def clear(x, y):
        return avoid is None or (
            x + w <= avoid[0] or x >= avoid[2] or y + h <= avoid[1] or y >= avoid[3]
        )

    corners = [(x, y) for y in ys for x in xs]
    for ok in (lambda x, y: inside(x, y) and clear(x, y), inside):
        for x, y in corners:
            if ok(x, y):
                return x, y
    # too wide for either side: above or below the cursor, pushed inside horizontally
    x = min(max(cx - w / 2, x0), max(x1 - w, x0))
    y = ys[0] if ys[0] >= y0 else ys[1] if ys[1] + h <= y1 else min(max(ys[0], y0), y1 - h)
    return x, y


class HoverReadout:
    def __init__(self, plot):
        self.plot = plot
        # the text is a child of the view box (pixels; above the points and the legend), the
        # links are in data coordinates among the points
        self.text = pg.TextItem(
            anchor=(0, 0),
            color="k",
            fill=pg.mkBrush(255, 255, 255, 235),
            border=pg.mkPen((80, 80, 80)),
        )
        self.text.setParentItem(plot.view)
        self.links = pg.PlotCurveItem(
            pen=pg.mkPen((60, 60, 60), width=1.5, style=QtCore.Qt.PenStyle.DashLine),
            connect="finite",
        )
        self.links.setZValue(30)
        plot.addItem(self.links, ignoreBounds=True)
        self.text.setZValue(30)
        self.position = None
        self.hide()
        # the mouse leaving the plot's viewport (into an axis, a dock, another window) hides
        # the readout, whichever widget Qt tells
        self._leave = _LeaveFilter(self.forget, plot)
        plot.viewport().installEventFilter(self._leave)

    def hide(self) -> None:
        self.text.hide()
        self.links.hide()

    def forget(self) -> None:
        """The mouse left: no readout until it comes back."""
        self.position = None
        self.hide()

    def cursor_inside(self) -> bool:
        """Whether the mouse pointer is over the plot's viewport now."""
        viewport = self.plot.viewport()
        return viewport.rect().contains(viewport.mapFromGlobal(QtGui.QCursor.pos()))

    def show_at(self, pos, model, class_names) -> None:
        """The readout at data point ``pos`` (None hides it) of ``model`` (None: no model)."""
        self.position = pos
        if pos is None or model is None:
            self.hide()
            return
        pos = np.asarray(pos, dtype=float)
        one_d = input_dim(model) == 1  # a regression on 1-D inputs: x, and y the target
        r = readout(model, pos[:1] if one_d else pos)
        rows = self.rows(r, model, class_names, pos)
        if len(r.shares):
            rows.append(
                "largest terms α<sub>j</sub> k(x<sub>j</sub>, x): "
                + ", ".join(f"{v:+.2g}" for v in r.shares)
            )
            support = r.support
            if one_d:  # the support vectors where the plane draws them: (x_j, y_j)
                X = self.plot.session.points.X
                if len(X):
                    nearest = np.abs(X[None, :, 0] - support[:, :1]).argmin(axis=1)
                    support = X[nearest]
                else:
                    support = np.zeros((0, 2))
            xy = []
            for sv in support:
                xy += [pos, sv, [np.nan, np.nan]]
            xy = np.array(xy)
            self.links.setData(xy[:, 0], xy[:, 1])
            self.links.show()
        else:
            self.links.hide()
        size = round(11 * getattr(self.plot, "scale", 1.0))
        self.text.setHtml(f'<span style="font-size:{size}pt">' + "<br>".join(rows) + "</span>")
        self.place(pos)
        self.text.show()

    @staticmethod
    def rows(r, model, class_names, pos) -> list[str]:
        """The readout's lines (HTML) of ``r`` (svmviz.core.lesson.point_readout.Readout) at the
        plane's point ``pos``: the classes' f, a regression's prediction, one-class's verdict."""
        if model.kind == "regression":
            f = float(r.values[0])
            rows = [f"f(x) = {f:.3g}: the predicted y"]
            if len(r.x) == 1:  # the plane's y is a target: where it is against the tube
                eps = float(model.epsilon or 0.0)
                gap = float(pos[1]) - f
                where = "inside" if abs(gap) <= eps else "outside"
                rows.append(f"here y − f(x) = {gap:.3g}: {where} the tube (ε = {eps:.3g})")
            return rows
        if model.kind == "one-class":
            f = float(r.values[0])
            return [f"f(x) = {f:.3g} → <b>{OUTCOMES[int(f >= 0)]}</b>"]
        name = [html.escape(str(c)) for c in class_names]
        if len(r.values) == 1:
            return [f"f(x) = {r.values[0]:.3g} → <b>{name[r.predicted]}</b>"]
        rows = [f"f<sub>{name[k]}</sub>(x) = {v:.3g}" for k, v in enumerate(r.values)]
        rows.append(f"argmax → <b>{name[r.predicted]}</b>")
        return rows

    def place(self, pos) -> None:
        """Beside the cursor at data point ``pos``, inside the view box, clear of the point
        under the cursor and, where there is room, of the legend."""
        view = self.plot.view
        cursor = view.mapFromView(QtCore.QPointF(float(pos[0]), float(pos[1])))
        rect = self.text.textItem.boundingRect()
        area = view.boundingRect()
        avoid = None
        legend = getattr(self.plot, "legend", None)
        if legend is not None and legend.isVisible():
            r = view.mapRectFromScene(legend.sceneBoundingRect())
            avoid = (r.left(), r.top(), r.right(), r.bottom())
        gap = GAP * getattr(self.plot, "scale", 1.0)
        box = (area.left(), area.top(), area.right(), area.bottom())
        x, y = place_box((cursor.x(), cursor.y()), (rect.width(), rect.height()), box, gap, avoid)
        self.text.setPos(x, y)


class _LeaveFilter(QtCore.QObject):
    """Calls ``on_leave()`` when the watched widget gets a Leave event."""

    def __init__(self, on_leave, parent=None):
        super().__init__(parent)
        self._on_leave = on_leave

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QtCore.QEvent.Type.Leave:
            self._on_leave()
        return False
