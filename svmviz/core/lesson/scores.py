"""How well a model does, from its decision values on the points: the confusion matrix (and
its Δ-weighted cost), the ROC curve with its AUC and the operating point f = 0, the mean
absolute error of a regression, and a one-class model's outlier and support-vector shares
beside ν.

The counting and the curves are scikit-learn's (``sklearn.metrics``), imported when first
used (it takes a second to load, and the window opens without it). The decision values are
the ones the window already has (a frame's, or the model's on the test points): nothing is
trained again here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.pictures.margins import support_mask


def predicted(F: np.ndarray) -> np.ndarray:
    """The class index of each decision value: binary f > 0 → 1, multiclass argmax_k f_k."""
    F = np.asarray(F, dtype=float)
    return (F > 0).astype(np.int64) if F.ndim == 1 else np.argmax(F, axis=1)


def confusion(y: np.ndarray, F: np.ndarray, n_classes: int) -> np.ndarray:
    """The K×K confusion matrix: row i the true class, column j the predicted one."""
    from sklearn.metrics import confusion_matrix

    return confusion_matrix(
        np.asarray(y, dtype=np.int64), predicted(F), labels=np.arange(n_classes)
    )


def weighted_cost(matrix: np.ndarray, cost) -> float:
    """The mean cost Δ(y, ŷ) of the predictions counted in ``matrix`` (Δ: K×K, zero
    diagonal; the 0-1 cost gives the error rate)."""
    matrix = np.asarray(matrix, dtype=float)
    total = matrix.sum()
    return float(np.sum(matrix * np.asarray(cost, dtype=float)) / total) if total else 0.0


@dataclass(frozen=True)
class Roc:
    """A binary ROC curve: false and true positive rates as the threshold on f falls,
    its AUC, and where f = 0 (the classifier's own threshold) puts the model on it."""

    fpr: np.ndarray
    tpr: np.ndarray
    auc: float
    point: tuple[float, float]  # (false positive rate, true positive rate) at f = 0


def roc(y: np.ndarray, f: np.ndarray) -> Roc | None:
    """The ROC curve of binary decision values ``f`` (class 1 positive); None unless both
    classes are among ``y``."""
    from sklearn.metrics import roc_auc_score, roc_curve

    y = np.asarray(y, dtype=np.int64)
    f = np.asarray(f, dtype=float)
    if len(np.unique(y)) < 2:
        return None
    # (every threshold kept: the one just above 0 is the operating point)
    fpr, tpr, thresholds = roc_curve(y, f, pos_label=1, drop_intermediate=False)
    # roc_curve calls f ≥ threshold positive; the classifier calls f > 0 positive: the
    # smallest threshold above 0 (the first point, f ≥ ∞, when no f is above 0)
    above = np.flatnonzero(thresholds > 0)
    k = int(above[-1]) if above.size else 0
    return Roc(fpr, tpr, float(roc_auc_score(y, f)), (float(fpr[k]), float(tpr[k])))


def mean_absolute_error(residuals: np.ndarray) -> float:
    """Mean |t − f(x)| of a regression's residuals (NaN without points)."""
    r = np.asarray(residuals, dtype=float)
    return float(np.mean(np.abs(r))) if r.size else float("nan")


def outlier_share(f: np.ndarray) -> float:
    """A one-class model's share of outliers, f(x) < 0 (at most ν at the optimum)."""
    f = np.asarray(f, dtype=float)
    return float(np.mean(f < 0)) if f.size else float("nan")


def support_share(f: np.ndarray, rho: float = 1.0) -> float:
    """A one-class model's share of support vectors, f(x) ≤ 0 by the one definition
    (svmviz.core.pictures.margins.support_mask, within a share of its ``rho``: at least ν at the
    optimum)."""
    f = np.asarray(f, dtype=float)
    return float(np.mean(support_mask(f, "one-class", 0.0, rho))) if f.size else float("nan")
