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
        G = cache.gram(kernel, Y)
        np.testing.assert_allclose(G, kernel.gram(Y, Y), rtol=1e-12, atol=1e-12)
        assert G.flags.c_contiguous
        assert G.shape == (len(Y), len(Y))
    other = cache.gram(Kernel("rbf", gamma=2.0), edits[-1])  # another kernel: anew
    np.testing.assert_allclose(other, Kernel("rbf", gamma=2.0).gram(edits[-1], edits[-1]))


def test_edits_update_the_matrix_in_its_own_memory():
    """Appends, moves and deletions within the buffer's room move rows in place: no new
    m×m array (whose page faults cost more than the kernel values)."""
    kernel = Kernel("rbf")
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 2))
    cache = GramCache()
    base = cache.gram(kernel, X).base
    for _ in range(30):  # clicks, drags, deletions, in any order
        r = rng.random()
        if r < 0.5:
            X = np.vstack([X, rng.normal(size=(1, 2))])
        elif r < 0.8:
            X = X.copy()
            X[rng.integers(len(X))] += 0.1
        else:
            X = np.delete(X, rng.integers(len(X)), axis=0)
        G = cache.gram(kernel, X)
        assert G.base is base  # the same memory
        np.testing.assert_allclose(G, kernel.gram(X, X), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("n", "m"), [(1, 2), (5, 6), (7, 20), (300, 301)])
def test_to_stride_moves_a_matrix_to_a_longer_row_in_place(compiled_loops, n, m):
    """The append's compiled move (one call, without the GIL): each row at its new stride,
    bit for bit, whether its new place overlaps its old one or not."""
    from svmviz.core import _gram

    A = np.random.default_rng(n).normal(size=(n, n))
    buf = np.full(m * m, np.nan)
    buf[: n * n] = A.ravel()
    assert _gram.to_stride(buf, n, m)
    np.testing.assert_array_equal(buf[: n * m].reshape(n, m)[:, :n], A)


def test_compiled_appends_give_the_whole_matrix_bit_for_bit(compiled_loops):
    kernel = Kernel("rbf", gamma=0.7)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 2))
    cache = GramCache()
    base = cache.gram(kernel, X).base
    for _ in range(12):  # clicks
        X = np.vstack([X, rng.normal(size=(1, 2))])
        G = cache.gram(kernel, X)
        assert G.base is base
        np.testing.assert_array_equal(G, kernel.gram(X, X))
