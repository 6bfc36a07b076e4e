import numpy as np
import pytest
from sklearn.metrics.pairwise import pairwise_kernels

from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel


@pytest.mark.parametrize(
    "kernel, params",
    [
        (Kernel("linear"), {}),
        (Kernel("poly", gamma=0.7, degree=3, coef0=0.5), dict(gamma=0.7, degree=3, coef0=0.5)),
        (Kernel("rbf", gamma=1.3), dict(gamma=1.3)),
        (Kernel("sigmoid", gamma=0.2, coef0=-0.3), dict(gamma=0.2, coef0=-0.3)),
    ],
)
def test_gram_matches_scikit_learn(kernel, params):
    rng = np.random.default_rng(0)
    X, Z = rng.normal(size=(30, 3)), rng.normal(size=(20, 3))
    expected = pairwise_kernels(X, Z, metric=kernel.name, **params)
    np.testing.assert_allclose(kernel.gram(X, Z), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(name="cubic"), "unknown kernel 'cubic'"),
        (dict(name="rbf", gamma=0), r"gamma must be a number in \(0, 1e\+150\], not 0"),
        (dict(name="poly", degree=0), "degree must be a whole number"),
        (dict(name="poly", degree=2.5), "degree must be a whole number"),
        # a file's true/false is not a number (it passed as 1 and 0)
        (dict(name="rbf", gamma=True), r"gamma must be a number in \(0, 1e\+150\], not True"),
        (dict(name="rbf", gamma=1e151), r"gamma must be .*, not 1e\+151"),
        (dict(name="poly", degree=101), "degree must be a whole number from 1 to 100, not 101"),
        (dict(name="poly", degree=True), "degree must be a whole number"),
        (dict(name="poly", coef0=False), "coef0 must be a number from -1e\\+150 to 1e\\+150"),
    ],
)
def test_bad_kernel_parameters(kwargs, message):
    with pytest.raises(InputError, match=message):
        Kernel(**kwargs)


@pytest.mark.parametrize("name", ["linear", "poly", "rbf", "sigmoid"])
def test_diag_is_the_gram_diagonal(name):
    X = np.random.default_rng(0).normal(size=(7, 2))
    k = Kernel(name, gamma=0.7, degree=3, coef0=0.5)
    np.testing.assert_allclose(k.diag(X), np.diag(k.gram(X, X)))


@pytest.mark.parametrize("m", [1, 2, 33, 447, 1200])
def test_the_rbf_matrix_is_symmetric_and_its_rows_are_the_rows_of_one(m, compiled_loops):
    """(numpy's vectorized exponential: the same bits for an entry in the whole matrix, in a
    row alone, in a single entry; 1,200 points take the two-thread path; without the compiled
    loops, the kernel's numpy path)"""
    X = 3.0 * np.random.default_rng(m).normal(size=(m, 2))
    rbf = Kernel("rbf", gamma=0.7).gram
    G = rbf(X, X.copy())
    np.testing.assert_array_equal(G, G.T)
    for i in {0, m // 2, m - 1}:
        np.testing.assert_array_equal(rbf(X[i : i + 1], X)[0], G[i])
        np.testing.assert_array_equal(rbf(X[i : i + 1], X[-1:])[0, 0], G[i, -1])
    from svmviz.core import _gram

    np.testing.assert_allclose(_gram.rbf_numpy(X, X, 0.7), G, rtol=1e-13, atol=1e-300)
    expected = pairwise_kernels(X, X, metric="rbf", gamma=0.7)
    np.testing.assert_allclose(G, expected, rtol=1e-12, atol=1e-12)
