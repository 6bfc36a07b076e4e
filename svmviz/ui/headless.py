"""`svmviz train ... --plot PLOT.png`: the window's decision plot of the trained model,
rendered without a window (Qt's offscreen platform), for every problem: a regression on 1-D
inputs plotted as x against the target, on 2-D inputs as the colour map of f."""

from __future__ import annotations

import json
import os
import tempfile

from svmviz.core.data import Dataset, check_window_data
from svmviz.core.frame import data_extent, make_frame, plane_points, problem_module
from svmviz.core.picture import check_format, check_size


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


def check_plot(data: Dataset, name: str, path, width: int, height: int, scale: float) -> None:
    """Refuse, before the training, a plot that could not be drawn: its file name, size and
    scale, and data (the file ``name``) that the plane does not draw."""
    check_format(path)
    check_size(width, height, scale)
    check_window_data(data, name, "--plot", "train without --plot")


def training_plot_bytes(
    result, data: Dataset, path, width: int, height: int, scale: float
) -> bytes:
    """The decision plot of ``result`` (a svmviz.core.fit.TrainResult) on ``data``, as PNG or
    SVG by the suffix of ``path`` (:func:`check_plot` passed)."""
    # the points where the plane draws them (a 1-D regression's at (x, target))
    shown = Dataset(plane_points(data), data.y, data.classes)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a picture, never a window
    from PySide6 import QtWidgets

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(["svmviz"])
    import pyqtgraph as pg

    from svmviz.app.session import Session
    from svmviz.ui.render import PlaneState, plane_twin, plot_bytes

    pg.setConfigOptions(antialias=True, background="w", foreground="k")
    session = Session(shown)
    model = result.model
    extent = data_extent(shown.X)
    frame = make_frame(model, data, extent)
    solver = result.solver
    title = f"{problem_module(model).NAME}, {solver.config.algorithm}, {solver.t_:,} iterations"
    state = PlaneState(
        session,
        extent,
        model,
        frame,
        solver.training_alpha(),
        kernel=model.coef is None,
        title=title,
        data=data,
    )
    if check_format(path) == "svg":
        scale = 1.0  # vectors: the size is the viewBox
    twin = plane_twin(state, width, height, scale)
    try:
        return plot_bytes(twin.getPlotItem(), path)
    finally:
        twin.deleteLater()
        app.processEvents()
