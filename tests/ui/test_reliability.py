"""Reliability of the window: a crash found in a fresh process, divergence, degenerate data."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("PySide6.QtWidgets")

FIRST_KERNEL_FRAME = """
import sys
from PySide6 import QtCore, QtWidgets
from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.ui.window.launch import build_window, demo_data

app = QtWidgets.QApplication(sys.argv)
Discard = QtWidgets.QMessageBox.StandardButton.Discard
QtWidgets.QMessageBox.question = lambda *args: Discard  # (closing: unsaved changes)
w = build_window(demo_data(), SolverConfig(iterations=1000))  # linear: no contourpy yet
w.show()

def wait(cond):
    timer = QtCore.QElapsedTimer()
    timer.start()
    while not cond():
        if timer.elapsed() > 60000:
            sys.exit(3)
        app.processEvents()
        QtCore.QThread.msleep(5)

wait(lambda: w.snapshot is not None)
w.session.set_config(SolverConfig(kernel=Kernel("rbf"), iterations=1000))
w.state.set_speed(0)  # instant
w.toggle_play()
wait(lambda: w.snapshot.generation == w.controller.generation and w.snapshot.t > 100)
print("kernel frames", w.snapshot.t)
w.close()
"""


def test_the_first_kernel_frame_of_a_fresh_process_does_not_crash():
    """A window that started linear draws its first kernel frame without crashing (a
    SIGSEGV in pybind11's set-up when it is first called from the training QThread). A fresh
    process: nothing here may contour first."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    r = subprocess.run(
        [sys.executable, "-c", FIRST_KERNEL_FRAME],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert "kernel frames" in r.stdout


# ---------------------------------------------------------------- the window, in this process
import re  # noqa: E402

import numpy as np  # noqa: E402
import pyqtgraph as pg  # noqa: E402
from PySide6 import QtWidgets  # noqa: E402

from svmviz.core.config import SolverConfig  # noqa: E402
from svmviz.core.files.scenario import list_scenarios  # noqa: E402
from svmviz.core.kernels import Kernel  # noqa: E402
from svmviz.ui.window.launch import demo_data  # noqa: E402

NONFINITE_TEXT = re.compile(r"\b(nan|inf|-inf)\b", re.IGNORECASE)


def current(w):
    snap = w.snapshot
    return snap is not None and snap.generation == w.controller.generation


def train_until_stopped(qtbot, w):
    qtbot.waitUntil(lambda: current(w) or "Cannot train" in w.status.text(), timeout=30000)
    if "Cannot train" in w.status.text() or w.session.dataset() is None:
        return
    w.run_to_budget()
    qtbot.waitUntil(
        lambda: current(w) and w.snapshot.status != "running" and not w.playing, timeout=60000
    )
    w.frames.show_curves()


def assert_nothing_nonfinite_drawn(w):
    """Every curve of the window is finite, but for the NaN that break a line into pieces
    (connect="finite": nothing is drawn there), and no text shows nan or inf."""
    for plot in w.findChildren(pg.PlotWidget):
        for item in plot.getPlotItem().listDataItems():
            x, y = item.getData()
            if x is None or not len(x):
                continue
            bad = ~(np.isfinite(x) & np.isfinite(y))
            if bad.any():
                assert item.opts.get("connect") == "finite", item.name()
            assert np.all(np.abs(x[~bad]) < 1e300)
            assert np.all(np.abs(y[~bad]) < 1e300)
    texts = [w.status.text()] + [label.text() for label in w.findChildren(QtWidgets.QLabel)]
    for text in texts:
        assert not NONFINITE_TEXT.search(text), text


@pytest.mark.parametrize(
    "how, advice",
    [
        ("scenario", "lower η₀ = 500 below 2/λ = 200 or choose Pegasos"),
        (
            SolverConfig(kernel=Kernel("poly", gamma=1e100, degree=3), iterations=2000),
            "scale the coordinates down or lower γ",
        ),
    ],
    ids=["step-size", "huge-gamma"],
)
def test_divergence_pauses_and_says_what_to_change(qtbot, make_window, wait_frame, how, advice):
    w = make_window(iterations=2000, show=True)
    if how == "scenario":
        w.open_scenario(next(p for p in list_scenarios() if "step-size" in p.name))
    else:
        w.session.set_config(how)
    wait_frame(w, lambda s: s.generation == w.controller.generation)
    w.toggle_play()
    wait_frame(w, lambda s: s.generation == w.controller.generation and s.status == "diverged")
    qtbot.waitUntil(lambda: not w.playing and w.controls.play.text() == "Play", timeout=5000)
    w.frames.show_curves()
    assert "diverged" in w.status.text()
    assert advice in w.status.text()
    assert_nothing_nonfinite_drawn(w)


def test_kernel_values_that_overflow_are_named():
    from svmviz.core.errors import InputError
    from svmviz.core.solvers import Solver

    cfg = SolverConfig(kernel=Kernel("poly", gamma=1e150, degree=3))
    with pytest.raises(InputError, match="overflow.*lower γ"):
        Solver(cfg).reset(demo_data())


BLOBS = demo_data()
DEGENERATE = {
    "duplicates with opposite labels": ([[0, 0], [0, 0], [1, 1], [1, 1], [2, 0]], [0, 1, 0, 1, 0]),
    "all points identical": ([[1, 1]] * 6, [0, 1, 0, 1, 0, 1]),
    "one point per class": ([[0, 0], [1, 1]], [0, 1]),
    "collinear": ([[t, 2 * t + 1] for t in range(8)], [0, 0, 1, 0, 1, 1, 0, 1]),
    "coordinates of 1e12": (BLOBS.X * 1e12, BLOBS.y),
    "coordinates of 1e-12": (BLOBS.X * 1e-12, BLOBS.y),
    "coordinates of 1e15": (BLOBS.X * (0.999e15 / np.abs(BLOBS.X).max()), BLOBS.y),
    "coordinates of 1e200": (BLOBS.X * 1e200, BLOBS.y),
    "nine classes": ([[np.cos(k), np.sin(k)] for k in range(18)], [k % 9 for k in range(18)]),
}
KERNELS = {"linear": Kernel(), "rbf": Kernel("rbf"), "hard": None}


@pytest.mark.parametrize("kind", KERNELS)
@pytest.mark.parametrize("case", DEGENERATE)
def test_degenerate_data_train_or_say_why(qtbot, make_window, case, kind):
    X, y = DEGENERATE[case]
    config = (
        SolverConfig(margin="hard", iterations=500)
        if kind == "hard"
        else SolverConfig(kernel=KERNELS[kind], iterations=500)
    )
    w = make_window(config=config, show=True)
    w.session.replace_points(np.array(X, dtype=float), y)
    w.fit_view()
    train_until_stopped(qtbot, w)
    text = w.status.text()
    if case == "coordinates of 1e200":  # beyond what double precision can square
        assert "Cannot train" in text and "beyond ±1e15" in text, text
    elif "Cannot train" in text:  # a message where one is due: which, and why
        assert kind == "hard" and "not separable" in text, text
    else:
        assert w.snapshot.status in ("budget", "objective", "weights"), text
    isolated = kind == "rbf" and case in ("coordinates of 1e12", "coordinates of 1e15")
    assert ("each point stands alone; lower γ" in text) == isolated, text
    assert_nothing_nonfinite_drawn(w)


def test_a_class_emptied_by_deletes(qtbot, make_window):
    w = make_window(iterations=2000, show=True)
    X = [[0, 0], [1, 0], [0, 1], [1, 1], [2, 2], [3, 3]]
    w.session.replace_points(np.array(X, dtype=float), [0, 0, 1, 1, 2, 2])
    train_until_stopped(qtbot, w)
    assert "3 classes" in w.panel.problem.text()
    assert w.snapshot.model.coef.shape[0] == 3
    w.session.delete_points([4, 5])  # class 3 has no points left: binary
    train_until_stopped(qtbot, w)
    assert "binary" in w.panel.problem.text()
    assert w.snapshot.model.coef.shape[0] == 1
    assert w.snapshot.status == "budget"
    w.session.delete_points([2, 3])  # one class left: nothing to train, and it says so
    qtbot.waitUntil(lambda: "at least two classes" in w.status.text(), timeout=10000)
    assert w.snapshot is None
    assert_nothing_nonfinite_drawn(w)
    w.session.undo()  # and back
    train_until_stopped(qtbot, w)
    assert w.snapshot.status == "budget"


@pytest.mark.parametrize("autosave", ['"text"', "[1, 2]", '{"source": [1], "saved_at": 5}'])
def test_a_damaged_autosave_file_is_no_crash(tmp_path, autosave):
    """An "autosave" entry that is not an object is no error at the start, before the
    window opens."""
    from svmviz.app.autosave import find_recoverable

    (tmp_path / "x.json").write_text(
        f'{{"format": "svmviz-session", "version": 1, "autosave": {autosave}}}'
    )
    found = find_recoverable(tmp_path)
    assert len(found) == 1
    assert found[0].source is None
    for f in found:
        f.discard()


def test_ten_classes_train_in_the_engine_and_the_window_says_its_limit(
    make_window, tmp_path, monkeypatch
):
    from svmviz.core.data import Dataset
    from svmviz.core.training.setup import prepare

    angles = np.arange(40) * 2 * np.pi / 40
    X = np.c_[np.cos(angles), np.sin(angles)] * (1 + np.arange(40) % 3)[:, None]
    data = Dataset.from_labels(X, np.arange(40) % 10)
    solver, ref, _ = prepare(SolverConfig(iterations=3000), data)
    solver.step(3000)
    assert data.n_classes == 10
    assert np.isfinite(solver.history_["objective"]).all()
    assert solver.history_["objective"][-1] >= ref.lower
    path = tmp_path / "ten.csv"
    path.write_text(
        "x,y,label\n" + "".join(f"{a},{b},c{k}\n" for (a, b), k in zip(X, data.y, strict=True))
    )
    shown = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "warning", lambda *a: shown.append(a[2]))
    w = make_window(iterations=2000, show=True)
    before = w.session.points
    assert not w.files.open_path(path, confirm=False)
    assert shown
    assert "at most 9 classes" in shown[0]
    assert "10" in shown[0]
    assert w.session.points is before  # nothing changed
    w.close()


def test_an_rbf_frame_with_coefficients_beyond_float32(recwarn):
    """A kernel run on its way to diverging has α beyond float32's 3.4e38: the frame's grid
    stays finite and warns of nothing."""
    from svmviz.core.data import Dataset
    from svmviz.core.model_io import Model
    from svmviz.core.pictures.frame import make_frame

    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    model = Model(
        classes=("a", "b"),
        kernel=Kernel("rbf"),
        lam=0.01,
        bias="free",
        support_vectors=X,
        dual_coef=np.array([[1e60, -2e60, 1e60]]),
        intercept=np.array([0.0]),
    )
    frame = make_frame(model, Dataset(X, np.array([0, 1, 0]), ("a", "b")), (-1, 3, -1, 2), 40)
    assert not recwarn.list
    assert all(np.isfinite(c).all() for c in frame.contours["boundary"])


def test_an_equal_step_recomputed_is_compared_without_error(make_window, wait_frame):
    """A step recomputed for the frame shown (the same t, sample and numbers, a new object)
    is shown again without comparing its arrays with == (which raises a ValueError)."""
    import copy
    import dataclasses

    w = make_window(batch=3, iterations=2000, show=True)
    w.advance(1)
    wait_frame(w, lambda s: s.generation == w.controller.generation and s.step is not None)
    snap = w.snapshot
    w.frames.show_step(snap)
    again = dataclasses.replace(snap, step=copy.deepcopy(snap.step))
    w.frames.show_step(again)  # (raised ValueError: the truth value of an array … is ambiguous)
    assert w.frames.step_shown is again.step  # (shown again: cheap, and never an error)


def test_coordinates_beyond_the_limit_are_refused_where_they_would_overflow():
    """Coordinates of 1e300 would overflow ‖x‖² in the solver, float32 in the rbf grid, and
    σ² in the QP (an OverflowError that would leave the window waiting): they are refused."""
    from svmviz.core.data import Dataset
    from svmviz.core.errors import InputError
    from svmviz.core.solvers import Solver
    from svmviz.core.training.reference import exact_optimum

    X = BLOBS.X.copy()
    X[4, 1] = -3e15
    data = Dataset(X, BLOBS.y, BLOBS.classes)
    for config in (SolverConfig(), SolverConfig(kernel=Kernel("rbf"))):
        with pytest.raises(InputError, match="point 5 has the coordinate -3e\\+15, beyond ±1e15"):
            Solver(config).reset(data)
    with pytest.raises(InputError, match="point 5 has the coordinate"):
        exact_optimum(SolverConfig(margin="hard"), data)


def test_an_rbf_frame_of_a_view_zoomed_far_out(recwarn):
    """A view 1e300 wide (or γ = 1e100): the float32 grid would overflow; the exponent is
    formed in double precision there."""
    from svmviz.core.data import Dataset
    from svmviz.core.model_io import Model
    from svmviz.core.pictures.frame import grid_values, make_frame

    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    for gamma, extent in ((1.0, (-1e300, 1e300, -1e300, 1e300)), (1e100, (0, 2, 0, 1))):
        model = Model(
            classes=("a", "b"),
            kernel=Kernel("rbf", gamma=gamma),
            lam=0.01,
            bias="free",
            support_vectors=X,
            dual_coef=np.array([[1.0, -2.0, 1.0]]),
            intercept=np.array([0.5]),
        )
        frame = make_frame(model, Dataset(X, np.array([0, 1, 0]), ("a", "b")), extent, 40)
        assert not recwarn.list
        xs, ys = np.linspace(*extent[:2], 41), np.linspace(*extent[2:], 41)
        F = grid_values(model, xs, ys)
        gx, gy = np.meshgrid(xs, ys)
        with np.errstate(over="ignore"):  # (the exact values, in double precision)
            exact = model.decision_function(np.column_stack([gx.ravel(), gy.ravel()]))
        assert np.isfinite(F).all()
        np.testing.assert_allclose(F, exact, atol=1e-6)
        assert len(np.unique(F.round(6))) > 1  # (not only b: the grid meets the vectors)
        assert all(np.isfinite(c).all() for c in frame.contours["boundary"])


def test_a_defect_in_setting_up_a_job_is_said_not_a_silent_wait(qtbot, make_window, monkeypatch):
    """An unexpected exception while a job is set up (a bug) is said in the status line,
    where the window would otherwise wait for a frame that never comes."""
    from svmviz.core.solvers import Solver

    w = make_window(iterations=2000, show=True)

    def broken(self, *args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(Solver, "reset", broken)
    with qtbot.capture_exceptions() as caught:
        w.session.set_config(SolverConfig(lam=0.02, iterations=2000))
        qtbot.waitUntil(lambda: "internal error" in w.status.text(), timeout=30000)
    assert "ZeroDivisionError: a bug" in w.status.text()
    assert [type(e[1]) for e in caught] == [ZeroDivisionError]


def test_the_view_and_the_edits_stay_within_the_coordinates_svmviz_takes(make_window):
    """Zooming far out stops at ±2e15, and a click or a drag out there stops at ±0.999e15,
    so that nothing made in the window is refused when it is trained or opened again."""
    from svmviz.core.limits import MAX_COORDINATE

    w = make_window(iterations=2000, show=True)
    for _ in range(8):
        w.plot.view.scaleBy((1e4, 1e4))
        QtWidgets.QApplication.processEvents()
    (x0, x1), (y0, y1) = w.plot.view.viewRange()
    assert max(abs(x0), abs(x1), abs(y0), abs(y1)) <= 2 * MAX_COORDINATE
    assert x1 - x0 > 1e14  # (it did zoom out)
    n = len(w.session.points)
    w.session.add_point(3e20, -1e300)
    before = w.session.points.X.copy()
    np.testing.assert_array_equal(before[n], [0.999 * MAX_COORDINATE, -0.999 * MAX_COORDINATE])
    w.session.move_points([0, n], 1e300, 5.0)
    X = w.session.points.X
    assert np.abs(X).max() <= MAX_COORDINATE
    assert X[n, 0] == before[n, 0]  # (it stopped)
    assert X[n, 1] == before[n, 1] + 5.0  # (the other axis moved as asked)
    w.session.undo()
    np.testing.assert_allclose(w.session.points.X, before, rtol=0, atol=1e-12)
