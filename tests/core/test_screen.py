"""Screening (svmviz.core.solvers._screen): the exact hinge statistics of linear binary
models from the few points whose side can have changed."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.solvers import Solver, _screen
from svmviz.core.training.reference import exact_optimum

COLUMNS = ("objective", "loss", "error", "norm")


def brute(Z, u):
    """(Σ hinge, #errors, #(r < c)) at u, point by point."""
    g = u @ Z
    y = Z[-1]
    hinge = np.maximum(0.0, 1.0 - g).sum()
    errors = np.sum((g < 0) | ((g == 0) & (y > 0)))
    below = np.sum(((y > 0) & (g > 1)) | ((y < 0) & (g < 1)))
    return hinge, errors, below


def run(cfg, data, n, screened, lam_hard=None, fast=True):
    s = Solver(cfg.replace(iterations=n)).reset(data, lam_hard=lam_hard)
    s.settings_ = s.settings_._replace(screened=screened)
    s.fast_ = fast
    s.step(n // 3)
    s.step(n - n // 3)  # two calls: the screens carry over between them
    return s


def same_run(a, b, rtol, atol):
    """The same steps (violations, samples), telemetry and model, to rounding."""
    for c in ("violations", "violated", "sampled"):
        np.testing.assert_array_equal(a.history_[c], b.history_[c])
    for c in COLUMNS:
        np.testing.assert_allclose(a.history_[c], b.history_[c], rtol=rtol, atol=atol)
    np.testing.assert_allclose(a.model().coef, b.model().coef, rtol=rtol)
    np.testing.assert_allclose(a.state_.b, b.state_.b, rtol=rtol, atol=atol)


def test_evaluate_equals_brute_force_near_and_far_from_the_anchor():
    rng = np.random.default_rng(0)
    m = 400
    X = rng.normal(size=(m, 2))
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
    Z, zn = _screen.features(np.ascontiguousarray(X.T), y)
    u0 = np.array([0.5, -0.25, 0.125])
    P, S, st = (a[0] for a in _screen.allocate(3, m, 1))
    buckets = np.empty(m, dtype=np.int64)
    assert np.allclose(_screen.anchor(Z, zn, y, u0, P, S, st, buckets), brute(Z, u0))
    for scale in (0.0, 1e-12, 1e-6, 1e-3, 0.1, 10.0):
        for _ in range(20):
            u = u0 + scale * rng.normal(size=3)
            got = _screen.evaluate(u, P, S, st)
            if got[0] < 0:  # the rule asks for a new anchor
                got = _screen.anchor(Z, zn, y, u, P, S, st, buckets)
            want = brute(Z, u)
            assert got[0] == pytest.approx(want[0], rel=1e-12, abs=1e-12)
            assert got[1:] == want[1:]


def test_ties_on_the_thresholds_are_counted_as_the_loop_counts_them():
    """Points with g exactly 0 (an error only for y > 0) and exactly 1 (not active; below
    only for y > 0 when g > 1, for y < 0 when g < 1), at the anchor and after a move that
    keeps them there."""
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [-1.0, 0.0], [2.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    Z, zn = _screen.features(np.ascontiguousarray(X.T), y)
    P, S, st = (a[0] for a in _screen.allocate(3, 5, 1))
    buckets = np.empty(5, dtype=np.int64)
    u = np.array([1.0, 0.0, 0.0])  # g = (0, 0, 1, 1, 2)
    assert _screen.anchor(Z, zn, y, u, P, S, st, buckets) == brute(Z, u)
    assert brute(Z, u) == (2.0, 1, 2)  # below: the y < 0 point at g = 0, and g = 2
    u2 = np.array([1.0, 3.0, 0.0])  # the same g for the points with x₂ = 0
    got = _screen.evaluate(u2, P, S, st)
    assert got == pytest.approx(brute(Z, u2), abs=1e-12)


@pytest.mark.parametrize("bias", ["none", "free", "regularized"])
@pytest.mark.parametrize("average", ["last", "uniform", "weighted"])
def test_screened_run_equals_the_full_evaluation(blobs2, bias, average):
    """Same iterates (violations), same telemetry to rounding, in every bias and averaging
    mode; the screen's state is kept across calls of step."""
    cfg = SolverConfig(algorithm="pegasos", lam=0.01, bias=bias, average=average, seed=3)
    a, b = run(cfg, blobs2, 6000, True), run(cfg, blobs2, 6000, False)
    np.testing.assert_array_equal(a.history_["violations"], b.history_["violations"])
    for c in COLUMNS:
        np.testing.assert_allclose(a.history_[c], b.history_[c], rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(a.training_values(), b.training_values(), rtol=1e-12)
    # the loop written for linear binary models (run_linear_binary) is the general loop,
    # operation for operation: the same steps, and the same numbers but for the order in
    # which fastmath lets the compiler add them
    same_run(a, run(cfg, blobs2, 6000, True, fast=False), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("algorithm, batch", [("gd", 1), ("pegasos", 10), ("sgd", 25)])
@pytest.mark.parametrize("bias", ["none", "free"])
def test_a_batch_in_the_linear_binary_loop_is_the_general_loop_s(blobs2, algorithm, batch, bias):
    """GD's full batch and mini-batches run in run_linear_binary: the same steps and
    telemetry as the general loop (and as unscreened), but for the order of the batch's sums."""
    cfg = SolverConfig(algorithm=algorithm, batch=batch, lam=0.01, bias=bias, seed=3)
    n = 900 if algorithm == "gd" else 3000
    a, g = run(cfg, blobs2, n, True), run(cfg, blobs2, n, True, fast=False)
    u = run(cfg, blobs2, n, False)
    assert a.history_["violations"].max() > 1  # (batches, not single examples)
    for other in (g, u):
        same_run(a, other, rtol=1e-12, atol=1e-13)


def test_screened_sgd_hard_margin_and_projection_equal_the_full_evaluation(separable):
    cases = [
        (SolverConfig(algorithm="sgd", lam=0.001, schedule="constant", eta=0.05), None),
        (SolverConfig(algorithm="sgd", lam=0.0, radius=2.0, schedule="auto"), None),
        (SolverConfig(margin="hard"), exact_optimum(SolverConfig(margin="hard"), separable)),
    ]
    for cfg, ref in cases:
        lam_hard = None if ref is None else ref.lam_hard
        a = run(cfg, separable, 3000, True, lam_hard)
        b = run(cfg, separable, 3000, False, lam_hard)
        g = run(cfg, separable, 3000, True, lam_hard, fast=False)
        for c in COLUMNS:
            np.testing.assert_allclose(a.history_[c], b.history_[c], rtol=1e-12, atol=1e-13)
            np.testing.assert_allclose(a.history_[c], g.history_[c], rtol=1e-13, atol=1e-15)


def test_divergence_is_still_detected_when_screened(blobs2):
    cfg = SolverConfig(algorithm="sgd", lam=1.0, schedule="constant", eta=5.0, bias="none")
    s = run(cfg, blobs2, 2000, True)
    assert s.status_ == "diverged"
    assert len(s.history_) == s.t_ < 2000


def test_screening_looks_at_few_points_once_the_model_settles():
    """After the first iterations, far fewer than m points a step are computed one by one
    (that is where the speed comes from): on 2,000 points, under m/20 a step on average
    over the second 100,000 iterations, anchors included."""
    rng = np.random.default_rng(1)
    m = 2000
    X = rng.normal(size=(m, 2))
    y = (X[:, 0] + 0.5 * X[:, 1] + 0.4 * rng.normal(size=m) > 0).astype(int)
    s = Solver(SolverConfig(lam=0.01, bias="none", iterations=200_000))
    s.reset(Dataset.from_labels(X, y)).step(100_000)
    st = s.screens_[2][0]
    q = st.size - 7
    before = st[q + _screen.EXPLICIT] + m * st[q + _screen.ANCHORS]
    s.step(100_000)
    after = st[q + _screen.EXPLICIT] + m * st[q + _screen.ANCHORS]
    assert (after - before) / 100_000 < m / 20


def test_bias_interval_is_the_pair_of_order_statistics_around_the_new_bias():
    """At u = (w, c) with P + s values of r = y − w·φ below c, the interval found from the
    screened points is [r_(P), r_(P+1)] of all points, or it says it cannot tell."""
    rng = np.random.default_rng(5)
    m = 600
    X = rng.normal(size=(m, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=m) > 0, 1.0, -1.0)
    n_pos = int(np.sum(y > 0))
    Z, zn = _screen.features(np.ascontiguousarray(X.T), y)
    P, S, st = (a[0] for a in _screen.allocate(3, m, 1))
    buckets = np.empty(m, dtype=np.int64)
    w = np.array([1.5, 0.2])
    r = np.sort(y - X @ w)
    c0 = 0.5 * (r[n_pos - 1] + r[n_pos])
    _screen.anchor(Z, zn, y, np.array([*w, c0]), P, S, st, buckets)
    found_some = 0
    for _ in range(200):
        w2 = w + 0.03 * rng.normal(size=2)
        u = np.array([*w2, c0])
        shift = int(brute(Z, u)[2]) - n_pos
        if shift == 0:
            continue
        st[3 + _screen.WORK] = 0.0  # keep the anchor: this test is about the interval
        found, lo, hi = _screen.bias_interval(u, P, S, st, shift, np.empty(m))
        r2 = np.sort(y - X @ w2)
        if found:
            found_some += 1
            assert lo == pytest.approx(r2[n_pos - 1], abs=1e-12)
            assert hi == pytest.approx(r2[n_pos], abs=1e-12)
    assert found_some >= 20
