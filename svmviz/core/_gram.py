"""The RBF kernel matrix: the exponents −γ‖x_i − z_j‖² compiled, entry by entry with no m×n
temporaries, then numpy's exponential in place, in memory reused from the last matrix of
that size (:mod:`svmviz.core._spare`).

At m = 1,000 the matrix is a million exponentials, which bound the time: numpy's are
vectorized (its SIMD loops, up to AVX-512), about five times faster than the compiled loop's
one at a time (libm), and give the same bits for an entry whatever the array's length,
stride or the rest of it (so a row recomputed for an edited point equals the row of the
whole matrix). The matrix of the points with themselves is exactly symmetric: (a − b)² =
(b − a)². numpy's formula makes three m×n temporaries. One thread: a second one gains
nothing up to m = 2,000 (the loop is bound by memory), and waits milliseconds for the core
when OpenBLAS's threads spin there after a BLAS call (as after every exact reference).
Without numba (or while the loops compile), :func:`rbf_numpy` sums the same squares in the
same order, entry by entry: a row of it equals the row of its whole matrix too (the
compiled loop fuses multiply-adds, so the two paths agree up to the last digits).
"""

from __future__ import annotations

import numpy as np

from svmviz.core import _spare
from svmviz.core._jit import HAVE_NUMBA, jit, use_compiled


@jit
def _exponents(X, ZT, gamma, out):
    """out[i, j] = −γ‖X_i − Z_j‖² (ZT is Z transposed), a coordinate at a time along the row
    (so the compiler vectorizes it)."""
    d, n = ZT.shape
    for i in range(X.shape[0]):
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


@jit
def _to_stride(buf, n, m):
    """The n×n matrix at the start of ``buf`` moved to row stride m ≥ n in place: the last
    row first, each from its last entry (a row's new place is at or after its old one)."""
    for i in range(n - 1, 0, -1):
        src, dst = i * n, i * m
        for j in range(n - 1, -1, -1):
            buf[dst + j] = buf[src + j]


def to_stride(buf: np.ndarray, n: int, m: int) -> bool:
    """Move the n×n matrix at the start of ``buf`` (1-D, C-contiguous) to row stride m ≥ n
    in one call without the GIL (the Gram cache's append: numpy's copies, a block at a
    time, waited for the GIL between blocks while the GUI thread held it); False, nothing
    moved, without numba or while the compiled loops are being prepared."""
    if not HAVE_NUMBA or not use_compiled():
        return False
    _to_stride(buf, n, m)
    return True


def rbf(X: np.ndarray, Z: np.ndarray, gamma: float) -> np.ndarray | None:
    """The RBF kernel matrix of X and Z, or None without numba or while the compiled loops
    are being prepared (:mod:`._jit`; the caller uses numpy)."""
    if not HAVE_NUMBA or not use_compiled():
        return None
    X = np.ascontiguousarray(X, dtype=float)
    m = X.shape[0]
    ZT = np.ascontiguousarray(np.asarray(Z, dtype=float).T)
    out = _spare.matrix(m, ZT.shape[1])  # (memory already faulted in, when it waits)
    _exponents(X, ZT, gamma, out)
    np.exp(out, out=out)
    return out


def rbf_numpy(X: np.ndarray, Z: np.ndarray, gamma: float) -> np.ndarray:
    """The RBF kernel matrix in numpy as :func:`rbf` computes it: the squared differences
    added a coordinate at a time, times −γ, then the exponential; each entry from its own
    two points only (‖x‖² + ‖z‖² − 2x·z through BLAS would round a row apart from the
    whole matrix's)."""
    X = np.asarray(X, dtype=float)
    Z = np.asarray(Z, dtype=float)
    out = np.zeros((X.shape[0], Z.shape[0]))
    for k in range(X.shape[1]):
        t = X[:, k, None] - Z[None, :, k]
        t *= t
        out += t
    out *= -gamma
    return np.exp(out, out=out)
