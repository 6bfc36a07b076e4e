"""The weight-space landscape off the GUI thread: computed once per key (the data, the
problem, the class, the hold, the held part and the grid), on the runner's own thread, the
newest request winning."""

import threading

import numpy as np
import pytest

from svmviz.app.landscape_runner import LandscapeCache, LandscapeRequest, LandscapeRunner
from svmviz.app.threads import running_threads
from svmviz.core.config import SolverConfig
from svmviz.core.pictures.landscape import grid_around, landscape
from svmviz.core.solvers import Solver


def trained(data, t=50, **settings):
    solver = Solver(SolverConfig(iterations=400, seed=2).replace(**settings)).reset(data)
    solver.step(t)
    return solver.model()


def request(model, data, n=9, k=0, hold="slice"):
    w1, w2 = grid_around(model, k, n=n)
    return LandscapeRequest(model, data, w1, w2, k, hold)


def test_the_cache_computes_each_key_once(blobs2):
    cache = LandscapeCache()
    model = trained(blobs2)
    first = cache.compute(request(model, blobs2))
    again = cache.compute(request(model, blobs2))  # a new request, the same key
    assert again is first
    assert cache.computed == 1
    expected = landscape(model, blobs2, first.w1, first.w2)
    np.testing.assert_array_equal(first.values, expected.values)
    # what changes the picture is a new key: the hold, the held b, the grid, the data
    cache.compute(request(model, blobs2, hold="none"))
    moved = type(model)(**{**model.__dict__, "intercept": model.intercept + 0.5})
    cache.compute(request(moved, blobs2))
    cache.compute(request(model, blobs2, n=11))
    other = type(blobs2)(blobs2.X + 1.0, blobs2.y, blobs2.classes)
    cache.compute(request(model, other))
    assert cache.computed == 5
    # the varying row's own weights are not part of the key: a new w, the same landscape
    w = type(model)(**{**model.__dict__, "coef": model.coef * 2.0})
    assert cache.compute(request(w, blobs2)) is not None
    assert cache.compute(LandscapeRequest(w, blobs2, first.w1, first.w2)) is first


def test_the_runner_computes_off_the_gui_thread_once_per_key(qtbot, blobs3):
    runner = LandscapeRunner()
    try:
        assert any(t.objectName() == "svmviz-landscape" for t in running_threads())
        model = trained(blobs3, multiclass="softmax")
        r = request(model, blobs3, k=1)
        with qtbot.waitSignal(runner.ready, timeout=20000) as got:
            assert runner.request(r) is None, "not cached: computed in the background"
        key, land = got.args
        assert key == r.key()
        assert runner._worker.thread_ident != threading.get_ident()
        np.testing.assert_array_equal(land.values, landscape(model, blobs3, r.w1, r.w2, 1).values)
        assert runner.request(request(model, blobs3, k=1)) is land, "the same key: at once"
        assert runner.cache.computed == 1
    finally:
        runner.shutdown()
    assert not any(t.objectName() == "svmviz-landscape" for t in running_threads())


def test_the_newest_request_wins(qtbot, blobs2):
    runner = LandscapeRunner()
    try:
        model = trained(blobs2)
        old, new = request(model, blobs2, n=31), request(model, blobs2, n=33)
        got = []
        runner.ready.connect(lambda key, land: got.append(key))
        runner.request(old)
        runner.request(new)
        qtbot.waitUntil(lambda: bool(got), timeout=20000)
        qtbot.wait(100)
        assert got == [new.key()], "only the newest request's landscape is shown"
    finally:
        runner.shutdown()


def test_a_request_that_cannot_be_drawn_fails_with_the_reason(qtbot, blobs2):
    runner = LandscapeRunner()
    try:
        model = trained(blobs2)
        r = request(model, blobs2)
        bad = LandscapeRequest(model, blobs2, r.w1, r.w2, k=3)
        with qtbot.waitSignal(runner.failed, timeout=20000) as got:
            runner.request(bad)
        assert "class 4" in got.args[1]
    finally:
        runner.shutdown()


@pytest.mark.parametrize("hold", ["slice", "none"])
def test_the_key_holds_what_is_held(blobs2, hold):
    model = trained(blobs2, bias="free")
    moved = type(model)(**{**model.__dict__, "intercept": model.intercept + 1.0})
    same = request(model, blobs2, hold=hold).key() == request(moved, blobs2, hold=hold).key()
    assert same == (hold == "none"), "b = 0 holds no b: a new b is the same landscape"
