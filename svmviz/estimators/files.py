"""The estimators from their model files (:meth:`save`) and from a model trained elsewhere
(the window's, for ``svmviz.show``'s handle)."""

from __future__ import annotations

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.model_io import Model
from svmviz.estimators._base import ESTIMATOR_KEY, _SVMBase
from svmviz.estimators.classifier import SVMClassifier
from svmviz.estimators.one_class import OneClassSVM
from svmviz.estimators.regressor import SVMRegressor

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
