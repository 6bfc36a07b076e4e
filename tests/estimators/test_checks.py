"""scikit-learn's own estimator checks, for each svmviz estimator (and for the losses that
add predict_proba and for a kernel), as scikit-learn runs them on its own estimators."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from svmviz.estimators import OneClassSVM, SVMClassifier, SVMRegressor

ESTIMATORS = [
    SVMClassifier(),
    SVMRegressor(),
    OneClassSVM(),
    SVMClassifier(loss="logistic", multiclass="softmax"),
    SVMClassifier(kernel="rbf"),
]


@parametrize_with_checks(ESTIMATORS)
def test_scikit_learn_checks(estimator, check):
    check(estimator)
