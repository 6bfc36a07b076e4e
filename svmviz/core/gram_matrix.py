"""The kernel matrix of the training points as the solver uses it, ordered for a heat map.

The solver trains on k(x_i, x_j) (+1 when the bias is regularized: the constant feature
folded into the kernel, ``Solver._features``); a linear model's matrix is XXᵀ (+1 the same
way). Rows and columns are ordered by class, and within a class by |α| when asked, so
that each class is a block and "RBF with a large γ memorizes" shows as K → identity.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.kernels import Kernel

CAP = 2_000  # points; above, the matrix (CAP² cells) is not drawn


def too_many(m: int) -> str:
    """The one line shown instead of a matrix of ``m`` points, or "" when it is drawn."""
    if m <= CAP:
        return ""
    return f"{m:,} points: the kernel matrix is drawn for at most {CAP:,}"


def kernel_matrix(kernel: Kernel, X: np.ndarray, bias: str = "free") -> np.ndarray:
    """K(x_i, x_j) of the rows of ``X`` as the solver uses it (+1 with a regularized bias)."""
    X = np.asarray(X, dtype=float)
    K = X @ X.T if kernel.is_linear else kernel.gram(X, X)
    return K + 1.0 if bias == "regularized" else K


def order(y: np.ndarray, alpha: np.ndarray | None = None, by_alpha: bool = False) -> np.ndarray:
    """The display order: by class (stable), and by |α| decreasing within a class when
    ``by_alpha`` (and α is known)."""
    y = np.asarray(y)
    if by_alpha and alpha is not None and len(alpha) == len(y):
        return np.lexsort((-np.abs(np.asarray(alpha, dtype=float)), y))
    return np.argsort(y, kind="stable")


@dataclass(frozen=True)
class GramMatrix:
    """The matrix in display order: ``values[r, c] = K(x_order[r], x_order[c])``,
    ``y`` the classes in that order, ``edges`` the rows where a new class begins."""

    values: np.ndarray
    order: np.ndarray
    y: np.ndarray
    edges: np.ndarray

    def support(self, alpha: np.ndarray | None) -> np.ndarray:
        """Display rows of the support vectors (α_i ≠ 0)."""
        if alpha is None or len(alpha) != len(self.order):
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(np.asarray(alpha)[self.order] != 0)


def ordered(
    K: np.ndarray, y: np.ndarray, alpha: np.ndarray | None = None, by_alpha: bool = False
) -> GramMatrix:
    """``K`` (of the points in their own order) in the display order."""
    idx = order(y, alpha, by_alpha)
    ys = np.asarray(y)[idx]
    edges = np.flatnonzero(ys[1:] != ys[:-1]) + 1
    return GramMatrix(K[np.ix_(idx, idx)], idx, ys, edges)
