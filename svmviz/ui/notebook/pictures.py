"""svmviz from Python and notebooks: :func:`plot` and :func:`animate` (``svmviz.plot``,
``svmviz.animate``).

The pictures are the window's, drawn without a window by the renderer of `svmviz train
--plot` (svmviz.ui.notebook.headless) and of the window's animation export
(svmviz.ui.window.animation), so they work where no window can open (JupyterHub, Colab, a remote
kernel): with no QApplication running, one is started on Qt's offscreen platform; a running one (the
window's, pytest-qt's) is used as it is. Jupyter shows the results inline: a
:class:`Picture` as PNG, an :class:`Animation` as a GIF in an ``<img>`` tag.
"""

from __future__ import annotations

import base64
import html
import numbers
from pathlib import Path
from typing import NoReturn

import numpy as np

from svmviz.core.data import Dataset, check_window_data
from svmviz.core.errors import InputError, counted, shown
from svmviz.core.file_io import atomic_write_bytes
from svmviz.core.limits import MAX_POINTS
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import data_extent, input_dim, plane_points, point_alpha
from svmviz.core.pictures.picture import check_format, check_gif_size, check_size
from svmviz.ui.notebook.headless import model_title, picture_app, plot_picture

REMEDY = (
    "project X to 2-D first (e.g. with sklearn.decomposition.PCA(n_components=2)) and fit "
    "on that, or use `svmviz train` for other dimensions"
)


class Picture:
    """The window's decision picture of a model on its points: the regions (a colour map
    for a regression on 2-D inputs), the boundary, the margins or the ε-tube, the points
    and the support vectors ringed.

    Jupyter shows it inline as PNG (``_repr_png_``, at ``width`` × ``height`` on the page
    whatever the scale). It deliberately offers no SVG representation: a front end given
    both may choose SVG, which draws the regions as an embedded bitmap and is slower to
    show; :meth:`svg` gives the vectors when wanted.
    """

    def __init__(self, model: Model, data: Dataset, width: int, height: int, scale: float, **how):
        self.model, self.data = model, data
        self.width, self.height, self.scale = width, height, scale
        self._how = how
        self._png = plot_picture(model, data, "png", width, height, scale, **how)

    def png(self) -> bytes:
        """The picture as PNG: (width × scale) × (height × scale) pixels."""
        return self._png

    def svg(self) -> str:
        """The picture as SVG, width × height (vectors: the scale does not apply)."""
        svg = plot_picture(self.model, self.data, "svg", self.width, self.height, **self._how)
        return svg.decode("utf-8")

    def save(self, path) -> None:
        """Write the picture to ``path``: PNG or SVG by its suffix, atomically."""
        kind = check_format(path)
        atomic_write_bytes(path, self.png() if kind == "png" else self.svg().encode("utf-8"))

    def _repr_png_(self):
        # (data, metadata): shown at its size in the page, sharp at any scale
        return self._png, {"width": self.width, "height": self.height}

    def __repr__(self) -> str:
        return f"<svmviz Picture {self.width}×{self.height} at {self.scale:g}×: {self.title}>"

    @property
    def title(self) -> str:
        return self._how.get("title") or ""


class Animation:
    """The training as an animated GIF: one frame per iteration in ``iterations``, each
    titled with its iteration t and objective F (``objectives``). Jupyter shows it inline
    (``_repr_html_``: an ``<img>`` of the GIF, at ``width`` × ``height`` on the page).

    ``estimator``: a clone of the estimator passed to :func:`animate`, fitted by this run
    (as its ``fit`` would: the same run, seed and result); None when the run diverged (its
    ``fit`` refuses it; the animation shows how). ``status``: how the run ended ("budget",
    "objective": the stopping rule, "diverged", …)."""

    def __init__(self, gif: bytes, iterations, objectives, width, height, estimator, status):
        self._gif = gif
        self.iterations = tuple(int(t) for t in iterations)
        self.objectives = tuple(float(f) for f in objectives)
        self.width, self.height = width, height
        self.estimator = estimator
        self.status = status

    @property
    def n_frames(self) -> int:
        return len(self.iterations)

    def gif(self) -> bytes:
        """The animated GIF (it loops; the last frame is held 2 s)."""
        return self._gif

    def save(self, path) -> None:
        """Write the GIF to ``path`` (a .gif file name), atomically."""
        if Path(path).suffix.lower() != ".gif":
            raise InputError(f"{path}: choose a .gif file name")
        atomic_write_bytes(path, self._gif)

    def _repr_html_(self) -> str:
        data = base64.b64encode(self._gif).decode("ascii")
        alt = html.escape(
            f"svmviz: the training, {self.n_frames} frames to iteration {self.iterations[-1]:,}"
        )
        return (
            f'<img src="data:image/gif;base64,{data}" width="{self.width}" '
            f'height="{self.height}" alt="{alt}">'
        )

    def __repr__(self) -> str:
        return (
            f"<svmviz Animation {self.width}×{self.height}, {self.n_frames} frames, "
            f"t = 1 … {self.iterations[-1]:,} ({self.status})>"
        )


def plot(
    model,
    X,
    y=None,
    *,
    width: int = 640,
    height: int = 480,
    scale: float = 1.0,
    title: str | None = None,
    extent=None,
) -> Picture:
    """The window's decision picture of ``model`` on the points ``X`` (with labels or
    targets ``y``), drawn without a window: the same as `svmviz train --plot`.

    Parameters
    ----------
    model : a fitted svmviz estimator (svmviz.estimators: its ``model_``), an svmviz
        Model (svmviz.core.model_io: what `svmviz train --out` writes, read back) or a
        fitted scikit-learn SVC, NuSVC, LinearSVC, SGDClassifier, LogisticRegression,
        OneClassSVM, SVR or NuSVR (svmviz.core.files.foreign; its support vectors ringed when
        X is its training data)
    X : (n, 2) points; a regression's may be (n, 1), drawn as x against the target y
    y : the labels of X (a classifier: the model's classes), the targets (a regression);
        ignored by a one-class model
    width, height : the picture's size in pixels, as shown (640 × 480)
    scale : the PNG's pixels per shown pixel, lines and text as large (2: for slides and
        sharp screens)
    title : the title in the top left corner; by default the loss or problem, the solver
        and the iterations (a scikit-learn model: its class and kernel); "" for none
    extent : (x0, x1, y0, y1), the part of the plane shown; by default the points' with a
        margin (the view widens one side to keep the plane's aspect)

    Returns
    -------
    Picture : shown inline by Jupyter; ``.png()``, ``.svg()``, ``.save(path)``.
    """
    check_size(width, height, scale)
    X = _points(X)
    _check_points(len(X), "svmviz.plot", "a model fitted on every point draws the same plane")
    resolved, alpha, named = _drawn(model, X, y)
    data = _plot_data(resolved, X, y)
    return Picture(
        resolved,
        data,
        int(width),
        int(height),
        float(scale),
        title=named if title is None else title,
        extent=_extent(extent),
        alpha=alpha,
        classes=np.arange(len(resolved.classes)) if resolved.kind == "svc" else None,
    )


def animate(
    estimator,
    X,
    y=None,
    frames: int = 40,
    *,
    frame_ms: int = 100,
    width: int = 480,
    height: int = 360,
    scale: float = 1.0,
    extent=None,
) -> Animation:
    """The training of the svmviz ``estimator`` on (``X``, ``y``) as an animated GIF:
    the run from w = 0 to its budget (``iterations``) or stopping rule, ``frames`` frames
    at the window's log-t pace (t = 1, 2, 3… one at a time, then evenly in log t), each
    titled with its iteration t and objective F.

    The estimator passed is left as it is (fitted or not: only its parameters are used);
    its clone, fitted by this run, is the animation's ``estimator``. Fix its
    ``random_state`` for the same run every time.

    Parameters
    ----------
    estimator : an svmviz SVMClassifier, SVMRegressor or OneClassSVM
    X, y : as for its ``fit``; X of 2 coordinates (a regression's: 1 or 2)
    frames : how many frames (at most one per iteration), 40
    frame_ms : how long each frame shows, in milliseconds (the last: at least 2 s)
    width, height, scale : each frame's size in pixels as shown, and its pixels per shown
        pixel (480 × 360 at 1)
    extent : (x0, x1, y0, y1), the part of the plane shown; by default the points'

    Returns
    -------
    Animation : shown inline by Jupyter; ``.gif()``, ``.save(path)``, ``.estimator``,
    ``.iterations``, ``.objectives``.
    """
    from sklearn.base import clone

    from svmviz.core.training.reference import exact_optimum
    from svmviz.core.training.replay import frame_iterations, replay
    from svmviz.estimators import ESTIMATORS

    if not isinstance(estimator, tuple(ESTIMATORS.values())):
        raise TypeError(
            "svmviz.animate trains an svmviz estimator (svmviz.estimators: "
            f"{', '.join(ESTIMATORS)}), not {_called(estimator)}; to draw a fitted model, "
            "use svmviz.plot"
        )
    check_size(width, height, scale)
    for value, name, lo, hi in ((frames, "frames", 2, 1000), (frame_ms, "frame_ms", 20, 5000)):
        if not isinstance(value, numbers.Integral) or not lo <= value <= hi:
            raise InputError(
                f"svmviz.animate: {name} must be a whole number {lo}–{hi}, not {shown(value)}"
            )
    est = clone(estimator)
    config, data = _prepared(est, X, y)
    _check_points(
        len(data.y),
        "svmviz.animate",
        "or fit the estimator on every point and svmviz.plot it on the sample",
    )
    check_window_data(data, "svmviz.animate", "the plane", REMEDY, subject="X")
    iterations = frame_iterations(config.iterations, int(frames), "log")
    check_gif_size(len(iterations), width, height, scale, "choose fewer frames or a smaller size")
    reference = exact_optimum(config, data) if config.margin == "hard" else None
    app = picture_app()
    from svmviz.app.session import Session
    from svmviz.ui.window.animation import gif_bytes, palette_image, training_frames
    from svmviz.ui.window.render import PlaneState

    points = Dataset(plane_points(data), data.y, data.classes)
    extent = _extent(extent) or data_extent(points.X)
    state = PlaneState(
        Session(points),
        extent,
        data=data,
        classes=np.arange(data.n_classes) if config.kind == "svc" else None,
    )
    runs = replay(config, data, reference, iterations)
    drawn = training_frames(state, runs, int(width), int(height), float(scale))
    images, shown_t, objectives = [], [], []
    solver = None
    try:
        for solver, image in drawn:
            images.append(palette_image(image))
            shown_t.append(solver.t_)
            objectives.append(solver.model().extra.get("objective", np.nan))
    finally:
        drawn.close()
        runs.close()
        app.processEvents()
    assert solver is not None  # (replay yields at least the first iteration)
    fitted = None
    if solver.status_ != "diverged":
        est._keep(solver, config, data)
        fitted = est
    gif = gif_bytes(images, int(frame_ms))
    return Animation(gif, shown_t, objectives, int(width), int(height), fitted, solver.status_)


def _check_points(m: int, name: str, more: str) -> None:
    """Refuse more points than the window and svmviz.show take (MAX_POINTS): a picture
    of more is a blot drawn for minutes, and a sample shows the same (never cut silently:
    which sample is the caller's choice)."""
    if m > MAX_POINTS:
        raise InputError(
            f"{name}: {m:,} points; the plane draws at most {MAX_POINTS:,}, as the window "
            f"and svmviz.show do. Draw a sample, X[np.random.default_rng(0).choice(len(X), "
            f"{MAX_POINTS}, replace=False)] with its y ({more})"
        )


def _called(obj) -> str:
    return f"a {type(obj).__module__}.{type(obj).__qualname__}"


def _drawn(obj, X: np.ndarray, y) -> tuple[Model, np.ndarray | None, str]:
    """The svmviz Model that ``obj`` is, holds or converts to (a fitted svmviz estimator's
    ``model_``; a fitted scikit-learn model's: svmviz.core.files.foreign), the |α| of the points
    ``X`` that are its support vectors (None: a linear model) and its default title."""
    from svmviz.core.files.foreign import SUPPORTED, from_sklearn, is_foreign, support_alpha
    from svmviz.estimators import ESTIMATORS

    if isinstance(obj, tuple(ESTIMATORS.values())):
        if not hasattr(obj, "model_"):
            _unfitted(obj, ", or watch it train with svmviz.animate(estimator, X, y)")
        obj = obj.model_
    if isinstance(obj, Model):
        return obj, point_alpha(obj, X), model_title(obj)
    if is_foreign(obj):
        if not hasattr(obj, "n_features_in_"):
            _unfitted(obj)
        # its training data give λ and a NuSVR's ε, and each support vector's |α| by index
        trained_on = _trained_on(obj, X)
        model = from_sklearn(obj, *((X, y) if trained_on else ()))
        alpha = support_alpha(obj, len(X)) if trained_on else point_alpha(model, X)
        kernel = getattr(obj, "kernel", None)
        with_kernel = f", {kernel} kernel" if isinstance(kernel, str) else ""
        return model, alpha, f"{type(obj).__name__} (scikit-learn){with_kernel}"
    raise TypeError(
        "svmviz.plot draws an svmviz model (a fitted svmviz estimator, an "
        f"svmviz.core.model_io.Model) or a fitted scikit-learn {', '.join(SUPPORTED)}; not "
        f"{_called(obj)}"
    )


def _unfitted(obj, more: str = "") -> NoReturn:
    from sklearn.exceptions import NotFittedError

    name = type(obj).__name__
    raise NotFittedError(f"svmviz.plot: this {name} is not fitted yet: call its fit first{more}")


def _trained_on(est, X: np.ndarray) -> bool:
    """Whether ``X`` is (as far as can be told) the data a scikit-learn model was fitted
    on: its support vectors are X's rows at their indices (a model without support
    vectors: X has its number of coordinates)."""
    index = getattr(est, "support_", None)
    if index is None:
        return X.shape[1] == getattr(est, "n_features_in_", -1)
    index = np.asarray(index)
    if index.size and int(index.max()) >= len(X):
        return False
    return np.array_equal(X[index], np.asarray(est.support_vectors_, dtype=float))


def _points(X) -> np.ndarray:
    """X as the picture's points: a 2-D array of finite numbers, or an InputError."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise InputError(
            f"svmviz.plot: X must be a 2-D array, a row per point and a column per "
            f"coordinate, not of shape {X.shape} (one coordinate: X.reshape(-1, 1))"
        )
    if not np.all(np.isfinite(X)):
        raise InputError("svmviz.plot: X holds values that are not finite numbers")
    return X


def _extent(extent) -> tuple | None:
    if extent is None:
        return None
    try:
        x0, x1, y0, y1 = (float(v) for v in extent)
    except (TypeError, ValueError):
        raise InputError(f"extent must be (x0, x1, y0, y1), not {shown(extent)}") from None
    if not (np.all(np.isfinite([x0, x1, y0, y1])) and x0 < x1 and y0 < y1):
        raise InputError(f"extent must be finite with x0 < x1 and y0 < y1, not {shown(extent)}")
    return x0, x1, y0, y1


def _plot_data(model: Model, X: np.ndarray, y) -> Dataset:
    """The points ``X`` (:func:`_points`) of a picture of ``model`` as a data set of its
    problem, or an InputError saying what is wrong with them."""
    kind = model.kind
    if y is not None:
        y = np.asarray(y)
        if y.ndim != 1 or len(y) != len(X):
            raise InputError(
                f"svmviz.plot: y must hold one value per row of X ({counted(len(X), 'row')}), "
                f"not of shape {y.shape}"
            )
    if kind == "regression":
        if y is None:
            raise InputError(
                "svmviz.plot: a regression's points are drawn with their targets: pass y"
            )
        data = Dataset.regression(X, y.astype(float))
    elif kind == "one-class":
        data = Dataset.points(X)  # (y: ignored, as by the one-class estimator's fit)
    else:
        if y is None:
            raise InputError(
                "svmviz.plot: a classifier's picture shows each point in its class: pass y, "
                "the labels of X"
            )
        index = {c: k for k, c in enumerate(model.classes)}
        labels = [str(v) for v in y.tolist()]
        unknown = sorted(set(labels) - index.keys())
        if unknown:
            raise InputError(
                f"svmviz.plot: y holds labels that are not the model's classes: "
                f"{shown(unknown)} (its classes: {shown(list(model.classes))})"
            )
        data = Dataset(X, np.array([index[v] for v in labels], dtype=np.int64), model.classes)
    check_window_data(data, "svmviz.plot", "the plane", REMEDY, subject="X")
    has_inputs = model.coef is not None or len(model.support_vectors) > 0
    if has_inputs and input_dim(model) != X.shape[1]:
        raise InputError(
            f"svmviz.plot: the model takes {counted(input_dim(model), 'coordinate')} and X "
            f"has {counted(X.shape[1], 'coordinate')}"
        )
    return data


def _prepared(est, X, y):
    """(SolverConfig, Dataset) of a fit of the unfitted clone ``est`` on (X, y): its
    parameters and the data checked as its ``fit`` checks them."""
    from sklearn.utils.validation import validate_data

    from svmviz.estimators import OneClassSVM, SVMRegressor

    est._validate_params()
    if isinstance(est, OneClassSVM):
        return est._setup(validate_data(est, X, dtype=np.float64))
    if y is None:
        what = "targets" if isinstance(est, SVMRegressor) else "labels"
        raise InputError(f"svmviz.animate: a {type(est).__name__} trains on y, the {what} of X")
    regression = isinstance(est, SVMRegressor)
    X, y = validate_data(est, X, y, dtype=np.float64, y_numeric=regression)
    return est._setup(X, y)
