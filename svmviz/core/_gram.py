"""The RBF kernel matrix: the exponents −γ‖x_i − z_j‖² compiled, entry by entry with no m×n
temporaries, then numpy's exponential in place, the rows split between two threads (both
release the GIL).

At m = 1,000 the matrix is a million exponentials, which bound the time: numpy's are
vectorized (its SIMD loops, up to AVX-512), about five times faster than the compiled loop's
one at a time (libm), and give the same bits for an entry whatever the array's length,
stride or the rest of it (so a row recomputed for an edited point equals the row of the
whole matrix). The matrix of the points with themselves is exactly symmetric: (a − b)² =
(b − a)². numpy's formula makes three m×n temporaries (`svmviz bench` compares the two).
Without numba, :meth:`svmviz.core.kernels.Kernel.gram` keeps numpy's formula.
"""

from __future__ import annotations

import threading

import numpy as np

from svmviz.core._jit import HAVE_NUMBA, jit, use_compiled

THREADED_FROM = 200_000  # entries; below this a second thread costs more than it saves


@jit
def _exponents(X, ZT, gamma, out, lo, hi):
    """out[i, j] = −γ‖X_i − Z_j‖² for rows lo ≤ i < hi (ZT is Z transposed), a coordinate
    at a time along the row (so the compiler vectorizes it)."""
    d, n = ZT.shape
    for i in range(lo, hi):
        row = out[i]
        for j in range(n):
            row[j] = 0.0
        for k in range(d):
            x = X[i, k]
            z = ZT[k]
            for j in range(n):
                t = x - z[j]
                row[j] += t * t
        for j in range(n):
            row[j] *= -gamma


def _rows(X: np.ndarray, ZT: np.ndarray, gamma: float, out: np.ndarray, lo: int, hi: int) -> None:
    """out[i, j] = exp(−γ‖X_i − Z_j‖²) for rows lo ≤ i < hi."""
    _exponents(X, ZT, gamma, out, lo, hi)
    np.exp(out[lo:hi], out=out[lo:hi])


def rbf(X: np.ndarray, Z: np.ndarray, gamma: float) -> np.ndarray | None:
    """The RBF kernel matrix of X and Z, or None without numba or while the compiled loops
    are being prepared (:mod:`._jit`; the caller uses numpy)."""
    if not HAVE_NUMBA or not use_compiled():
        return None
    X = np.ascontiguousarray(X, dtype=float)
    m = X.shape[0]
    ZT = np.ascontiguousarray(np.asarray(Z, dtype=float).T)
    out = np.empty((m, ZT.shape[1]))
    if out.size < THREADED_FROM or m < 2:
        _rows(X, ZT, gamma, out, 0, m)
        return out
    half = m // 2
    other = threading.Thread(target=_rows, args=(X, ZT, gamma, out, half, m))
    other.start()
    _rows(X, ZT, gamma, out, 0, half)
    other.join()
    return out
