"""Optional numba: the inner loops are plain Python that numba compiles when it is there.

``SVMVIZ_NO_NUMBA=1`` runs the same functions as Python (slow, but the same numbers), which
is how the tests check that the compiled path and the pure-Python path agree.
"""

from __future__ import annotations

import os

try:  # pragma: no cover - depends on the environment
    if os.environ.get("SVMVIZ_NO_NUMBA"):
        raise ImportError
    import numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    numba = None
    HAVE_NUMBA = False


def jit(func):
    """``numba.njit(cache=True)`` when numba is importable, else the function itself."""
    if HAVE_NUMBA:
        return numba.njit(cache=True, nogil=True, fastmath=True)(func)
    return func


def jit_inline(func):
    """:func:`jit`, inlined into its callers at numba's level (small helpers called per
    element, which LLVM otherwise leaves as calls that stop vectorization)."""
    if HAVE_NUMBA:
        return numba.njit(cache=True, nogil=True, fastmath=True, inline="always")(func)
    return func
