"""Kernels, parameterized as scikit-learn does, and vectorized Gram matrices."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.errors import InputError, shown
from svmviz.core.limits import BOUNDS

KERNELS = ("linear", "poly", "rbf", "sigmoid")


@dataclass(frozen=True)
class Kernel:
    """k(x, z): linear ⟨x,z⟩; poly (γ⟨x,z⟩+coef0)^degree; rbf exp(−γ‖x−z‖²);
    sigmoid tanh(γ⟨x,z⟩+coef0)."""

    name: str = "linear"
    gamma: float = 1.0
    degree: int = 3
    coef0: float = 1.0

    def __post_init__(self):
        if isinstance(self.coef0, float) and self.coef0 == 0:  # −0 given is 0
            object.__setattr__(self, "coef0", 0.0)
        if self.name not in KERNELS:
            raise InputError(
                f"unknown kernel {shown(self.name)}; choose one of {', '.join(KERNELS)}"
            )
        for name in ("gamma", "coef0", "degree"):
            BOUNDS[name].check(getattr(self, name))

    @property
    def is_linear(self) -> bool:
        return self.name == "linear"

    def gram(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        """The matrix k(X_i, Z_j), shape (len(X), len(Z))."""
        X = np.asarray(X, dtype=float)
        Z = np.asarray(Z, dtype=float)
        if self.name == "rbf":
            from svmviz.core import _gram

            G = _gram.rbf(X, Z, self.gamma)
            return G if G is not None else _gram.rbf_numpy(X, Z, self.gamma)
        return self._of_inner(X @ Z.T)

    def diag(self, X: np.ndarray) -> np.ndarray:
        """k(x_i, x_i) for each row, without the n×n matrix."""
        X = np.asarray(X, dtype=float)
        if self.name == "rbf":
            return np.ones(len(X))
        return self._of_inner(np.einsum("ij,ij->i", X, X))

    def _of_inner(self, inner: np.ndarray) -> np.ndarray:
        if self.name == "linear":
            return inner
        if self.name == "poly":
            with np.errstate(over="ignore", invalid="ignore"):  # (check_gram says it)
                return (self.gamma * inner + self.coef0) ** int(self.degree)
        return np.tanh(self.gamma * inner + self.coef0)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "gamma": self.gamma,
            "degree": int(self.degree),
            "coef0": self.coef0,
        }


def check_gram(G: np.ndarray, kernel: Kernel) -> None:
    """An InputError when the kernel's values on the training points overflow (rbf and
    sigmoid values are bounded: a million of them need no look)."""
    if kernel.name not in ("rbf", "sigmoid") and not np.all(np.isfinite(G)):
        what = f"γ = {kernel.gamma:g}, degree {int(kernel.degree)}"
        raise InputError(
            f"the {kernel.name} kernel's values overflow on these data ({what}: beyond "
            "1e308); lower γ or the degree, or scale the coordinates down"
        )


def compiled_gram(kernel: Kernel) -> bool:
    """Whether ``kernel.gram`` computes with the compiled loop now (RBF, the loops ready:
    :func:`svmviz.core._gram.rbf`) rather than numpy's formula, whose last bits differ: a
    run made on one matrix is replayed on the same kind."""
    from svmviz.core import _jit

    return kernel.name == "rbf" and _jit.HAVE_NUMBA and _jit.use_compiled()


def isolation_notice(kernel: Kernel, G: np.ndarray) -> str:
    """A word when an RBF kernel sees every point alone (k = 0 between any two: γ far too
    large for the data's scale, e.g. coordinates of 1e12), else ""."""
    m = G.shape[0]
    if kernel.name != "rbf" or m < 2 or G[0, 1:].max() >= 1e-12:  # (the first row: O(m))
        return ""
    if float(G.sum()) - m >= 1e-12:
        return ""
    return (
        f"at γ = {kernel.gamma:g} the rbf kernel is 0 between any two points, so each "
        "point stands alone; lower γ (about 1/distance²) or scale the coordinates"
    )


# an append moves the rows in one compiled call (_gram.to_stride); without it (no numba, or
# the loops being prepared), a block of this many bytes at a time: few passes, which the
# GUI thread's asks for the GIL do not cut up, and numpy's copy of an overlap stays small
BLOCK_BYTES = 1 << 22


class GramCache:
    """The last Gram matrix k(X, X), updated for the next when its points are an edit of the
    last ones: appended points add their rows and columns, moved points replace theirs, and
    deleted points drop theirs (the order kept). That is O(m·k) kernel values for k changed
    points instead of O(m²) (a click on 1,000 points with an RBF kernel: 1,000 values, not
    a million).

    The matrix lives in one buffer with room to grow (GROWTH), updated in place, rows moved
    to their new stride: a fresh m×m array each time would cost its page faults on every
    click, where moving rows in memory already there is cheap. So a matrix returned is
    valid until the next call; the training worker drops its solver before it asks for the
    next.
    """

    GROWTH = 1.25

    def __init__(self):
        self._kernel = None
        self._X = None
        self._buf = np.empty(0)
        self._G = None
        self._compiled = False  # the matrix came from the compiled loop (compiled_gram)

    def gram(self, kernel: Kernel, X: np.ndarray) -> np.ndarray:
        X = np.array(X, dtype=float)
        G = None
        compiled = compiled_gram(kernel)
        same = kernel == self._kernel and compiled == self._compiled
        if self._X is not None and same and X.shape[1:] == self._X.shape[1:]:
            G = self._edited(kernel, X)
        if G is None:
            G = self._view(len(X))
            G[:] = kernel.gram(X, X)
        self._kernel, self._X, self._G, self._compiled = kernel, X, G, compiled
        return G

    def _view(self, m: int) -> np.ndarray:
        """The buffer's first m² entries as an m×m C-contiguous matrix (the buffer grows,
        and loses what it held, when it is too small)."""
        if self._buf.size < m * m:
            from svmviz.core.limits import MAX_KERNEL_POINTS  # (the room: up to the limit)

            room = min(int((self.GROWTH * m) ** 2) + 1, max(m * m, MAX_KERNEL_POINTS**2))
            self._buf = np.empty(room)
        return self._buf[: m * m].reshape(m, m)

    def _edited(self, kernel: Kernel, X: np.ndarray):
        """k(X, X) from the last matrix, or None when X is not an append, a move or a
        deletion of a quarter of the points at most (or the buffer must grow)."""
        old, G = self._X, self._G
        n, m = len(old), len(X)
        buf = self._buf
        if m == n:
            changed = np.flatnonzero(np.any(old != X, axis=1))
            if len(changed) > max(1, n // 4):
                return None
            out = G  # in place
        elif m > n:
            if n == 0 or not np.array_equal(old, X[:n]) or buf.size < m * m:
                return None
            from svmviz.core import _gram

            changed = np.arange(n, m)
            if not _gram.to_stride(buf, n, m):
                per = max(1, BLOCK_BYTES // (8 * n))  # rows a block
                for a in range((n - 1) // per * per, -1, -per):  # to stride m, the last first
                    b = min(a + per, n)
                    block = buf[a * m : a * m + (b - a) * m].reshape(b - a, m)
                    block[:, :n] = buf[a * n : b * n].reshape(b - a, n)  # (overlap: a copy)
            out = buf[: m * m].reshape(m, m)
        else:
            keep = _subsequence(old, X)
            if keep is None or n - m > max(1, n // 4):
                return None
            for i, k in enumerate(keep):  # the kept rows to stride m, the first first
                buf[i * m : i * m + m] = buf[k * n : k * n + n][keep]
            return buf[: m * m].reshape(m, m)
        if len(changed):
            rows = kernel.gram(X[changed], X)
            out[changed, :] = rows
            out[:, changed] = rows.T
        return out


def _subsequence(old: np.ndarray, X: np.ndarray):
    """Indices of the rows of ``old`` that make up X in order, or None."""
    keep, j = [], 0
    for i in range(len(old)):
        if j < len(X) and np.array_equal(old[i], X[j]):
            keep.append(i)
            j += 1
    return np.array(keep) if j == len(X) else None
