"""Fitted scikit-learn models as svmviz models: the same f, the same predictions."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs, make_moons
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.svm import SVC, SVR, LinearSVC, NuSVC, NuSVR, OneClassSVM

from svmviz.core.errors import InputError
from svmviz.core.files.foreign import from_sklearn, support_alpha
from svmviz.core.pictures.frame import grid_values

X2, y2 = make_moons(80, noise=0.2, random_state=0)
X3, y3 = make_blobs(90, centers=3, random_state=0)
T = 2 * X2[:, 0] + np.sin(X2[:, 1])
Z = np.random.default_rng(0).normal(size=(300, 2)) * 2

CLASSIFIERS = [
    (SVC(kernel="rbf"), X2, y2),
    (SVC(kernel="poly", degree=3, coef0=1.0), X2, y2),
    (SVC(kernel="linear"), X3, y3),
    (SVC(kernel="rbf", decision_function_shape="ovo"), X3, y3),
    (NuSVC(nu=0.3), X2, y2),
    (NuSVC(nu=0.3), X3, y3),
    (LinearSVC(), X2, y2),
    (LinearSVC(), X3, y3),
    (SGDClassifier(loss="log_loss", random_state=0), X3, y3),
    (SGDClassifier(random_state=0), X2, y2),
    (LogisticRegression(), X2, y2),
    (LogisticRegression(), X3, y3),
]


@pytest.mark.parametrize("est, X, y", CLASSIFIERS, ids=lambda v: type(v).__name__)
def test_classifiers_predict_as_scikit_learn(est, X, y):
    est.fit(X, y)
    model = from_sklearn(est, X, y)
    assert np.array_equal(model.predict(Z), est.predict(Z).astype(str))
    F = model.decision_function(Z)
    if F.ndim == 1:  # binary: the same f, to rounding
        np.testing.assert_allclose(F, est.decision_function(Z), rtol=1e-9, atol=1e-9)
    else:
        assert F.shape == (len(Z), 3)


@pytest.mark.parametrize(
    "est, problem",
    [(SVR(epsilon=0.2), "epsilon-svr"), (NuSVR(nu=0.4), "nu-svr")],
    ids=["SVR", "NuSVR"],
)
def test_regressors(est, problem):
    est.fit(X2, T)
    model = from_sklearn(est, X2, T)
    assert model.problem == problem
    np.testing.assert_allclose(model.decision_function(Z), est.predict(Z), atol=1e-9)
    if problem == "epsilon-svr":
        assert model.epsilon == 0.2
    else:  # the learned ε: at most ν of the points lie outside the tube, about ν on its edge
        outside = np.mean(np.abs(T - est.predict(X2)) > model.epsilon + 1e-6)
        assert 0 < model.epsilon and outside <= 0.4 + 1e-9


def test_one_class_rho_and_outliers():
    est = OneClassSVM(nu=0.2, gamma=0.5).fit(X2)
    model = from_sklearn(est)
    np.testing.assert_allclose(model.decision_function(Z), est.decision_function(Z), atol=1e-9)
    assert model.rho == pytest.approx(est.offset_[0])
    assert np.array_equal(model.predict(Z) == "inlier", est.predict(Z) == 1)


def test_rbf_grid_values_of_a_one_vs_one_model_are_its_own():
    est = SVC(kernel="rbf").fit(X3, y3)
    model = from_sklearn(est)
    xs, ys = np.linspace(-4, 4, 7), np.linspace(-2, 6, 5)
    gx, gy = np.meshgrid(xs, ys)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    np.testing.assert_allclose(grid_values(model, xs, ys), model.decision_function(points))
    assert np.array_equal(np.argmax(grid_values(model, xs, ys), axis=1), est.predict(points))
    with pytest.raises(InputError, match="one-vs-one"):
        model.to_dict()


def test_support_alpha_rings_the_support_vectors():
    est = SVC(kernel="rbf", C=0.5).fit(X2, y2)
    alpha = support_alpha(est, len(X2))
    assert np.array_equal(np.flatnonzero(alpha), np.sort(est.support_))
    assert support_alpha(LinearSVC().fit(X2, y2), len(X2)) is None


def test_refusals_name_the_problem():
    with pytest.raises(InputError, match="not fitted"):
        from_sklearn(SVC())
    with pytest.raises(InputError, match="not KMeans"):
        from sklearn.cluster import KMeans

        from_sklearn(KMeans(n_clusters=2, n_init=1).fit(X2))
    with pytest.raises(InputError, match="precomputed"):
        from_sklearn(SVC(kernel="precomputed").fit(X2 @ X2.T, y2))


def test_an_sgd_classifier_s_loss_is_the_registry_s():
    """SGDClassifier's loss is the binary loss of that scikit-learn name (its margins are
    drawn); one that is none here is refused by name, not drawn as a hinge."""
    from svmviz.core.problems import DECLARED

    for name, declared in DECLARED.items():
        if declared.sklearn is not None:
            est = SGDClassifier(loss=declared.sklearn, random_state=0).fit(X2, y2)
            assert from_sklearn(est, X2, y2).loss == name
    for X, y in ((X2, y2), (X3, y3)):
        with pytest.raises(InputError, match="loss='perceptron'"):
            from_sklearn(SGDClassifier(loss="perceptron", random_state=0).fit(X, y), X, y)
