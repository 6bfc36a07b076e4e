import numpy as np
import pytest

from svmviz.core.kernels import GramCache, Kernel


@pytest.mark.parametrize("kernel", [Kernel("rbf", gamma=0.7), Kernel("poly", degree=2)])
def test_edits_reuse_the_gram_matrix_and_give_the_same_values(kernel):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    cache = GramCache()
    G = cache.gram(kernel, X)
    assert cache.gram(kernel, X) is G  # unchanged points: the same matrix
    edits = [
        np.vstack([X, [[0.5, -0.25]]]),  # a click: one point appended
        np.vstack([X, [[0.5, -0.25]]]) + np.where(np.arange(41)[:, None] == 3, 0.1, 0.0),  # a drag
        np.delete(np.vstack([X, [[0.5, -0.25]]]), [0, 17], axis=0),  # two deleted
        rng.normal(size=(39, 2)),  # new data: computed anew
    ]
    for Y in edits:
        previous, values = G, G.copy()
        G = cache.gram(kernel, Y)
        np.testing.assert_allclose(G, kernel.gram(Y, Y), rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(previous, values)  # the old matrix was not changed
    other = cache.gram(Kernel("rbf", gamma=2.0), edits[-1])  # another kernel: anew
    np.testing.assert_allclose(other, Kernel("rbf", gamma=2.0).gram(edits[-1], edits[-1]))


def test_an_earlier_matrix_is_never_changed_by_a_later_edit():
    kernel = Kernel("rbf")
    X = np.random.default_rng(1).normal(size=(20, 2))
    cache = GramCache()
    G = cache.gram(kernel, X)
    kept = G.copy()
    Y = X.copy()
    Y[5] += 1.0
    cache.gram(kernel, Y)
    np.testing.assert_array_equal(G, kept)
