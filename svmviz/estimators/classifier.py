"""SVMClassifier: svmviz's support vector classifiers as a scikit-learn estimator."""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from svmviz.core.config import (
    BINARY_LOSSES,
    MARGINS,
    MULTICLASS_LOSSES,
    SolverConfig,
)
from svmviz.core.data import Dataset
from svmviz.core.problems import DECLARED
from svmviz.estimators._base import _common_constraints, _SVMBase


class SVMClassifier(ClassifierMixin, _SVMBase):
    """A support vector classifier trained by svmviz's solvers (Pegasos by default).

    Two classes: the soft-margin problem λ/2‖w‖² + (1/m) Σ loss(y_i f(x_i)) with the
    ``loss`` one of the registry's binary losses (hinge, squared_hinge, logistic,
    modified_huber); ``nu`` set: ν-SVC (½‖w‖² − νρ + (1/m) Σ max(0, ρ − y f), no λ);
    ``margin="hard"``: the hard margin. Three or more: the
    ``multiclass`` loss (crammer_singer, weston_watkins, ovr, softmax) with the cost
    matrix ``cost`` (K×K, rows the true class, in the order of ``classes_``).

    Parameters
    ----------
    lam : float, default 0.01
        λ of the regularizer. ``C`` is libsvm's form of the same: C = 1/(λm).
    C : float or None, default None
        When set, λ = 1/(C·m) for the m training points (``lam`` is not used).
    kernel, gamma, degree, coef0
        As scikit-learn's SVC ("linear", "poly", "rbf", "sigmoid"; ``gamma`` "scale",
        "auto" or a number), but the default kernel is linear, Pegasos's own setting.
    bias : "free", "regularized" or "none"
        b not regularized (as libsvm), b² in ‖w‖², or no b.
    algorithm : "pegasos", "sgd" or "gd"; schedule, eta, sampling, batch, average,
    project, radius, iterations, tol
        The solver and its run, as `svmviz train`'s options of the same names.
    history : "auto", True or False
        Keep the objective, loss and error of every iterate in ``history_``. It costs an
        O(mK) pass per step, except for a linear two-class hinge (screened: nearly free),
        where "auto" keeps it; elsewhere "auto" does not (``history_`` is None), and the
        fitted model's objective is computed once at the end.
    random_state : int, RandomState or None
        The seed of the sampling: one seed, one run, bit for bit.

    Attributes
    ----------
    classes_, coef_ and intercept_ (linear) or support_vectors_, dual_coef_ and
    intercept_ (kernels), n_iter_, history_ (per-iteration objective, loss, error, ‖w‖,
    violations: a dict of arrays, column ``t`` the iteration; None when not kept),
    optimum_ (the exact optimum, solved on first use), model_ (the svmviz model),
    n_features_in_.
    """

    _parameter_constraints = {
        **_common_constraints(),
        "loss": [StrOptions(set(BINARY_LOSSES))],
        "multiclass": [StrOptions(set(MULTICLASS_LOSSES))],
        "nu": [Interval(numbers.Real, 0, 1, closed="right"), None],
        "margin": [StrOptions(set(MARGINS))],
        "cost": ["array-like", None],
    }

    def __init__(
        self,
        *,
        loss="hinge",
        multiclass="crammer_singer",
        nu=None,
        margin="soft",
        lam=0.01,
        C=None,
        kernel="linear",
        gamma="scale",
        degree=3,
        coef0=1.0,
        bias="free",
        cost=None,
        algorithm="pegasos",
        schedule="auto",
        eta=0.1,
        sampling="uniform",
        batch=1,
        average="weighted",
        project=False,
        radius=None,
        iterations=50000,
        tol=0.0,
        history="auto",
        random_state=None,
    ):
        self.loss = loss
        self.multiclass = multiclass
        self.nu = nu
        self.margin = margin
        self.lam = lam
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.bias = bias
        self.cost = cost
        self.algorithm = algorithm
        self.schedule = schedule
        self.eta = eta
        self.sampling = sampling
        self.batch = batch
        self.average = average
        self.project = project
        self.radius = radius
        self.iterations = iterations
        self.tol = tol
        self.history = history
        self.random_state = random_state

    def _setup(self, X, y, classes=None) -> tuple[SolverConfig, Dataset]:
        """The validated (config, data set) of a fit: ``classes_`` set, y as its indices."""
        check_classification_targets(y)
        if classes is not None:
            self.classes_ = np.unique(np.asarray(classes))
            if not np.all(np.isin(y, self.classes_)):
                raise ValueError("y holds labels that are not in classes")
            index = np.searchsorted(self.classes_, y)
        else:
            self.classes_, index = np.unique(y, return_inverse=True)
        K = len(self.classes_)
        if K < 2:
            raise ValueError(f"The number of classes has to be greater than one; got {K} class")
        data = Dataset(X, index.astype(np.int64), tuple(str(c) for c in self.classes_))
        problem: dict = {"lam": self._lam(len(X)), "margin": self.margin}
        if self.nu is not None:
            problem.update(problem="nu-svc", nu=float(self.nu), lam=0.01)
        else:
            problem.update(loss=self.loss, multiclass=self.multiclass)
        if self.cost is not None:
            problem["cost"] = tuple(tuple(float(v) for v in row) for row in np.asarray(self.cost))
        return self._settings(X, **problem), data

    def fit(self, X, y):
        """Train from w = 0 on (X, y)."""
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        config, data = self._setup(X, y)
        self._train(config, data)
        return self

    def partial_fit(self, X, y, classes=None):
        """One pass of the solver over (X, y) from the current iterate (the first call:
        from w = 0, with every class in ``classes``). Linear models keep w and the
        iteration t (so the step size goes on decreasing); kernel models keep α_i of the
        points they were trained on that come again."""
        first = not hasattr(self, "model_")
        if first:
            self._validate_params()
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit")
        X, y = validate_data(self, X, y, dtype=np.float64, reset=first)
        config, data = self._setup(X, y, self.classes_ if not first else classes)
        self._train(self._epoch_config(config, len(X)), data, None if first else self._warm)
        return self

    def decision_function(self, X) -> np.ndarray:
        """f(x): (n,) for two classes (positive: ``classes_[1]``), (n, K) for more."""
        return self._decision(X)

    def predict(self, X) -> np.ndarray:
        F = self.decision_function(X)
        index = (F > 0).astype(np.int64) if F.ndim == 1 else np.argmax(F, axis=1)
        return self.classes_[index]

    def _proba_loss(self):
        """The loss module that gives P(y | x) (``proba`` in the registry: the logistic and
        the modified Huber loss of two classes, the softmax loss of more), or None."""
        if self.nu is not None:
            return None
        fitted = getattr(self, "classes_", None)
        K = None if fitted is None else len(fitted)
        names = [self.loss] if K in (None, 2) else []
        names += [self.multiclass] if K is None or K > 2 else []
        for name in names:
            if name in DECLARED and DECLARED[name].proba:
                from svmviz.core.solvers.losses import MODULES

                return MODULES[name]
        return None

    def _has_proba(self) -> bool:
        return self._proba_loss() is not None

    @available_if(_has_proba)
    def predict_proba(self, X) -> np.ndarray:
        """P(class | x) by the loss's own model (its module's ``probability``): σ(f) of the
        logistic loss, (clip(f, −1, 1) + 1)/2 of the modified Huber, softmax(f)."""
        return self._proba_loss().probability(self.decision_function(X))

    @available_if(_has_proba)
    def predict_log_proba(self, X) -> np.ndarray:
        module, F = self._proba_loss(), self.decision_function(X)
        if hasattr(module, "log_probability"):
            return module.log_probability(F)
        with np.errstate(divide="ignore"):  # (a probability of 0: −∞, as scikit-learn's)
            return np.log(module.probability(F))

    def _saved_fields(self) -> dict:
        return {"classes": self.classes_.tolist()}

    def _restore(self, fields: dict) -> None:
        self.classes_ = np.asarray(fields["classes"])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        return tags
