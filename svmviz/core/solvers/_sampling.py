"""Which examples each iteration samples: a batch of k indices, by shuffled passes over the
training set (004: "randomly shuffle points" each pass) or uniformly with replacement; none
for full-batch GD (k = 0: the loop takes every example)."""

from __future__ import annotations

import numpy as np


class Sampler:
    """The sample indices of the next iterations, from ``rng``, for m examples."""

    def __init__(self, rng: np.random.Generator, m: int, k: int, uniform: bool):
        self.rng, self.m, self.k, self.uniform = rng, m, k, uniform
        self._perm = np.empty(0, dtype=np.int64)
        self._pos = 0

    def indices(self, n: int) -> np.ndarray:
        """(n, k) indices for the next n iterations."""
        k = self.k
        if k == 0:
            return np.empty((n, 0), dtype=np.int64)
        if self.uniform:
            return self.rng.integers(0, self.m, size=(n, k))
        total = n * k
        out = np.empty(total, dtype=np.int64)
        filled = 0
        while filled < total:
            if self._pos >= self._perm.size:
                self._perm = self.rng.permutation(self.m)
                self._pos = 0
            take = min(total - filled, self._perm.size - self._pos)
            out[filled : filled + take] = self._perm[self._pos : self._pos + take]
            filled += take
            self._pos += take
        return out.reshape(n, k)
