"""What the estimators share: the solver's settings, the training, the fitted attributes
and the model file's fields."""

from __future__ import annotations

import json
import numbers
from dataclasses import dataclass, replace

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, check_random_state, validate_data

from svmviz.core.config import (
    ALGORITHMS,
    AVERAGES,
    BIASES,
    SAMPLINGS,
    SCHEDULES,
    SolverConfig,
)
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import KERNELS, Kernel
from svmviz.core.limits import check_coordinates, lam_of_C
from svmviz.core.model_io import with_provenance, write_model
from svmviz.core.solvers import Solver
from svmviz.core.training.reference import exact_optimum
from svmviz.core.training.setup import run_to_end

ESTIMATOR_KEY = "estimator"  # the MODEL.json field that holds the estimator's parameters


@dataclass(frozen=True)
class Optimum:
    """The exact optimum F* of the fitted problem (:mod:`svmviz.core.training.reference`), with its
    certified lower bound (the optimum lies in [lower, objective]), the fitted model's
    objective and the gap between them."""

    objective: float
    lower: float
    method: str
    fitted: float

    @property
    def gap(self) -> float:
        """F(fitted) − F*: how far the fitted model still is from the optimum."""
        return self.fitted - self.objective


def _common_constraints() -> dict:
    positive = Interval(numbers.Real, 0, None, closed="neither")
    return {
        "lam": [Interval(numbers.Real, 0, None, closed="left")],
        "C": [positive, None],
        "kernel": [StrOptions(set(KERNELS))],
        "gamma": [StrOptions({"scale", "auto"}), positive],
        "degree": [Interval(numbers.Integral, 1, None, closed="left")],
        "coef0": [Interval(numbers.Real, None, None, closed="neither")],
        "bias": [StrOptions(set(BIASES))],
        "algorithm": [StrOptions(set(ALGORITHMS))],
        "schedule": [StrOptions(set(SCHEDULES))],
        "eta": [positive],
        "sampling": [StrOptions(set(SAMPLINGS))],
        "batch": [Interval(numbers.Integral, 1, None, closed="left")],
        "average": [StrOptions(set(AVERAGES))],
        "project": ["boolean"],
        "radius": [positive, None],
        "iterations": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "random_state": ["random_state"],
        "history": [StrOptions({"auto"}), "boolean"],
    }


class _SVMBase(BaseEstimator):
    """What the three estimators share: the solver's settings, the training, the fitted
    attributes (``model_``, ``n_iter_``, ``history_``, ``optimum_``) and the files."""

    _problem = "svc"

    def _kernel(self, X: np.ndarray) -> Kernel:
        gamma = self.gamma
        if gamma == "scale":  # as scikit-learn's SVC: 1/(d·Var X)
            var = float(X.var())
            gamma = 1.0 / (X.shape[1] * var) if var > 0 else 1.0
        elif gamma == "auto":
            gamma = 1.0 / X.shape[1]
        return Kernel(self.kernel, float(gamma), int(self.degree), float(self.coef0))

    def _seed(self) -> int:
        if isinstance(self.random_state, numbers.Integral) and int(self.random_state) >= 0:
            return int(self.random_state)
        return int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))

    def _lam(self, m: int) -> float:
        """λ, or the λ of ``C``: C = 1/(λm) (a C beyond is named as C, not as its λ)."""
        if self.C is None:
            return float(self.lam)
        try:
            return lam_of_C(float(self.C), m)
        except InputError as exc:
            raise ValueError(f"{type(self).__name__}: {exc}") from None

    def _settings(self, X: np.ndarray, **problem) -> SolverConfig:
        """The SolverConfig of these parameters on the training points ``X`` (their
        coordinates checked first: gamma="scale" of coordinates beyond overflows to 0)."""
        try:
            check_coordinates(X, lambda i: f"X's row {i}")
            return SolverConfig(
                kernel=self._kernel(X),
                bias=self.bias,
                algorithm=self.algorithm,
                schedule=self.schedule,
                eta=float(self.eta),
                sampling=self.sampling,
                batch=int(self.batch),
                average=self.average,
                project=bool(self.project),
                radius=None if self.radius is None else float(self.radius),
                iterations=int(self.iterations),
                tol=float(self.tol),
                seed=self._seed(),
                **problem,
            )
        except InputError as exc:
            raise ValueError(f"{type(self).__name__}: {exc}") from None

    def _train(self, config: SolverConfig, data: Dataset, warm=None) -> None:
        """Run the solver and keep what the fitted estimator exposes."""
        try:
            solver = run_to_end(config, data, warm=warm, record=self.history is True)
        except InputError as exc:
            raise ValueError(f"{type(self).__name__}: {exc}") from None
        assert solver is not None  # (no stop was given)
        if solver.status_ == "diverged":
            raise ValueError(f"{type(self).__name__}: {solver.status_text()}")
        self._keep(solver, config, data)

    def _keep(self, solver: Solver, config: SolverConfig, data: Dataset) -> None:
        self.model_ = with_provenance(solver.model(), config, solver.status_, None)
        self.n_iter_ = int(solver.t_)
        # "auto": kept where every iterate's objective costs little (the screened hinge
        # of a linear binary model records it in any case)
        kept = self.history is True or (self.history == "auto" and solver.settings_.screened)
        self.history_ = (
            {
                name: values
                for name, values in solver.history_.copy().items()
                if name not in ("sampled", "violated")
            }
            if kept
            else None
        )
        self._config = config
        self._data = data
        self._warm = solver.warm_state()
        self._optimum: Optimum | None = None

    @property
    def optimum_(self) -> Optimum:
        """The exact optimum of the fitted problem, solved on first use (an interior-point
        program or libsvm: seconds on thousands of points, which a fit need not pay)."""
        check_is_fitted(self, "model_")
        if self._optimum is None:
            try:
                ref = exact_optimum(self._config, self._data)
            except InputError as exc:
                raise ValueError(f"{type(self).__name__}: {exc}") from None
            fitted = float(self.model_.extra.get("objective", np.nan))
            self._optimum = Optimum(float(ref.objective), float(ref.lower), ref.method, fitted)
        return self._optimum

    def _epoch_config(self, config: SolverConfig, m: int) -> SolverConfig:
        """``config`` with a budget of one pass over ``m`` points (one step of full-batch
        GD): what :meth:`partial_fit` runs."""
        if config.algorithm == "gd":
            return config.replace(iterations=1)
        return config.replace(iterations=max(1, -(-m // max(1, config.batch))))

    def _decision(self, X) -> np.ndarray:
        check_is_fitted(self, "model_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self.model_.decision_function(X)

    @property
    def coef_(self) -> np.ndarray:
        """w of a linear model: (1, d) for two classes, (K, d) for more."""
        return _part(self, "coef")

    @property
    def intercept_(self) -> np.ndarray:
        check_is_fitted(self, "model_")
        return self.model_.intercept.copy()

    @property
    def support_vectors_(self) -> np.ndarray:
        """The training points with α ≠ 0 (kernel models), as scikit-learn's attribute is:
        α-based, so an averaged SGD output lists almost every point. The window, its files
        and `svmviz train` count support vectors by f at the points instead
        (svmviz.core.lesson.support: on or inside the margin or tube)."""
        return _part(self, "support_vectors")

    @property
    def dual_coef_(self) -> np.ndarray:
        """α of each support vector, (K, n): f_k(x) = Σ_j α_kj k(sv_j, x) + b_k."""
        return _part(self, "dual_coef")

    def save(self, path) -> None:
        """Write the fitted model as MODEL.json (or ``.npz``), what `svmviz train --out`
        writes, with this estimator's parameters, so that :func:`load` makes it again."""
        check_is_fitted(self, "model_")
        extra = dict(self.model_.extra)
        params = {k: v for k, v in self.get_params().items() if k != "random_state"}
        extra[ESTIMATOR_KEY] = {
            "class": type(self).__name__,
            "params": params,
            "random_state": self.random_state if _plain(self.random_state) else None,
            "n_features_in": int(self.n_features_in_),
            "n_iter": self.n_iter_,
            **self._saved_fields(),
        }
        json.dumps(extra[ESTIMATOR_KEY])  # (a parameter that JSON cannot hold fails here)
        write_model(path, replace(self.model_, extra=extra))

    def _saved_fields(self) -> dict:
        return {}

    def _restore(self, fields: dict) -> None:
        pass


def _plain(value) -> bool:
    return value is None or isinstance(value, (int, float, str, bool))


def _part(est: _SVMBase, name: str) -> np.ndarray:
    """A copy of the fitted model's ``coef`` (linear models) or ``support_vectors`` or
    ``dual_coef`` (kernel models); an AttributeError for the other kind."""
    check_is_fitted(est, "model_")
    value = getattr(est.model_, name)
    if value is None:
        kind = "kernel" if name == "coef" else "linear"
        raise AttributeError(f"a {kind} model has no {name}_")
    return value.copy()
