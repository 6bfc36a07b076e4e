"""Property tests (hypothesis) on the engine: any finite data set (two classes or more; a
real target for regression) and valid parameters of any problem and loss train without an
exception; the telemetry stays finite, or the run stops with the status "diverged"; no
objective is below the certified bound on the exact optimum beyond rounding; a seed
reproduces its run."""

import contextlib
import itertools
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from svmviz.core import _jit
from svmviz.core.config import (
    BINARY_LOSSES,
    MULTICLASS_LOSSES,
    NU_SCALED,
    PROBLEMS,
    SolverConfig,
)
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver
from svmviz.core.telemetry import OFFSETS
from svmviz.core.training.reference import exact_optimum

COLUMNS = ("objective", "loss", "error", "norm")


@st.composite
def datasets(draw, max_classes=4, regression=False):
    m = draw(st.integers(2, 40))
    k = draw(st.integers(2, max_classes))
    scale = draw(st.sampled_from([1e-6, 1.0, 1e3]))
    X = draw(st.lists(st.tuples(st.floats(-5, 5), st.floats(-5, 5)), min_size=m, max_size=m))
    X = np.array(X, dtype=float) * scale
    if regression:
        target = draw(st.lists(st.floats(-5, 5), min_size=m, max_size=m))
        return Dataset.regression(X, np.array(target) * draw(st.sampled_from([1e-3, 1.0, 1e3])))
    y = draw(st.lists(st.integers(0, k - 1), min_size=m, max_size=m))
    y[0], y[1] = 0, 1  # at least two classes
    return Dataset.from_labels(X, y)


@st.composite
def problems(draw):
    """The problem fields of a SolverConfig: any problem, loss, ε and ν."""
    problem = draw(st.sampled_from(PROBLEMS))
    fields = dict(problem=problem)
    if problem == "svc":
        fields["loss"] = draw(st.sampled_from(BINARY_LOSSES))
        fields["multiclass"] = draw(st.sampled_from(MULTICLASS_LOSSES))
    if problem == "epsilon-svr":
        fields["epsilon"] = draw(st.sampled_from([0.0, 0.1, 1.0]))
    if problem in ("nu-svc", "nu-svr", "one-class"):
        fields["nu"] = draw(st.sampled_from([0.1, 0.35, 0.5, 1.0]))
    return fields


def data_for(draw, config, max_classes=4):
    """A data set for the problem of ``config`` (ν-SVC: binary; with a free bias, a feasible
    ν)."""
    if config.kind == "regression":
        return draw(datasets(regression=True))
    if config.problem == "nu-svc":
        data = draw(datasets(max_classes=2))
        m = len(data.y)
        top = 2 * min(int(np.sum(data.y == 1)), int(np.sum(data.y != 1))) / m
        assume(config.bias != "free" or config.nu <= top)
        return data
    return draw(datasets(max_classes=max_classes))


@st.composite
def configs(draw):
    algorithm = draw(st.sampled_from(["pegasos", "sgd", "gd"]))
    kernel = draw(st.sampled_from([Kernel(), Kernel("rbf", gamma=0.5), Kernel("poly", degree=2)]))
    return SolverConfig(
        **draw(problems()),
        algorithm=algorithm,
        kernel=kernel,
        lam=draw(st.sampled_from([1e-3, 1e-2, 0.1, 1.0])),
        bias=draw(st.sampled_from(["free", "regularized", "none"])),
        average=draw(st.sampled_from(["last", "uniform", "weighted"])),
        batch=draw(st.integers(1, 5)),
        iterations=draw(st.integers(1, 300)),
        seed=draw(st.integers(0, 2**16)),
    )


# SVMVIZ_EXAMPLES=1000 for a longer search than the default run's
EXAMPLES = int(os.environ.get("SVMVIZ_EXAMPLES", 60))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@contextlib.contextmanager
def compiled_loops_not_ready():
    """As on an empty numba cache in the window: solvers run the plain-Python twin of the
    loops meanwhile (the flag forced; nothing is compiled in the background)."""
    saved = _jit.python_meanwhile, _jit.force_ready, _jit.compile_in_background
    _jit.python_meanwhile, _jit.force_ready = True, False
    _jit.compile_in_background = lambda *args: None
    try:
        yield
    finally:
        _jit.python_meanwhile, _jit.force_ready, _jit.compile_in_background = saved


@SETTINGS
@given(config=configs(), draw=st.data())
def test_any_valid_problem_trains_finite_or_says_diverged_and_reproduces(config, draw):
    """Run ``a`` begins as on an empty numba cache (plain Python for its first iterations,
    then the compiled loops are ready); run ``b``, the same seed, is compiled from the start
    and stepped in other chunks (as the timeline replays it): the same bits."""
    data = data_for(draw.draw, config)
    a = Solver(config).reset(data)
    with compiled_loops_not_ready():
        a.step(draw.draw(st.integers(0, min(config.iterations, 64)), label="in Python"))
    a.step(config.iterations)
    h = a.history_
    assert len(h) == a.t_ > 0
    columns = (*COLUMNS, *(c for c in OFFSETS if c in h.names))  # ρ, ε where learned
    finite = all(np.all(np.isfinite(h[c])) for c in columns)
    assert finite or a.status_ == "diverged"
    b = Solver(config).reset(data)  # the same seed: the same run
    chunks = draw.draw(st.lists(st.integers(1, 100), min_size=1, max_size=5), label="chunks")
    for chunk in itertools.cycle(chunks):
        if b.step(chunk) == 0:
            break
    assert (a.status_, a.t_) == (b.status_, b.t_)
    for c in (*columns, "sampled", "violated"):
        np.testing.assert_array_equal(h[c], b.history_[c])


def rounding(ref, data, config, history) -> float:
    """What double precision cannot resolve: the objective is a sum of kernel terms, whose
    rounding is a few ε of their magnitudes (the reference's Σ|a|·max|K|), and the solver
    keeps its decision values by updates, which keep the rounding of the largest values
    they passed through (ε t max F_s): an iterate at 7e15 cannot come back to 0.9 with
    more than ~1 exact digit."""
    eps = np.finfo(float).eps
    X = np.asarray(data.X, dtype=float)
    kappa = float(np.abs(config.kernel.gram(X, X)).max())
    model = ref.model
    a = np.abs(model.dual_coef if model.coef is None else model.coef).sum()
    reference = 16 * eps * (a * kappa + config.lam * a * a * kappa)
    visited = np.abs(history[np.isfinite(history)]).max(initial=0.0)
    # ν-SVC and one-class are solved on the kernel scaled to 1 and scaled back (their
    # objective is homogeneous): the solver's tolerance scales with max |K|
    homogeneous = 1e-9 * kappa if config.problem in NU_SCALED else 0.0
    # (the interior point's dual objective itself is rounded to ~1e-9 relative: ν-SVR on
    # targets of 1e3 gave a bound 1.5e-9 above the solver's exact value)
    return (
        1e-8 * max(1.0, abs(ref.objective))
        + reference
        + homogeneous
        + 4 * eps * len(history) * visited
    )


@SETTINGS
@given(config=configs(), draw=st.data())
def test_no_objective_is_below_the_exact_optimum(config, draw):
    data = data_for(draw.draw, config, max_classes=3)
    ref = exact_optimum(config, data)  # PSD kernels, soft margin: it exists
    s = Solver(config).reset(data)
    s.step(config.iterations)
    obj = s.history_["objective"]
    tol = rounding(ref, data, config, obj)
    # the reference certifies itself: a dual bound within 1e-7 (libsvm polished, or the QP)
    assert ref.lower <= ref.objective <= ref.lower + 1e-7 * max(1.0, abs(ref.objective)) + tol
    assert obj[np.isfinite(obj)].min(initial=np.inf) >= ref.lower - tol


def test_a_badly_scaled_kernel_gets_the_exact_optimum():
    """A degree-2 polynomial kernel on coordinates up to 4e3 (kernel values ~1e14): libsvm's
    single-precision kernel cannot certify an optimum there (it stops above the solver's own
    objective at w = 0), so the QP answers."""
    X = np.array(
        [
            [0, -842.9],
            [0, 1850.1],
            [124.5, 4202.7],
            [-706.2, 2174.6],
            [1164.1, 0],
            [0, 2118.1],
            [0, 1065.3],
            [1e-6, 0],
            [-3546.9, 2118.1],
            [-2454.5, 0],
            [-999.99, 3300.9],
            [-771.4, 0],
            [0, 4000],
        ]
    )
    y = [0, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 1]
    data = Dataset.from_labels(X, y)
    config = SolverConfig(
        lam=1e-3, kernel=Kernel("poly", degree=2), algorithm="sgd", iterations=3, seed=110
    )
    ref = exact_optimum(config, data)
    assert ref.method == "clarabel"
    assert ref.objective < 0.62
    assert ref.objective - ref.lower < 1e-7 * ref.objective
    s = Solver(config).reset(data)
    s.step(3)
    assert s.history_["objective"].min() >= ref.lower


@pytest.mark.parametrize(
    "X, y",
    [  # found by the property test: the QP stopped ("InsufficientProgress") on F of 1e7
        (
            [[2000, 3000], [0, 0], [3500, 0], [0, 0], [0, 1000], [2000, 0], [-1000, 0]],
            [0, 1, 1, 0, 2, 0, 0],
        ),
        ([[0, 1e3], [1e-2, 1e3]], [0, 1]),  # a kernel matrix of 1e12, rank 2 by 1e-10
    ],
)
def test_the_qp_solves_badly_scaled_kernels(X, y):
    data = Dataset.from_labels(np.array(X, dtype=float), y)
    config = SolverConfig(lam=1e-3, kernel=Kernel("poly", degree=2), iterations=300)
    ref = exact_optimum(config, data)
    assert ref.method == "clarabel"
    assert np.isfinite(ref.objective)
    s = Solver(config).reset(data)
    s.step(300)
    tol = rounding(ref, data, config, s.history_["objective"])
    assert ref.objective - ref.lower <= 1e-7 * max(1.0, ref.objective) + tol
