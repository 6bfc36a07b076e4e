"""The RBF kernel matrix, compiled: exp(−γ‖x_i − z_j‖²) entry by entry, with no m×n
temporaries, the rows split between two threads (the loop releases the GIL). The matrix of
the training points with themselves is symmetric: its upper triangle is computed and
mirrored, half the exponentials, the same numbers ((a − b)² = (b − a)² exactly).

At m = 1,000 the matrix is a million exponentials, which bound the time; numpy's formula
makes three m×n temporaries (`svmviz bench` compares the two). Without numba,
:meth:`svmviz.core.kernels.Kernel.gram` keeps numpy's formula.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

import numpy as np

from svmviz.core._jit import HAVE_NUMBA, jit, use_compiled

THREADED_FROM = 200_000  # entries; below this a second thread costs more than it saves


@jit
def _rbf_rows(X, ZT, gamma, out, lo, hi):
    """out[i, j] = exp(−γ‖X_i − Z_j‖²) for rows lo ≤ i < hi (ZT is Z transposed)."""
    d, n = ZT.shape
    for i in range(lo, hi):
        row = out[i]
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = X[i, k] - ZT[k, j]
                s += t * t
            row[j] = -gamma * s
        for j in range(n):
            row[j] = math.exp(row[j])


@jit
def _rbf_upper(X, gamma, out, lo, hi):
    """out[i, j] = exp(−γ‖X_i − X_j‖²) for lo ≤ i < hi and j ≥ i."""
    n, d = X.shape
    for i in range(lo, hi):
        row = out[i]
        for j in range(i, n):
            s = 0.0
            for k in range(d):
                t = X[i, k] - X[j, k]
                s += t * t
            row[j] = -gamma * s
        for j in range(i, n):
            row[j] = math.exp(row[j])


@jit
def _mirror(out, lo, hi):
    """out[j, i] = out[i, j] for i < j and lo ≤ j < hi, by blocks of columns (each row i
    read in short contiguous runs)."""
    for jb in range(lo, hi, 32):
        je = min(jb + 32, hi)
        for i in range(je):
            src = out[i]
            for j in range(max(jb, i + 1), je):
                out[j, i] = src[j]


def _in_two(fn: Callable[..., object], args_lo: tuple, args_hi: tuple) -> None:
    """fn(*args_hi) in a second thread while this one runs fn(*args_lo)."""
    other = threading.Thread(target=fn, args=args_hi)
    other.start()
    fn(*args_lo)
    other.join()


def rbf(X: np.ndarray, Z: np.ndarray, gamma: float) -> np.ndarray | None:
    """The RBF kernel matrix of X and Z, or None without numba or while the compiled loops
    are being prepared (:mod:`._jit`; the caller uses numpy)."""
    if not HAVE_NUMBA or not use_compiled():
        return None
    X = np.ascontiguousarray(X, dtype=float)
    m = X.shape[0]
    if Z is X or (np.shape(Z) == X.shape and np.array_equal(Z, X)):
        out = np.empty((m, m))
        if out.size < THREADED_FROM:
            _rbf_upper(X, gamma, out, 0, m)
            _mirror(out, 0, m)
            return out
        split = int(m * (1.0 - 0.5**0.5))  # the triangle's rows above and below: equal work
        _in_two(_rbf_upper, (X, gamma, out, 0, split), (X, gamma, out, split, m))
        split = int(m * 0.5**0.5)  # the mirrored entries of rows below and above: equal
        _in_two(_mirror, (out, 0, split), (out, split, m))
        return out
    ZT = np.ascontiguousarray(np.asarray(Z, dtype=float).T)
    out = np.empty((m, ZT.shape[1]))
    if out.size < THREADED_FROM or m < 2:
        _rbf_rows(X, ZT, gamma, out, 0, m)
        return out
    half = m // 2
    _in_two(_rbf_rows, (X, ZT, gamma, out, 0, half), (X, ZT, gamma, out, half, m))
    return out
