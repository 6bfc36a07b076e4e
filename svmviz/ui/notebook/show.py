"""``svmviz.show(X, y=None, model=None, **settings)``: the svmviz window on these points and
settings, from a script or a notebook, and a handle that reads back what the user made of
them (the points as edited, the model trained now).

In a script the call returns when the window is closed. In IPython or Jupyter with Qt's
event loop running (``%gui qt``: IPython's input hook runs Qt's events between cells), or
when a Qt event loop is running already, it returns at once and the window stays live; the
handle reads the window as it is at each use (napari's ``napari.run`` decides the same way:
``_ipython_has_eventloop``).

``model`` may be a fitted svmviz estimator or a scikit-learn SVC, NuSVC, LinearSVC,
SGDClassifier, LogisticRegression, OneClassSVM, SVR or NuSVR (svmviz.core.files.foreign) fitted on
these points: the plane draws its boundary and margins in a colour of their own with its
support vectors ringed, named in the legend (svmviz.core.pictures.overlay), while svmviz's solver
trains on the same problem underneath (its settings are the model's unless ``settings``
say otherwise).

Everything is checked before any window opens, with the messages of the rest of svmviz
(InputError, a ValueError).
"""

from __future__ import annotations

import gc
import os
import sys
from dataclasses import dataclass, field, replace

import numpy as np

from svmviz.core.command_line import config_from_settings
from svmviz.core.config import BIASES, BINARY_LOSSES, MULTICLASS_LOSSES, NU_SCALED, SolverConfig
from svmviz.core.data import Dataset, check_window_data
from svmviz.core.errors import InputError, counted, shown
from svmviz.core.limits import MAX_NAME, check_coordinates, check_points, check_text
from svmviz.core.model_io import Model
from svmviz.core.pictures.overlay import Overlay, overlay
from svmviz.core.telemetry import held
from svmviz.ui.window.launch import build_window, check_display_libraries

NAME = "svmviz.show"
DEFAULT_PROBLEM = {"svc": "svc", "regression": "epsilon-svr", "one-class": "one-class"}
PROJECTION = (
    "use `svmviz train` for other dimensions, or show a 2-D projection of X "
    "(e.g. sklearn.decomposition.PCA(n_components=2).fit_transform(X))"
)


@dataclass(frozen=True)
class ShownPoints:
    """The points as the window has them now; ``X, y = handle.points`` unpacks them as
    ``svmviz.show`` takes them.

    ``X``: (m, 2), or (m, 1) for a regression on one input (the plane's x). ``y``: each
    point's label as it was given (a class added in the window: its name), its target
    (regression), or None (one-class shown without labels). ``names``: the window's name
    of each label of ``y`` (classes can be renamed there)."""

    X: np.ndarray
    y: np.ndarray | None
    names: dict = field(default_factory=dict)

    def __iter__(self):
        return iter((self.X, self.y))


class Handle:
    """What :func:`show` returns: the window and what it holds now (read at each use, also
    after the window was closed)."""

    def __init__(self, window, labels: np.ndarray | None, unlabelled: bool):
        self.window = window
        self._labels = labels  # the label of each of the first class slots, as given
        self._unlabelled = unlabelled  # shown without y (one-class)

    @property
    def config(self) -> SolverConfig:
        """The solver's settings in force (the solver dock's)."""
        return self.window.session.job_config()

    @property
    def model(self) -> Model | None:
        """The model the window shows now (as File ▸ Export ▸ model writes it), or None
        while nothing is trained (the points make no problem). After an edit, the edited
        problem's model once its first frame is in."""
        snap = self.window.snapshot
        return None if snap is None else self.window.exports.model(snap)

    @property
    def points(self) -> ShownPoints:
        """The points as the user left them (see :class:`ShownPoints`)."""
        session = self.window.session
        p = session.points
        if session.kind == "regression":
            if p.target is not None:
                return ShownPoints(np.array(p.X), np.array(p.target))
            return ShownPoints(np.array(p.X[:, :1]), np.array(p.X[:, 1]))
        if session.kind == "one-class" and self._unlabelled:
            return ShownPoints(np.array(p.X), None)
        slots = np.unique(p.y)
        names = {self._label(k): session.classes[k] for k in slots}
        return ShownPoints(np.array(p.X), self._label_array(p.y), names)

    def _label(self, k: int):
        """Class slot ``k``'s label: as given, or (a class added in the window) its name."""
        k = int(k)
        if self._labels is not None and k < len(self._labels):
            return self._labels[k].item() if hasattr(self._labels[k], "item") else self._labels[k]
        return self.window.session.classes[k]

    def _label_array(self, y: np.ndarray) -> np.ndarray:
        given = self._labels
        if given is not None and (not len(y) or int(y.max()) < len(given)):
            return given[y]  # (the dtype of the labels given)
        return np.array([self._label(k) for k in y], dtype=object)

    def estimator(self):
        """A fitted svmviz estimator (svmviz.estimators) of what the window shows: its
        settings and the model of now, trained on the window's training points (its
        ``partial_fit`` starts from w = 0). An InputError while nothing is trained."""
        from svmviz.core.lesson.generalization import TRAIN, subset
        from svmviz.estimators import fitted

        window = self.window
        snap, data = window.snapshot, window.session.dataset()
        if snap is None or data is None or len(snap.frame.margins) != len(data.X):
            raise InputError(
                "no model to make an estimator of: "
                + (window.session.needed() if data is None else "the training is starting")
            )
        parts = window.state.parts
        if parts is not None and len(parts) == len(data.X):
            data = subset(data, np.flatnonzero(parts == TRAIN))
        model = self.model
        labels = None
        if window.session.kind == "svc":
            labels = np.array([self._label(k) for k in window.session.present_classes()])
        return fitted(self.config, data, model, snap.t, held(snap.history), labels)

    def __repr__(self) -> str:
        session = self.window.session
        snap = self.window.snapshot
        t = "nothing trained" if snap is None else f"iteration {snap.t:,}"
        shown_now = "open" if self.window.isVisible() else "closed"
        return (
            f"<svmviz window ({shown_now}): {counted(len(session.points), 'point')}, "
            f"{session.config.problem}, {t} of {session.config.iterations:,}>"
        )


def show(X, y=None, model=None, *, play: bool = False, **settings) -> Handle:
    """Open the svmviz window on the points ``X`` (labels ``y``) and the solver's
    ``settings``; returns a :class:`Handle` that reads back the points and the model.

    Parameters
    ----------
    X : array of shape (m, 2), or (m, 1) for a regression on one input
        The points (at most 50,000). Other dimensions: `svmviz train`, or a 2-D
        projection (PCA) first.
    y : array of m labels, a numeric target, or None
        Class labels of any values (numbers or strings: the window names the classes by
        their str; at most 9 classes); a numeric target of a regression (ε-SVR unless
        ``problem`` says otherwise; non-integer numbers are a target); None: unlabelled
        points, the one-class problem.
    model : fitted svmviz estimator or scikit-learn model, optional
        Drawn over the plane, fixed, while svmviz trains underneath; fitted on these
        points (scikit-learn's) or on its own (an svmviz estimator's; the legend says
        when the points are not the ones it was fitted on, after an edit too).
    play : bool
        Start training at once.
    **settings
        The solver's settings by the names of `svmviz train`'s options or SolverConfig's
        fields: problem, loss, multiclass, epsilon, nu, margin, lam (or C, libsvm's:
        λ = 1/(C·m)), bias, kernel, gamma, degree, coef0, cost (a K×K matrix or a cost
        file), solver (or algorithm), schedule, eta, sampling, batch, average, project,
        radius, iterations, tol, seed. With ``model``, the model's problem, loss, kernel
        and λ are the defaults (an svmviz estimator's settings, all of them).

    In a script, returns when the window is closed; in IPython or Jupyter after ``%gui
    qt`` (or with a Qt event loop running), at once, the window staying live.
    """
    data, labels, given, base = _prepared(X, y, model, settings)
    config = config_from_settings(settings, data, base)
    check_window_data(data, NAME, subject="y")
    check_display()
    from PySide6 import QtCore, QtWidgets

    from svmviz.core.solvers import Solver
    from svmviz.ui.views.gl_probe import share_contexts

    app = QtWidgets.QApplication.instance()
    if app is None:  # (Qt starts here: what its platform needs is checked first)
        check_display_libraries()
        share_contexts()  # (the 3-D view's OpenGL, in every window this process opens)
        app = QtWidgets.QApplication(["svmviz"])
        app.setApplicationName("svmviz")
    else:
        check_visible(app)
    window = build_window(data, config, play=play)
    if given is not None:
        fits = _same(given.data, data)
        window.plot.set_given(replace(given, points=window.session.points if fits else None))
    window.show()
    # data of any scale fill the plane, as File ▸ Open fits them (once the window is laid
    # out: the view keeps its scale as the plane grows)
    QtCore.QTimer.singleShot(0, window.fit_view)
    if app.platformName() != "offscreen":  # (nothing to raise there; Qt warns)
        window.raise_()
    window.activateWindow()
    handle = Handle(window, labels, y is None)
    # (the solver's loops are compiled once the first frame is up: TrainingController)
    if event_loop_running():
        return handle
    loop = QtCore.QEventLoop()
    window.closed.connect(loop.quit)
    loop.exec()
    # an interpreter that exits while numba compiles aborts (svmviz.ui.window.launch.leave): the
    # compilation the window started is finished first (once, the first run after installing)
    Solver.warm_up()
    gc.enable()  # (the window's threads have stopped: svmviz.ui.window.launch's collector may rest)
    return handle


def check_display(environ=os.environ, platform: str = sys.platform) -> None:
    """Refuse before Qt starts where no window can open: Linux without a display (no
    DISPLAY or WAYLAND_DISPLAY, and no QT_QPA_PLATFORM chosen)."""
    if not platform.startswith("linux"):
        return
    if any(environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")):
        return
    raise InputError(
        f"{NAME} opens a window, and there is no display here (no DISPLAY or "
        "WAYLAND_DISPLAY, and QT_QPA_PLATFORM is not set): use svmviz.plot, which draws "
        "the plane to a picture without a window, or run this on a desktop (in Jupyter "
        "or IPython: %gui qt first)"
    )


def check_visible(app, environ=os.environ, platform: str = sys.platform) -> None:
    """Refuse where this process's Qt was started without a screen that the user has
    (svmviz.plot and svmviz.animate start it offscreen when no Qt runs): the window would
    open where nobody sees it. An offscreen platform asked for (QT_QPA_PLATFORM) is kept."""
    if app is None or app.platformName() != "offscreen":
        return
    if environ.get("QT_QPA_PLATFORM", "").startswith("offscreen"):
        return
    if platform.startswith("linux") and not (
        environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")
    ):
        return  # (check_display has said what to do)
    raise InputError(
        f"{NAME}: Qt runs without a screen in this Python session (svmviz.plot and "
        "svmviz.animate started it so, to draw without a window), so the window would not "
        "be seen: restart the kernel and call svmviz.show first, or run %gui qt before "
        "svmviz.plot"
    )


def event_loop_running() -> bool:
    """Whether Qt's events are processed without this call running a loop: IPython's
    ``%gui qt`` (its input hook runs them between cells; the loop itself looks stopped
    while a cell runs, so its level says nothing there), or a Qt event loop running."""
    from PySide6 import QtCore

    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython is not None else None
    loop = getattr(shell, "active_eventloop", None)
    if isinstance(loop, str) and loop.startswith("qt"):
        return True
    return QtCore.QThread.currentThread().loopLevel() > 0


# ---------------------------------------------------------------------- the input
def _prepared(X, y, model, settings: dict):
    """(data set, the labels of its classes or None, the Overlay of ``model`` or None,
    the settings the given ones go over), checked."""
    X = _coordinates(X)
    if y is not None:
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y[:, 0]
        if y.ndim != 1 or len(y) != len(X):
            raise InputError(f"y must hold one value per point of X: {len(X):,}, not {y.shape}")
    base, foreign = _model_settings(model, X, y)
    kind = _kind(settings.get("problem"), base, y)
    if base is None:
        base = SolverConfig(problem=DEFAULT_PROBLEM[kind])
    d = X.shape[1]
    if d != 2 and not (kind == "regression" and d == 1):
        what = "2-D data" if kind != "regression" else "a regression of 1 or 2 inputs"
        remedy = PROJECTION if d > 2 else "use `svmviz train` for other dimensions"
        raise InputError(
            f"{NAME}: the window draws {what}, and X has {counted(d, 'coordinate')} "
            f"(shape {X.shape}); {remedy}"
        )
    labels = None
    problem = settings.get("problem", base.problem)
    if kind == "regression":
        data = Dataset.regression(X, _target(y, problem))
    elif y is None:
        if kind == "svc":
            raise InputError(
                f"{problem} needs the class labels y (y=None shows unlabelled points: one-class)"
            )
        data = Dataset.points(X)
    else:
        labels, index, names = _classes(y)
        data = Dataset(X, index, names)
    given = None if model is None else _overlay(model, foreign, data, labels)
    return data, labels, given, base


def _coordinates(X) -> np.ndarray:
    try:
        A = np.array(X, dtype=float)
    except (TypeError, ValueError):
        raise InputError("X must be an array of numbers: m points × their coordinates") from None
    if A.ndim != 2:
        hint = " (the input of a regression: X.reshape(-1, 1))" if A.ndim == 1 else ""
        raise InputError(
            f"X must be a 2-D array, m points × their coordinates, not of shape {A.shape}{hint}"
        )
    bad = np.flatnonzero(~np.isfinite(A).all(axis=1))
    if bad.size:
        i = int(bad[0])
        raise InputError(f"X[{i}] is {A[i].tolist()}: every coordinate must be finite")
    check_points(len(A), NAME)
    check_coordinates(A, lambda i: f"X[{i}]")
    return A


def _kind(problem, base: SolverConfig | None, y) -> str:
    """The kind of problem (svc, regression, one-class): the problem's when given, the
    model's, else the labels': a numeric target of non-integer values is a regression's,
    no labels one-class's."""
    if problem is not None:
        kind = SolverConfig(problem=problem).kind
        if base is not None and kind != base.kind:
            raise InputError(
                f"problem {problem} is not of the model's kind ({base.problem}): the window "
                "trains the model's kind of problem beside it"
            )
        return kind
    if base is not None:
        return base.kind
    if y is None:
        return "one-class"
    if y.dtype.kind == "f" and not np.all(np.isfinite(y) & (y == np.round(y))):
        return "regression"
    return "svc"


def _target(y, problem: str) -> np.ndarray:
    if y is None:
        raise InputError(f"{problem} needs the target y (a number per point)")
    try:
        t = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"{problem} needs a numeric target y, not labels") from None
    bad = np.flatnonzero(~np.isfinite(t))
    if bad.size:
        raise InputError(f"y[{int(bad[0])}] is {t[bad[0]]}: every target must be finite")
    return t


def _classes(y: np.ndarray):
    """(the distinct labels, each point's index into them, their names): in scikit-learn's
    order (sorted: the positive class of two is the second, as a fitted model's
    ``classes_[1]``), named by their str."""
    try:
        labels, index = np.unique(y, return_inverse=True)
    except TypeError:  # labels of several types: sorted by their names
        labels, index = np.unique(np.array([str(v) for v in y]), return_inverse=True)
    names = tuple(str(v) for v in labels)
    if len(set(names)) < len(names):
        raise InputError(f"y has labels of the same name ({', '.join(names)}): name them apart")
    for name in names:
        check_text(name, MAX_NAME, f"y: the label {shown(name)}")
    return labels, index.reshape(-1).astype(np.int64), names


# ---------------------------------------------------------------------- the model
def _model_settings(model, X, y):
    """(the settings the model gives the window, its svmviz Model of scikit-learn's or
    None): an svmviz estimator's settings, or a scikit-learn model's problem, loss,
    kernel and λ."""
    if model is None:
        return None, None
    from svmviz.estimators import ESTIMATORS

    if isinstance(model, tuple(ESTIMATORS.values())):
        if not hasattr(model, "model_"):
            raise InputError(f"this {type(model).__name__} is not fitted yet: call fit first")
        return model._config, None
    from svmviz.core.files.foreign import from_sklearn

    fitted = getattr(model, "n_features_in_", None)
    if fitted is not None and fitted != X.shape[1]:
        raise InputError(
            f"the model was fitted on {counted(fitted, 'coordinate')} and X has "
            f"{X.shape[1]}: show the points it was fitted on"
        )
    m = from_sklearn(model, X, y)
    return _settings_of(m), m


def _settings_of(m: Model) -> SolverConfig:
    """The settings of the problem a scikit-learn model solved, as far as svmviz has them."""
    fields: dict = {"problem": m.problem, "kernel": m.kernel}
    if m.problem == "svc" and m.decision is None:
        losses = BINARY_LOSSES if m.single_output else MULTICLASS_LOSSES
        if m.loss in losses:
            fields["loss" if m.single_output else "multiclass"] = m.loss
    if m.problem not in NU_SCALED and m.lam > 0:
        fields["lam"] = float(m.lam)
    if m.problem == "epsilon-svr":
        fields["epsilon"] = float(m.epsilon)
    if m.problem in ("nu-svc", "nu-svr", "one-class"):
        fields["nu"] = float(m.nu)
    if m.problem != "one-class" and m.bias in BIASES:
        fields["bias"] = m.bias
    return SolverConfig(**fields)


def _overlay(model, foreign: Model | None, data: Dataset, labels) -> Overlay:
    """The Overlay of the given model: an svmviz estimator's on the points it was fitted
    on; a scikit-learn model's on these. Either's support vectors are svmviz's (by f at
    the points: svmviz.core.pictures.margins.support_mask), not scikit-learn's α-based
    ``support_``."""
    if foreign is None:  # an svmviz estimator
        return overlay(f"svmviz {type(model).__name__}", model.model_, model._data)
    name = f"scikit-learn {type(model).__name__}"
    if foreign.kind == "svc":
        mine = set(data.classes)
        if set(foreign.classes) != mine:
            raise InputError(
                f"the {name} was fitted on the classes {', '.join(foreign.classes)} and y "
                f"has {', '.join(data.classes) or 'none'}: show the points it was fitted on"
            )
        order = {c: k for k, c in enumerate(foreign.classes)}
        index = np.array([order[c] for c in data.classes], dtype=np.int64)[data.y]
        data = Dataset(data.X, index, foreign.classes)
    return overlay(name, foreign, data)


def _same(a: Dataset, b: Dataset) -> bool:
    """Whether two data sets hold the same points, labels (by name) and targets."""
    if a.X.shape != b.X.shape or not np.array_equal(a.X, b.X):
        return False
    if (a.target is None) != (b.target is None):
        return False
    if a.target is not None:
        return np.array_equal(a.target, b.target)
    if not a.classes or not b.classes:
        return True  # (unlabelled points: one-class, which ignores labels)
    return [a.classes[k] for k in a.y] == [b.classes[k] for k in b.y]
