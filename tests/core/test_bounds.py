import math

import numpy as np
import pytest

from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.bounds import evaluate


def test_bounds_by_hand():
    X = np.array([[3.0, 4.0], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])
    data = Dataset.from_labels(X, [0, 1, 0, 1])
    b = evaluate(data, Kernel(), "none", norm=2.0, optimum_norm=1.5, lam=0.1, T=100, epsilon=0.1)
    assert b.trace == pytest.approx(25 + 1 + 1 + 0)
    assert b.R == pytest.approx(5.0)
    assert b.rademacher == pytest.approx(2.0 / 2.0 * math.sqrt(27 / 4))  # (B/√n)·√(trK/n)
    assert b.T_needed == math.ceil(1.5**2 * 5.0**2 / 0.1**2)  # B²ρ²/ε²
    assert b.eta == pytest.approx(math.sqrt(1.5**2 / (25 * b.T_needed)))
    assert b.pegasos == pytest.approx(36 * (1 + math.log(100)) / (2 * 0.1 * 100))
    rbf = evaluate(data, Kernel("rbf"), "regularized", 1.0, None, 0.0, 10, 0.1)
    assert rbf.trace == pytest.approx(4 * 2.0)  # k(x, x) = 1, plus the bias feature
    assert rbf.T_needed is None
    assert rbf.pegasos is None
    multi = evaluate(Dataset.from_labels(X, [0, 1, 2, 1]), Kernel(), "none", 1, 1, 0.1, 5, 1)
    assert multi.rho == pytest.approx(10.0)  # 2R for the multiclass Ψ


def test_each_loss_bounds_the_results_by_its_own_subgradients():
    """Corollary 17.2's ρ and Pegasos' G = 1 + ρ come from the loss module's
    subgradient_bound: R/ν for one-class; the squared hinge has none, and neither result
    applies to it."""
    from svmviz.core.config import SolverConfig
    from svmviz.core.solvers import losses

    X = np.array([[3.0, 4.0], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])
    data = Dataset.points(X)
    config = SolverConfig(problem="one-class", nu=0.25)
    module = losses.module_for(config, 0)
    b = evaluate(
        data,
        Kernel(),
        "none",
        1.0,
        1.5,
        1.0,
        100,
        0.1,
        lambda R: module.subgradient_bound(R, 0, config),
    )
    assert b.rho == pytest.approx(5.0 / 0.25)
    assert b.T_needed == math.ceil(1.5**2 * 20.0**2 / 0.1**2)
    assert b.pegasos == pytest.approx(21**2 * (1 + math.log(100)) / (2 * 1.0 * 100))
    squared = losses.MODULES["squared_hinge"]
    labelled = Dataset.from_labels(X, [0, 1, 0, 1])
    b = evaluate(
        labelled,
        Kernel(),
        "none",
        1.0,
        1.5,
        0.1,
        100,
        0.1,
        lambda R: squared.subgradient_bound(R, 2, SolverConfig(loss="squared_hinge")),
    )
    assert b.rho is None and b.T_needed is None and b.pegasos is None
