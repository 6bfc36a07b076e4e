"""The hover readout: f(x) (or every f_k(x)) under the mouse, and for kernel models lines to
the support vectors that contribute most to it (svmviz.core.readout)."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from svmviz.core.readout import readout


class HoverReadout:
    def __init__(self, plot):
        self.plot = plot
        self.text = pg.TextItem(anchor=(0, 1), color="k", fill=pg.mkBrush(255, 255, 255, 230),
                                border=pg.mkPen((80, 80, 80)))  # fmt: skip
        self.links = pg.PlotCurveItem(
            pen=pg.mkPen((60, 60, 60), width=1.5, style=QtCore.Qt.PenStyle.DashLine),
            connect="finite",
        )
        for item in (self.links, self.text):
            item.setZValue(30)
            plot.addItem(item, ignoreBounds=True)
        self.position = None
        self.hide()

    def hide(self) -> None:
        self.text.hide()
        self.links.hide()

    def show_at(self, pos, model, class_names) -> None:
        """The readout at data point ``pos`` (None hides it) of ``model`` (None: no model)."""
        self.position = pos
        if pos is None or model is None:
            self.hide()
            return
        r = readout(model, pos)
        name = [html.escape(str(c)) for c in class_names]
        if len(r.values) == 1:
            rows = [f"f(x) = {r.values[0]:.3g} → <b>{name[r.predicted]}</b>"]
        else:
            rows = [f"f<sub>{name[k]}</sub>(x) = {v:.3g}" for k, v in enumerate(r.values)]
            rows.append(f"argmax → <b>{name[r.predicted]}</b>")
        if len(r.shares):
            rows.append("largest terms α<sub>j</sub> k(x<sub>j</sub>, x): "
                        + ", ".join(f"{v:+.2g}" for v in r.shares))  # fmt: skip
            xy = []
            for sv in r.support:
                xy += [r.x, sv, [np.nan, np.nan]]
            xy = np.array(xy)
            self.links.setData(xy[:, 0], xy[:, 1])
            self.links.show()
        else:
            self.links.hide()
        self.text.setHtml('<span style="font-size:11pt">' + "<br>".join(rows) + "</span>")
        # beside the cursor, on the side of the view with room (the text is anchored by its
        # bottom-left corner; moving it is more reliable than TextItem's anchor changes)
        (x0, x1), (y0, y1) = self.plot.view.viewRange()
        px, py = self.plot.view.viewPixelSize()
        rect = self.text.textItem.boundingRect()
        x, y = float(pos[0]) + 8 * px, float(pos[1]) + 8 * py
        if pos[0] > 0.5 * (x0 + x1):
            x = float(pos[0]) - (rect.width() + 8) * px
        if pos[1] > 0.5 * (y0 + y1):
            y = float(pos[1]) - (rect.height() + 8) * py
        pos = (x, y)
        self.text.setPos(float(pos[0]), float(pos[1]))
        self.text.show()
