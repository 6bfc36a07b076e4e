"""The kernel matrix view's numbers: the solver's kernel, in class (and α) order."""

import numpy as np
import pytest
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from svmviz.core.kernels import Kernel
from svmviz.core.pictures.gram_matrix import CAP, kernel_matrix, order, ordered, too_many


def points(m=30, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 2))
    y = rng.integers(0, 3, size=m)
    return X, y


@pytest.mark.parametrize(
    "kernel, sk",
    [
        (Kernel("rbf", gamma=0.7), lambda X: rbf_kernel(X, gamma=0.7)),
        (
            Kernel("poly", gamma=0.5, degree=3, coef0=1.5),
            lambda X: polynomial_kernel(X, degree=3, gamma=0.5, coef0=1.5),
        ),
        (Kernel("linear"), linear_kernel),
    ],
)
def test_values_are_the_kernel_matrix_in_display_order(kernel, sk):
    X, y = points()
    K = kernel_matrix(kernel, X)
    np.testing.assert_allclose(K, sk(X), rtol=1e-12, atol=1e-12)
    g = ordered(K, y)
    for r, i in enumerate(g.order):
        for c, j in enumerate(g.order):
            assert g.values[r, c] == pytest.approx(
                float(kernel.gram(X[i : i + 1], X[j : j + 1])[0, 0]), abs=1e-12
            )


def test_regularized_bias_adds_the_constant_feature():
    X, _ = points()
    k = Kernel("rbf", gamma=2.0)
    np.testing.assert_array_equal(
        kernel_matrix(k, X, "regularized"), kernel_matrix(k, X, "free") + 1.0
    )
    np.testing.assert_allclose(kernel_matrix(Kernel("linear"), X, "regularized"), X @ X.T + 1)


def test_order_is_by_class_then_by_alpha():
    X, y = points(40, seed=3)
    alpha = np.random.default_rng(1).random(40) * (np.arange(40) % 3 != 0)
    g = ordered(kernel_matrix(Kernel("rbf"), X), y)
    assert np.all(np.diff(g.y) >= 0)
    assert list(g.edges) == [int(np.sum(y <= c)) for c in range(2)]
    by = order(y, alpha, by_alpha=True)
    assert np.all(np.diff(y[by]) >= 0)
    for c in range(3):
        a = alpha[by][y[by] == c]
        assert np.all(np.diff(a) <= 0)
    # within a class, the plain order keeps the points' own order
    plain = order(y, alpha)
    for c in range(3):
        assert np.all(np.diff(plain[y[plain] == c]) > 0)
    # or, given the points, goes along their first principal axis
    along = np.column_stack([np.linspace(-3, 3, 40), np.zeros(40)])[::-1] + 0.01 * X
    spatial = order(y, X=along)
    assert np.all(np.diff(y[spatial]) >= 0)
    for c in range(3):
        x = along[spatial][y[spatial] == c, 0]
        assert np.all(np.diff(x) > 0)


def test_support_rows_are_the_support_mask_in_display_order():
    X, y = points(20)
    alpha = np.where(np.arange(20) % 4 == 0, 0.3, 0.0)
    support = np.arange(20) % 3 == 0  # (not α's: the rows follow the mask given)
    g = ordered(kernel_matrix(Kernel("rbf"), X), y, alpha, by_alpha=True)
    rows = g.support(support)
    assert sorted(g.order[rows].tolist()) == np.flatnonzero(support).tolist()


def test_large_gamma_tends_to_identity():
    X, _ = points(25)
    K = kernel_matrix(Kernel("rbf", gamma=1e4), X)
    np.testing.assert_allclose(K, np.eye(25), atol=1e-6)


def test_cap_message():
    assert too_many(CAP) == ""
    assert "2,001 points" in too_many(CAP + 1) and "2,000" in too_many(CAP + 1)


def test_the_session_view_keeps_the_toggle_and_old_files_load():
    from svmviz.core.files.session_file import View, _view

    assert _view({"kernel_matrix": True}, "s").flags == (("kernel_matrix", True),)
    assert _view({"views": ["kernel_matrix"]}, "s").views == ("kernel_matrix",)
    assert View(flags=(("kernel_matrix", True),)) != View()
