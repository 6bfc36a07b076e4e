"""While the compiled loop is being prepared, the window trains in plain Python and its
status line says so; then the compiled loop takes over and the line stops saying it."""

import pytest

pytest.importorskip("PySide6.QtCore")

from svmviz.app.worker import TrainingController
from svmviz.core import _jit
from svmviz.core.config import SolverConfig
from svmviz.core.frame import data_extent
from svmviz.core.solvers import _loop
from svmviz.ui.status import status_text

PREPARING = "preparing the compiled solver"


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
    monkeypatch.setattr(_jit, "compile_in_background", lambda warm_up: None)
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
    assert PREPARING in text
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
    assert PREPARING in text
    assert "training in plain Python meanwhile" in text

    monkeypatch.setattr(_jit, "force_ready", True)  # the compiled loop is ready: hand-over
    qtbot.waitUntil(lambda: not controller.latest.preparing, timeout=30000)
    t_handed = controller.latest.t
    qtbot.waitUntil(lambda: controller.latest.t > t_handed, timeout=30000)
    controller.pause()
    snap = controller.latest
    assert PREPARING not in status_text(snap, len(blobs2.y), config)
    assert sum(python_calls) < snap.t  # the compiled loop went on from there
