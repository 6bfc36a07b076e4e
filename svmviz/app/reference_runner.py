"""The exact optimum of each job, computed beside the training so that no frame waits for
it (libsvm on thousands of points with an RBF kernel takes far longer than a frame).

One daemon thread serves the newest request only: a request replaced within SETTLE_SECONDS
(a drag submits a job per mouse move) is never computed, and an old one still running is
left to finish (libsvm and the QP cannot be interrupted) but its result only goes to the
cache. Results are cached by problem (data, margin, λ, bias, kernel, Δ), so undo, redo and
going back to a setting are instant. libsvm and numpy release the GIL while they compute;
Clarabel holds it for stretches of a few frames on large problems.

A runner made ``held`` computes nothing until :meth:`ReferenceRunner.release`: the window's
first frame does not share the GIL with the first optimum (its imports, Clarabel and
scipy.sparse, take a tenth of a second).
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.training.setup import problem_key, reference_or_reason

SETTLE_SECONDS = 0.1
CACHE_SIZE = 16


class ReferenceRunner:
    def __init__(self, notify, held: bool = False):
        """``notify(generation)`` is called from the runner's thread when the reference of
        that job's problem is in the cache; ``held``: requests wait for :meth:`release`."""
        self._notify = notify
        self._released = threading.Event()
        if not held:
            self._released.set()
        self._cache: OrderedDict = OrderedDict()
        self._lock = threading.Condition()
        self._pending = None  # (generation, key, config, data): the newest request
        self._stopped = False
        self._thread: threading.Thread | None = None

    def lookup(self, key):
        """(reference, reason) of a problem, or None while it is not computed."""
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        return None

    def request(self, generation: int, config: SolverConfig, data: Dataset):
        """The problem's key, and its (reference, reason) if cached; otherwise None, and
        it is computed in the background (``notify(generation)`` when done)."""
        key = problem_key(config, data)
        found = self.lookup(key)
        if found is None:
            with self._lock:
                self._pending = (generation, key, config, data)
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._serve, daemon=True, name="svmviz-reference"
                    )
                    self._thread.start()
                self._lock.notify()
        return key, found

    def release(self) -> None:
        """Compute the requests from now on (a held runner; any thread)."""
        self._released.set()

    def _serve(self) -> None:
        _lower_priority()
        self._released.wait()
        while True:
            with self._lock:
                while self._pending is None and not self._stopped:
                    self._lock.wait()
                if self._stopped:
                    return
                request = self._pending
            time.sleep(SETTLE_SECONDS)  # a newer request (a drag) replaces this one
            with self._lock:
                if self._stopped:
                    return
                if self._pending is not request:
                    continue
                self._pending = None
            generation, key, config, data = request
            try:
                result = reference_or_reason(config, data)
            except Exception as exc:
                result = (None, str(exc))
            with self._lock:
                self._cache[key] = result
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
                if self._stopped:
                    return  # (its receiver may be deleted: a Qt signal emitted to it crashed)
                try:  # under the lock: once stop() has returned, nothing is notified
                    self._notify(generation)
                except RuntimeError:  # the receiver is gone (the window closed meanwhile)
                    return

    def stop(self) -> None:
        """No more requests and, from its return on, no more notices; an idle thread ends
        now, a busy one after its computation."""
        with self._lock:
            self._stopped = True
            self._pending = None
            self._lock.notify()
        self._released.set()  # (a held thread ends too)


NICE = 10  # the exact optimum waits for the window and the training, not the other way


def _lower_priority() -> None:
    """Run this thread (and the threads it starts) at a lower priority: on Linux a thread
    has its own nice value. A large kernel problem's optimum can take every core for a
    while, and a click's frame must not wait behind it."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
    except (AttributeError, OSError):  # not Linux, or not allowed: the same, a bit slower
        pass
