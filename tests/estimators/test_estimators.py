"""The estimators in scikit-learn's machinery, and what svmviz adds: the telemetry, the
exact optimum, partial_fit, the model files; and the same training as the window's curves."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, make_blobs, make_moons, make_regression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.core.lesson import generalization
from svmviz.core.objectives import model_objective
from svmviz.estimators import OneClassSVM, SVMClassifier, SVMRegressor, load

X2, y2 = make_moons(120, noise=0.25, random_state=0)
X3, y3 = make_blobs(120, centers=3, random_state=1)


@pytest.fixture(scope="module")
def cancer():
    """A real data set of 30 dimensions (569 tumours, two classes), as scikit-learn has it."""
    return load_breast_cancer(return_X_y=True)


def test_cross_validated_accuracy_is_libsvms_at_the_same_c(cancer):
    X, y = cancer
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    for kernel in ("linear", "rbf"):
        ours = make_pipeline(StandardScaler(), SVMClassifier(kernel=kernel, C=1.0, random_state=0))
        libsvm = make_pipeline(StandardScaler(), SVC(kernel=kernel, C=1.0))
        a = cross_val_score(ours, X, y, cv=cv).mean()
        b = cross_val_score(libsvm, X, y, cv=cv).mean()
        assert abs(a - b) < 0.02, (kernel, a, b)


def test_grid_search_finds_lambda_and_refits():
    search = GridSearchCV(
        SVMClassifier(kernel="rbf", gamma=2.0, iterations=5000, random_state=0),
        {"lam": [1e-4, 1e-2, 1.0]},
        cv=3,
    )
    search.fit(X2, y2)
    assert search.best_params_["lam"] in (1e-4, 1e-2)  # λ = 1 underfits the moons
    assert search.best_estimator_.n_iter_ == 5000
    assert search.score(X2, y2) > 0.9


def test_pipeline_regressor_and_one_class():
    X, t = make_regression(150, 3, noise=5.0, random_state=0)
    pipe = make_pipeline(StandardScaler(), SVMRegressor(epsilon=0.05, lam=1e-4, random_state=0))
    assert pipe.fit(X, t / t.std()).score(X, t / t.std()) > 0.95
    detector = make_pipeline(StandardScaler(), OneClassSVM(nu=0.2, random_state=0))

    def inliers(est, X, y=None):
        return float(np.mean(est.predict(X) == 1))

    # about 1 − ν of new points from the same distribution fall inside the region
    scores = cross_val_score(detector, X2, cv=3, scoring=inliers)
    assert np.all((scores > 0.6) & (scores < 0.95)), scores


def test_history_and_optimum():
    settings = dict(kernel="rbf", gamma=1.0, iterations=20000, random_state=0)
    est = SVMClassifier(history=True, **settings).fit(X2, y2)
    h = est.history_
    assert len(h["objective"]) == est.n_iter_ == 20000
    assert np.array_equal(h["t"], np.arange(1, 20001))
    # the last row is the fitted model's objective, evaluated anew
    F = model_objective(est.model_, X2, (y2 == 1).astype(np.int64), None)["objective"]
    assert h["objective"][-1] == pytest.approx(F, rel=1e-9)
    opt = est.optimum_
    assert opt.lower <= opt.objective <= h["objective"][-1]
    assert 0 <= opt.gap < 0.05 * opt.objective


def test_predict_proba_of_the_logistic_and_softmax_losses():
    assert not hasattr(SVMClassifier(), "predict_proba")
    binary = SVMClassifier(loss="logistic", random_state=0).fit(X2, y2)
    P = binary.predict_proba(X2)
    np.testing.assert_allclose(P[:, 1], 1 / (1 + np.exp(-binary.decision_function(X2))))
    multi = SVMClassifier(multiclass="softmax", random_state=0).fit(X3, y3)
    P = multi.predict_proba(X3)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert np.array_equal(multi.classes_[P.argmax(axis=1)], multi.predict(X3))
    np.testing.assert_allclose(np.exp(multi.predict_log_proba(X3)), P)


def test_predict_proba_of_the_modified_huber_is_scikit_learns():
    """The same probabilities as SGDClassifier(loss="modified_huber") with our weights."""
    from sklearn.linear_model import SGDClassifier

    ours = SVMClassifier(loss="modified_huber", random_state=0).fit(X2, y2)
    theirs = SGDClassifier(loss="modified_huber").fit(X2, y2)
    theirs.coef_, theirs.intercept_ = ours.coef_.reshape(1, -1), np.atleast_1d(ours.intercept_)
    P = ours.predict_proba(X2)
    np.testing.assert_allclose(P, theirs.predict_proba(X2), rtol=1e-12)
    assert 0 < np.mean((P == 0) | (P == 1)) < 1  # (the clipped and the graded both met)
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(ours.predict_log_proba(X2), np.log(P))


def test_the_registry_says_which_losses_give_probabilities():
    """predict_proba where the registry's ``proba`` says (not a list of names here); every
    binary loss of the registry, e.g. scikit-learn's modified Huber, trains."""
    from svmviz.core.problems import BINARY_LOSSES, DECLARED

    assert "modified_huber" in BINARY_LOSSES
    for loss in BINARY_LOSSES:
        est = SVMClassifier(loss=loss, iterations=300, random_state=0)
        assert hasattr(est, "predict_proba") is DECLARED[loss].proba, loss
        assert np.mean(est.fit(X2, y2).predict(X2) == y2) > 0.8, loss


def test_string_labels_and_sklearns_errors():
    labels = np.array(["cat", "dog"])[y2]
    est = SVMClassifier(random_state=0).fit(X2, labels)
    assert set(est.predict(X2)) <= {"cat", "dog"} and list(est.classes_) == ["cat", "dog"]
    with pytest.raises(ValueError, match="greater than one"):
        SVMClassifier().fit(X2, np.zeros(len(X2)))
    with pytest.raises(ValueError, match="NaN"):
        SVMClassifier().fit(np.where(X2 > 1, np.nan, X2), y2)
    with pytest.raises(ValueError, match="features"):
        est.predict(np.ones((3, 5)))
    with pytest.raises(ValueError, match="lam"):
        SVMClassifier(lam=-1.0).fit(X2, y2)
    with pytest.raises(ValueError, match="Pegasos needs λ > 0"):
        SVMClassifier(lam=0.0).fit(X2, y2)  # (the engine's own message, its class named)


def test_c_is_lambda_in_libsvms_form():
    est = SVMClassifier(C=2.0, random_state=0).fit(X2, y2)
    assert est.model_.lam == pytest.approx(1 / (2.0 * len(X2)))


def test_partial_fit_goes_on_from_the_iterate():
    est = SVMClassifier(random_state=0)
    first = est.partial_fit(X2, y2, classes=[0, 1]).history_["objective"][-1]
    assert est.n_iter_ == len(X2)
    for _ in range(20):
        est.partial_fit(X2, y2)
    assert est.n_iter_ == 21 * len(X2)  # t goes on: the step size keeps decreasing
    assert est.history_["objective"][-1] < first
    with pytest.raises(ValueError, match="classes"):
        SVMClassifier().partial_fit(X2, y2)
    kernel = SVMRegressor(kernel="rbf", random_state=0)
    kernel.partial_fit(X2, X2[:, 0])
    kernel.partial_fit(X2, X2[:, 0])
    assert kernel.n_iter_ == 2 * len(X2)


@pytest.mark.parametrize("suffix", [".json", ".npz"])
@pytest.mark.parametrize(
    "est, X, y",
    [
        (SVMClassifier(kernel="rbf", iterations=3000), X3, np.array(["a", "b", "c"])[y3]),
        (SVMClassifier(iterations=3000), X2, y2),
        (SVMRegressor(nu=0.3, iterations=3000), X2, X2[:, 0]),
        (OneClassSVM(nu=0.3, iterations=3000), X2, None),
    ],
    ids=["kernel-multiclass", "linear", "nu-svr", "one-class"],
)
def test_save_and_load(tmp_path, suffix, est, X, y):
    est.set_params(random_state=0).fit(X, y)
    path = tmp_path / f"model{suffix}"
    est.save(path)
    back = load(path)
    assert type(back) is type(est) and back.get_params() == est.get_params()
    assert np.array_equal(back.predict(X), est.predict(X))
    if y is not None and not isinstance(est, SVMRegressor):
        assert np.array_equal(back.classes_, est.classes_)


def test_the_curves_of_the_window_train_as_the_estimator():
    """The Generalization tab's fits (generalization.fit) and an estimator's fit are the
    same run: the same model, bit for bit."""
    est = SVMClassifier(kernel="rbf", gamma=1.5, lam=0.02, iterations=4000, random_state=3)
    est.fit(X2, y2)
    config = SolverConfig(kernel=Kernel("rbf", 1.5), lam=0.02, iterations=4000, seed=3)
    model = generalization.fit(config, est._data)
    assert np.array_equal(model.dual_coef, est.dual_coef_)
    assert np.array_equal(model.intercept, est.intercept_)


@pytest.mark.parametrize(
    "est, X, y, kept",
    [
        (SVMClassifier(), X2, y2, True),  # the screened hinge: nearly free, kept
        (SVMClassifier(kernel="rbf"), X2, y2, False),
        (SVMClassifier(loss="logistic", bias="none"), X2, y2, False),
        (SVMClassifier(multiclass="softmax"), X3, y3, False),
        (SVMRegressor(nu=0.3), X2, X2[:, 0], False),
        (OneClassSVM(), X2, None, False),
    ],
    ids=["hinge", "rbf", "logistic", "softmax", "nu-svr", "one-class"],
)
def test_history_off_trains_the_same_model(est, X, y, kept):
    """history=False (and "auto" where it costs an O(mK) pass) skips the objective of
    every iterate, not a bit of the run: the same model, and its objective computed once."""
    est.set_params(iterations=3000, random_state=0)
    on = clone(est).set_params(history=True).fit(X, y)
    auto = clone(est).fit(X, y)
    assert (auto.history_ is not None) == kept
    for part in ("coef", "dual_coef", "intercept"):
        a, b = getattr(on.model_, part), getattr(auto.model_, part)
        assert (a is None and b is None) or np.array_equal(a, b)
    assert auto.model_.extra["objective"] == pytest.approx(
        on.history_["objective"][-1], rel=1e-10, abs=1e-12
    )


@pytest.mark.parametrize("seed", range(4))
def test_a_step_that_overflows_is_a_divergence_not_a_linear_algebra_error(seed):
    """A softmax fit with η₀ = 1e308 ended in numba's LinAlgError ("Array must not contain
    infs or NaNs") from the bias's Newton step, at most seeds; 1e308 is now beyond η₀'s
    range, and the largest step taken is a divergence."""
    est = SVMClassifier(multiclass="softmax", algorithm="sgd", eta=1e308, random_state=seed)
    with pytest.raises(ValueError, match=r"η₀ \(eta\) must be a number in \(0, 1e\+150\]"):
        est.fit(X3, y3)
    est = SVMClassifier(
        multiclass="softmax", algorithm="sgd", eta=1e150, schedule="constant", random_state=seed
    )
    with pytest.raises(ValueError, match=r"^SVMClassifier: diverged: lower η₀ = 1e\+150"):
        est.fit(X3, y3)
