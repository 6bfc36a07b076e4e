"""The plane of every problem, given frames directly (svmviz.core.pictures.frame): a 1-D
regression's curve, shaded ε-tube and segments to it, a 2-D regression's colour map with its points
in their targets' colours, one-class's region and outliers, ν-SVC's ±ρ, the logistic loss's
plain boundary; the legend, the points table and the hover readout in each problem's words;
and `svmviz train --plot` for every problem."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore, QtGui

from svmviz.app.session import Session
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import make_frame, plane_points
from svmviz.ui.plane.decision_plot import DecisionPlot
from svmviz.ui.plane.hover import HoverReadout
from svmviz.ui.views.point_table import PointTable

RNG = np.random.default_rng(5)
X1 = np.sort(RNG.uniform(-3, 3, 25))[:, None]
SINE = Dataset.regression(X1, np.sin(X1[:, 0]) + 0.3 * RNG.normal(size=25))
X2 = RNG.normal(size=(30, 2))
PLANE = Dataset.regression(X2, X2[:, 0] - X2[:, 1] ** 2)
TWO = np.vstack([RNG.normal(-1.5, 0.5, (15, 2)), RNG.normal(1.5, 0.5, (15, 2))])
LABELS = np.repeat([0, 1], 15)


def kernel_model(X, problem, **numbers):
    coef = np.random.default_rng(1).normal(size=(1, len(X))) * 0.5
    if problem == "one-class":
        coef = np.abs(coef)
    return Model(
        classes=(),
        kernel=Kernel("rbf", gamma=0.8),
        lam=0.01,
        bias="free",
        intercept=np.array([-1.9 if problem == "one-class" else 0.1]),
        support_vectors=X,
        dual_coef=coef,
        problem=problem,
        **numbers,
    )


def linear(problem="svc", loss="hinge", **numbers):
    return Model(
        ("a", "b"),
        Kernel(),
        0.01,
        "free",
        np.array([0.1]),
        coef=np.array([[1.0, 0.3]]),
        problem=problem,
        loss=loss,
        **numbers,
    )


def drawn(qtbot, data, model, shown=None):
    """A plot of the points of ``data`` where the plane draws them, and ``model``'s frame."""
    shown = Dataset(plane_points(data), data.y, data.classes) if shown is None else shown
    session = Session(shown)
    plot = DecisionPlot(session)
    qtbot.addWidget(plot)
    plot.resize(700, 520)
    plot.setRange(xRange=(-4, 4), yRange=(-3, 3), padding=0)
    plot.draw_points()
    frame = make_frame(model, data, plot.view_extent(), 60)
    plot.draw_frame(frame, plot.region_colors(session.present_classes()))
    return plot, frame


def labels(plot):
    return [text for _, text in plot.legend_labels()]


def test_a_1d_regression_draws_its_curve_tube_and_distances(qtbot):
    model = kernel_model(X1, "epsilon-svr", epsilon=0.2)
    plot, frame = drawn(qtbot, SINE, model)
    assert not plot.region.isVisible(), "no regions: the tube is the plane's shading"
    assert plot.tube.isVisible()
    band = plot.tube.path().boundingRect()
    f = frame.curve[:, 1]
    assert band.top() == pytest.approx(f.min() - 0.2) and band.bottom() == pytest.approx(
        f.max() + 0.2
    )
    x, y = plot.boundary.getData()
    np.testing.assert_allclose(y[:-1], f)  # (a NaN ends each polyline)
    outside = np.abs(frame.margins) > 0.2
    assert outside.any()
    x, y = plot.tube_slack.getData()
    assert np.isnan(x).sum() == outside.sum(), "one segment per point outside the tube"
    ends = np.column_stack([x[1::3], y[1::3]])
    fx = model.decision_function(ends[:, :1])
    np.testing.assert_allclose(np.abs(ends[:, 1] - fx), 0.2, atol=1e-9)  # on the edge
    assert len(plot.rings.data) == len(frame.support)
    assert len(plot.wrong.data) == 0, "no crosses: nothing is misclassified in a regression"
    words = " ".join(labels(plot))
    assert "ε-tube" in words and "prediction" in words
    assert "margin" not in words and "misclassified" not in words
    assert plot.getAxis("left").labelText == "y (target)"


def test_a_2d_regression_is_a_colour_map_and_its_points_wear_their_targets(qtbot):
    model = kernel_model(X2, "epsilon-svr", epsilon=0.1)
    plot, frame = drawn(qtbot, PLANE, model)
    assert plot.region.isVisible() and not plot.tube.isVisible()
    assert plot.levels.getData()[0] is not None and len(plot.levels.getData()[0])
    assert plot.valued.isVisible() and len(plot.valued.data) == len(X2)
    top = int(np.argmax(PLANE.target))
    brush = plot.valued.data["brush"][top]
    assert brush.color().rgb() == QtGui.QColor.fromRgb(int(plot.valued.lut[255])).rgb()
    # (one brush object a colour, from the plot's: pyqtgraph then draws each symbol once)
    made = {id(b) for b in plot.valued.brushes}
    assert all(id(b) in made for b in plot.valued.data["brush"])
    # rings: larger the farther outside the tube
    d = np.abs(frame.margins) - 0.1
    ringed = d >= -0.01
    sizes = plot.rings.data["size"]
    assert len(sizes) == ringed.sum()
    assert sizes[np.argmax(d[ringed])] >= sizes.max() - 1e-9
    words = " ".join(labels(plot))
    assert "targets y" in words and "misclassified" not in words


def test_one_class_shades_its_region_and_crosses_the_outliers(qtbot):
    model = kernel_model(TWO, "one-class", nu=0.2, rho=0.4)
    plot, frame = drawn(qtbot, Dataset.points(TWO), model)
    f = model.decision_function(TWO)
    assert (f < 0).any() and (f >= 0).any()
    assert len(plot.wrong.data) == int((f < 0).sum())
    assert plot.region.isVisible()
    words = " ".join(labels(plot))
    assert "outlier" in words and "misclassified" not in words and "margin" not in words


def test_nu_svc_says_rho_and_logistic_draws_no_margin(qtbot):
    data = Dataset(TWO, LABELS, ("a", "b"))
    plot, frame = drawn(qtbot, data, linear("nu-svc", nu=0.3, rho=0.5), shown=data)
    assert "margins f = ±ρ" in labels(plot)
    assert len(plot.margin.getData()[0]) > 0
    z = frame.margins
    assert len(plot.rings.data) == int(((z >= 0) & (z <= 0.5 * 1.01)).sum())
    plot, frame = drawn(qtbot, data, linear(loss="logistic"), shown=data)
    assert len(plot.margin.getData()[0]) == 0
    assert len(plot.rings.data) == 0
    assert not any("margin" in text for text in labels(plot))


def test_the_points_table_speaks_each_problem(qtbot):
    table = PointTable()
    qtbot.addWidget(table)
    model = kernel_model(X1, "epsilon-svr", epsilon=0.2)
    frame = make_frame(model, SINE, (-4, 4, -3, 3), 20)
    X = plane_points(SINE)
    table.show_points(["class 1"] * 25, X, frame.margins, None, None, frame)
    m = table.model_
    headers = [m.headerData(c, QtCore.Qt.Orientation.Horizontal) for c in range(9)]
    assert headers[1] == "target y" and headers[5] == "residual y − f"
    i = int(np.argmax(np.abs(frame.margins)))
    assert m.value(i, 8) == "support vector (outside the tube)"
    assert m.value(i, 6) == pytest.approx(abs(frame.margins[i]) - 0.2)
    assert m.value(i, 1) == pytest.approx(SINE.target[i])
    oc = kernel_model(TWO, "one-class", nu=0.2, rho=0.4)
    frame = make_frame(oc, Dataset.points(TWO), (-4, 4, -3, 3), 20)
    table.show_points(["class 1"] * 30, TWO, frame.margins, None, None, frame)
    assert m.headerData(5, QtCore.Qt.Orientation.Horizontal) == "f(x)"
    j = int(np.argmin(frame.margins))
    assert frame.margins[j] < 0 and m.value(j, 8) == "support vector (outlier)"


def test_the_hover_reads_a_regression_and_one_class(qtbot):
    model = kernel_model(X1, "epsilon-svr", epsilon=0.2)
    plot, _ = drawn(qtbot, SINE, model)
    hover = HoverReadout(plot)
    f = float(model.decision_function([[1.0]])[0])
    hover.show_at((1.0, f + 0.5), model, ())
    text = hover.text.textItem.toPlainText()
    assert f"f(x) = {f:.3g}: the predicted y" in text
    assert "outside the tube" in text
    oc = kernel_model(TWO, "one-class", nu=0.2, rho=0.4)
    plot, _ = drawn(qtbot, Dataset.points(TWO), oc)
    hover = HoverReadout(plot)
    hover.show_at((6.0, 6.0), oc, ())
    assert "outlier" in hover.text.textItem.toPlainText()


@pytest.mark.parametrize(
    "rows, options",
    [
        ("sine", ["--problem", "epsilon-svr", "--kernel", "rbf"]),
        ("sine", ["--problem", "nu-svr"]),
        ("plane", ["--problem", "epsilon-svr", "--kernel", "rbf"]),
        ("points", ["--problem", "one-class"]),
        ("points", ["--problem", "one-class", "--kernel", "rbf"]),
        ("labels", ["--problem", "nu-svc", "--nu", "0.3"]),
        ("labels", ["--loss", "logistic"]),
        ("sine", ["--problem", "epsilon-svr", "--plot-scale", "1"]),  # as SVG (below)
    ],
)
def test_train_plot_draws_every_problem(tmp_path, rows, options):
    from svmviz.cli import main

    path = tmp_path / "data.csv"
    if rows == "sine":
        body = "x,y\n" + "".join(
            f"{a:.4f},{b:.4f}\n" for a, b in zip(X1[:, 0], SINE.target, strict=True)
        )
    elif rows == "plane":
        body = "x1,x2,t\n" + "".join(
            f"{a:.4f},{b:.4f},{t:.4f}\n" for (a, b), t in zip(X2, PLANE.target, strict=True)
        )
    elif rows == "points":
        body = "x1,x2\n" + "".join(f"{a:.4f},{b:.4f}\n" for a, b in TWO)
    else:
        body = "x1,x2,label\n" + "".join(
            f"{a:.4f},{b:.4f},{c}\n" for (a, b), c in zip(TWO, LABELS, strict=True)
        )
    path.write_text(body)
    if "--plot-scale" in options:  # the export's vectors: the tube, the curve, the points
        svg = tmp_path / "plot.svg"
        assert main(["train", str(path), *options, "--iterations", "300", "--plot", str(svg)]) == 0
        text = svg.read_text()
        assert text.count("<path") > 10 and "tube f(x) ±" in text
        return
    png = tmp_path / "plot.png"
    assert main(["train", str(path), *options, "--iterations", "300", "--plot", str(png)]) == 0
    image = QtGui.QImage(str(png))
    assert (image.width(), image.height()) == (800, 600)
    pixels = {image.pixel(x, y) for x in range(60, 800, 37) for y in range(0, 560, 23)}
    assert len(pixels) > 3, "a drawn plane, not an empty one"
