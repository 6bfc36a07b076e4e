"""A step whose numbers overflow stops the run as diverged, in the compiled loop and in its
plain-Python twin, for every loss, batch and seed: no numpy or numba routine sees its
infinities (numba's linear algebra raises on them)."""

import contextlib
import itertools
import warnings

import numpy as np
import pytest

from svmviz.core import _jit
from svmviz.core.config import BINARY_LOSSES, MULTICLASS_LOSSES, SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.limits import BOUNDS
from svmviz.core.solvers import Solver
from svmviz.core.solvers.losses import softmax

LOOPS = ["compiled", "python"] if _jit.HAVE_NUMBA else ["python"]
PROBLEMS = (
    [dict(loss=name) for name in BINARY_LOSSES]
    + [dict(multiclass=name) for name in MULTICLASS_LOSSES]
    + [dict(problem=p, nu=0.3) for p in ("nu-svc", "one-class", "nu-svr")]
    + [dict(problem="epsilon-svr")]
)
# one example a step, a mini-batch, and GD's full batch
BATCHES = [dict(algorithm="sgd", batch=1), dict(algorithm="sgd", batch=4), dict(algorithm="gd")]
ETA_MAX = BOUNDS["eta"].high  # the largest step size a file, the dock or the command line takes


def _three_classes():
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(c, 0.7, (20, 2)) for c in [(0, 0), (3, 0), (0, 3)]])
    return Dataset.from_labels(X, np.repeat([0, 1, 2], 20))


THREE = _three_classes()
TWO = Dataset.from_labels(THREE.X[:40], THREE.y[:40])
REGRESSION = Dataset.regression(THREE.X[:, :1].copy(), THREE.X[:, 1].copy())


@contextlib.contextmanager
def loops(which):
    """The compiled loops, or their plain-Python twin (as in the window before numba is
    ready: the flag forced, nothing compiled in the background)."""
    if which == "compiled":
        yield
        assert _jit.use_compiled()
        return
    saved = _jit.python_meanwhile, _jit.force_ready, _jit.compile_in_background
    _jit.python_meanwhile, _jit.force_ready = True, False
    _jit.compile_in_background = lambda *args: None
    try:
        yield
    finally:
        _jit.python_meanwhile, _jit.force_ready, _jit.compile_in_background = saved


def _run(config, data):
    """The run of ``config`` on ``data``: no exception and no warning, whatever it does."""
    solver = Solver(config).reset(data)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        solver.step(config.iterations)
    return solver


def _diverges(config, data):
    solver = _run(config, data)
    assert solver.status_ == "diverged", config
    assert solver.status_text().startswith("diverged: lower η₀")


@pytest.mark.parametrize("which", LOOPS)
@pytest.mark.parametrize("seed", range(6))
def test_softmax_with_the_largest_step_stops_as_diverged_at_any_seed(which, seed):
    """`svmviz train --multiclass softmax --solver sgd --eta 1e308` ended, at seed 1, in
    numba's LinAlgError from the bias's Newton step; at seed 0 it said "diverged". 1e308 is
    now beyond η₀'s range (refused in one line); the largest step taken diverges cleanly."""
    with pytest.raises(InputError, match=r"η₀ \(eta\) must be a number in \(0, 1e\+150\]"):
        SolverConfig(multiclass="softmax", algorithm="sgd", eta=1e308)
    config = SolverConfig(
        multiclass="softmax",
        algorithm="sgd",
        eta=ETA_MAX,
        schedule="constant",
        iterations=3000,
        seed=seed,
    )
    with loops(which):
        _diverges(config, THREE)


@pytest.mark.parametrize("which", LOOPS)
def test_every_loss_and_batch_trains_or_stops_as_diverged_with_huge_steps(which):
    kernels = [Kernel(), Kernel("rbf")] if which == "compiled" else [Kernel()]
    with loops(which):
        for problem, batch, kernel, eta, seed in itertools.product(
            PROBLEMS, BATCHES, kernels, [ETA_MAX, 1e100], range(2)
        ):
            name = problem.get("problem", "svc")
            data = REGRESSION if name.endswith("svr") else THREE if "multiclass" in problem else TWO
            config = SolverConfig(
                **problem,
                **batch,
                kernel=kernel,
                eta=eta,
                schedule="constant",
                iterations=200,
                seed=seed,
            )
            solver = _run(config, data)
            if solver.status_ != "diverged":  # (a step too large need not overflow)
                assert np.isfinite(solver.history_["objective"]).all(), config


def test_the_softmax_bias_search_leaves_infinite_scores_alone():
    """The Newton step's solve is never handed an infinite or NaN matrix (the loop does not
    search the bias of a diverged step either: this is the search's own guard)."""
    y = np.array([0, 1, 2, 0], dtype=np.int64)
    F = np.array([[np.inf, 1.0, 0.0, 2.0], [0.0, -np.inf, 1.0, 0.0], [1.0, 0.0, np.nan, 0.0]])
    b = np.zeros(3)
    with np.errstate(all="ignore"):
        softmax.profile_bias(y, F, 1.0, b)
    assert b.shape == (3,)
