"""Test configuration: headless Qt, shared data sets."""

import gc
import importlib.util
import os

from svmviz.ui.notebook.headless import offscreen_platform

# the 3-D view's OpenGL tests (tests/ui/gl) need a display with OpenGL: they run when asked,
# with Qt's xcb platform under Xvfb and Mesa (.ci/run); every other run is headless
GL_TESTS = os.environ.get("SVMVIZ_GL_TESTS") == "1"
if GL_TESTS:
    os.environ["QT_QPA_PLATFORM"] = "xcb"
elif os.environ.get("QT_QPA_PLATFORM", "offscreen") == "offscreen":
    os.environ["QT_QPA_PLATFORM"] = offscreen_platform(1920, 1080)

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from svmviz.core.data import Dataset  # noqa: E402

QT_FOLDERS = ("app", "ui", "gl")  # tests of the layers with Qt: workers, windows, threads


def runs_qt(request) -> bool:
    """Whether the test is one of the Qt layers' (its file is in tests/app or tests/ui)."""
    return request.path.parent.name in QT_FOLDERS


@pytest.fixture(scope="session")
def compiled_loops():
    """The solver's loops compiled once (on a fresh install, e.g. in CI, that takes ~35 s;
    afterwards numba's cache has them), before a test waits on training with a timeout."""
    from svmviz.core.solvers import Solver

    Solver.warm_up()
    # (a compilation that fails leaves the loops plain Python, quietly: not in the tests)
    assert Solver.preparing() != "unavailable", Solver.notice()


@pytest.fixture(autouse=True)
def compiled_for_qt_tests(request):
    """The Qt layers' tests wait on a training thread with a timeout: the loops are compiled
    before (a solver in the core's tests compiles on its first use: they need not wait)."""
    if runs_qt(request):
        request.getfixturevalue("compiled_loops")


@pytest.fixture(autouse=True)
def unsaved_changes_discarded(request, monkeypatch):
    """A window closed with unsaved changes asks whether to save them (a modal dialog that
    would wait forever here): unless a test answers otherwise, the answer is Discard. The
    prompts asked are in the returned list."""
    asked = []
    if not runs_qt(request):
        yield asked
        return
    from PySide6 import QtWidgets

    def question(parent, title, text, *args):
        asked.append(text)
        return QtWidgets.QMessageBox.StandardButton.Discard

    monkeypatch.setattr(QtWidgets.QMessageBox, "question", question)
    yield asked


@pytest.fixture(autouse=True)
def no_dangling_training_threads(request):
    """Fail a test that leaves a training QThread running (napari's _dangling_qthreads).
    Python's collector is off during a Qt test, as in the app (svmviz.ui.window.launch), and the
    test's garbage is collected here, in the GUI thread: a collection triggered by an allocation in
    another thread (training, curves, an earlier test's exact-optimum thread) would free Qt
    objects there, which hangs or crashes the process."""
    if not runs_qt(request):
        yield
        return
    gc.disable()
    yield
    gc.collect()
    gc.freeze()  # (as the app does: the next test's collection passes over its own objects only)
    from svmviz.app.worker import running_threads

    left = running_threads()
    assert not left, f"training threads still running after the test: {left}"


def standardized(X):
    return (X - X.mean(axis=0)) / X.std(axis=0) * 1.5


@pytest.fixture(scope="session")
def training_choices():
    """A configuration for every algorithm and step schedule, λ > 0 and λ = 0, with and
    without the projection (tried with one schedule: it reads only B): what
    svmviz.core.training.settings_used tells apart."""
    import itertools

    from svmviz.core.config import ALGORITHMS, SCHEDULES, SolverConfig
    from svmviz.core.errors import InputError

    out = []
    for algorithm, schedule, lam, project in itertools.product(
        ALGORITHMS, SCHEDULES, (0.05, 0.0), (False, True)
    ):
        if (schedule != "auto" and (algorithm == "pegasos" or project)) or (project and lam == 0):
            continue
        try:
            out.append(
                SolverConfig(
                    algorithm=algorithm, schedule=schedule, lam=lam, project=project, iterations=40
                )
            )
        except InputError:  # (λ = 0 with a 1/(λt) step)
            continue
    return out


@pytest.fixture(scope="session")
def blobs2():
    from sklearn.datasets import make_blobs

    X, y = make_blobs(160, centers=2, random_state=0, cluster_std=2.2)
    return Dataset.from_labels(standardized(X), y)


@pytest.fixture(scope="session")
def blobs3():
    from sklearn.datasets import make_blobs

    X, y = make_blobs(150, centers=3, random_state=2, cluster_std=1.8)
    return Dataset.from_labels(standardized(X), y)


@pytest.fixture(scope="session")
def moons():
    from sklearn.datasets import make_moons

    X, y = make_moons(120, noise=0.25, random_state=0)
    return Dataset.from_labels(standardized(X), y)


@pytest.fixture(scope="session")
def separable():
    rng = np.random.default_rng(4)
    X = np.vstack([rng.normal([-1.6, -1.0], 0.45, (40, 2)), rng.normal([1.6, 1.0], 0.45, (40, 2))])
    y = np.repeat([0, 1], 40)
    return Dataset.from_labels(X, y)


@pytest.fixture(autouse=True)
def own_config_dir(tmp_path_factory, monkeypatch):
    """Each test's preferences and autosave files in a folder of its own (never the user's)."""
    folder = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("SVMVIZ_CONFIG_DIR", str(folder))
    return folder


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", help="run the long tests (the soak)")
    if importlib.util.find_spec("pytestqt") is None:
        # the core's tests in an environment without Qt: pytest-qt's settings in
        # pyproject.toml are declared here, or they are unknown options, an error
        for name, kind in (
            ("qt_api", "string"),
            ("qt_log_level_fail", "string"),
            ("qt_log_ignore", "linelist"),
        ):
            parser.addini(name, "pytest-qt's (not installed)", type=kind)


def pytest_collection_modifyitems(config, items):
    """Long tests (marked slow) run with --runslow only: not in the default run, nor in CI.
    Tests marked early are moved to the front (in their order): pytest-xdist hands them
    out first, so a long one does not start last while the other workers have finished."""
    items.sort(key=lambda item: "early" not in item.keywords)  # (a stable sort)
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="long: opt in with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
