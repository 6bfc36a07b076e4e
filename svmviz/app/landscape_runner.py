"""The weight-space view's landscape F(w) computed off the GUI thread, and cached.

:class:`LandscapeCache` is the plain-Python part: a request (the model whose held part is
kept, the training data, the grid, the class k whose row varies, what is held of b) is
computed by :func:`svmviz.core.pictures.landscape.landscape` once per key (the data's bytes, the
problem's settings, k, the hold, the held part and the grid) and kept for the next
request of that key. :class:`LandscapeRunner` serves the newest request on a QThread of
its own (latest wins: a request replaced before its turn is never computed), so that the
window asks again only when the problem, the held part or the grid changes, never per
frame, and no frame waits for it.
"""

from __future__ import annotations

import hashlib
import threading
import traceback
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, QThread, Signal, Slot

from svmviz.app.threads import register
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.model_io import Model
from svmviz.core.pictures.landscape import Landscape, landscape

CACHE_SIZE = 8


def data_digest(data: Dataset) -> str:
    """The training data's bytes, as a short digest (points, labels, targets)."""
    digest = hashlib.blake2b(np.ascontiguousarray(data.X, dtype=float).tobytes(), digest_size=16)
    digest.update(np.ascontiguousarray(data.y, dtype=np.int64).tobytes())
    if data.target is not None:
        digest.update(np.ascontiguousarray(data.target, dtype=float).tobytes())
    return digest.hexdigest()


def held_part(model: Model, k: int, hold: str) -> tuple:
    """What the landscape keeps of ``model``: every other row's weights, and the biases
    (none when b = 0 is held or b is profiled), ρ and ε."""
    coef = model.coef if model.coef is not None else np.zeros((0, 2))
    if 0 <= k < len(coef):  # (a row that is not the model's: the landscape says why)
        coef = np.delete(coef, k, axis=0)
    bias = () if hold in ("none", "profiled") else tuple(float(b) for b in model.intercept)
    return (tuple(coef.ravel().tolist()), bias, model.rho, model.epsilon)


@dataclass(frozen=True, eq=False)
class LandscapeRequest:
    """F over ``w1`` × ``w2`` of row ``k`` of ``model``'s weights on ``data``, the rest of
    the model held as ``hold`` says (svmviz.core.pictures.landscape.HOLDS)."""

    model: Model
    data: Dataset
    w1: np.ndarray
    w2: np.ndarray
    k: int = 0
    hold: str = "slice"
    digest: str = ""  # data_digest(data), when the caller has it already

    def key(self) -> tuple:
        m = self.model
        cost = None if m.cost is None else np.asarray(m.cost, dtype=float).tobytes()
        problem = (m.problem, m.loss, m.lam, m.bias, m.nu, cost, m.classes)
        grid = (float(self.w1[0]), float(self.w1[-1]), len(self.w1))
        grid += (float(self.w2[0]), float(self.w2[-1]), len(self.w2))
        digest = self.digest or data_digest(self.data)
        return (digest, problem, self.k, self.hold, held_part(m, self.k, self.hold), grid)


class LandscapeCache:
    """The landscapes computed, by key (the newest CACHE_SIZE); ``computed`` counts the
    computations (a request found in the cache is not one). Safe from any thread."""

    def __init__(self, size: int = CACHE_SIZE):
        self.size = size
        self.computed = 0
        self._lock = threading.Lock()
        self._cache: OrderedDict = OrderedDict()

    def lookup(self, key) -> Landscape | None:
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
            return found

    def compute(self, request: LandscapeRequest, key=None) -> Landscape:
        """The request's landscape, from the cache or computed (and kept)."""
        key = request.key() if key is None else key
        found = self.lookup(key)
        if found is not None:
            return found
        r = request
        result = landscape(r.model, r.data, r.w1, r.w2, r.k, r.hold)
        with self._lock:
            self.computed += 1
            self._cache[key] = result
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return result


class _Worker(QObject):
    done = Signal(int, object, object)  # generation, key, Landscape or the reason (str)

    def __init__(self, cache: LandscapeCache):
        super().__init__()
        self.cache = cache
        self._lock = threading.Lock()
        self.latest = 0  # the newest generation: older requests are skipped
        self.thread_ident: int | None = None  # (the thread that computed last: for tests)

    def newest(self) -> int:
        with self._lock:
            return self.latest

    def set_newest(self, generation: int) -> None:
        with self._lock:
            self.latest = generation

    @Slot(object)
    def run(self, job) -> None:
        generation, key, request = job
        if generation != self.newest():
            return  # replaced before its turn
        self.thread_ident = threading.get_ident()
        try:
            result: object = self.cache.compute(request, key)
        except InputError as exc:
            result = str(exc)
        except Exception:  # a defect: said in the view, not a dead thread
            result = "internal error:\n" + traceback.format_exc(limit=4)
        self.done.emit(generation, key, result)


class LandscapeRunner(QObject):
    """GUI-thread side: ``request(r)`` gives the landscape at once when cached, else None
    and ``ready`` (key, Landscape) follows from the worker for the newest request only
    (``failed`` (key, reason) when it cannot be computed). ``shutdown()`` at the close."""

    ready = Signal(object, object)
    failed = Signal(object, str)
    _run = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.cache = LandscapeCache()
        self.generation = 0
        self.pending = None  # the key being computed
        self._thread = QThread()
        self._thread.setObjectName("svmviz-landscape")
        register(self._thread)
        self._worker = _Worker(self.cache)
        self._worker.moveToThread(self._thread)
        self._run.connect(self._worker.run)
        self._worker.done.connect(self._on_done)
        self._thread.start()

    def request(self, request: LandscapeRequest, key=None) -> Landscape | None:
        key = request.key() if key is None else key
        found = self.cache.lookup(key)
        self.generation += 1
        self._worker.set_newest(self.generation)
        if found is not None:
            self.pending = None
            return found
        self.pending = key
        self._run.emit((self.generation, key, request))
        return None

    def cancel(self) -> None:
        """The newest request is not wanted any more (no model to show)."""
        self.generation += 1
        self._worker.set_newest(self.generation)
        self.pending = None

    def shutdown(self) -> None:
        self.cancel()
        self._thread.quit()
        self._thread.wait()

    @Slot(int, object, object)
    def _on_done(self, generation: int, key, result) -> None:
        if generation != self.generation:
            return
        self.pending = None
        if isinstance(result, str):
            self.failed.emit(key, result)
        else:
            self.ready.emit(key, result)
