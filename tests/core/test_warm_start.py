"""Warm start: an edited problem goes on from the previous model and iteration."""

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver


def test_linear_warm_start_keeps_w_and_t_and_the_budget_counts_from_there(blobs2):
    cfg = SolverConfig(iterations=3000)
    a = Solver(cfg).reset(blobs2)
    a.step(3000)
    state = a.warm_state()
    X = np.vstack([blobs2.X, [[0.0, 0.0]]])
    moved = Dataset(X, np.append(blobs2.y, 1), blobs2.classes)
    b = Solver(cfg).reset(moved)
    assert b.warm_from(state)
    assert b.t_ == b.t0_ == 3000
    np.testing.assert_allclose(b.model().coef, a.model().coef)
    f0 = b.training_values()
    np.testing.assert_allclose(f0[:-1], a.training_values(), atol=1e-12)
    b.step(10)
    assert b.t_ == 3010
    assert len(b.history_) == 10
    # Pegasos' step at t = 3001 is small: the model moves a little, it is not wiped out
    assert np.linalg.norm(b.model().coef - a.model().coef) < 0.1 * np.linalg.norm(a.model().coef)
    b.step(10**6)
    assert b.t_ == 6000
    assert b.status_ == "budget"  # T more iterations after the warm start


def test_kernel_warm_start_keeps_alpha_of_unchanged_points(moons):
    cfg = SolverConfig(kernel=Kernel("rbf", gamma=1.0), iterations=2000)
    a = Solver(cfg).reset(moons)
    a.step(2000)
    alpha = a.training_alpha()
    # drop the first point, move the second
    X = moons.X[1:].copy()
    X[0] += 0.5
    edited = Dataset(X, moons.y[1:], moons.classes)
    b = Solver(cfg).reset(edited)
    assert b.warm_from(a.warm_state())
    got = b.training_alpha()
    assert got[0] == 0.0  # the moved point starts again from α = 0
    np.testing.assert_allclose(got[1:], alpha[2:])
    # the kept scores are those of the carried coefficients
    np.testing.assert_allclose(b.state_.S, b.state_.A @ b.problem_.G)


def test_warm_start_refused_when_the_problem_changes_shape(blobs2, blobs3):
    a = Solver(SolverConfig(iterations=100)).reset(blobs2)
    a.step(100)
    state = a.warm_state()
    b = Solver(SolverConfig(iterations=100)).reset(blobs3)  # other classes
    assert not b.warm_from(state)
    assert b.t_ == 0
    assert not b.state_.W.any()
    c = Solver(SolverConfig(kernel=Kernel("rbf"), iterations=100)).reset(blobs2)
    assert not c.warm_from(state)
    assert c.t_ == 0
