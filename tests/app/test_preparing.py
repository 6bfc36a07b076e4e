"""While the compiled loop is being prepared, the window trains in plain Python and its
status line says so; then the compiled loop takes over and the line stops saying it."""

import threading

import pytest

pytest.importorskip("PySide6.QtCore")

from svmviz.app.worker import TrainingController
from svmviz.core import _jit
from svmviz.core.config import SolverConfig
from svmviz.core.pictures.frame import data_extent
from svmviz.core.solvers import _loop
from svmviz.ui.panels.status import PREPARING, status_text


def says_preparing(text: str) -> bool:
    return any(words in text for words in PREPARING.values())


@pytest.fixture
def controller(qtbot):
    c = TrainingController()
    yield c
    c.shutdown()


@pytest.mark.skipif(not _jit.HAVE_NUMBA, reason="numba is not installed")
def test_play_trains_in_python_and_says_so_until_the_compiled_loop_is_ready(
    qtbot, controller, blobs2, monkeypatch
):
    monkeypatch.setattr(_jit, "python_meanwhile", True)  # as the window sets it
    monkeypatch.setattr(_jit, "force_ready", False)
    monkeypatch.setattr(_jit, "compile_in_background", lambda *args: None)
    python_calls = []
    twin = _jit.python_version(_loop)
    run = twin.run_linear_binary

    def counted(*args):
        python_calls.append(args[1])
        return run(*args)

    monkeypatch.setattr(twin, "run_linear_binary", counted)
    config = SolverConfig(iterations=10**6)
    with qtbot.waitSignal(controller.snapshot_ready, timeout=30000) as sig:
        controller.submit(config, blobs2, data_extent(blobs2.X))
    first = sig.args[0]
    assert first.preparing
    assert first.t == 0
    text = status_text(first, len(blobs2.y), config)
    assert "press Play" in text
    assert says_preparing(text)
    assert "Play trains in plain Python" in text

    controller.play()
    qtbot.waitUntil(
        lambda: controller.latest is not None and controller.latest.t > 0, timeout=30000
    )
    snap = controller.latest
    assert snap.preparing
    assert snap.status == "running"
    assert python_calls
    text = status_text(snap, len(blobs2.y), config)
    assert text.startswith("iteration")
    assert says_preparing(text)
    assert "training in plain Python meanwhile" in text

    monkeypatch.setattr(_jit, "force_ready", True)  # the compiled loop is ready: hand-over
    qtbot.waitUntil(lambda: not controller.latest.preparing, timeout=30000)
    t_handed = controller.latest.t
    qtbot.waitUntil(lambda: controller.latest.t > t_handed, timeout=30000)
    controller.pause()
    snap = controller.latest
    assert not says_preparing(status_text(snap, len(blobs2.y), config))
    assert sum(python_calls) < snap.t  # the compiled loop went on from there


@pytest.fixture
def not_ready_yet(monkeypatch):
    """The compiled loops as a new process finds them: not prepared, nothing started (they
    are in numba's cache: the session's compiled_loops fixture put them there)."""
    monkeypatch.setattr(_jit, "python_meanwhile", True)
    monkeypatch.setattr(_jit, "_ready", threading.Event())
    monkeypatch.setattr(_jit, "_started", False)
    monkeypatch.setattr(_jit, "_how", "preparing")
    monkeypatch.setattr(_jit, "_ready_hooks", [])
    yield
    assert _jit._ready.wait(60), "the background preparation did not end"


@pytest.mark.skipif(not _jit.HAVE_NUMBA, reason="numba is not installed")
def test_an_idle_window_prepares_the_loops_and_then_stops_saying_so(
    qtbot, controller, blobs2, not_ready_yet
):
    seen = []
    controller.snapshot_ready.connect(seen.append)
    config = SolverConfig(iterations=1000)
    controller.submit(config, blobs2, data_extent(blobs2.X))  # and no Play
    qtbot.waitUntil(lambda: bool(seen), timeout=30000)
    assert seen[0].preparing  # (it starts now, not at the first step)
    qtbot.waitUntil(lambda: not controller.latest.preparing, timeout=60000)
    assert controller.latest.t == 0
    assert not says_preparing(status_text(controller.latest, len(blobs2.y), config))
    # numba's cache has the loops: loaded, never said to be compiled
    assert all(s.preparing in ("preparing", "loading", "") for s in seen)


def test_the_status_says_whether_the_solver_loads_or_compiles():
    from svmviz.core.solvers.handover import WARM_UP_ENTRIES

    assert "first run after installing" in PREPARING["compiling"]
    assert "installing" not in PREPARING["loading"] + PREPARING["preparing"]
    if _jit.HAVE_NUMBA:  # (the compiled_loops fixture filled numba's cache)
        assert _jit._in_cache(WARM_UP_ENTRIES)
        assert not _jit._in_cache(())


def test_a_closed_window_does_not_keep_the_news_from_the_others(qtbot, monkeypatch):
    """The compiled loops are ready: every window's worker hears it, also when another one
    was closed meanwhile (its signal's source deleted: RuntimeError)."""
    import shiboken6
    from PySide6 import QtCore

    class Worker(QtCore.QObject):  # (as svmviz.app.worker's: a signal emitted by the hook)
        compiled = QtCore.Signal()

    monkeypatch.setattr(_jit, "_ready", threading.Event())
    monkeypatch.setattr(_jit, "_ready_hooks", [])
    gone, kept = Worker(), Worker()
    _jit.on_change(gone.compiled.emit)
    _jit.on_change(kept.compiled.emit)
    shiboken6.delete(gone)
    with qtbot.waitSignal(kept.compiled, timeout=5000):
        _jit._changed(last=True)
    assert _jit._ready.is_set() and not _jit._ready_hooks
