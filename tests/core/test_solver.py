"""The steppable solver: determinism, stepping, stopping, telemetry, divergence, Lemma 16.3."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from svmviz.core import _jit
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError, NotSeparableError
from svmviz.core.kernels import Kernel
from svmviz.core.objectives import model_objective
from svmviz.core.solvers import Solver
from svmviz.core.training.reference import exact_optimum


def history(cfg, data, n):
    s = Solver(cfg.replace(iterations=max(n, 1))).reset(data)
    s.step(n)
    return s


def test_seed_reproduces_the_run_and_another_seed_does_not(blobs2):
    cfg = SolverConfig(iterations=3000)
    a, b = history(cfg, blobs2, 3000), history(cfg, blobs2, 3000)
    c = history(cfg.replace(seed=1), blobs2, 3000)
    np.testing.assert_array_equal(a.history_["objective"], b.history_["objective"])
    np.testing.assert_array_equal(a.history_["sampled"], b.history_["sampled"])
    assert not np.array_equal(a.history_["sampled"], c.history_["sampled"])


@pytest.mark.parametrize("sampling", ["uniform", "shuffle"])
@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf")])
def test_stepping_in_pieces_equals_one_run(blobs3, kernel, sampling):
    cfg = SolverConfig(iterations=500, kernel=kernel, sampling=sampling, batch=3)
    whole = history(cfg, blobs3, 500)
    parts = Solver(cfg).reset(blobs3)
    for n in (1, 2, 97, 150, 250):
        parts.step(n)
    assert parts.t_ == 500
    assert parts.status_ == "budget"
    for col in ("objective", "loss", "error", "norm", "violations", "sampled", "violated"):
        np.testing.assert_array_equal(whole.history_[col], parts.history_[col])
    assert parts.step(10) == 0


def test_telemetry_matches_independent_evaluation(blobs3):
    """The O(mK) incremental telemetry equals a from-scratch evaluation of the output model."""
    for avg in ("last", "weighted", "uniform"):
        for bias in ("free", "regularized", "none"):
            for kernel in (Kernel(), Kernel("poly", degree=2)):
                s = history(SolverConfig(average=avg, bias=bias, kernel=kernel), blobs3, 700)
                got = model_objective(s.model(), blobs3.X, blobs3.y)
                h = s.history_
                assert got["objective"] == pytest.approx(h["objective"][-1], rel=1e-9)
                assert got["loss"] == pytest.approx(h["loss"][-1], rel=1e-9, abs=1e-12)
                assert got["error"] == pytest.approx(h["error"][-1], abs=1e-12)
                assert got["norm"] == pytest.approx(h["norm"][-1], rel=1e-9)


def test_records_sampled_examples_and_violations(blobs2):
    s = history(SolverConfig(algorithm="sgd", sampling="shuffle", average="last"), blobs2, 320)
    sampled = s.history_["sampled"][:, 0]
    m = blobs2.X.shape[0]
    assert sorted(sampled[:m]) == list(range(m))  # one shuffled pass visits each once
    assert sorted(sampled[m : 2 * m]) == list(range(m))
    flags = s.history_["violated"][:, 0]
    assert flags.sum() == s.history_["violations"].sum() > 0
    # a flagged step is one where the sampled example had margin < 1 (004, Case II)
    replay = Solver(s.config).reset(blobs2)
    for t in range(50):
        i = sampled[t]
        model = replay.model()
        F = model.decision_function(blobs2.X[i : i + 1])[0]
        margin = (1 if blobs2.y[i] == 1 else -1) * F
        assert flags[t] == (margin < 1)
        replay.step(1)


def test_gd_records_the_whole_batch(blobs2):
    s = history(SolverConfig(algorithm="gd", average="last"), blobs2, 5)
    assert s.history_["sampled"].shape == (5, 0)
    F = Solver(s.config).reset(blobs2).model().decision_function(blobs2.X)
    assert s.history_["violations"][0] == np.sum(np.where(blobs2.y == 1, 1, -1) * F < 1)


def test_stopping_criterion_of_004(blobs2):
    s = Solver(SolverConfig(algorithm="gd", tol=1e-6, iterations=100000)).reset(blobs2)
    while not s.done:
        s.step(1000)
    assert s.status_ in ("objective", "weights")
    assert s.t_ < 100000
    s2 = Solver(SolverConfig(tol=1e-4, iterations=10**6)).reset(blobs2)
    s2.step(10**6)
    assert s2.status_ in ("objective", "weights")
    assert s2.t_ < 10**6


def test_budget_status(blobs2):
    s = history(SolverConfig(iterations=10), blobs2, 10)
    assert s.status_ == "budget"
    assert s.done


def test_divergence_is_detected(blobs2):
    cfg = SolverConfig(algorithm="sgd", schedule="constant", eta=50.0, lam=1.0, iterations=5000)
    s = Solver(cfg).reset(blobs2)
    s.step(5000)
    assert s.status_ == "diverged"
    assert s.t_ < 5000
    assert np.isfinite(s.history_["objective"][:-1]).all()


@pytest.mark.parametrize("case", ["fast", "general", "rbf"])
def test_a_nan_objective_stops_the_compiled_loop(blobs2, case):
    """The divergence guard on the objective (_loop) works in the compiled loop: its fastmath
    flags leave out 'nnan' and 'ninf', under which LLVM may take every value for finite.
    A NaN in the averaged model makes the objective NaN while ‖w_t‖ stays small, so only
    that guard can see it."""
    from svmviz.core import _jit

    assert not {"nnan", "ninf", "fast"} & _jit.FASTMATH
    if _jit.HAVE_NUMBA:
        assert _jit.use_compiled()  # (compiled by the session's fixture)
    kernel = Kernel("rbf") if case == "rbf" else Kernel()
    s = Solver(SolverConfig(kernel=kernel, average="weighted")).reset(blobs2)
    s.fast_ = case == "fast"
    s.step(5)
    (s.state_.Wbar if kernel.is_linear else s.state_.Abar)[:] = np.nan
    s.state_.Sbar[:] = np.nan
    assert s.step(10) == 1
    assert s.status_ == "diverged"
    assert s.t_ == 6


def test_projection_keeps_w_in_the_ball(blobs2):
    cfg = SolverConfig(project=True, average="last", lam=0.05)
    s = history(cfg, blobs2, 2000)
    assert s.history_["norm"].max() <= 1 / np.sqrt(0.05) + 1e-9
    sgd = history(SolverConfig(algorithm="sgd", radius=0.5, average="last"), blobs2, 500)
    assert sgd.history_["norm"].max() <= 0.5 + 1e-12


@pytest.mark.parametrize("average", ["last", "uniform"])
def test_lemma_16_3_kernel_sgd_equals_linear_sgd(blobs2, average):
    """UML Lemma 16.3 (003): SGD with the linear kernel gives the same iterates as SGD on
    the features, for the same sample sequence; with ᾱ, the same averaged output."""
    base = SolverConfig(bias="none", average=average, iterations=400)
    lin = Solver(base).reset(blobs2)
    ker = Solver(base.replace(kernel=Kernel("poly", gamma=1.0, degree=1, coef0=0.0))).reset(blobs2)
    for _ in range(40):
        lin.step(10)
        ker.step(10)
        np.testing.assert_array_equal(lin.history_["sampled"], ker.history_["sampled"])
        w_lin = lin.model().coef[0]
        km = ker.model()
        w_ker = km.dual_coef[0] @ km.support_vectors
        np.testing.assert_allclose(w_ker, w_lin, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(lin.history_["violated"], ker.history_["violated"])


def test_pure_python_path_gives_the_same_numbers(tmp_path, blobs3):
    """The loop run as plain Python (no numba) reproduces the compiled run."""
    script = tmp_path / "run.py"
    script.write_text(
        "import sys, numpy as np\n"
        "from svmviz.core.data import Dataset\n"
        "from svmviz.core.config import SolverConfig\n"
        "from svmviz.core.kernels import Kernel\n"
        "from svmviz.core.solvers import Solver\n"
        "from svmviz.core._jit import HAVE_NUMBA\n"
        "d = np.load(sys.argv[1])\n"
        "data = Dataset(d['X'], d['y'], ('a', 'b', 'c'))\n"
        "out = {}\n"
        "two = d['y'] < 2\n"
        "data2 = Dataset(d['X'][two], d['y'][two], ('a', 'b'))\n"  # binary: screened
        "for name, kernel, dd in (('lin', Kernel(), data), ('rbf', Kernel('rbf'), data),\n"
        "                         ('lin2', Kernel(), data2)):\n"
        "    s = Solver(SolverConfig(iterations=300, kernel=kernel)).reset(dd)\n"
        "    s.step(300)\n"
        "    out[name] = s.history_['objective']\n"
        "np.savez(sys.argv[2], numba=HAVE_NUMBA, **out)\n"
    )
    np.savez(tmp_path / "data.npz", X=blobs3.X, y=blobs3.y)
    results = {}
    # (this tree's svmviz and its numba cache, not an installed copy: the script's folder
    # is first on its path)
    root = str(Path(__file__).parents[2])
    path = os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))
    for mode, env_extra in (("python", {"SVMVIZ_NO_NUMBA": "1"}), ("compiled", {})):
        env = {k: v for k, v in os.environ.items() if k != "SVMVIZ_NO_NUMBA"}
        env.update(env_extra, PYTHONPATH=path)
        out = tmp_path / f"{mode}.npz"
        subprocess.run(
            [sys.executable, str(script), str(tmp_path / "data.npz"), str(out)],
            check=True,
            env=env,
            timeout=600,
        )
        results[mode] = np.load(out, allow_pickle=False)
    assert not results["python"]["numba"]
    assert results["compiled"]["numba"]
    for name in ("lin", "rbf", "lin2"):
        np.testing.assert_allclose(results["python"][name], results["compiled"][name], rtol=1e-9)


def test_hard_margin_on_inseparable_data_says_so(blobs2):
    with pytest.raises(NotSeparableError, match="not separable"):
        exact_optimum(SolverConfig(margin="hard"), blobs2)
    # duplicate points with opposite labels: no kernel separates them
    from svmviz.core.data import Dataset

    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [-1.0, 2.0]])
    data = Dataset.from_labels(X, [0, 1, 0, 1])
    with pytest.raises(NotSeparableError, match="rbf kernel's feature space"):
        exact_optimum(SolverConfig(margin="hard", kernel=Kernel("rbf")), data)


def test_hard_margin_needs_the_exact_lambda(separable):
    with pytest.raises(InputError, match="hard margin"):
        Solver(SolverConfig(margin="hard")).reset(separable)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(lam=-1.0), r"must be a number from 1e-50 to 1e\+06, or 0, not -1.0"),
        (dict(lam=1e-51), r"λ \(lam\) must be a number from 1e-50"),
        (dict(lam=1e7), r"λ \(lam\) must be a number from 1e-50 to 1e\+06"),
        (dict(lam=0.0), "Pegasos needs λ > 0"),
        (dict(iterations=0), "iterations must be a whole number from 1 to 20,000,000, not 0"),
        (dict(iterations=10**9), "iterations must be a whole number from 1 to 20,000,000, not 1,0"),
        (dict(batch=0), "batch size"),
        # a file's texts and true/false are not numbers (a text λ raised a TypeError; a true
        # batch size passed as 1)
        (dict(lam="0.1"), "λ \\(lam\\) must be a number from .*, not '0.1'"),
        (dict(batch=True), "batch size must be a whole number from 1 to 2,147,483,647, not True"),
        (dict(iterations="100"), "iterations must be a whole number"),
        (dict(eta=0.0), "step size"),
        (dict(algorithm="newton"), "algorithm must be one of"),
        (dict(bias="maybe"), "bias must be one of"),
        (dict(radius=-2.0), "radius"),
    ],
)
def test_bad_parameters(kwargs, message):
    with pytest.raises(InputError, match=message):
        SolverConfig(**kwargs)


def test_single_class_is_refused(blobs2):
    from svmviz.core.data import Dataset

    data = Dataset(blobs2.X, np.zeros(len(blobs2.y), dtype=np.int64), ("a", "b"))
    with pytest.raises(InputError, match="two classes"):
        Solver(SolverConfig()).reset(data)


def test_works_in_any_dimension():
    from svmviz.core.data import Dataset

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 7))
    y = (X @ rng.normal(size=7) > 0).astype(int)
    data = Dataset.from_labels(X, y)
    from svmviz.core.fit import train

    result = train(SolverConfig(iterations=30000), data)
    assert result.objective - result.reference.objective <= 0.01 * result.reference.objective
    assert result.model.coef.shape == (1, 7)


def test_corollary_17_2_step_for_lambda_zero(blobs3, blobs2):
    """λ = 0 with a radius B: η = √(B²/(ρ²T)) (000, UML Corollary 17.2), ‖Ψ(x, y)‖ ≤ ρ/2."""
    T, B = 4000, 3.0
    mc = Solver(SolverConfig(algorithm="sgd", lam=0.0, radius=B, iterations=T)).reset(blobs3)
    rho = 2 * np.max(np.linalg.norm(blobs3.X, axis=1))
    assert mc.settings_.eta0 == pytest.approx(np.sqrt(B**2 / (rho**2 * T)))
    binary = Solver(SolverConfig(algorithm="sgd", lam=0.0, radius=B, iterations=T, bias="none"))
    binary.reset(blobs2)
    assert binary.settings_.eta0 == pytest.approx(
        B / (np.max(np.linalg.norm(blobs2.X, axis=1)) * np.sqrt(T))
    )
    binary.step(T)
    assert binary.history_["norm"].max() <= B + 1e-9  # and the iterates stay in the ball (002)


def test_sigmoid_kernel_trains_without_a_reference(blobs2, capsys, tmp_path):
    from svmviz.cli import main
    from svmviz.core.data import write_csv

    p = tmp_path / "d.csv"
    write_csv(p, blobs2)
    assert (
        main(["train", str(p), "--kernel", "sigmoid", "--gamma", "2", "--iterations", "500"]) == 0
    )
    assert (
        "exact optimum: unavailable (no exact optimum: the sigmoid kernel"
        in capsys.readouterr().out
    )


def test_quickselect_finds_the_order_statistic():
    from svmviz.core.solvers._screen import select_in_place

    rng = np.random.default_rng(0)
    for m in (2, 3, 10, 101):
        for _ in range(20):
            a = rng.integers(0, 5, size=m).astype(float)  # many ties
            k = int(rng.integers(0, m))
            expected = np.sort(a)
            b = a.copy()
            assert select_in_place(b, k) == expected[k]
            assert b[:k].max(initial=-np.inf) <= expected[k] <= b[k + 1 :].min(initial=np.inf)


@pytest.mark.parametrize("average", ["last", "weighted"])
@pytest.mark.parametrize("bias", ["free", "regularized", "none"])
@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf")])
def test_training_values_are_the_models_decision_values(blobs3, blobs2, average, bias, kernel):
    for data in (blobs2, blobs3):
        s = history(SolverConfig(average=average, bias=bias, kernel=kernel), data, 300)
        expected = s.model().decision_function(data.X)
        np.testing.assert_allclose(s.training_values(), expected, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf")])
def test_the_last_iterate_model_matches_its_kept_scores(blobs2, kernel):
    s = Solver(SolverConfig(kernel=kernel, iterations=700)).reset(blobs2)
    s.step(700)
    last, avg = s.model(iterate=True), s.model()
    np.testing.assert_allclose(
        last.decision_function(blobs2.X), s.training_values(iterate=True), rtol=1e-8, atol=1e-8
    )
    assert not np.allclose(last.decision_function(blobs2.X), avg.decision_function(blobs2.X))
    assert "objective" not in last.extra
    assert "objective" in avg.extra


@pytest.mark.parametrize("need", [2, 3, 16, 17, 40])
def test_two_nearest_are_the_order_statistics_either_side(need):
    """(up to FEW_NEAREST kept in order in one pass, beyond by a selection; with ties, and
    without room for the first way)"""
    from svmviz.core.solvers._screen import two_nearest

    rng = np.random.default_rng(need)
    for trial in range(200):
        n = int(rng.integers(need, 4 * need + 3))
        values = np.round(rng.normal(size=n), 1 if trial % 2 else 12)
        room = n + need if trial % 3 else n  # (no room: the selection)
        for shift in (need - 1, -(need - 1)):
            buf = np.zeros(room)
            buf[:n] = values
            near, far = two_nearest(buf, n, need, shift)
            ordered = np.sort(values)[::-1] if shift > 0 else np.sort(values)
            assert (near, far) == (ordered[need - 2], ordered[need - 1])


def test_nearest_ranks_are_the_order_statistics_around_the_new_bias():
    """[r_(P), r_(P+1)] from the values nearest the old b, for shifts either way, with
    ties, and whatever window the last search left (too narrow: widened; too wide: fine)."""
    from svmviz.core.solvers._bias import MAX_SHIFT, _nearest_ranks

    rng = np.random.default_rng(4)
    for trial in range(300):
        m = int(rng.integers(5, 400))
        y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
        s = np.round(rng.normal(size=m), 2 if trial % 3 == 0 else 12)  # ties, sometimes
        scale = float(rng.uniform(0.5, 2.0))
        r = np.sort(y - scale * s)
        n_pos = int(np.sum(y > 0))
        if n_pos in (0, m):
            continue
        c = float(rng.choice(r)) + float(rng.normal()) * 0.05
        shift = int(np.sum(r < c)) - n_pos
        if shift == 0 or abs(shift) > MAX_SHIFT:
            continue
        win = np.array([c, 10.0 ** rng.uniform(-8, 2)])
        found, lo, hi = _nearest_ranks(y, s, scale, c, shift, np.empty(m), win)
        assert found  # (the compiled y − scale·s may differ from numpy's in the last bit)
        assert lo == pytest.approx(r[n_pos - 1], rel=1e-14, abs=1e-15)
        assert hi == pytest.approx(r[n_pos], rel=1e-14, abs=1e-15)


@pytest.mark.skipif(not _jit.HAVE_NUMBA, reason="numba is not installed")
def test_a_read_only_target_trains_on_the_loop_compiled_for_a_writable_one():
    """A regression target that is read-only (the session's frozen data, a memory-mapped
    file) is typed as a writable one in the loop: no second compilation of it."""
    from svmviz.core.solvers import _loop

    X = np.random.default_rng(0).normal(size=(20, 2))
    frozen = X[:, 0].copy()
    frozen.flags.writeable = False
    config = SolverConfig(problem="epsilon-svr", kernel=Kernel("rbf"), iterations=2)
    Solver(config).reset(Dataset.regression(X, X[:, 0].copy())).step(2)
    compiled = set(_loop.run.signatures)
    Solver(config).reset(Dataset.regression(X, frozen)).step(2)
    assert set(_loop.run.signatures) == compiled
