"""svmviz.plot and svmviz.animate (svmviz.ui.notebook.pictures): the window's pictures without a
window, checked by what they show (the pixels of the regions), not only by their bytes."""

import base64
import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtSvg import QSvgRenderer

import svmviz
from svmviz.core.errors import InputError
from svmviz.core.palette import CLASS_COLORS
from svmviz.estimators import OneClassSVM, SVMClassifier, SVMRegressor
from svmviz.ui import style
from svmviz.ui.plane.decision_plot import INLIER_COLOR

ROOT = Path(__file__).resolve().parents[2]


def region_rgb(k: int | str) -> np.ndarray:
    """Class k's region colour (or that of the colour "#RRGGBB"): the colour at the
    regions' alpha over white."""
    color = CLASS_COLORS[k] if isinstance(k, int) else k
    rgb = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)
    a = style.REGION_ALPHA / 255.0
    return np.round(a * rgb + (1 - a) * 255.0)


def pixels(png: bytes) -> np.ndarray:
    """The picture as an (h, w, 3) array of RGB."""
    image = QtGui.QImage.fromData(png).convertToFormat(QtGui.QImage.Format.Format_RGB888)
    h, w, row = image.height(), image.width(), image.bytesPerLine()
    data = np.frombuffer(bytes(image.constBits())[: row * h], dtype=np.uint8)
    return data.reshape(h, row)[:, : 3 * w].reshape(h, w, 3)


def at(rgb: np.ndarray, x: float, y: float, extent) -> np.ndarray:
    """The pixel of the plane's point (x, y) in a picture of ``extent``: the plane is where
    the regions are drawn (the box of their pixels; the view widens one side by a few
    percent to keep the aspect, which this ignores)."""
    plane = where_colored(rgb, region_rgb(0)) | where_colored(rgb, region_rgb(1))
    rows, cols = np.flatnonzero(plane.any(axis=1)), np.flatnonzero(plane.any(axis=0))
    x0, x1, y0, y1 = extent
    col = cols[0] + (x - x0) / (x1 - x0) * (cols[-1] - cols[0])
    row = rows[0] + (y1 - y) / (y1 - y0) * (rows[-1] - rows[0])
    return rgb[round(row), round(col)]


def where_colored(rgb: np.ndarray, color: np.ndarray, tol: float = 3) -> np.ndarray:
    return np.all(np.abs(rgb.astype(float) - color) <= tol, axis=-1)


@pytest.fixture(scope="module")
def two_blobs():
    """Two classes far apart on the diagonal: class "a" lower left, class "b" upper right."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-1.5, 0.3, (20, 2)), rng.normal(1.5, 0.3, (20, 2))])
    return X, np.repeat(["a", "b"], 20)


@pytest.fixture(scope="module")
def fitted(two_blobs):
    return SVMClassifier(iterations=400, random_state=0).fit(*two_blobs)


def test_the_picture_shows_each_class_region_in_its_colour_at_size_times_scale(
    qapp, fitted, two_blobs
):
    X, y = two_blobs
    picture = svmviz.plot(fitted, X, y, width=240, height=200, scale=2)
    assert QtWidgets.QApplication.instance() is qapp  # (the running one, not another)
    rgb = pixels(picture.png())
    assert rgb.shape == (400, 480, 3)
    assert picture.title == "hinge, pegasos, 400 iterations"
    rows, cols = np.indices(rgb.shape[:2])
    centres = []
    for k in (0, 1):
        region = where_colored(rgb, region_rgb(k))
        assert region.mean() > 0.15, k  # a good part of the plane is the class's region
        centres.append((cols[region].mean(), rows[region].mean()))
    # "a" lower left of "b" (image rows grow downwards)
    assert centres[0][0] < centres[1][0] and centres[0][1] > centres[1][1]
    # a point deep inside each class's region (its mirror through the boundary x + y = 0)
    # has that class's region colour
    png = svmviz.plot(fitted, X, y, width=300, height=300, extent=(-4, 4, -4, 4), title="").png()
    rgb = pixels(png)
    assert where_colored(at(rgb, -3, -3, (-4, 4, -4, 4)), region_rgb(0))
    assert where_colored(at(rgb, 3, 3, (-4, 4, -4, 4)), region_rgb(1))
    # in Jupyter: PNG, shown at its size (never SVG, which a front end may prefer)
    data, shown = picture._repr_png_()
    assert data == picture.png() and shown == {"width": 240, "height": 200}
    assert not hasattr(picture, "_repr_svg_")


def test_svg_and_files(qapp, fitted, two_blobs, tmp_path):
    picture = svmviz.plot(fitted, *two_blobs, width=300, height=200, scale=2)
    svg = picture.svg()
    assert svg.lstrip().startswith("<?xml") or svg.lstrip().startswith("<svg")
    assert 'viewBox ="0 0 300 200"' in svg  # vectors: the size, without the scale
    picture.save(tmp_path / "p.svg")
    picture.save(tmp_path / "p.png")
    assert (tmp_path / "p.svg").read_text(encoding="utf-8") == svg
    assert (tmp_path / "p.png").read_bytes() == picture.png()
    with pytest.raises(InputError, match="choose a .png or .svg"):
        picture.save(tmp_path / "p.jpg")


def text_bands(rgb: np.ndarray) -> list[tuple[int, int]]:
    """The rows of text under the plane, as (first, last) row of each band apart from the
    next: below the bottom axis' line (the lowest row dark across most of the width), in
    the columns that line spans (the left axis' tick labels are beside them)."""
    dark = rgb.max(axis=-1) < 128
    line = np.flatnonzero(dark.mean(axis=1) > 0.5)[-1]
    rows = line + 1 + np.flatnonzero(dark[line + 1 :, dark[line]].any(axis=1))
    breaks = np.flatnonzero(np.diff(rows) > 1)
    starts, ends = np.r_[rows[0], rows[breaks + 1]], np.r_[rows[breaks], rows[-1]]
    return [(int(a), int(b)) for a, b in zip(starts, ends, strict=True)]


def svg_pixels(svg: str, width: int, height: int) -> np.ndarray:
    """An SVG picture as Qt draws it, as :func:`pixels` gives a PNG's."""
    image = QtGui.QImage(width, height, QtGui.QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    painter = QtGui.QPainter(image)
    QSvgRenderer(QtCore.QByteArray(svg.encode("utf-8"))).render(painter)
    painter.end()
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return pixels(bytes(buffer.data()))


@pytest.mark.parametrize(
    "width, height, scale",
    [
        (640, 480, 1),
        (640, 480, 2),
        (480, 360, 1),
        (480, 360, 2),
        (800, 600, 1),
        (800, 600, 2),
        (640, 480, "svg"),
    ],
)
def test_the_axis_name_is_whole_under_the_tick_labels(
    qapp, fitted, two_blobs, width, height, scale
):
    """The bottom axis' name, x₁, under the tick labels and apart from them, inside the
    picture, at every size and scale (the twin of a picture at Qt's default 640 × 480 was
    not laid out again once its axes had their fonts: its bottom axis stayed one row of
    tick labels high, and the name overlapped them and was cut at the bottom edge)."""
    if scale == "svg":
        picture = svmviz.plot(fitted, *two_blobs, width=width, height=height)
        rgb, k = svg_pixels(picture.svg(), width, height), 1
    else:
        picture = svmviz.plot(fitted, *two_blobs, width=width, height=height, scale=scale)
        rgb, k = pixels(picture.png()), scale
    bands = text_bands(rgb)
    # the tick labels, then the axis' name (at the end of the legend's rows when the legend
    # has no free spot on the plane: svmviz.ui.plane.legend's strip below the axes)
    assert len(bands) >= 2, bands
    (_, ticks_end), (name_start, _) = bands[:2]
    assert name_start - ticks_end > 4 * k, bands  # a few pixels apart at the scale
    assert bands[-1][1] < rgb.shape[0] - 1, bands  # whole: white under it


def test_a_model_a_regression_and_one_class(qapp, fitted, two_blobs):
    """An svmviz Model (as `svmviz train --out` writes) draws as its estimator does; a
    regression on one coordinate draws x against the target; one-class its region."""
    X, y = two_blobs
    same = svmviz.plot(fitted.model_, X, y, width=200, height=150, title="t")
    assert same.png() == svmviz.plot(fitted, X, y, width=200, height=150, title="t").png()
    x = np.linspace(-3, 3, 30)[:, None]
    t = np.sin(x[:, 0])
    reg = SVMRegressor(kernel="rbf", gamma=1.0, iterations=300, random_state=0).fit(x, t)
    assert pixels(svmviz.plot(reg, x, t, width=200, height=150).png()).shape == (150, 200, 3)
    cloud = np.random.default_rng(1).normal(0, 1, (40, 2))
    one = OneClassSVM(nu=0.3, iterations=300, random_state=0).fit(cloud)
    rgb = pixels(svmviz.plot(one, cloud, width=400, height=300).png())
    assert where_colored(rgb, region_rgb(INLIER_COLOR)).mean() > 0.02  # the region f ≥ 0


def test_refusals_say_what_to_do(qapp, fitted, two_blobs):
    X, y = two_blobs
    X3 = np.column_stack([X, X[:, 0]])
    three = SVMClassifier(iterations=20, random_state=0).fit(X3, y)
    with pytest.raises(InputError, match="2-D data and X has 3 coordinates; project X to 2-D"):
        svmviz.plot(three, X3, y)
    x = X[:, :1]
    line = SVMRegressor(iterations=20, random_state=0).fit(x, X[:, 1])
    with pytest.raises(InputError, match="the model takes 1 coordinate and X has 2"):
        svmviz.plot(line, X, X[:, 1])
    with pytest.raises(InputError, match="regression's points are drawn with their targets"):
        svmviz.plot(line, x)
    with pytest.raises(InputError, match="shows each point in its class: pass y"):
        svmviz.plot(fitted, X)
    with pytest.raises(InputError, match=r"not the model's classes: \['c'\]"):
        svmviz.plot(fitted, X[:3], ["a", "b", "c"])
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError, match="not fitted yet: call its fit first"):
        svmviz.plot(SVMClassifier(), X, y)
    with pytest.raises(TypeError, match="draws an svmviz model"):
        svmviz.plot("model.json", X, y)
    with pytest.raises(InputError, match="the width must be 100–8000 pixels"):
        svmviz.plot(fitted, X, y, width=20)
    with pytest.raises(InputError, match="a SVMClassifier trains on y, the labels of X"):
        svmviz.animate(SVMClassifier(), X)
    with pytest.raises(InputError, match="draws 2-D data and X has 3 coordinates"):
        svmviz.animate(SVMClassifier(iterations=10), X3, y)
    with pytest.raises(TypeError, match="trains an svmviz estimator"):
        svmviz.animate(fitted.model_, X, y)
    with pytest.raises(InputError, match="frames must be a whole number 2–1000"):
        svmviz.animate(SVMClassifier(), X, y, frames=1)


def test_the_animation_replays_the_fit_frame_by_frame(qapp, two_blobs, tmp_path):
    from PIL import Image

    X, y = two_blobs
    estimator = SVMClassifier(iterations=500, random_state=0)
    animation = svmviz.animate(estimator, X, y, frames=6, width=200, height=150)
    assert not hasattr(estimator, "model_")  # the one passed is left as it was
    assert animation.iterations == (1, 3, 12, 42, 144, 500)  # evenly in log t
    assert animation.objectives[-1] < animation.objectives[0]
    fit = SVMClassifier(iterations=500, random_state=0).fit(X, y)
    np.testing.assert_allclose(
        animation.estimator.decision_function(X), fit.decision_function(X), rtol=1e-9
    )
    html = animation._repr_html_()
    prefix = '<img src="data:image/gif;base64,'
    assert html.startswith(prefix)
    assert base64.b64decode(html[len(prefix) : html.index('"', len(prefix))]) == animation.gif()
    animation.save(tmp_path / "t.gif")
    with Image.open(io.BytesIO((tmp_path / "t.gif").read_bytes())) as gif:
        assert gif.n_frames == 6
        assert gif.size == (200, 150)
        frames = []
        for k in (0, gif.n_frames - 1):
            gif.seek(k)
            frames.append(np.asarray(gif.convert("RGB")))
    first, last = frames
    # at t = 1 the average of w_0 = 0 and w_1 is still near 0: the plane is class "a"'s;
    # at the end class "b" has the upper right: there the frames differ
    b_last = where_colored(last, region_rgb(1), tol=8)
    assert b_last.mean() > 0.08
    assert where_colored(first, region_rgb(1), tol=8).mean() < 0.01
    assert where_colored(first[b_last], region_rgb(0), tol=8).mean() > 0.9


def test_plot_and_animate_start_qt_offscreen_where_no_display_is():
    """A kernel with no display and no QT_QPA_PLATFORM (a notebook server): importing loads
    no Qt, the pictures are drawn offscreen, and QT_QPA_PLATFORM is left as it was."""
    code = (
        "import os, sys\n"
        "import numpy as np\n"
        "import svmviz, svmviz.estimators\n"
        "assert not [m for m in sys.modules if m.startswith('PySide6')]\n"
        "X = np.array([[-1., -1], [-1, -2], [1, 1], [2, 1]]); y = [0, 0, 1, 1]\n"
        "m = svmviz.estimators.SVMClassifier(iterations=50, random_state=0).fit(X, y)\n"
        "p = svmviz.plot(m, X, y, width=150, height=100)\n"
        "a = svmviz.animate(svmviz.estimators.SVMClassifier(iterations=20), X, y, frames=3,"
        " width=150, height=100)\n"
        "from PySide6 import QtGui\n"
        "print(QtGui.QGuiApplication.platformName(), QtGui.QImage.fromData(p.png()).width(),"
        " a.n_frames, 'QT_QPA_PLATFORM' in os.environ)\n"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "QT_QPA_PLATFORM", "WAYLAND_DISPLAY")
    }
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["offscreen", "150", "3", "False"]


def test_a_fitted_scikit_learn_svc_draws_with_its_support_vectors(qapp):
    """An RBF SVC of scikit-learn on two moons: its regions in the class colours, and its
    support vectors (and only they) ringed, by their |α| on its training data."""
    from sklearn.datasets import make_moons
    from sklearn.svm import SVC

    X, y = make_moons(80, noise=0.15, random_state=0)
    svc = SVC(kernel="rbf", gamma=2.0, C=10.0).fit(X, y)
    picture = svmviz.plot(svc, X, y, width=300, height=240)
    assert picture.title == "SVC (scikit-learn), rbf kernel"
    alpha = picture._how["alpha"]  # (the rings' sizes: svmviz.ui.plane.decision_plot)
    np.testing.assert_array_equal(np.flatnonzero(alpha > 0), np.sort(svc.support_))
    rgb = pixels(picture.png())
    for k in (0, 1):
        assert where_colored(rgb, region_rgb(k)).mean() > 0.1, k
    # other points than its training data: its regions, and no support vector among them
    other = svmviz.plot(svc, X[:10] + 0.01, y[:10], width=300, height=240)
    assert not other._how["alpha"].any()
    assert where_colored(pixels(other.png()), region_rgb(1)).mean() > 0.1
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError, match="this SVC is not fitted yet"):
        svmviz.plot(SVC(), X, y)


def test_more_points_than_the_window_takes_are_refused_at_once(qapp, fitted):
    """svmviz.show and the window take MAX_POINTS; svmviz.plot drew 10⁶ points for minutes
    and svmviz.animate did not finish: both refuse one point more, saying what to do."""
    from svmviz.core.limits import MAX_POINTS

    rng = np.random.default_rng(0)
    X = rng.normal(size=(MAX_POINTS + 1, 2))
    y = np.where(X[:, 0] > 0, "b", "a")
    with pytest.raises(InputError, match=r"svmviz.plot: 50,001 points; .* at most 50,000"):
        svmviz.plot(fitted, X, y)
    with pytest.raises(InputError, match=r"svmviz.animate: 50,001 points; .*Draw a sample"):
        svmviz.animate(SVMClassifier(iterations=10), X, y)
