"""The threads that compile the loops survive numba's cache failing (its folder deleted or
unwritable while they write to it): they compile again in memory, or leave the loops plain
Python, say so once, and print no thread traceback."""

import threading

import numpy as np
import pytest

from svmviz.core import _jit
from svmviz.core.solvers import Solver, _loop

pytestmark = pytest.mark.skipif(not _jit.HAVE_NUMBA, reason="numba is not installed")

VANISHED = FileNotFoundError(2, "No such file or directory", "/cache/f-1.py311.nbi.tmp")


@pytest.fixture
def fresh(monkeypatch):
    """_jit as in a process that has compiled nothing yet (the real state is put back
    after); returns the exceptions that reached threading.excepthook."""
    _jit._compile_all()  # (the placeholders made dispatchers before: not this test's)
    state = dict(
        _ready=threading.Event(),
        _compile_lock=threading.Lock(),
        _started=False,
        _how="preparing",
        _cached=True,
        _notice="",
        _dispatchers=[],
        _ready_hooks=[],
        force_ready=None,
    )
    for name, value in state.items():
        monkeypatch.setattr(_jit, name, value, raising=False)
    raised = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    return raised


def in_background(warm_up):
    """compile_in_background(warm_up), waited for; what preparing() said on the way."""
    said = []
    _jit.on_change(lambda: said.append(_jit.preparing()))
    _jit.compile_in_background(warm_up)
    for thread in threading.enumerate():
        if thread.name == "svmviz-compile":
            thread.join(timeout=120)
    return said


def test_a_cache_that_vanishes_while_written_is_compiled_around_in_memory(fresh):
    cached = []

    def warm_up():
        cached.append(_jit._cached)
        if _jit._cached:
            raise VANISHED

    said = in_background(warm_up)
    assert not fresh, fresh  # no exception in the thread
    assert cached == [True, False]
    assert _jit.ready()
    assert said == ["compiling", "in memory", ""]
    assert _jit.notice().startswith("numba's cache is unavailable (FileNotFoundError: ")
    assert "compiled in memory, for this session only" in _jit.notice()


def test_a_real_compilation_whose_cache_write_fails_becomes_ready(fresh, monkeypatch, tmp_path):
    """numba compiles, then writes its cache index (…nbi.tmp, renamed): here the folder is
    gone at that moment."""
    import numba
    from numba.core.caching import IndexDataCacheFile, NullCache

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))

    def vanish(self, overloads):
        raise VANISHED

    monkeypatch.setattr(IndexDataCacheFile, "_save_index", vanish)

    def twice(x):
        return 2.0 * x

    compiled = _jit._njit(twice, dict(_jit._OPTIONS))
    said = in_background(lambda: compiled(np.ones(3)))
    assert not fresh, fresh
    assert _jit.ready()
    assert said == ["compiling", "in memory", ""]
    assert isinstance(compiled._cache, NullCache)
    np.testing.assert_array_equal(compiled(np.arange(3.0)), [0.0, 2.0, 4.0])
    assert "FileNotFoundError" in _jit.notice()


def test_a_compilation_that_fails_in_memory_too_leaves_plain_python(fresh, monkeypatch):
    calls = []

    def warm_up():
        calls.append(_jit._cached)
        raise KeyError("resolve")

    said = in_background(warm_up)
    assert not fresh, fresh
    assert calls == [True, False]
    assert not _jit.ready()
    assert said == ["compiling", "in memory", "unavailable"]
    assert _jit.notice().startswith("numba could not compile the solver (KeyError: ")
    assert Solver.preparing() == "unavailable"
    # a script (no window) waits for the compiler: now it runs plain Python, and does not
    # try again at every step
    monkeypatch.setattr(_jit, "python_meanwhile", False)
    assert Solver._loops() is _jit.python_version(_loop)
    assert calls == [True, False]
