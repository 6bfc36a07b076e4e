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
