"""Large matrices reuse the memory of dropped ones, never of one still seen through a view."""

import gc

import numpy as np
import pytest

from svmviz.core import _spare


@pytest.fixture(autouse=True)
def empty_pool(monkeypatch):
    monkeypatch.setattr(_spare, "_waiting", [])


def address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def test_a_dropped_matrix_s_memory_serves_the_next_of_its_size():
    A = _spare.matrix(512, 512)  # 2 MiB
    assert A.shape == (512, 512) and A.dtype == np.float64 and A.flags.c_contiguous
    assert A.flags.writeable
    A[:] = 3.0
    where = address(A)
    del A
    gc.collect()
    assert _spare.waiting() == 8 * 512 * 512
    B = _spare.matrix(512, 512)
    assert address(B) == where and _spare.waiting() == 0
    other = _spare.matrix(256, 1024)  # (the same bytes, another shape: a buffer of its own)
    assert address(other) != where
    C = _spare.matrix(1024, 256)
    assert address(C) != where


def test_a_view_keeps_the_memory_from_the_next_matrix():
    A = _spare.matrix(512, 512)
    A[:] = np.arange(512.0)
    corner = A[100:, :3].T  # a view of a view
    del A
    gc.collect()
    assert _spare.waiting() == 0
    B = _spare.matrix(512, 512)
    B[:] = -1.0
    np.testing.assert_array_equal(corner[:, 0], [0.0, 1.0, 2.0])
    del corner, B
    gc.collect()
    assert _spare.waiting() == 2 * 8 * 512 * 512  # (both now wait)


def test_small_matrices_are_malloc_s_and_the_pool_is_bounded(monkeypatch):
    small = _spare.matrix(10, 10)
    assert small.base is None  # (an array of its own)
    monkeypatch.setattr(_spare, "KEEP_BYTES", 3 * 2**20)
    mats = [_spare.matrix(512, 512) for _ in range(3)]
    del mats
    gc.collect()
    assert _spare.waiting() == 2**21  # one of 2 MiB kept: a second would pass 3 MiB
