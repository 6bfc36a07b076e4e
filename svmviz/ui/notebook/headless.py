"""Pictures without a window (Qt's offscreen platform): `svmviz train ... --plot PLOT.png`,
and ``svmviz.plot`` and ``svmviz.animate`` in a notebook (svmviz.ui.notebook.pictures). The
window's decision plot of a model, for every problem: a regression on 1-D inputs plotted as
x against the target, on 2-D inputs as the colour map of f."""

from __future__ import annotations

import json
import os
import sys
import tempfile

import numpy as np

from svmviz.core.data import Dataset, check_window_data
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import data_extent, make_frame, plane_points
from svmviz.core.pictures.margins import problem_module
from svmviz.core.pictures.picture import check_format, check_size
from svmviz.ui.style import plot_options


def offscreen_platform(width: int, height: int) -> str:
    """A ``QT_QPA_PLATFORM`` value: Qt's offscreen platform with one screen of ``width`` ×
    ``height`` (its own is 800×800, where the window's side columns leave the plane a strip).
    For the tests and the lesson walk; it imports no Qt."""
    screen = {"name": "offscreen", "x": 0, "y": 0, "width": width, "height": height}
    screen.update(logicalDpi=96, logicalBaseDpi=96, dpr=1)
    path = os.path.join(tempfile.mkdtemp(prefix="svmviz-screen-"), "screen.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"screens": [screen]}, f)
    return f"offscreen:configfile={path}"


def picture_app():
    """The QApplication that draws the pictures: the running one (the window's, pytest-qt's),
    else a new one on Qt's offscreen platform, which needs no display (a notebook on a
    server, a terminal over ssh). ``QT_QPA_PLATFORM`` is set for that application's start
    only (an offscreen one already asked for is kept), then restored: programs started
    from here later still open their windows."""
    if "PySide6.QtWidgets" in sys.modules:  # (else no QApplication can exist yet)
        from PySide6 import QtWidgets

        app = QtWidgets.QApplication.instance()
        if isinstance(app, QtWidgets.QApplication):
            plot_options()  # (the window's)
            return app
        if app is not None:
            raise RuntimeError(
                "svmviz draws pictures with a QApplication, and this process runs a "
                f"{type(app).__name__} without widgets"
            )
    before = os.environ.get("QT_QPA_PLATFORM")
    if not (before or "").startswith("offscreen"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a picture, never a window
    try:
        from PySide6 import QtWidgets

        app = QtWidgets.QApplication(["svmviz"])
    finally:
        if before is None:
            os.environ.pop("QT_QPA_PLATFORM", None)
        else:
            os.environ["QT_QPA_PLATFORM"] = before
    plot_options()  # (the window's)
    return app


def check_plot(data: Dataset, name: str, path, width: int, height: int, scale: float) -> None:
    """Refuse, before the training, a plot that could not be drawn: its file name, size and
    scale, and data (the file ``name``) that the plane does not draw."""
    check_format(path)
    check_size(width, height, scale)
    check_window_data(data, name, "--plot", "train without --plot")


def model_title(model: Model) -> str:
    """A picture's title: the model's loss or problem, and the solver and iterations that
    trained it where the model says (svmviz.core.model_io.with_provenance)."""
    parts = [problem_module(model).NAME]
    solver = model.extra.get("solver")
    if isinstance(solver, dict) and isinstance(solver.get("algorithm"), str):
        parts.append(solver["algorithm"])
    t = model.extra.get("iterations")
    if isinstance(t, int) and not isinstance(t, bool):
        parts.append(f"{t:,} iterations")
    return ", ".join(parts)


def plot_picture(
    model: Model,
    data: Dataset,
    kind: str,
    width: int,
    height: int,
    scale: float = 1.0,
    *,
    title: str | None = None,
    extent=None,
    alpha: np.ndarray | None = None,
    classes: np.ndarray | None = None,
) -> bytes:
    """The decision plot of ``model`` on ``data`` (the points, with their labels or
    targets), as ``kind`` ("png" or "svg": vectors at the size, without the scale) bytes.
    ``extent`` (x0, x1, y0, y1): the plane's, by default the points' with a margin;
    ``alpha``: |α_i| of each point (kernel models: the rings of the support vectors);
    ``classes``: the data set's class of each of the model's (by default those with
    points)."""
    check_size(width, height, scale)
    # the points where the plane draws them (a 1-D regression's at (x, target))
    shown = Dataset(plane_points(data), data.y, data.classes)
    app = picture_app()
    from svmviz.app.session import Session
    from svmviz.ui.window.render import PlaneState, plane_twin, plot_bytes

    session = Session(shown)
    extent = data_extent(shown.X) if extent is None else tuple(float(v) for v in extent)
    state = PlaneState(
        session,
        extent,
        model,
        make_frame(model, data, extent),
        alpha,
        kernel=model.coef is None,
        title=title,
        data=data,
        classes=classes,
    )
    twin = plane_twin(state, width, height, 1.0 if kind == "svg" else scale)
    try:
        return plot_bytes(twin.getPlotItem(), f"plot.{kind}")
    finally:
        twin.deleteLater()
        app.processEvents()


def training_plot_bytes(
    result, data: Dataset, path, width: int, height: int, scale: float
) -> bytes:
    """The decision plot of ``result`` (a svmviz.core.fit.TrainResult) on ``data``, as PNG or
    SVG by the suffix of ``path`` (:func:`check_plot` passed)."""
    return plot_picture(
        result.model,
        data,
        check_format(path),
        width,
        height,
        scale,
        title=model_title(result.model),
        alpha=result.solver.training_alpha(),
    )
