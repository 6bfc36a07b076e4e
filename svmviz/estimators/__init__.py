"""svmviz's solvers as scikit-learn estimators: ``SVMClassifier``, ``SVMRegressor`` and
``OneClassSVM``, usable wherever a scikit-learn estimator is (pipelines, grid search,
cross-validation), with the run's per-iteration telemetry (``history_``) and the exact
optimum of the same problem (``optimum_``).

Thin, as scikit-learn's ``sklearn/svm/_classes.py``: parameters only in ``__init__``,
checked by ``_parameter_constraints``; input checked by scikit-learn's ``validate_data``;
the training is :func:`svmviz.core.training.setup.run_to_end`, what the window's learning curves
and sweeps run too. The problems are those of :class:`svmviz.core.config.SolverConfig`
(and `svmviz train`): λ/2‖w‖² + (1/m) Σ loss, so ``C = 1/(λm)`` in libsvm's form.
"""

from svmviz.estimators._base import Optimum
from svmviz.estimators.classifier import SVMClassifier
from svmviz.estimators.files import ESTIMATORS, fitted, load
from svmviz.estimators.one_class import OneClassSVM
from svmviz.estimators.regressor import SVMRegressor

__all__ = [
    "ESTIMATORS",
    "OneClassSVM",
    "Optimum",
    "SVMClassifier",
    "SVMRegressor",
    "fitted",
    "load",
]
