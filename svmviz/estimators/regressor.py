"""SVMRegressor: ε-SVR and ν-SVR as a scikit-learn estimator."""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import RegressorMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import validate_data

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.estimators._base import _common_constraints, _SVMBase


class SVMRegressor(RegressorMixin, _SVMBase):
    """Support vector regression trained by svmviz's solvers: ε-SVR, λ/2‖w‖² + (1/m) Σ
    max(0, |y − f(x)| − ε), or with ``nu`` set ν-SVR (ε learned, νε added). The other
    parameters and the fitted attributes are :class:`SVMClassifier`'s (no ``classes_``)."""

    _parameter_constraints = {
        **_common_constraints(),
        "epsilon": [Interval(numbers.Real, 0, None, closed="left")],
        "nu": [Interval(numbers.Real, 0, 1, closed="right"), None],
    }

    def __init__(
        self,
        *,
        epsilon=0.1,
        nu=None,
        lam=0.01,
        C=None,
        kernel="linear",
        gamma="scale",
        degree=3,
        coef0=1.0,
        bias="free",
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
        self.epsilon = epsilon
        self.nu = nu
        self.lam = lam
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.bias = bias
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

    def _setup(self, X, y) -> tuple[SolverConfig, Dataset]:
        data = Dataset.regression(X, y)
        problem: dict = {"lam": self._lam(len(X))}
        if self.nu is not None:
            problem.update(problem="nu-svr", nu=float(self.nu))
        else:
            problem.update(problem="epsilon-svr", epsilon=float(self.epsilon))
        return self._settings(X, **problem), data

    def fit(self, X, y):
        """Train from w = 0 on (X, y)."""
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        self._train(*self._setup(X, y))
        return self

    def partial_fit(self, X, y):
        """One pass over (X, y) from the current iterate (see SVMClassifier.partial_fit)."""
        first = not hasattr(self, "model_")
        if first:
            self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, reset=first)
        config, data = self._setup(X, y)
        self._train(self._epoch_config(config, len(X)), data, None if first else self._warm)
        return self

    def predict(self, X) -> np.ndarray:
        """f(x)."""
        return self._decision(X)
