"""Large matrices whose memory is reused once they are dropped.

A fresh m×n array costs its page faults when it is first written: at m = 1,000 (8 MB) about
1.5 ms, and several more when the kernel compacts memory for the huge pages numpy asks
for, against 0.5 ms for the RBF matrix's million exponentials. So a kernel matrix is a view
of a buffer kept here: once the matrix and every view of it are gone (numpy's views hold
the array they were cut from, never the buffer), the buffer waits for the next matrix of
its size. At most KEEP_BYTES wait; a matrix below FROM_BYTES is left to malloc.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

FROM_BYTES = 2**20
KEEP_BYTES = 64 * 2**20  # (two matrices of 2,000 points)

_lock = threading.Lock()
_waiting: list[bytearray] = []


def matrix(m: int, n: int) -> np.ndarray:
    """An uninitialized m×n float64 C-contiguous matrix, in a buffer of the pool when one
    of its size waits (its old values in it)."""
    size = 8 * m * n
    if size < FROM_BYTES:
        return np.empty((m, n))
    with _lock:
        raw = next((b for b in _waiting if len(b) == size), None)
        if raw is not None:
            _waiting.remove(raw)
    if raw is None:
        raw = bytearray(size)
    flat = np.frombuffer(raw, dtype=np.float64)
    weakref.finalize(flat, _release, raw).atexit = False
    return flat.reshape(m, n)


def _release(raw: bytearray) -> None:
    with _lock:
        if sum(len(b) for b in _waiting) + len(raw) <= KEEP_BYTES:
            _waiting.append(raw)


def waiting() -> int:
    """Bytes of the buffers waiting."""
    with _lock:
        return sum(len(b) for b in _waiting)
