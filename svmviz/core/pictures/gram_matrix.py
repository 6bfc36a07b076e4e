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


def order(
    y: np.ndarray,
    alpha: np.ndarray | None = None,
    by_alpha: bool = False,
    X: np.ndarray | None = None,
) -> np.ndarray:
    """The display order: by class, and within a class by |α| decreasing when ``by_alpha``
    (and α is known), else along the points' first principal axis when ``X`` is given
    (neighbours in the plane are neighbours in the matrix, so its blocks show the kernel's
    reach), else in the points' own order."""
    y = np.asarray(y)
    if by_alpha and alpha is not None and len(alpha) == len(y):
        return np.lexsort((-np.abs(np.asarray(alpha, dtype=float)), y))
    if X is not None and len(X) > 1:
        return np.lexsort((principal(np.asarray(X, dtype=float)), y))
    return np.argsort(y, kind="stable")


def principal(X: np.ndarray) -> np.ndarray:
    """Each point's coordinate along the first principal axis of ``X``."""
    C = X - X.mean(axis=0)
    _, _, vt = np.linalg.svd(C, full_matrices=False)
    axis = vt[0] * (1.0 if vt[0][np.argmax(np.abs(vt[0]))] >= 0 else -1.0)  # a fixed sign
    return C @ axis


@dataclass(frozen=True)
class GramMatrix:
    """The matrix in display order: ``values[r, c] = K(x_order[r], x_order[c])``,
    ``y`` the classes in that order, ``edges`` the rows where a new class begins."""

    values: np.ndarray
    order: np.ndarray
    y: np.ndarray
    edges: np.ndarray

    def support(self, mask: np.ndarray | None) -> np.ndarray:
        """Display rows of the support vectors, ``mask`` over the points in their own
        order (svmviz.core.pictures.margins.support_mask: as the plane rings them)."""
        if mask is None or len(mask) != len(self.order):
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(np.asarray(mask, dtype=bool)[self.order])


def ordered(
    K: np.ndarray,
    y: np.ndarray,
    alpha: np.ndarray | None = None,
    by_alpha: bool = False,
    X: np.ndarray | None = None,
) -> GramMatrix:
    """``K`` (of the points ``X`` in their own order) in the display order (:func:`order`)."""
    idx = order(y, alpha, by_alpha, X)
    ys = np.asarray(y)[idx]
    edges = np.flatnonzero(ys[1:] != ys[:-1]) + 1
    return GramMatrix(K[np.ix_(idx, idx)], idx, ys, edges)
