"""svmviz.show: the window on points, settings and a fitted model given from Python, the
handle that reads them back, the two ways it returns, and its refusals."""

import gc
import subprocess
import sys
import types

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

import svmviz
from svmviz.core.errors import InputError
from svmviz.ui.notebook.show import check_display, check_visible, event_loop_running
from svmviz.ui.window.main_window import MainWindow


def moons(m=80, seed=0):
    from sklearn.datasets import make_moons

    X, y = make_moons(m, noise=0.2, random_state=seed)
    return (X - X.mean(axis=0)) / X.std(axis=0) * 1.5, y


@pytest.fixture
def ipython_qt(monkeypatch):
    """IPython with ``%gui qt`` on: its input hook runs Qt's events between cells."""
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: types.SimpleNamespace(active_eventloop="qt")
    monkeypatch.setitem(sys.modules, "IPython", ipython)


@pytest.fixture
def shown(qtbot, ipython_qt):
    """``shown(X, y, model, **settings)``: svmviz.show's handle (returned at once, as in
    a notebook), its window closed at the end of the test."""
    handles = []

    def show(*args, **kwargs):
        handle = svmviz.show(*args, **kwargs)
        qtbot.addWidget(handle.window)
        handles.append(handle)
        return handle

    yield show
    for handle in handles:
        handle.window.close()


def windows() -> list:
    from PySide6 import QtWidgets

    return [w for w in QtWidgets.QApplication.topLevelWidgets() if isinstance(w, MainWindow)]


def legend_text(window) -> str:
    return " | ".join(label.text for _, label in window.plot.legend.items)


# ---------------------------------------------------------------------- what is shown
def test_points_of_any_scale_fill_the_plane(qtbot, shown):
    """Measurements of another scale are shown as large as the plane allows (the window's
    default view, (−4, 4) × (−3, 3), would have squeezed them into a corner)."""
    X, y = moons()
    X = 1000 + 50 * X
    h = shown(X, y)
    lo, hi = X.min(axis=0), X.max(axis=0)

    def fitted():  # (once the window is laid out: the view keeps its scale as it grows)
        x0, x1, y0, y1 = h.window.plot.view_extent()
        inside = x0 <= lo[0] and x1 >= hi[0] and y0 <= lo[1] and y1 >= hi[1]
        # the axis of the plane's longer side is widened to keep the aspect; the other fits
        tight = min((x1 - x0) / (hi[0] - lo[0]), (y1 - y0) / (hi[1] - lo[1])) < 1.5
        return inside and tight

    qtbot.waitUntil(fitted)


def test_points_and_settings_are_the_windows(shown, wait_frame):
    X, y = moons()
    labels = np.where(y == 1, "upper", "lower")
    h = shown(X, labels, kernel="rbf", gamma=0.5, C=2.0, solver="sgd", iterations=3000)
    w = h.window
    s = w.session
    np.testing.assert_array_equal(s.points.X, X)
    assert s.classes[:2] == ("lower", "upper")  # (sorted, as scikit-learn's classes_)
    assert [s.classes[k] for k in s.points.y] == labels.tolist()
    c = s.config
    assert (c.problem, c.kernel.name, c.kernel.gamma, c.algorithm, c.iterations) == (
        "svc",
        "rbf",
        0.5,
        "sgd",
        3000,
    )
    assert c.lam == pytest.approx(1 / (2.0 * len(X)))  # C = 1/(λm)
    assert w.panel.config() == c  # the solver dock shows them
    assert h.config == c
    snap = wait_frame(w)
    assert h.model is not None and h.model.classes == ("lower", "upper")
    assert snap.t == 0 and not w.playing


def test_a_numeric_target_is_a_regression_and_no_labels_one_class(shown, wait_frame):
    rng = np.random.default_rng(1)
    x = rng.uniform(-3, 3, 40)
    t = np.sin(x) + rng.normal(0, 0.1, 40)
    h = shown(x[:, None], t, iterations=500)
    assert h.config.problem == "epsilon-svr"
    np.testing.assert_array_equal(h.window.session.points.X, np.column_stack([x, t]))
    assert wait_frame(h.window).frame.kind == "regression"
    X, y = h.points
    np.testing.assert_array_equal(X[:, 0], x)
    np.testing.assert_array_equal(y, t)

    X2, _ = moons(30)
    h2 = shown(X2, None, nu=0.3, iterations=500)
    assert (h2.config.problem, h2.config.nu) == ("one-class", 0.3)
    assert wait_frame(h2.window).frame.kind == "one-class"
    assert h2.points.y is None


def test_play_starts_training(shown, wait_frame):
    X, y = moons(40)
    h = shown(X, y, play=True, iterations=200)
    assert h.window.playing
    wait_frame(h.window, lambda s: s.t > 0)


# ---------------------------------------------------------------------- a model given
def test_a_scikit_learn_svc_is_drawn_over_the_training(shown, wait_frame):
    from sklearn.svm import SVC

    X, y = moons()
    svc = SVC(kernel="rbf", C=1.0, gamma=1.0).fit(X, y)
    h = shown(X, y, model=svc, iterations=2000)
    w = h.window
    # svmviz trains the same problem: libsvm's C is λ = 1/(Cm), its kernel the same
    c = h.config
    assert (c.problem, c.loss, c.kernel.name, c.kernel.gamma) == ("svc", "hinge", "rbf", 1.0)
    assert c.lam == pytest.approx(1 / len(X))
    wait_frame(w)
    plot = w.plot
    for item in (plot.given.boundary, plot.given.margin, plot.given.rings):
        assert item.isVisible()
    # its boundary f = 0 and margins f = ±1, of its own decision function
    x, yy = plot.given.boundary.getData()
    P = np.column_stack([x, yy])
    P = P[np.isfinite(P).all(axis=1)]
    assert len(P) > 10 and np.abs(svc.decision_function(P)).max() < 0.05
    x, yy = plot.given.margin.getData()
    P = np.column_stack([x, yy])
    P = P[np.isfinite(P).all(axis=1)]
    assert len(P) > 10 and np.abs(np.abs(svc.decision_function(P)) - 1).max() < 0.05
    # its support vectors ringed, by svmviz's one definition (y f ≤ 1, within 1%): at
    # libsvm's optimum, its α-based support_ are among them
    rings = np.column_stack(plot.given.rings.getData())
    z = np.where(y == 1, 1.0, -1.0) * svc.decision_function(X)
    np.testing.assert_array_equal(rings, X[z <= 1.01])
    assert set(svc.support_) <= set(np.flatnonzero(z <= 1.01))
    assert "scikit-learn SVC: boundary, margins" in legend_text(w)
    assert "scikit-learn SVC: support vectors" in legend_text(w)
    # fixed while the points are edited, and said so; an undo makes them its points again
    w.session.add_point(0.0, 3.5, 0)
    assert "fitted on other points" in legend_text(w)
    np.testing.assert_array_equal(np.column_stack(plot.given.rings.getData()), rings)
    w.session.undo()
    assert "fitted on other points" not in legend_text(w)
    # an exported picture of the plane draws it too
    from svmviz.ui.window.render import plane_twin

    twin = plane_twin(w.frames.plane_state(), 400, 300)
    assert twin.given.boundary.isVisible() and len(twin.given.rings.getData()[0]) == len(rings)
    twin.deleteLater()


def test_a_linear_scikit_learn_model_rings_its_margin_points(shown, wait_frame):
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    X, y = moons(60)
    linear = LinearSVC(C=0.5).fit(X, y)
    h = shown(X, y, model=linear, iterations=500)
    assert (h.config.loss, h.config.kernel.name) == ("squared_hinge", "linear")
    wait_frame(h.window)
    # its support vectors by their margins: y f ≤ 1 (on, inside or beyond the margin)
    z = np.where(y == 1, 1.0, -1.0) * linear.decision_function(X)
    rings = np.column_stack(h.window.plot.given.rings.getData())
    np.testing.assert_array_equal(rings, X[z <= 1.01])
    x, yy = h.window.plot.given.boundary.getData()
    assert np.abs(linear.decision_function(np.column_stack([x, yy])[~np.isnan(x)])).max() < 1e-9
    logistic = LogisticRegression().fit(X, y)
    h2 = shown(X, y, model=logistic, iterations=500)
    assert h2.config.loss == "logistic"
    assert not len(h2.window.plot.given.rings.getData()[0])  # every point weighs: no rings
    assert "scikit-learn LogisticRegression: boundary" in legend_text(h2.window)


def test_a_multiclass_svc_draws_the_boundaries_of_its_vote(shown, wait_frame):
    from sklearn.datasets import make_blobs
    from sklearn.svm import SVC

    X, y = make_blobs(60, centers=3, random_state=2)
    svc = SVC(gamma=0.5).fit(X, y)
    h = shown(X, y, model=svc, iterations=300)
    wait_frame(h.window)
    plot = h.window.plot
    assert len(plot.given.boundary.getData()[0]) > 10
    assert not len(plot.given.margin.getData()[0])  # (one vote more is no margin)
    assert not len(plot.given.rings.getData()[0])  # (a vote has no margin: no support vectors)
    assert "scikit-learn SVC: boundary |" in legend_text(h.window) + " |"


def test_an_svmviz_estimator_is_shown_with_its_settings(shown, wait_frame):
    from svmviz.estimators import SVMClassifier

    X, y = moons(60)
    est = SVMClassifier(lam=0.05, iterations=400, random_state=3).fit(X, y)
    h = shown(X, y, model=est)
    w = h.window
    assert w.session.config == est._config
    assert w.plot.given.overlay.model is est.model_
    assert "svmviz SVMClassifier: boundary, margins" in legend_text(w)
    # trained to its budget, the window's run is the estimator's, bit for bit
    w.run_to_budget()
    snap = wait_frame(w, lambda s: s.status == "budget")
    np.testing.assert_array_equal(snap.model.coef, est.coef_)
    np.testing.assert_array_equal(snap.model.intercept, est.intercept_)
    # another's points: the legend says so from the start
    h2 = shown(X[:50], y[:50], model=est)
    assert "fitted on other points" in legend_text(h2.window)


# ---------------------------------------------------------------------- the handle
def test_the_handle_reads_back_the_edited_points_and_model(shown, wait_frame):
    X, y = moons(50)
    labels = np.where(y == 1, 7, 3)  # labels of their own values
    h = shown(X, labels, iterations=300)
    w = h.window
    wait_frame(w)
    s = w.session
    s.add_point(2.5, 2.5, 0)  # through the session's undoable commands, as a click
    s.move_points([0], 0.5, -0.25)
    wait_frame(w, lambda snap: len(snap.frame.margins) == 51)
    X2, y2 = h.points
    assert X2.shape == (51, 2) and y2.dtype == labels.dtype
    np.testing.assert_array_equal(X2[0], X[0] + [0.5, -0.25])
    np.testing.assert_array_equal(X2[-1], [2.5, 2.5])
    assert y2[-1] == 3 and y2[:50].tolist() == labels.tolist()
    assert h.points.names == {3: "3", 7: "7"}
    model = h.model
    np.testing.assert_array_equal(model.coef, w.snapshot.model.coef)
    est = h.estimator()
    assert est.classes_.tolist() == [3, 7]
    np.testing.assert_array_equal(est.decision_function(X2), model.decision_function(X2))
    assert set(est.predict(X2)) <= {3, 7}
    # a class added in the window is named as the window names it
    s.add_point(-2.5, 2.5, 2)
    assert h.points.y[-1] == "class 3" and h.points.y.dtype == object


def test_without_a_running_event_loop_show_returns_when_the_window_closes(qtbot):
    from PySide6 import QtCore

    assert not event_loop_running()
    before = set(map(id, windows()))
    closed = []

    def close():
        for w in windows():
            if id(w) not in before and w.isVisible():
                closed.append(w)
                w.close()

    timer = QtCore.QTimer()
    timer.timeout.connect(close)
    timer.start(200)
    enabled = gc.isenabled()
    try:
        X, y = moons(30)
        h = svmviz.show(X, y, iterations=100)  # (returns when the timer closes the window)
    finally:
        timer.stop()
        if not enabled:
            gc.disable()
    assert closed == [h.window] and not h.window.isVisible()
    assert h.points.X.shape == (30, 2)  # read back after the window closed
    h.window.deleteLater()


def test_with_ipythons_qt_loop_show_returns_at_once(shown, ipython_qt):
    assert event_loop_running()
    X, y = moons(30)
    h = shown(X, y, iterations=100)
    assert h.window.isVisible()  # returned with the window open, before its first frame
    assert h.window.snapshot is None
    assert "open" in repr(h)


# ---------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    "X, y, settings, message",
    [
        (np.zeros((5, 3)), [0, 1, 0, 1, 0], {}, "X has 3 coordinates"),
        (np.zeros(5), [0, 1, 0, 1, 0], {}, "X.reshape(-1, 1)"),
        (np.zeros((5, 2)), [0, 1, 0], {}, "one value per point"),
        (np.full((2, 2), np.nan), [0, 1], {}, "must be finite"),
        (np.zeros((12, 2)), np.arange(12), {}, "at most 9 classes"),
        (np.zeros((4, 2)), [0, 1, 0, 1], {"lamda": 0.1}, "unknown setting(s) lamda"),
        (np.zeros((4, 2)), [0, 1, 0, 1], {"epsilon": 0.2}, "epsilon applies to epsilon-svr"),
        (np.zeros((4, 2)), [0, 1, 0, 1], {"problem": "nu-svc", "lam": 1}, "lam does not apply"),
        (np.zeros((4, 2)), [0, 1, 0, 1], {"kernel": "gauss"}, "unknown kernel 'gauss'"),
        (np.zeros((4, 2)), None, {"problem": "svc"}, "needs the class labels y"),
        (np.zeros((4, 1)), ["a", "b", "a", "b"], {"problem": "nu-svr"}, "numeric target"),
    ],
)
def test_refusals_before_any_window(ipython_qt, X, y, settings, message):
    before = len(windows())
    with pytest.raises(InputError) as refused:
        svmviz.show(X, y, **settings)
    assert message in str(refused.value)
    assert len(windows()) == before


def test_three_dimensional_points_are_told_what_to_do(ipython_qt):
    with pytest.raises(InputError) as refused:
        svmviz.show(np.zeros((4, 3)), [0, 1, 0, 1])
    text = str(refused.value)
    assert "svmviz train" in text and "PCA" in text


def test_models_that_cannot_be_drawn_are_refused(ipython_qt):
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.svm import SVC

    X, y = moons(30)
    cases = [
        (SVC(), "not fitted yet"),
        (KNeighborsClassifier().fit(X, y), "not KNeighborsClassifier"),
        (SVC().fit(np.column_stack([X, X[:, 0]]), y), "fitted on 3 coordinates"),
        (SVC().fit(X, np.where(y == 1, "a", "b")), "fitted on the classes"),
    ]
    for model, message in cases:
        with pytest.raises(InputError, match=message):
            svmviz.show(X, y, model=model)
    with pytest.raises(InputError, match="not of the model's kind"):
        svmviz.show(X, y, model=SVC().fit(X, y), problem="epsilon-svr")


def test_no_display_is_refused_with_what_to_use_instead(monkeypatch, ipython_qt):
    with pytest.raises(InputError) as refused:
        check_display({}, "linux")
    assert "svmviz.plot" in str(refused.value) and "%gui qt" in str(refused.value)
    for environ in ({"DISPLAY": ":0"}, {"WAYLAND_DISPLAY": "wayland-0"}, {"QT_QPA_PLATFORM": "x"}):
        check_display(environ, "linux")
    check_display({}, "darwin")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    before = len(windows())
    with pytest.raises(InputError, match="no display"):
        svmviz.show(*moons(20))
    assert len(windows()) == before


def test_qt_started_offscreen_by_plot_on_a_desktop_is_said(monkeypatch, ipython_qt, qapp):
    """In a notebook on a desktop, svmviz.plot starts Qt offscreen when none runs: a window
    opened by svmviz.show afterwards would not be seen, and is refused with what to do."""
    assert qapp.platformName() == "offscreen"  # (the tests' Qt, as plot's would be)
    check_visible(qapp, {"QT_QPA_PLATFORM": "offscreen"}, "linux")  # asked for: kept
    check_visible(qapp, {}, "linux")  # no screen: check_display says it
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    before = len(windows())
    with pytest.raises(InputError, match="restart the kernel and call svmviz.show first"):
        svmviz.show(*moons(20))
    assert len(windows()) == before


def test_import_svmviz_loads_no_qt():
    code = (
        "import sys, svmviz\n"
        "assert callable(svmviz.__getattr__)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "[]"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        svmviz.nothing  # noqa: B018
