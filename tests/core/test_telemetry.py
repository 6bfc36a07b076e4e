"""The history is bounded in memory: beyond its budget the later rows are thinned, the
first ones and the newest kept, each row numbered by its iteration."""

import numpy as np

from svmviz.core import telemetry
from svmviz.core.config import SolverConfig
from svmviz.core.solvers import Solver
from svmviz.core.telemetry import History, history_csv, log_samples


def small_budget(monkeypatch, dense=100, rows=1024):
    monkeypatch.setattr(telemetry, "DENSE", dense)
    monkeypatch.setattr(telemetry, "MEMORY_BYTES", rows * (8 * 6 + 9))


def test_a_long_run_keeps_its_first_rows_its_newest_and_a_bounded_number(blobs2, monkeypatch):
    small_budget(monkeypatch)
    cfg = SolverConfig(iterations=5000, seed=2)
    full = Solver(cfg).reset(blobs2)
    monkeypatch.setattr(telemetry, "MEMORY_BYTES", 10**9)
    full = Solver(cfg).reset(blobs2)  # every row kept
    full.step(5000)
    small_budget(monkeypatch)
    s = Solver(cfg).reset(blobs2)
    for _ in range(50):  # in steps, as the window takes them
        s.step(100)
    h = s.history_
    assert len(full.history_) == 5000
    assert len(h) <= h.max_rows
    t = h["t"]
    assert np.all(np.diff(t) > 0)
    assert t[-1] == 5000 == s.t_
    np.testing.assert_array_equal(t[:100], np.arange(1, 101))  # the first rows: all
    for c in ("objective", "loss", "error", "norm", "violations"):  # rows are iterations
        np.testing.assert_array_equal(h[c], full.history_[c][t - 1])
    np.testing.assert_array_equal(h["sampled"], full.history_["sampled"][t - 1])
    # one long step thins as it goes too
    s2 = Solver(cfg).reset(blobs2)
    s2.step(5000)
    assert len(s2.history_) <= s2.history_.max_rows
    assert s2.history_["t"][-1] == 5000


def test_views_handed_out_do_not_change_when_the_history_thins(monkeypatch):
    small_budget(monkeypatch, dense=10, rows=1024)
    h = History(batch=1)
    views = []
    for k in range(300):
        cols, sampled, _ = h.reserve(5)
        cols["objective"][:] = np.arange(5 * k, 5 * k + 5)
        sampled[:, 0] = 0
        h.commit(5)
        views.append((h["objective"], h["objective"].copy()))
    for view, copy in views:
        np.testing.assert_array_equal(view, copy)
    assert h["t"][-1] == 1500
    assert h["objective"][-1] == 1499
    assert len(h) <= h.max_rows < 1500
    np.testing.assert_array_equal(h["objective"], h["t"] - 1)  # rows still match their t


def test_history_csv_numbers_thinned_rows_by_their_iteration():
    cols = {c: np.array([1.0, 2.0, 3.0]) for c in telemetry.COLUMNS}
    cols["t"] = np.array([1, 2, 8])
    lines = history_csv(cols, start=11).splitlines()
    assert [line.split(",")[0] for line in lines[1:]] == ["11", "12", "18"]


def test_log_samples_follow_the_iterations_not_the_rows():
    t = np.concatenate([np.arange(1, 1001), np.arange(1002, 2_000_001, 2000)])
    pick = log_samples(t)
    assert pick[0] == 0
    assert pick[-1] == len(t) - 1
    assert np.all(np.diff(pick) > 0)
    # evenly spread on log t: as many picks in [10, 100) as in [100 000, 1 000 000)
    lt = np.log10(t[pick])
    a, b = np.sum((lt >= 1) & (lt < 2)), np.sum((lt >= 5) & (lt < 6))
    assert b > 0
    assert abs(a - b) <= 0.5 * max(a, b)


def test_held_samples_draw_only_rows_with_the_exact_objective():
    t = np.arange(1, 100_001)
    objective = np.full(len(t), np.nan)
    held = (t <= 16) | (t % 997 == 0) | (t == t[-1])
    objective[held] = 1.0 / t[held]
    pick = telemetry.held_samples(t, objective)
    assert np.isfinite(objective[pick]).all()
    assert pick[-1] == len(t) - 1 and len(pick) > 90  # (the last row, and every held row)
    full = np.ones(len(t))
    np.testing.assert_array_equal(telemetry.held_samples(t, full), log_samples(t))


def test_held_rows_scan_only_the_rows_new_since_the_last_redraw():
    """A growing history's curve finds its exact rows among the new rows only (the rows
    handed out are never written again), and picks the rows held_samples picks."""
    h = History(batch=1)
    held = telemetry.HeldRows()
    for k in range(40):
        cols, sampled, _ = h.reserve(50)
        cols["objective"][:] = np.nan
        cols["objective"][-1] = 1.0 / (k + 1)  # (a frame's exact row)
        sampled[:, 0] = 0
        h.commit(50)
        t, objective = h["t"], h["objective"]
        np.testing.assert_array_equal(
            held.samples(t, objective), telemetry.held_samples(t, objective)
        )
    h._cols["objective"][49] = np.nan  # (never done: a row handed out is not scanned again)
    t, objective = h["t"], h["objective"]
    assert 49 in held.samples(t, objective) and 49 not in telemetry.held_samples(t, objective)


def test_log_samples_of_integer_iterations_pick_the_rows_float_targets_pick():
    """(Integer targets: searchsorted no longer casts all of t to float; the same rows.)"""
    rng = np.random.default_rng(4)
    for n in (500, 20_000):
        t = np.cumsum(rng.integers(1, 9, n))
        targets = np.geomspace(t[0], t[-1], telemetry.CURVE_POINTS)
        idx = np.unique(np.minimum(np.searchsorted(t, targets), n - 1))
        idx = idx if idx[-1] == n - 1 else np.append(idx, n - 1)
        np.testing.assert_array_equal(log_samples(t), idx)
