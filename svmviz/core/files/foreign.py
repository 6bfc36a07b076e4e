"""Fitted scikit-learn models as svmviz models, so that the plane draws what libsvm,
liblinear or SGD found as it draws its own: regions, boundary, margins and support vectors.

A model whose decision function is the plane's f (a kernel sum, or ⟨w, x⟩ + b per class) is
converted exactly: binary SVC and NuSVC, SVR, NuSVR, OneClassSVM, LinearSVC,
SGDClassifier and LogisticRegression. A multiclass SVC or NuSVC votes between its K(K−1)/2
one-vs-one classifiers, which no K kernel sums reproduce: its Model evaluates f with
scikit-learn's own one-vs-rest shaped ``decision_function`` (``Model.decision``), made to
agree with its prediction on tied votes, and cannot be saved as MODEL.json.
"""

from __future__ import annotations

import numpy as np

from svmviz.core import problems
from svmviz.core.errors import InputError
from svmviz.core.kernels import KERNELS, Kernel
from svmviz.core.limits import lam_of_C
from svmviz.core.model_io import Model

# scikit-learn's class name → what it is here
SUPPORTED = (
    "SVC",
    "NuSVC",
    "LinearSVC",
    "SGDClassifier",
    "LogisticRegression",
    "OneClassSVM",
    "SVR",
    "NuSVR",
)


def is_foreign(model) -> bool:
    """Whether ``model`` is one of the scikit-learn models :func:`from_sklearn` converts."""
    return type(model).__name__ in SUPPORTED and type(model).__module__.startswith("sklearn.")


def from_sklearn(est, X=None, y=None) -> Model:
    """The svmviz Model of the fitted scikit-learn model ``est``. ``X`` and ``y``, its
    training data when given, set λ = 1/(C·m) (the objective's scale; 0 without them) and
    the ε that a NuSVR learned (the residual of its free support vectors, which lie on
    the tube; without them its tube is not drawn)."""
    name = type(est).__name__
    if not is_foreign(est):
        raise InputError(
            f"svmviz draws a fitted scikit-learn {', '.join(SUPPORTED[:-1])} or "
            f"{SUPPORTED[-1]}, or an svmviz estimator; not {name}"
        )
    if not hasattr(est, "n_features_in_"):
        raise InputError(f"this {name} is not fitted yet: call fit(X, y) first")
    m = None if X is None else len(X)
    if name in ("LinearSVC", "SGDClassifier", "LogisticRegression"):
        return _linear(est, name, m)
    kernel = _kernel(est)
    sv = np.asarray(est.support_vectors_, dtype=float)
    dual = np.asarray(est.dual_coef_, dtype=float)
    intercept = np.asarray(est.intercept_, dtype=float).ravel()
    lam = _lam(getattr(est, "C", None), m)
    if name in ("SVR", "NuSVR"):
        common = dict(classes=(), kernel=kernel, lam=lam, bias="free", intercept=intercept)
        if name == "SVR":
            return Model(
                support_vectors=sv, dual_coef=dual, problem="epsilon-svr",
                epsilon=float(est.epsilon), **common,
            )  # fmt: skip
        model = Model(
            support_vectors=sv, dual_coef=dual, problem="nu-svr", nu=float(est.nu),
            epsilon=None, **common,
        )  # fmt: skip
        return _with_learned_epsilon(model, est, X, y)
    if name == "OneClassSVM":  # f = Σ α k(sv, x) − ρ, intercept_ = −ρ
        return Model(
            classes=(), kernel=kernel, lam=1.0, bias="none", intercept=intercept,
            support_vectors=sv, dual_coef=dual, problem="one-class", nu=float(est.nu),
            rho=float(-intercept[0]),
        )  # fmt: skip
    classes = tuple(str(c) for c in est.classes_)
    nu = dict(problem="nu-svc", nu=float(est.nu), rho=1.0) if name == "NuSVC" else {}
    if len(classes) == 2:  # (scikit-learn's dual_coef_ and intercept_ are f's, sign included)
        return Model(
            classes=classes, kernel=kernel, lam=1.0 if nu else lam, bias="free",
            intercept=intercept, support_vectors=sv, dual_coef=dual, **nu,
        )  # fmt: skip
    K = len(classes)

    def voted(Z: np.ndarray) -> np.ndarray:
        """scikit-learn's one-vs-rest shaped f (votes plus a confidence within ±1/3), with
        the vote's winner raised by 1 unless ``break_ties``: libsvm's prediction takes the
        first class of a tied vote, where the confidences may prefer another."""
        F = est.decision_function(Z)
        if est.decision_function_shape != "ovr":
            F = _ovr_shape(F, K)
        if not getattr(est, "break_ties", False):
            F[np.arange(len(F)), np.argmax(np.round(F), axis=1)] += 1.0
        return F

    return Model(
        classes=classes, kernel=kernel, lam=lam, bias="free", intercept=np.zeros(K),
        support_vectors=sv, dual_coef=np.zeros((K, len(sv))), loss="crammer_singer",
        decision=voted,
    )  # fmt: skip


def _linear(est, name: str, m: int | None) -> Model:
    """LinearSVC, SGDClassifier, LogisticRegression: f_k(x) = ⟨w_k, x⟩ + b_k (one row for
    two classes, positive ``classes_[1]``), with the loss each minimized (its margins)."""
    classes = tuple(str(c) for c in est.classes_)
    binary = len(classes) == 2
    if name == "LinearSVC":
        crammer = getattr(est, "multi_class", "ovr") == "crammer_singer"
        loss = est.loss if binary else ("crammer_singer" if crammer else "ovr")
        lam = _lam(est.C, m)
    elif name == "SGDClassifier":
        loss = _sgd_loss(est.loss) if binary else (_sgd_loss(est.loss) and "ovr")
        lam = float(est.alpha)  # (1/m) Σ L + α ½‖w‖²
    else:
        loss = "logistic" if binary else "softmax"
        lam = _lam(est.C, m)
    bias = "free" if getattr(est, "fit_intercept", True) else "none"
    return Model(
        classes=classes, kernel=Kernel(), lam=lam, bias=bias, loss=loss,
        coef=np.asarray(est.coef_, dtype=float).copy(),
        intercept=np.asarray(est.intercept_, dtype=float).ravel().copy(),
    )  # fmt: skip


def _kernel(est) -> Kernel:
    if not isinstance(est.kernel, str) or est.kernel not in KERNELS:
        raise InputError(
            f"svmviz draws the kernels {', '.join(KERNELS)}; this model's kernel is {est.kernel!r}"
        )
    return Kernel(est.kernel, float(est._gamma), int(est.degree), float(est.coef0))


def _lam(C, m: int | None) -> float:
    """λ of libsvm's C on m points, C = 1/(λm) (a C beyond svmviz's λ is named as C); 0 when
    m is not known."""
    return lam_of_C(float(C), m) if C and m else 0.0


def _with_learned_epsilon(model: Model, est, X, y) -> Model:
    """A NuSVR's Model with the ε it learned: the residual |y − f| of its free support
    vectors (0 < |α| < C), which lie on the tube's edge."""
    if X is None or y is None:
        return model
    from dataclasses import replace

    index = np.asarray(est.support_)
    alpha = np.abs(np.asarray(est.dual_coef_, dtype=float)[0])
    free = (alpha > 1e-9 * est.C) & (alpha < est.C * (1 - 1e-9))
    if not np.any(free):
        return model
    X = np.asarray(X, dtype=float)
    residual = np.abs(
        np.asarray(y, dtype=float)[index[free]] - model.decision_function(X[index[free]])
    )
    return replace(model, epsilon=float(np.median(residual)))


def _ovr_shape(F: np.ndarray, K: int) -> np.ndarray:
    """scikit-learn's one-vs-one values (n, K(K−1)/2) in its one-vs-rest shape (n, K)."""
    from sklearn.utils.multiclass import _ovr_decision_function

    return _ovr_decision_function(F < 0, -F, K)


def support_alpha(est, m: int) -> np.ndarray | None:
    """|α_i| summed over the outputs for each of the m training points (0 off the support
    vectors) of an SVC-family model, the size of each point's ring; None for the others."""
    if not hasattr(est, "support_"):
        return None
    alpha = np.zeros(m)
    alpha[np.asarray(est.support_)] = np.abs(np.asarray(est.dual_coef_, dtype=float)).sum(axis=0)
    return alpha


def _sgd_loss(name: str) -> str:
    """The binary loss here of SGDClassifier's ``loss`` (its margins are that loss's)."""
    loss = problems.from_sklearn(name)
    if loss is None:
        known = ", ".join(d.sklearn for d in problems.DECLARED.values() if d.sklearn)
        raise InputError(f"an SGDClassifier with loss={name!r} is not drawn here: {known} are")
    return loss
