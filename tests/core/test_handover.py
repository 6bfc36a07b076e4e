"""No wait for the compiler: while the compiled loops are not ready, the solver runs the
same loops as plain Python, and hands over to the compiled ones when they are, from the
same state (so the run gives the numbers a compiled-only run gives)."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from svmviz.core import _jit
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver, _loop

# the loops compiled first: a test here swaps a loop of _loop for a counting wrapper, and
# what it swaps must be the compiled function (a placeholder put back would call itself)
pytestmark = [
    pytest.mark.skipif(not _jit.HAVE_NUMBA, reason="numba is not installed"),
    pytest.mark.usefixtures("compiled_loops"),
]

COLUMNS = ("objective", "loss", "error", "norm", "violations", "sampled", "t")


@pytest.fixture
def not_ready(monkeypatch):
    """The compiled loops "not ready" (nothing is compiled: the flag is forced); the
    background compilations asked for are recorded, not started."""
    asked = []
    monkeypatch.setattr(_jit, "python_meanwhile", True)  # as in the window
    monkeypatch.setattr(_jit, "force_ready", False)
    monkeypatch.setattr(_jit, "compile_in_background", lambda warm_up, *_: asked.append(warm_up))
    return asked


def counting(module, name, monkeypatch):
    calls = []
    func = getattr(module, name)

    def counted(*args):
        calls.append(args[1])  # n, the iterations of the call
        return func(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.mark.parametrize("case", ["linear", "rbf", "multiclass"])
def test_a_run_handed_over_midway_is_the_compiled_run_bit_for_bit(
    monkeypatch, not_ready, blobs2, blobs3, case
):
    """The twin and the compiled loop agree up to rounding, not bit for bit (fastmath), so
    the hand-over replays the run from its start on the compiled loop: the run, and every
    replay of it, is the compiled run exactly."""
    data = blobs3 if case == "multiclass" else blobs2
    kernel = Kernel("rbf") if case == "rbf" else Kernel()
    config = SolverConfig(iterations=600, kernel=kernel)
    name = "run_linear_binary" if case == "linear" else "run"
    python = counting(_jit.python_version(_loop), name, monkeypatch)
    compiled = counting(_loop, name, monkeypatch)

    s = Solver(config).reset(data)
    assert Solver.preparing()
    assert s.step(300) == 300
    assert sum(python) == 300
    assert not compiled  # plain Python, in short calls
    assert max(python) <= 64
    assert not_ready  # the compilation was asked for
    monkeypatch.setattr(_jit, "force_ready", True)  # ready: the compiled loop takes over
    assert not Solver.preparing()
    assert s.step(300) == 300
    assert sum(python) == 300
    assert sum(compiled) == 600  # the 300 replayed, then 300 more
    assert s.t_ == 600

    ref = Solver(config).reset(data)
    ref.step(600)
    assert s.status_ == ref.status_ == "budget"
    for c in COLUMNS:
        np.testing.assert_array_equal(s.history_[c], ref.history_[c])
    np.testing.assert_array_equal(s.training_values(), ref.training_values())


def test_a_run_that_stopped_in_python_is_replayed_compiled_when_asked_to_go_on(
    monkeypatch, not_ready, blobs2
):
    config = SolverConfig(iterations=200, kernel=Kernel("rbf"))
    s = Solver(config).reset(blobs2)
    s.step(200)
    assert s.status_ == "budget"
    monkeypatch.setattr(_jit, "force_ready", True)
    assert s.step(10) == 0  # (at its budget: no iteration more)
    ref = Solver(config).reset(blobs2)
    ref.step(200)
    np.testing.assert_array_equal(s.history_["objective"], ref.history_["objective"])
    np.testing.assert_array_equal(s.model().dual_coef, ref.model().dual_coef)


def test_a_warm_started_run_is_replayed_from_its_warm_start(monkeypatch, not_ready, blobs2):
    config = SolverConfig(iterations=400, kernel=Kernel("rbf"))
    first = Solver(config).reset(blobs2)
    monkeypatch.setattr(_jit, "force_ready", True)
    first.step(100)
    warm = first.warm_state()
    monkeypatch.setattr(_jit, "force_ready", False)
    s = Solver(config).reset(blobs2)
    assert s.warm_from(warm)
    s.step(50)
    monkeypatch.setattr(_jit, "force_ready", True)
    s.step(50)
    ref = Solver(config).reset(blobs2)
    ref.warm_from(warm)
    ref.step(100)
    assert s.t_ == ref.t_ == 200
    np.testing.assert_array_equal(s.history_["objective"], ref.history_["objective"])


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf"), Kernel("poly", degree=2)])
def test_where_a_run_is_cut_into_calls_does_not_change_its_bits(blobs3, kernel):
    """The timeline replays a run in other chunks than Play took it in (a kernel's αᵀKα
    was recomputed at each call: 11 of 40 random runs differed in the last digits)."""
    config = SolverConfig(iterations=300, kernel=kernel, algorithm="gd", multiclass="softmax")
    a = Solver(config).reset(blobs3)
    a.step(300)
    b = Solver(config).reset(blobs3)
    for chunk in [1, 7, 64, 3, 100, 125]:
        b.step(chunk)
    assert b.t_ == 300
    for c in COLUMNS:
        np.testing.assert_array_equal(a.history_[c], b.history_[c])


def test_a_diverging_run_in_python_warns_nothing(not_ready, blobs2):
    """The divergence is the status's to say (the window printed numpy's overflow
    warnings on stderr, from the twin of the loop and of the screens)."""
    import warnings

    for kernel in (Kernel(), Kernel("rbf")):
        config = SolverConfig(algorithm="sgd", schedule="constant", eta=1e150, kernel=kernel)
        s = Solver(config).reset(blobs2)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            s.step(100)
        assert s.status_ == "diverged"


def test_the_python_twin_calls_only_python(not_ready):
    """The twin module's functions call the twins of the others (compiled code would wait
    for the compiler): none of its loop functions is a numba dispatcher or placeholder."""
    from svmviz.core.solvers import _screen, _stats, rules

    twin = _jit.python_version(_loop)
    assert twin is not _loop
    assert twin.rules is _jit.python_version(rules) is rules.python()
    assert twin._stats is _jit.python_version(_stats)
    assert twin._bias._screen is _jit.python_version(_screen)
    for mod, name, _ in _jit._functions:
        f = getattr(_jit.python_version(__import__(mod, fromlist=["x"])), name)
        assert type(f).__name__ == "function", (mod, name)


def test_a_kernel_matrix_does_not_wait_for_the_compiler(not_ready):
    from svmviz.core import _gram

    X = np.array([[0.0, 0.0], [1.0, 2.0]])
    assert _gram.rbf(X, X, 1.0) is None  # numpy's formula, in Kernel.gram
    np.testing.assert_allclose(Kernel("rbf").gram(X, X), np.exp(-np.array([[0, 5], [5, 0.0]])))


def test_warm_up_marks_the_loops_ready():
    Solver.warm_up()  # (compiled by the fixture compiled_loops: at once)
    assert _jit.ready()
    assert not Solver.preparing()
    assert _jit.use_compiled()


def test_outside_the_window_a_solver_waits_for_the_compiler(monkeypatch):
    """The command line and scripts compile first (no thread is left compiling when they
    exit: LLVM aborted the process at its end)."""
    monkeypatch.setattr(_jit, "python_meanwhile", False)
    waited = []
    monkeypatch.setattr(_jit, "compile_now", lambda warm_up, *_: waited.append(warm_up))
    monkeypatch.setattr(_jit, "compile_in_background", lambda *_: pytest.fail("thread"))
    monkeypatch.setattr(_jit, "use_compiled", lambda: False)
    assert Solver._loops() is _loop
    assert len(waited) == 1


def test_a_softmax_run_does_not_depend_on_where_its_arrays_lie():
    """The softmax step summed e^(f_k) in a loop that also stored them: the compiler
    vectorized it or not by how far apart its small arrays happened to be allocated, so
    the same seed gave runs that differed in the last bits, within one process."""
    X, y = make_blobs(1000, n_features=30, centers=4, random_state=0, cluster_std=5)
    data = Dataset.from_labels(X, y)
    config = SolverConfig(multiclass="softmax", iterations=20_000, seed=1)
    runs, junk = [], []
    for r in range(4):
        junk.append(np.empty(37 * (r + 1)))  # (moves the next allocations)
        solver = Solver(config).reset(data)
        solver.step(config.iterations)
        runs.append(np.concatenate([solver.model().coef.ravel(), solver.model().intercept]))
    assert all(np.array_equal(run, runs[0]) for run in runs[1:])
