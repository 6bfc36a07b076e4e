"""The offsets' order statistics (losses._common.lower_quantile): searched in a window
around the last answer, the same values as a selection of all of them."""

import numpy as np
import pytest

from svmviz.core.solvers.losses import _common


def expected(v, q):
    """The k = ⌈q⌉-th smallest, or for a whole q < n the middle of the q-th and next."""
    s = np.sort(v)
    k = min(max(int(np.ceil(q - 1e-12 * max(q, 1.0))), 1), len(v))
    if abs(k - q) > 1e-9 or k == len(v):
        return s[k - 1]
    return 0.5 * (s[k - 1] + s[k])


@pytest.mark.parametrize("q", [1, 7.5, 250, 250.25, 499.5, 500])
@pytest.mark.parametrize("drift", [1e-6, 1e-3, 0.1, 10.0])
def test_a_quantile_from_the_last_answer_is_the_selections(q, drift):
    rng = np.random.default_rng(int(q * 4) + int(drift * 1e6) % 97)
    n = 500
    v = rng.normal(size=n)
    v[::50] = v[1::50]  # (ties)
    buf, near, mirrored = np.empty(2 * n), np.zeros(3), np.zeros(3)
    for _ in range(60):
        assert _common.lower_quantile(v, n, q, buf, near) == expected(v, q)
        assert _common.upper_quantile(v, n, q, buf, mirrored) == -expected(-v, q)
        v = v + drift * rng.normal(size=n) * (rng.random(n) < 0.3)
    assert near[1] > 0.0
    if drift <= 1e-3:  # (the answer settled: the gathering took its branching way too)
        assert near[2] < _common.SETTLED
