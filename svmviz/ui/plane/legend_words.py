"""What the plane's legend says: its entries (item or legend sample, label) in the words of
the problem in force and of the marks a DecisionPlot shows (the exact optimum, a given model,
a race, the step inspector's marks), as HTML."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from svmviz.core.lesson.support import rule
from svmviz.core.solvers.losses import MODULES
from svmviz.ui.plane.given_model import overlay_words
from svmviz.ui.plane.items import INLIER_COLOR, MARGIN_COLOR, TUBE_COLOR, FillSample, GradientSample


def legend_entries(p, k: float) -> list[tuple[object, str]]:
    """(item or legend sample, label) of the legend's entries: HTML, in the words of the
    problem in force (svmviz.core.pictures.frame's kinds; the margin ±1 or ±ρ, the ε fixed or
    learned, read from the loss module's OFFSETS) and of a binary model (f, y f) or one
    with 3+ classes (f_k, the argmax)."""
    kind, loss, has_margin, value_range = p.words
    learns = getattr(MODULES.get(loss), "OFFSETS", ())
    edge = pg.mkPen(MARGIN_COLOR, width=2 * k, style=QtCore.Qt.PenStyle.DashLine)
    if kind == "regression":
        eps = "ε (learned)" if "epsilon" in learns else "ε"
        entries = [
            (p.boundary, "f(x), the prediction of y"),
            (FillSample(TUBE_COLOR, k, edge), f"ε-tube f(x) ± {eps}: no loss inside"),
            (p.rings, f"support vectors ({rule(kind, 1.0)}): on or outside the tube"),
            (p.tube_slack, "outside the tube by |y − f(x)| − ε"),
        ]
    elif kind == "regression2d":
        entries = [
            (GradientSample(p.valued.lut, k), f"f(x), targets y: {value_range}"),
            (p.levels, "contours of f"),
            (p.rings, f"support vectors ({rule(kind, 1.0)}; larger: farther out)"),
        ]
    elif kind == "one-class":
        inlier = p._blend([INLIER_COLOR])[0]
        entries = [
            (FillSample(QtGui.QColor.fromRgb(int(inlier)), k), "f(x) ≥ 0: the inliers' region"),
            (p.boundary, "boundary f = 0"),
            (p.rings, f"support vectors ({rule(kind, 0.0)})"),
            (p.wrong, "outlier: f(x) &lt; 0"),
        ]
    else:
        entries = _svc_entries(p, has_margin, "ρ" if "rho" in learns else "1")
    parts = p.parts
    if parts is not None and np.any(parts == 1):
        entries.append((p.test_sample, "test point (not trained on)"))
    if parts is not None and np.any(parts == 2):
        entries.append((p.unused_sample, "left out of the training set"))
    if p.optimum_shown:  # one entry, two lines: the boundary above the margins
        optimum = overlay_words(kind, has_margin)
        entries.append((p.optimum_boundary, f"exact optimum: {optimum}"))
    entries += p.given.legend_entries()
    race = p.race.legend_entries()
    if race:  # run 1's entry shows the plane's own lines: named once, not twice
        entries = [e for e in entries if e[0] is not p.boundary and e[0] is not p.margin]
    entries += race
    if p._step_marks is not None:
        entries.append(p._step_marks)
    return entries


def _svc_entries(p, has_margin: bool, unit: str) -> list[tuple[object, str]]:
    """The classifier's entries: margins f = ±1 (±ρ for ν-SVC) where its loss has them."""
    multi = p.multiclass
    ring = None  # (no margin, no support vectors: every point weighs in the loss)
    if has_margin:
        ring = f"support vectors ({rule('svc', 1.0, multi, unit, html=True)})"
        if p._ring_label == "kernel":
            ring += ", larger: larger α<sub>i</sub>"
    if multi:
        entries = [
            (p.boundary, "boundaries f<sub>k</sub> = f<sub>j</sub>"),
            (p.margin, f"margins f<sub>k</sub> − f<sub>j</sub> = {unit}"),
            (p.rings, ring),
            (p.wrong, "misclassified: argmax f<sub>k</sub> ≠ y"),
        ]
    else:
        entries = [
            (p.boundary, "boundary f = 0"),
            (p.margin, f"margins f = ±{unit}"),
            (p.rings, ring),
            (p.wrong, "misclassified: on the other side"),
        ]
    return [e for e in entries if e[1] is not None and (has_margin or e[0] is not p.margin)]
