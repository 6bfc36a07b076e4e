import numpy as np
import pytest

from svmviz.core.errors import InputError
from svmviz.core.generate import CLASSIFICATION_KINDS, KINDS, REGRESSION_KINDS, generate


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_deterministic_and_in_view(kind):
    X, y = generate(kind, n=200, noise=0.1, classes=3, seed=5)
    X2, y2 = generate(kind, n=200, noise=0.1, classes=3, seed=5)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    assert X.shape == (200, 2)
    assert np.isfinite(X).all()
    assert np.abs(X).max() < 6
    assert len(np.unique(y)) >= (2 if kind in CLASSIFICATION_KINDS else 1)
    assert not np.array_equal(X, generate(kind, n=200, noise=0.1, classes=3, seed=6)[0])


@pytest.mark.parametrize("kind", REGRESSION_KINDS)
def test_regression_kinds_are_points_x_and_target_of_one_class(kind):
    X, y = generate(kind, n=300, noise=0.1, seed=2)
    assert (y == 0).all()
    assert np.all(np.diff(X[:, 0]) >= 0) and -3 <= X[0, 0] and X[-1, 0] <= 3
    x, t = X.T
    truth = {"sine": 1.5 * np.sin(1.2 * x), "outliers": 0.5 * x + 0.2, "step": np.sign(x)}[kind]
    off = np.abs(t - truth)
    if kind == "outliers":  # every tenth point is thrown 2.5 off the line, the rest are near
        assert np.all(off[5::10] > 2.0) and np.median(off) < 0.2
    else:
        assert off.max() < 0.6


def test_separable_has_the_margin():
    from sklearn.svm import SVC

    X, y = generate("separable", n=200, noise=0.0, margin=0.7, seed=1)
    svc = SVC(kernel="linear", C=1e6).fit(X, y)
    assert 1 / np.linalg.norm(svc.coef_) >= 0.7 - 1e-6  # half the gap between the classes
    assert svc.score(X, y) == 1.0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(kind="cubes"), "unknown data set"),
        (dict(kind="blobs", n=1), "number of points"),
        (dict(kind="blobs", noise=-1), "noise"),
        (dict(kind="blobs", classes=10), "classes"),
    ],
)
def test_bad_parameters(kwargs, message):
    with pytest.raises(InputError, match=message):
        generate(**kwargs)
