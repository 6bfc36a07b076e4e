"""The RBF kernel matrix, compiled: exp(−γ‖x_i − z_j‖²) entry by entry, with no m×n
temporaries, the rows split between two threads (the loop releases the GIL).

At m = 1,000 the matrix is a million exponentials, which bound the time; numpy's formula
makes three m×n temporaries (`svmviz bench` compares the two). Without numba,
:meth:`svmviz.core.kernels.Kernel.gram` keeps numpy's formula.
"""

from __future__ import annotations

import math
import threading

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


def rbf(X: np.ndarray, Z: np.ndarray, gamma: float) -> np.ndarray | None:
    """The RBF kernel matrix of X and Z, or None without numba or while the compiled loops
    are being prepared (:mod:`._jit`; the caller uses numpy)."""
    if not HAVE_NUMBA or not use_compiled():
        return None
    X = np.ascontiguousarray(X, dtype=float)
    ZT = np.ascontiguousarray(np.asarray(Z, dtype=float).T)
    m = X.shape[0]
    out = np.empty((m, ZT.shape[1]))
    if out.size < THREADED_FROM or m < 2:
        _rbf_rows(X, ZT, gamma, out, 0, m)
        return out
    half = m // 2
    other = threading.Thread(target=_rbf_rows, args=(X, ZT, gamma, out, half, m))
    other.start()
    _rbf_rows(X, ZT, gamma, out, 0, half)
    other.join()
    return out
