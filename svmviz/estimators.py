"""svmviz's solvers as scikit-learn estimators: ``SVMClassifier``, ``SVMRegressor`` and
``OneClassSVM``, usable wherever a scikit-learn estimator is (pipelines, grid search,
cross-validation), with the run's per-iteration telemetry (``history_``) and the exact
optimum of the same problem (``optimum_``).

Thin, as scikit-learn's ``sklearn/svm/_classes.py``: parameters only in ``__init__``,
checked by ``_parameter_constraints``; input checked by scikit-learn's ``validate_data``;
the training is :func:`svmviz.core.training.run_to_end`, what the window's learning curves
and sweeps run too. The problems are those of :class:`svmviz.core.config.SolverConfig`
(and `svmviz train`): λ/2‖w‖² + (1/m) Σ loss, so ``C = 1/(λm)`` in libsvm's form.
"""

from __future__ import annotations

import json
import numbers
from dataclasses import dataclass, replace

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, OutlierMixin, RegressorMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, check_random_state, validate_data

from svmviz.core.config import (
    ALGORITHMS,
    AVERAGES,
    BIASES,
    BINARY_LOSSES,
    MARGINS,
    MULTICLASS_LOSSES,
    SAMPLINGS,
    SCHEDULES,
    SolverConfig,
)
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import KERNELS, Kernel
from svmviz.core.model_io import Model, with_provenance, write_model
from svmviz.core.reference import exact_optimum
from svmviz.core.solvers import Solver
from svmviz.core.training import run_to_end

ESTIMATOR_KEY = "estimator"  # the MODEL.json field that holds the estimator's parameters


@dataclass(frozen=True)
class Optimum:
    """The exact optimum F* of the fitted problem (:mod:`svmviz.core.reference`), with its
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
        """λ, or the λ of ``C``: C = 1/(λm)."""
        return float(self.lam) if self.C is None else 1.0 / (float(self.C) * m)

    def _settings(self, X: np.ndarray, **problem) -> SolverConfig:
        """The SolverConfig of these parameters on the training points ``X``."""
        try:
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


class SVMClassifier(ClassifierMixin, _SVMBase):
    """A support vector classifier trained by svmviz's solvers (Pegasos by default).

    Two classes: the soft-margin problem λ/2‖w‖² + (1/m) Σ loss(y_i f(x_i)) with the
    ``loss`` hinge, squared_hinge or logistic; ``nu`` set: ν-SVC (½‖w‖² − νρ + (1/m) Σ
    max(0, ρ − y f), no λ); ``margin="hard"``: the hard margin. Three or more: the
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

    def _has_proba(self) -> bool:
        """The logistic loss (two classes) and the softmax loss (more) are probability
        models: P(y | x) is σ(f) and softmax(f)."""
        if self.nu is not None:
            return False
        fitted = getattr(self, "classes_", None)
        K = None if fitted is None else len(fitted)
        return (self.loss == "logistic" and K in (None, 2)) or (
            self.multiclass == "softmax" and (K is None or K > 2)
        )

    @available_if(_has_proba)
    def predict_proba(self, X) -> np.ndarray:
        """P(class | x): σ(f) of the logistic loss, softmax(f) of the softmax loss."""
        F = self.decision_function(X)
        if F.ndim == 1:
            p = np.exp(-np.logaddexp(0.0, -F))
            return np.column_stack([1.0 - p, p])
        Z = F - F.max(axis=1, keepdims=True)
        E = np.exp(Z)
        return E / E.sum(axis=1, keepdims=True)

    @available_if(_has_proba)
    def predict_log_proba(self, X) -> np.ndarray:
        F = self.decision_function(X)
        if F.ndim == 1:
            return np.column_stack([-np.logaddexp(0.0, F), -np.logaddexp(0.0, -F)])
        return F - np.logaddexp.reduce(F, axis=1, keepdims=True)

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
        """The training points with α ≠ 0 (kernel models)."""
        return _part(self, "support_vectors")

    @property
    def dual_coef_(self) -> np.ndarray:
        """α of each support vector, (K, n): f_k(x) = Σ_j α_kj k(sv_j, x) + b_k."""
        return _part(self, "dual_coef")

    def _saved_fields(self) -> dict:
        return {"classes": self.classes_.tolist()}

    def _restore(self, fields: dict) -> None:
        self.classes_ = np.asarray(fields["classes"])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        return tags


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

    coef_ = SVMClassifier.coef_
    intercept_ = SVMClassifier.intercept_
    support_vectors_ = SVMClassifier.support_vectors_
    dual_coef_ = SVMClassifier.dual_coef_


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

    coef_ = SVMClassifier.coef_
    intercept_ = SVMClassifier.intercept_
    support_vectors_ = SVMClassifier.support_vectors_
    dual_coef_ = SVMClassifier.dual_coef_


def _part(est: _SVMBase, name: str) -> np.ndarray:
    """A copy of the fitted model's ``coef`` (linear models) or ``support_vectors`` or
    ``dual_coef`` (kernel models); an AttributeError for the other kind."""
    check_is_fitted(est, "model_")
    value = getattr(est.model_, name)
    if value is None:
        kind = "kernel" if name == "coef" else "linear"
        raise AttributeError(f"a {kind} model has no {name}_")
    return value.copy()


ESTIMATORS = {cls.__name__: cls for cls in (SVMClassifier, SVMRegressor, OneClassSVM)}


def load(path) -> _SVMBase:
    """The estimator that :meth:`save` wrote to ``path`` (MODEL.json or ``.npz``), fitted:
    it predicts as it did. ``history_`` is not kept, nor what ``partial_fit`` and
    ``optimum_`` need (the training points)."""
    from svmviz.core.model_io import read_model, read_model_npz

    where = str(path)
    model = read_model_npz(path) if where.lower().endswith(".npz") else read_model(path)
    saved = model.extra.get(ESTIMATOR_KEY)
    if not isinstance(saved, dict) or saved.get("class") not in ESTIMATORS:
        raise InputError(f"{where}: not an svmviz estimator's model (no '{ESTIMATOR_KEY}' field)")
    cls = ESTIMATORS[saved["class"]]
    try:
        est = cls(**saved["params"], random_state=saved.get("random_state"))
    except TypeError as exc:
        raise InputError(f"{where}: {ESTIMATOR_KEY}: {exc}") from None
    est.model_ = model
    est.n_features_in_ = int(saved["n_features_in"])
    est.n_iter_ = int(saved["n_iter"])
    est.history_ = None
    est._restore(saved)
    return est


def fitted(
    config: SolverConfig,
    data: Dataset,
    model: Model,
    n_iter: int,
    history: dict | None = None,
    classes=None,
) -> _SVMBase:
    """The estimator with the settings of ``config``, fitted: ``model`` trained on ``data``
    for ``n_iter`` iterations, with its ``history`` (what the window shows: the handle
    ``svmviz.show`` returns). A
    classifier's ``classes_`` are ``classes`` (the labels in the order of ``model``'s
    classes; their names when None). ``partial_fit`` goes on from w = 0 (the window's
    solver state stays in the window); ``optimum_`` is solved on ``data``."""
    if config.kind == "one-class":
        cls: type[_SVMBase] = OneClassSVM
    elif config.kind == "regression":
        cls = SVMRegressor
    else:
        cls = SVMClassifier
    kernel = config.kernel
    nu = config.nu if config.problem in ("nu-svc", "nu-svr", "one-class") else None
    values = {
        "loss": config.loss,
        "multiclass": config.multiclass,
        "nu": nu,
        "margin": config.margin,
        "epsilon": config.epsilon,
        "lam": config.lam,
        "C": None,
        "kernel": kernel.name,
        "gamma": kernel.gamma,
        "degree": kernel.degree,
        "coef0": kernel.coef0,
        "bias": config.bias,
        "cost": None if config.cost is None else [list(row) for row in config.cost],
        "algorithm": config.algorithm,
        "schedule": config.schedule,
        "eta": config.eta,
        "sampling": config.sampling,
        "batch": config.batch,
        "average": config.average,
        "project": config.project,
        "radius": config.radius,
        "iterations": config.iterations,
        "tol": config.tol,
        "random_state": config.seed,
    }
    est = cls(**{name: values[name] for name in cls().get_params()})
    if isinstance(est, SVMClassifier):
        est.classes_ = np.asarray(model.classes if classes is None else classes)
    est.model_ = model
    est.n_iter_ = int(n_iter)
    est.history_ = {
        name: np.array(values)
        for name, values in (history or {}).items()
        if name not in ("sampled", "violated")
    }
    est.n_features_in_ = int(data.X.shape[1])
    est._config, est._data = config, data
    est._warm = None
    est._optimum = None
    return est
