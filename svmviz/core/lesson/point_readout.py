"""What the model says at one point of the plane: the hover readout.

f(x) (binary) or every f_k(x) (multiclass), the predicted class, and for kernel models the
support vectors that contribute most to the deciding value: f(x) = Σ_j α_j k(x_j, x) + b
(003's representer form), so each term α_j k(x_j, x) is one support vector's share.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.model_io import Model


@dataclass(frozen=True)
class Readout:
    x: np.ndarray  # (2,)
    values: np.ndarray  # (1,) f(x) for binary, (K,) f_k(x) for multiclass
    predicted: int  # class index
    support: np.ndarray  # (n, 2) the top contributing support vectors (kernel models)
    shares: np.ndarray  # (n,) their terms α_j k(x_j, x) in the deciding value


def readout(model: Model, x, top: int = 3) -> Readout:
    """The model at ``x``; for kernel models the ``top`` support vectors by |α_j k(x_j, x)|
    in f (binary) or in f_k of the predicted class k (multiclass)."""
    x = np.asarray(x, dtype=float).reshape(1, -1)
    F = np.atleast_1d(model.decision_function(x)[0])
    predicted = int(F[0] > 0) if model.binary else int(np.argmax(F))
    support, shares = np.zeros((0, x.shape[1])), np.zeros(0)
    if model.coef is None and model.support_vectors is not None and len(model.support_vectors):
        k = model.kernel.gram(x, model.support_vectors)[0]
        row = 0 if model.binary else predicted
        terms = model.dual_coef[row] * k
        order = np.argsort(-np.abs(terms))[:top]
        support, shares = model.support_vectors[order], terms[order]
    return Readout(x[0], F, predicted, support, shares)
