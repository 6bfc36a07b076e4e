"""The estimators from their model files (:meth:`save`) and from a model trained elsewhere
(the window's, for ``svmviz.show``'s handle)."""

from __future__ import annotations

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError, counted, finite_number, shown, whole_number
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import input_dim
from svmviz.estimators._base import ESTIMATOR_KEY, _SVMBase
from svmviz.estimators.classifier import SVMClassifier
from svmviz.estimators.one_class import OneClassSVM
from svmviz.estimators.regressor import SVMRegressor

ESTIMATORS = {cls.__name__: cls for cls in (SVMClassifier, SVMRegressor, OneClassSVM)}


def load(path) -> _SVMBase:
    """The estimator that :meth:`save` wrote to ``path`` (MODEL.json or ``.npz``), fitted:
    it predicts as it did. ``history_`` is not kept, nor what ``partial_fit`` and
    ``optimum_`` need (the training points). A field of the estimator's that is missing,
    of the wrong type, or that disagrees with the model is an InputError naming it."""
    from svmviz.core.model_io import read_model, read_model_npz

    where = str(path)
    model = read_model_npz(path) if where.lower().endswith(".npz") else read_model(path)
    saved = model.extra.get(ESTIMATOR_KEY)
    if not isinstance(saved, dict) or str(saved.get("class")) not in ESTIMATORS:
        raise InputError(f"{where}: not an svmviz estimator's model (no '{ESTIMATOR_KEY}' field)")
    cls = ESTIMATORS[saved["class"]]
    field = f"{where}: {ESTIMATOR_KEY}."
    if KINDS[cls] != model.kind:
        raise InputError(
            f"{field}class is {cls.__name__}, and a {model.problem} model is "
            f"{ESTIMATOR_FOR[model.kind]}'s"
        )
    params = _present(saved, "params", field)
    if not isinstance(params, dict):
        raise InputError(f"{field}params must be an object of the estimator's parameters")
    random_state = saved.get("random_state")
    if random_state is not None and not _whole(random_state, 0):
        raise InputError(f"{field}random_state must be a whole number ≥ 0 or null")
    try:
        est = cls(**params, random_state=random_state)
        est._validate_params()  # (scikit-learn's checks of each parameter's type and range)
    except (TypeError, ValueError) as exc:
        first = (str(exc).strip() or type(exc).__name__).splitlines()[0]
        cut = first if len(first) <= 200 else first[:199] + "…"
        raise InputError(f"{field}params: {cut}") from None
    est.model_ = model
    est.n_features_in_ = _count(saved, "n_features_in", 1, field)
    if est.n_features_in_ != input_dim(model):
        raise InputError(
            f"{field}n_features_in is {est.n_features_in_}, and the model takes "
            f"{counted(input_dim(model), 'coordinate')}"
        )
    est.n_iter_ = _count(saved, "n_iter", 0, field)
    est.history_ = None
    if isinstance(est, SVMClassifier):
        saved = {**saved, "classes": _classes(saved, model, field)}
    est._restore(saved)
    return est


# the estimator of each kind of model
KINDS = {SVMClassifier: "svc", SVMRegressor: "regression", OneClassSVM: "one-class"}
ESTIMATOR_FOR = {kind: cls.__name__ for cls, kind in KINDS.items()}


def _present(saved: dict, name: str, field: str):
    if name not in saved:
        raise InputError(f"{field}{name} is missing")
    return saved[name]


def _whole(value, least: int) -> bool:
    return whole_number(value) and least <= value < 2**63


def _count(saved: dict, name: str, least: int, field: str) -> int:
    value = _present(saved, name, field)
    if not _whole(value, least):
        raise InputError(f"{field}{name} must be a whole number ≥ {least}, not {shown(value)}")
    return int(value)


def _classes(saved: dict, model: Model, field: str) -> list:
    """The classifier's labels, one per class of ``model``, distinct: texts or numbers."""
    classes = _present(saved, "classes", field)
    if not isinstance(classes, list) or not all(
        isinstance(c, str) or finite_number(c) or isinstance(c, bool) for c in classes
    ):
        raise InputError(f"{field}classes must be a list of labels (texts or numbers)")
    if len(classes) != len(model.classes):
        raise InputError(
            f"{field}classes holds {counted(len(classes), 'label')}, and the model's "
            f"classes are {len(model.classes)}: {shown(list(model.classes))}"
        )
    if len(set(map(repr, classes))) != len(classes):
        raise InputError(f"{field}classes holds a label twice: {shown(classes)}")
    return classes


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
        "history": True,  # (the window's: its checkpoints and frames, exact)
        "random_state": config.seed,
    }
    est = cls(**{name: values[name] for name in cls().get_params()})
    if isinstance(est, SVMClassifier):
        est.classes_ = np.asarray(model.classes if classes is None else classes)
    est.model_ = model
    est.n_iter_ = int(n_iter)
    est.history_ = {
        name: np.array(column)
        for name, column in (history or {}).items()
        if name not in ("sampled", "violated")
    }
    est.n_features_in_ = int(data.X.shape[1])
    est._config, est._data = config, data
    est._warm = None
    est._optimum = None
    return est
