"""Every loss and problem of solvers/losses, with every algorithm, kernel (linear, rbf) and
bias mode that applies, ends within 1% of its exact optimum with default settings (1e-3
absolute where the optimum is near 0); its ρ and ε are those of the optimum; the compiled
loss equals the numpy definition. (The hinge and Crammer–Singer: test_convergence.)"""

import numpy as np
import pytest
from sklearn.datasets import make_blobs, make_moons

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.fit import train
from svmviz.core.kernels import Kernel
from svmviz.core.objectives import model_objective
from svmviz.core.problems import DECLARED
from svmviz.core.solvers import losses
from svmviz.core.solvers.losses._binary import offsets as newton_offsets


def _standard(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


def _binary():
    X, y = make_moons(60, noise=0.3, random_state=1)
    return Dataset.from_labels(_standard(X), y)


def _multiclass():
    X, y = make_blobs(60, centers=3, random_state=2, cluster_std=1.8)
    return Dataset.from_labels(_standard(X), y)


def _regression():
    rng = np.random.default_rng(3)
    X = rng.uniform(-2, 2, (60, 2))
    return Dataset.regression(X, np.sin(X[:, 0]) + 0.5 * X[:, 1] + 0.1 * rng.normal(size=60))


def _one_class():
    X, y = make_blobs(60, centers=[[2.0, 1.5]], random_state=4, cluster_std=0.7)
    return Dataset.from_labels(X, np.zeros(60, dtype=int) + (np.arange(60) % 2))


DATA = {
    "binary": _binary(),
    "multiclass": _multiclass(),
    "regression": _regression(),
    "one-class": _one_class(),
}
# (config fields, the data they train on) of every loss and problem of the registry but
# the hinge and Crammer–Singer (test_convergence's)
PROBLEMS = {
    name: ({declared.option: name}, declared.kind)
    for name, declared in DECLARED.items()
    if name not in ("hinge", "crammer_singer")
}
# the smooth binary losses: their free bias by Newton's method (losses._binary's offsets)
SMOOTH = [name for name, module in losses.MODULES.items() if module.offsets is newton_offsets]
KERNELS = {"linear": Kernel(), "rbf": Kernel("rbf", gamma=1.0)}
CASES = [
    (name, kernel, algorithm, bias)
    for name in PROBLEMS
    for kernel in KERNELS
    for algorithm in ("gd", "sgd", "pegasos")
    for bias in (("free",) if name == "one-class" else ("free", "regularized", "none"))
]


def objective_of(model, data):
    return model_objective(model, data.X, data.y, data.target)["objective"]


@pytest.mark.parametrize(("name", "kernel", "algorithm", "bias"), CASES)
def test_every_problem_ends_near_its_exact_optimum(name, kernel, algorithm, bias):
    fields, kind = PROBLEMS[name]
    data = DATA[kind]
    config = SolverConfig(algorithm=algorithm, bias=bias, kernel=KERNELS[kernel], **fields)
    result = train(config, data)
    ref = result.reference
    got = result.objective
    scale = max(abs(ref.objective), 0.1)
    assert got >= ref.lower - 1e-7 * scale, "below the certified bound"
    assert got - ref.objective <= 0.01 * scale, (got, ref.objective)
    # the recorded objective is the objective of the model the solver returns
    assert objective_of(result.model, data) == pytest.approx(got, rel=1e-9, abs=1e-12)
    # and ρ, ε are the optimum's (the objective is flat near it: a loose match)
    for name_ in ("rho", "epsilon"):
        want = getattr(ref.model, name_)
        if want is not None and name_ in getattr(losses.MODULES[name], "OFFSETS", ()):
            have = getattr(result.model, name_)
            assert have == pytest.approx(want, rel=0.1, abs=0.02 * max(1.0, abs(want)))


@pytest.mark.parametrize("name", list(PROBLEMS))
def test_the_compiled_loss_is_the_numpy_definition(name):
    """The telemetry's objective, from the compiled totals, at a model mid-run equals the
    numpy objective (objectives.model_objective) of the model the solver returns."""
    from svmviz.core.solvers import Solver

    fields, kind = PROBLEMS[name]
    data = DATA[kind]
    for kernel in KERNELS.values():
        solver = Solver(SolverConfig(kernel=kernel, iterations=300, **fields)).reset(data)
        solver.step(300)
        got = float(solver.history_["objective"][-1])
        want = objective_of(solver.model(), data)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("name", list(PROBLEMS))
def test_the_step_inspector_applies_the_loss_the_loop_ran(name):
    """step_and_explain finds, with the loss module's own rule, the examples the loop found
    with a term in the step (full batch: all of them; the loop counts them)."""
    from svmviz.core.lesson.explain import step_and_explain
    from svmviz.core.solvers import Solver

    fields, kind = PROBLEMS[name]
    data = DATA[kind]
    for kernel in KERNELS.values():
        solver = Solver(SolverConfig(kernel=kernel, algorithm="gd", **fields)).reset(data)
        solver.step(7)
        record = step_and_explain(solver)
        assert record.violated.sum() == solver.history_["violations"][-1]
        assert record.margins.shape == (len(data.X),)


@pytest.mark.parametrize("loss", SMOOTH)
@pytest.mark.parametrize("shift", [[4.0, -2.5], [40.0, -25.0]])
def test_a_smooth_loss_finds_its_free_bias_far_from_the_origin(loss, shift):
    """Data far from the origin: the first Pegasos steps give scores in the hundreds, where
    the logistic loss has no curvature; the safeguarded Newton still finds the free bias:
    at every step the loss's derivative in b is 0 for the iterate's w."""
    from svmviz.core.solvers import Solver

    X, y = make_moons(60, noise=0.3, random_state=1)
    data = Dataset.from_labels(X * 3 + shift, y)
    module = losses.MODULES[loss]
    solver = Solver(SolverConfig(loss=loss, average="last")).reset(data)
    s = np.where(data.y == 1, 1.0, -1.0)
    for t in (8, 16, 24, 32, 48, 64):  # (the iterations a linear model's offsets are set)
        solver.step(t - solver.t_)
        z = s * solver.training_values(iterate=True)
        slope = s * np.array([module.dloss(v) for v in z])  # ∂ℓ/∂f = y ℓ′(y f)
        assert abs(slope.sum()) <= 1e-9 * len(z) * max(1.0, np.abs(slope).max())


def test_nu_svc_without_a_free_bias_takes_any_nu():
    """ν ≤ 2·min(m₊, m₋)/m binds only with a free bias (ρ ± b each need νm/2 scores)."""
    data = DATA["binary"]
    m, positives = len(data.y), int(np.sum(data.y == 1))
    keep = np.r_[np.flatnonzero(data.y == 0), np.flatnonzero(data.y == 1)[: positives // 3]]
    few = Dataset(data.X[keep], data.y[keep], data.classes)
    nu = 0.9
    assert nu > 2 * min(np.sum(few.y == 1), np.sum(few.y == 0)) / len(few.y)
    with pytest.raises(InputError, match="infeasible for ν-SVC"):
        train(SolverConfig(problem="nu-svc", nu=nu), few)
    result = train(SolverConfig(problem="nu-svc", nu=nu, bias="none"), few)
    ref = result.reference
    assert result.objective - ref.objective <= 0.01 * max(abs(ref.objective), 0.1)
    assert m > len(few.y)


def test_the_softmax_exponentials_are_numpy_s_to_an_ulp(compiled_loops):
    """The compiled polynomial of the softmax's exponentials is within an ulp of numpy's
    exp, 0 where that is below 3.3e-308, 1 at the top, NaN where the scores are; its
    plain-Python twin is numpy's exp."""
    from svmviz.core import _jit
    from svmviz.core.solvers.losses import softmax

    rng = np.random.default_rng(5)
    x = np.r_[
        rng.uniform(-1, 0, 3000),
        rng.uniform(-40, 0, 3000),
        rng.uniform(-745, 0, 3000),
        [0.0, -0.0, -1e-300, -707.99, -708.0, -708.01, -1e300, -np.inf, np.nan],
    ]
    x = np.r_[x, np.zeros(-len(x) % 3)].reshape(3, -1)
    top = rng.normal(size=x.shape[1]) * 30
    truth = np.exp((x + top) - top)
    for module in (softmax, _jit.python_version(softmax)):
        E = x + top
        module._exponentiate(E, top, np.empty_like(E))
        assert np.array_equal(np.isnan(E), np.isnan(x))
        tiny = truth <= 3.3e-308
        if module is softmax:
            assert np.all(E[tiny] == 0.0)
        else:  # numpy's exp itself
            assert np.array_equal(E[~np.isnan(x)], truth[~np.isnan(x)])
        within = np.abs(E - truth) <= np.spacing(truth)
        assert np.all(within[~tiny & ~np.isnan(x)])
        assert np.all(E[x == 0.0] == 1.0)


@pytest.mark.parametrize("zero_one", [True, False])
@pytest.mark.parametrize("name", ["crammer_singer", "weston_watkins", "ovr", "softmax"])
def test_a_multiclass_loss_sums_its_telemetry_as_its_examples_values(
    compiled_loops, name, zero_one
):
    """The telemetry summed a class at a time (compiled, and its plain-Python twin) is the
    sum of the loss's value at each example: the loss to rounding, the errors exactly (the
    first of tied classes is predicted; scores with ties), with the 0-1 cost matrix and
    another."""
    from svmviz.core import _jit
    from svmviz.core.objectives import zero_one_cost

    module = losses.MODULES[name]
    rng = np.random.default_rng(7)
    K, m = 4, 500
    cost = zero_one_cost(K) * (1.0 if zero_one else rng.uniform(0.5, 2.0, size=(K, K)))
    loss = module.params(SolverConfig(multiclass=name), cost)
    assert getattr(loss, "zero_one", zero_one) == zero_one
    y = rng.integers(0, K, size=m)
    F = np.round(rng.normal(size=(K, m)), 1)  # (ties within an example)
    scale, b, off = 2.0, np.array([0.0, 0.5, -0.5, 0.0]), np.zeros(2)
    values = [module.value(loss, scale * F[:, i] + b, y[i], 0.0, off) for i in range(m)]
    want = sum(v for v, _ in values), sum(e for _, e in values)
    assert 0 < want[1] < m
    compiled = _jit.compile_plain(module.totals, inline=False)
    twin = _jit.python_version(module).totals
    for totals in (compiled, twin):
        total, wrong = totals(loss, y, np.zeros(m), F, scale, b, off)
        assert total == pytest.approx(want[0], rel=1e-12)
        assert wrong == want[1]
