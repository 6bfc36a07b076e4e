"""Optional numba: the inner loops are plain Python that numba compiles when it is there.

``SVMVIZ_NO_NUMBA=1`` runs the same functions as Python (slow, but the same numbers), which
is how the tests check that the compiled path and the pure-Python path agree.

numba is imported when a loop first runs, not when svmviz starts: importing it takes
~0.35 s, and the window's first frame needs no compiled code. Until then each decorated
function is a :class:`_Deferred` placeholder in its module; the first call of any of them
compiles them all (that is, makes numba dispatchers, which compile or load from numba's
cache on their first call) and puts the dispatchers in the placeholders' places in their
modules, so that compiled code calling another function finds a dispatcher there.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading

HAVE_NUMBA = not os.environ.get("SVMVIZ_NO_NUMBA") and (
    importlib.util.find_spec("numba") is not None
)

_OPTIONS = dict(cache=True, nogil=True, fastmath=True)
_deferred: list = []
_lock = threading.Lock()
_compiled = False


class _Deferred:
    """A function to be compiled with numba, standing in its module until the first call."""

    def __init__(self, func, options: dict):
        self.py_func = func
        self.options = options
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        self.__wrapped__ = func

    def __call__(self, *args):
        _compile_all()
        return getattr(sys.modules[self.__module__], self.__name__)(*args)


def _compile_all() -> None:
    """Replace every placeholder by its numba dispatcher (once, in any thread)."""
    global _compiled
    with _lock:
        if _compiled:
            return
        import numba

        for d in _deferred:
            setattr(sys.modules[d.__module__], d.__name__, numba.njit(**d.options)(d.py_func))
        _compiled = True


def _decorate(func, **extra):
    if not HAVE_NUMBA:
        return func
    if _compiled:  # a module imported after the first compilation
        import numba

        return numba.njit(**_OPTIONS, **extra)(func)
    d = _Deferred(func, {**_OPTIONS, **extra})
    _deferred.append(d)
    return d


def jit(func):
    """``numba.njit(cache=True, nogil=True, fastmath=True)`` when numba is importable (made
    at the first call of any such function), else the function itself."""
    return _decorate(func)


def jit_inline(func):
    """:func:`jit`, inlined into its callers at numba's level (small helpers called per
    element, which LLVM otherwise leaves as calls that stop vectorization)."""
    return _decorate(func, inline="always")
