"""An estimator given a value beyond what svmviz trains names that value and its range: a
coordinate as a coordinate, C as C, λ as λ (not the gamma, the λ or the divergence they
lead to)."""

import numpy as np
import pytest

from svmviz.estimators import SVMClassifier, SVMRegressor

rng = np.random.default_rng(0)
X = rng.normal(size=(20, 2))
y = (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize(
    "estimator, data, message",
    [
        # was "gamma must be a positive number, not 0.0" (gamma="scale" of Var X = inf)
        (SVMClassifier(), X * 1e300, r"X's row \d+ has the coordinate .*e\+29\d, beyond ±1e15"),
        # was "Pegasos needs λ > 0" (λ = 1/(Cm) underflows)
        (
            SVMClassifier(C=1e308),
            X,
            r"C must be a number from 5e-08 to 5e\+48 for 20 points .*, not 1e\+308",
        ),
        (SVMRegressor(C=1e-300), X, r"C must be a number from .* for 20 points"),
        # was "diverged: scale the coordinates down"
        (SVMClassifier(lam=1e-308), X, r"λ \(lam\) must be a number from 1e-50 to 1e\+06, or 0"),
        (SVMClassifier(lam=1e308), X, r"λ \(lam\) must be a number from 1e-50 to 1e\+06"),
    ],
)
def test_a_value_beyond_the_limits_is_named_with_its_range(estimator, data, message):
    target = y if isinstance(estimator, SVMClassifier) else X[:, 1]
    with pytest.raises(ValueError, match=message):
        estimator.fit(data, target)


def test_the_ends_of_the_ranges_train():
    for estimator in (SVMClassifier(lam=1e-50), SVMClassifier(lam=1e6), SVMClassifier(C=5e48)):
        estimator.set_params(iterations=200, random_state=0).fit(X * 1e15 / 4, y)
        assert np.isfinite(estimator.coef_).all()


def test_svmviz_show_names_c_beyond_its_range_too():
    """svmviz.show's settings take libsvm's C as the estimators do."""
    from svmviz.core.command_line import config_from_settings
    from svmviz.core.data import Dataset
    from svmviz.core.errors import InputError

    data = Dataset.from_labels(X, y)
    with pytest.raises(InputError, match=r"C must be a number from 5e-08 to 5e\+48 for 20 points"):
        config_from_settings({"C": 1e308}, data)
    assert config_from_settings({"C": 5e48}, data).lam == pytest.approx(1e-50)


def test_a_scikit_learn_model_of_a_c_beyond_is_named_as_c():
    """svmviz.show draws a scikit-learn model as svmviz's model of λ = 1/(Cm)."""
    from sklearn.svm import SVC

    from svmviz.core.errors import InputError
    from svmviz.core.files.foreign import from_sklearn

    svc = SVC(kernel="linear", C=1e300).fit(X, y)
    with pytest.raises(InputError, match=r"C must be a number from 5e-08 to 5e\+48 for 20 points"):
        from_sklearn(svc, X, y)
