"""The two exact methods agree, and the reference is a true lower bound."""

from dataclasses import replace

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.solvers.losses.crammer_singer import hinge_qp
from svmviz.core.solvers.losses.hinge import _libsvm
from svmviz.core.training.reference import exact_optimum


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=0.8), Kernel("poly", degree=2)])
def test_libsvm_and_interior_point_agree(moons, kernel):
    from svmviz.core.objectives import model_objective

    cfg = SolverConfig(kernel=kernel, lam=0.02)
    ref = exact_optimum(cfg, moons)
    # the interior point QP for linear models (p + 1 weights), libsvm for kernels
    assert ref.method == ("clarabel" if kernel.is_linear else "libsvm")
    qp = model_objective(hinge_qp(cfg, moons, 1 - np.eye(2), hard=False)[0], moons.X, moons.y)
    svm = model_objective(_libsvm(cfg, moons)[0], moons.X, moons.y)
    assert qp["objective"] == pytest.approx(svm["objective"], rel=2e-6)
    assert ref.objective == pytest.approx(svm["objective"], rel=2e-6)


def test_no_solver_iterate_is_below_the_optimum(blobs3):
    from svmviz.core.solvers import Solver

    cfg = SolverConfig(algorithm="gd", bias="free", iterations=3000)
    ref = exact_optimum(cfg, blobs3)
    s = Solver(cfg).reset(blobs3)
    s.step(3000)
    assert s.history_["objective"].min() >= ref.objective - 1e-8


def test_multiclass_free_bias_is_centred(blobs3):
    ref = exact_optimum(SolverConfig(bias="free"), blobs3)
    assert abs(ref.model.intercept.sum()) < 1e-6


def test_indefinite_sigmoid_kernel_has_no_optimum(moons):
    with pytest.raises(InputError, match="not positive semidefinite"):
        exact_optimum(SolverConfig(kernel=Kernel("sigmoid", gamma=2.0, coef0=1.0)), moons)


def test_lambda_zero_is_a_linear_program(separable):
    ref = exact_optimum(SolverConfig(lam=0.0, algorithm="sgd"), separable)
    assert ref.objective == pytest.approx(0.0, abs=1e-8)


def test_hard_margin_reference_margin(separable):
    ref = exact_optimum(SolverConfig(margin="hard", bias="free"), separable)
    # the same maximum margin from libsvm with a huge C
    from sklearn.svm import SVC

    svc = SVC(kernel="linear", C=1e8, tol=1e-10).fit(separable.X, separable.y)
    assert ref.margin == pytest.approx(1 / np.linalg.norm(svc.coef_), rel=1e-5)
    assert ref.lam_hard > 0


def test_one_dimensional_data():
    X = np.array([[-2.0], [-1.0], [1.0], [2.5]])
    data = Dataset.from_labels(X, [0, 0, 1, 1])
    ref = exact_optimum(SolverConfig(margin="hard"), data)
    assert ref.margin == pytest.approx(1.0, rel=1e-6)


def test_the_optimum_is_cached_per_loss_problem_nu_epsilon_and_targets(moons, blobs3):
    """The window caches each exact optimum by ``problem_key``: two problems with one key
    must have one optimum. On the same points, every loss and problem (and each ν, ε and
    target) had the hinge's key: a switch of the loss kept the old F*."""
    from svmviz.core.training.setup import problem_key

    targets = Dataset.regression(moons.X, moons.X[:, 0])
    configs = [(SolverConfig(loss=loss), moons) for loss in ("hinge", "squared_hinge", "logistic")]
    configs += [
        (SolverConfig(multiclass=m), blobs3)
        for m in ("crammer_singer", "weston_watkins", "ovr", "softmax")
    ]
    configs += [
        (SolverConfig(problem="nu-svc", nu=0.3), moons),
        (SolverConfig(problem="nu-svc", nu=0.5), moons),
        (SolverConfig(problem="one-class", nu=0.3), moons),
        (SolverConfig(problem="epsilon-svr", epsilon=0.1), targets),
        (SolverConfig(problem="epsilon-svr", epsilon=0.2), targets),
        (
            SolverConfig(problem="epsilon-svr", epsilon=0.1),
            replace(targets, target=-targets.target),
        ),
        (SolverConfig(problem="nu-svr", nu=0.3), targets),
    ]
    keys = {problem_key(config, data) for config, data in configs}
    assert len(keys) == len(configs)
    # what the optimum does not depend on shares the key
    algorithm = SolverConfig(loss="logistic", algorithm="sgd", iterations=10, seed=3)
    assert problem_key(algorithm, moons) == problem_key(SolverConfig(loss="logistic"), moons)
