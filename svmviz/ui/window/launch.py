"""Opening the window: `svmviz [DATA] [options] [--play]`."""

from __future__ import annotations

import os
import sys

import numpy as np

from svmviz.core.command_line import config_from_args
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, check_window_data
from svmviz.core.edits import DEFAULT_NAMES
from svmviz.core.errors import InputError
from svmviz.core.files.svmtoy import opened_config

# the GUI thread and the training thread share the GIL; when the trainer holds it (between its
# compiled chunks, building a frame), the GUI waits for at most this long before it takes its
# turn (Python's default is 5 ms, a third of a frame)
GIL_SWITCH_SECONDS = 0.001


# the libraries Qt's xcb platform plugin needs beyond what QtGui needs (readelf -d of
# PySide6's libqxcb.so and libQt6XcbQpa.so.6), with the Debian/Ubuntu package of each
XCB_LIBRARIES = {
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
}


def _loadable(soname: str) -> bool:
    """Whether the dynamic linker finds ``soname`` (a dlopen: about 0.5 ms per library, and
    Qt loads the same ones a moment later; ctypes.util.find_library runs ldconfig)."""
    import ctypes

    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def will_use_xcb(environ=os.environ, platform: str = sys.platform) -> bool:
    """Whether Qt will start its xcb (X11) platform plugin: Linux, an X display, and no other
    platform asked for (QT_QPA_PLATFORM), nor a Wayland session, which Qt 6 prefers."""
    if not platform.startswith("linux") or not environ.get("DISPLAY"):
        return False
    asked = environ.get("QT_QPA_PLATFORM", "").strip()
    if asked:
        return asked.split(";")[0].split(":")[0] == "xcb"
    wayland = environ.get("WAYLAND_DISPLAY") and environ.get("XDG_SESSION_TYPE") == "wayland"
    return not wayland


def check_display_libraries(environ=os.environ, platform: str = sys.platform) -> None:
    """Before Qt starts: the X client libraries its xcb plugin needs, or an InputError naming
    the missing ones and the command that installs them. (Qt itself aborts naming only
    xcb-cursor, even when that one is installed and others are missing.)"""
    if not will_use_xcb(environ, platform):
        return
    missing = [name for name in XCB_LIBRARIES if not _loadable(name)]
    if missing:
        packages = " ".join(XCB_LIBRARIES[name] for name in missing)
        raise InputError(
            "the window needs X client libraries that are missing: "
            f"{', '.join(missing)}. On Debian or Ubuntu: sudo apt-get install {packages} "
            "(`svmviz train` works without them)"
        )


def demo_data() -> Dataset:
    """Two overlapping Gaussian blobs: a soft margin has something to do. Their classes are
    named as every new class is ("class 1", "class 2"; then "class 3"…)."""
    rng = np.random.default_rng(7)
    X = np.vstack([rng.normal([-1.2, -0.6], 0.8, (30, 2)), rng.normal([1.2, 0.7], 0.8, (30, 2))])
    return Dataset.from_labels(X, [DEFAULT_NAMES[0]] * 30 + [DEFAULT_NAMES[1]] * 30)


_COLLECTOR = None


def gui_thread_garbage_collection(collect: bool = True) -> None:
    """Collect cyclic garbage only in the GUI thread, on a timer (pyqtgraph's
    GarbageCollector). Python's collector runs in whichever thread allocates; when it frees a
    Qt object in the training thread, shiboken waits for a lock that thread holds and the
    program hangs (a closed window's widgets collected by the worker).

    After each full collection the survivors are frozen (gc.freeze): a full pass over the
    objects of numpy, numba, scikit-learn and Qt would stall the GUI; the frozen ones are
    still freed by reference counting, only cycles among them stay. The first freeze
    follows a full collection unless ``collect`` is False (`svmviz` starting: the imports
    leave no garbage, and a pass over their objects delays the window)."""
    global _COLLECTOR
    import gc

    if _COLLECTOR is not None:
        gc.disable()  # (again: svmviz.show gives collection back when its window closes)
        return
    from pyqtgraph.util.garbage_collector import GarbageCollector

    class FreezingCollector(GarbageCollector):
        def check(self):
            full = all(c > t for c, t in zip(gc.get_count(), self.threshold, strict=True))
            super().check()
            if full:
                gc.freeze()

    if collect:
        gc.collect()
    gc.freeze()
    _COLLECTOR = FreezingCollector(interval=1.0)


def build_window(data: Dataset | None, config: SolverConfig, play: bool = False):
    """The main window (a QApplication must exist)."""
    from svmviz.core.solvers import Solver
    from svmviz.ui.window.main_window import MainWindow

    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    Solver.python_meanwhile()  # training shows at once, also on the first run after install
    gui_thread_garbage_collection()
    one_blas_thread()
    return MainWindow(data, config, play=play)


def one_blas_thread() -> None:
    """BLAS on one thread in the window's process. Its products are small (a frame's
    200×1,000 by 1,000×200), and OpenBLAS's helper threads spin while they wait, on the
    cores the window and the training need (fewer frames per second with them)."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")


def start(args):
    """The window of `svmviz [FILE] [options]`, shown: FILE is a CSV or svm-toy data set
    (the options make the solver's settings), a session or a scenario. Work a crashed run
    had not saved is offered back once the window is up. Returns (application, window); the
    caller runs the event loop. A file that cannot be read, or missing X libraries, is an
    InputError before any window opens."""
    check_display_libraries()
    from PySide6 import QtCore, QtWidgets

    from svmviz.core.files.session_file import read_document
    from svmviz.ui.views.gl_probe import share_contexts

    # a data set is read as the problem has it: labels, a target, or unlabelled points
    kind = SolverConfig(problem=args.problem).kind
    doc = read_document(args.data, kind) if args.data else demo_data()
    data = doc if isinstance(doc, Dataset) else None
    if data is not None:
        check_window_data(data, args.data or "demo")
    config = config_from_args(args, data)
    if data is not None:  # (a regression file of svm-toy's: epsilon-svr, as File ▸ Open)
        config = opened_config(data, config)
    share_contexts()  # (the 3-D view's OpenGL)
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(["svmviz"])
    app.setApplicationName("svmviz")
    if getattr(args, "reset_preferences", False):
        from svmviz.app.preferences import Preferences

        Preferences().reset()
    play = getattr(args, "play", False)
    gui_thread_garbage_collection(collect=False)  # (nothing but imports ran)
    window = build_window(data, config, play=play and data is not None)
    if data is None:  # a session or a scenario: opened as File ▸ Open would
        window.files.open_path(args.data, confirm=False)
        if play:
            window.toggle_play()
    window.show()
    if data is not None and args.data:  # a data file's points fill the plane (File ▸ Open)
        QtCore.QTimer.singleShot(0, window.fit_view)  # (once laid out)
    QtCore.QTimer.singleShot(0, window.files.offer_recovery)
    # (the solver's loops are compiled once the first frame is up: TrainingController)
    return app, window


def run(args) -> int:
    app, _window = start(args)
    return leave(app.exec())


def leave(code: int) -> int:
    """The exit status, returned; or, when the window was closed on a first run before the
    compiled loops were ready, the process ended here: the compiler thread is inside LLVM,
    which aborts the process when the interpreter tears down ("terminate called without an
    active exception", or an LLVM assertion). Everything is saved and closed by now."""
    from svmviz.core.solvers import Solver

    if Solver.compiling():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code
