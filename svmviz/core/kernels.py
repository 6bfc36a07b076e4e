"""Kernels, parameterized as scikit-learn does, and vectorized Gram matrices."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.errors import InputError

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
        if self.name not in KERNELS:
            raise InputError(f"unknown kernel {self.name!r}; choose one of {', '.join(KERNELS)}")
        if not np.isfinite(self.gamma) or self.gamma <= 0:
            raise InputError(f"gamma must be a positive number, not {self.gamma:g}")
        if not np.isfinite(self.coef0):
            raise InputError("coef0 must be finite")
        if int(self.degree) != self.degree or self.degree < 1:
            raise InputError(f"degree must be a whole number ≥ 1, not {self.degree}")

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
            if G is not None:
                return G
            sq = (
                np.einsum("ij,ij->i", X, X)[:, None]
                + np.einsum("ij,ij->i", Z, Z)[None, :]
                - 2.0 * (X @ Z.T)
            )
            np.maximum(sq, 0.0, out=sq)
            return np.exp(-self.gamma * sq)
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
            return (self.gamma * inner + self.coef0) ** int(self.degree)
        return np.tanh(self.gamma * inner + self.coef0)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "gamma": self.gamma,
            "degree": int(self.degree),
            "coef0": self.coef0,
        }


class GramCache:
    """The last Gram matrix k(X, X), reused for the next when its points are an edit of the
    last ones: appended points add their rows and columns, moved points replace theirs, and
    deleted points drop theirs (the order kept). That is O(m·k) kernel values for k changed
    points instead of O(m²) (a click on 1,000 points with an RBF kernel: 1,000 values, not
    a million). Arrays it returns are never changed afterwards."""

    def __init__(self):
        self._kernel = None
        self._X = None
        self._G = None

    def gram(self, kernel: Kernel, X: np.ndarray) -> np.ndarray:
        X = np.array(X, dtype=float)
        G = None
        if self._X is not None and kernel == self._kernel and X.shape[1:] == self._X.shape[1:]:
            G = _edited_gram(kernel, self._X, self._G, X)
        if G is None:
            G = kernel.gram(X, X)
        self._kernel, self._X, self._G = kernel, X, G
        return G


def _edited_gram(kernel: Kernel, old: np.ndarray, G: np.ndarray, X: np.ndarray):
    """k(X, X) from the Gram ``G`` of the points ``old``, or None when X is not an append,
    a move or a deletion of a quarter of the points at most."""
    n, m = len(old), len(X)
    if m == n:
        changed = np.flatnonzero(np.any(old != X, axis=1))
        if len(changed) > max(1, n // 4):
            return None
        if not len(changed):
            return G
        out = G.copy()
    elif m > n:
        if n == 0 or not np.array_equal(old, X[:n]):
            return None
        changed = np.arange(n, m)
        out = np.empty((m, m))
        out[:n, :n] = G
    else:
        keep = _subsequence(old, X)
        if keep is None or n - m > max(1, n // 4):
            return None
        return G[np.ix_(keep, keep)]
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
