"""What the plane draws over the classes (the exact optimum, a given model, a race's other
runs, the step's vectors and ball, the misclassified marks) is in no class's colour, nor one
hard to tell from it: the third class's points once looked like the optimum's green."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.app.session import Session
from svmviz.core.data import Dataset
from svmviz.core.palette import CLASS_COLORS
from svmviz.ui.plane.decision_plot import DecisionPlot
from svmviz.ui.plane.step_arrows import StepOverlay

SEPARATE = 20.0  # CIE76 ΔE: colours this far apart are told apart at a glance


def lab(color) -> np.ndarray:
    """CIELAB (D65) of a QColor."""
    rgb = np.array(color.getRgbF()[:3])
    rgb = np.where(rgb > 0.04045, ((rgb + 0.055) / 1.055) ** 2.4, rgb / 12.92)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = m @ rgb / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def overlay_colors(plot) -> dict:
    step = StepOverlay(plot)
    pens = {
        "optimum boundary": plot.optimum_boundary,
        "optimum margins": plot.optimum_margin,
        "given boundary": plot.given.boundary,
        "given margins": plot.given.margin,
        "step ball": step.ball,
        "step residual": step.outside,
        **{f"step {name}": item for name, item in step.vectors.items() if name != "w_after"},
        **{f"race run {k + 2}": item for k, item in enumerate(plot.race.boundaries)},
    }
    colors = {name: item.opts["pen"].color() for name, item in pens.items()}
    colors["misclassified"] = plot.wrong.opts["brush"].color()
    return colors


def test_no_class_colour_is_an_overlay_colour(qtbot):
    from PySide6 import QtGui

    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    plot = DecisionPlot(Session(Dataset.from_labels(X, [0, 1])))
    qtbot.addWidget(plot)
    overlays = overlay_colors(plot)
    assert len(overlays) >= 10
    close = {
        (name, cls): round(float(np.linalg.norm(lab(c) - lab(QtGui.QColor(cls)))), 1)
        for name, c in overlays.items()
        for cls in CLASS_COLORS
        if np.linalg.norm(lab(c) - lab(QtGui.QColor(cls))) < SEPARATE
    }
    assert close == {}
