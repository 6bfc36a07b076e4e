"""OneClassSVM: the one-class SVM as a scikit-learn estimator."""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import OutlierMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.estimators._base import _common_constraints, _SVMBase


class OneClassSVM(OutlierMixin, _SVMBase):
    """The one-class SVM trained by svmviz's solvers: ½‖w‖² − ρ + (1/(νm)) Σ max(0, ρ −
    ⟨w, φ(x)⟩), f = ⟨w, φ⟩ − ρ; ``predict`` is +1 (inlier, f ≥ 0) or −1 (outlier). The
    kernel is RBF by default, as scikit-learn's OneClassSVM (a linear one-class region
    is a half-space). ``offset_`` is ρ, ``score_samples`` is f + ρ."""

    _parameter_constraints = {
        **_common_constraints(),
        "nu": [Interval(numbers.Real, 0, 1, closed="right")],
    }
    _parameter_constraints.pop("lam")
    _parameter_constraints.pop("C")

    def __init__(
        self,
        *,
        nu=0.5,
        kernel="rbf",
        gamma="scale",
        degree=3,
        coef0=1.0,
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
        self.nu = nu
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
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

    bias = "free"  # (one-class has no b: ρ is its offset)

    def _setup(self, X) -> tuple[SolverConfig, Dataset]:
        return self._settings(X, problem="one-class", nu=float(self.nu)), Dataset.points(X)

    def fit(self, X, y=None):
        """Train from w = 0 on the points X (y is ignored)."""
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64)
        self._train(*self._setup(X))
        return self

    def partial_fit(self, X, y=None):
        """One pass over X from the current iterate (see SVMClassifier.partial_fit)."""
        first = not hasattr(self, "model_")
        if first:
            self._validate_params()
        X = validate_data(self, X, dtype=np.float64, reset=first)
        config, data = self._setup(X)
        self._train(self._epoch_config(config, len(X)), data, None if first else self._warm)
        return self

    @property
    def offset_(self) -> float:
        check_is_fitted(self, "model_")
        return float(self.model_.rho)

    def decision_function(self, X) -> np.ndarray:
        """f(x) = ⟨w, φ(x)⟩ − ρ: ≥ 0 inside the region."""
        return self._decision(X)

    def score_samples(self, X) -> np.ndarray:
        """⟨w, φ(x)⟩: the decision function before the offset ρ."""
        return self.decision_function(X) + self.offset_

    def predict(self, X) -> np.ndarray:
        """+1 for an inlier (f ≥ 0), −1 for an outlier."""
        return np.where(self.decision_function(X) >= 0, 1, -1)
