"""A run that does not record every iterate's objective (Solver(record=False)) is the same
run: the same iterates, bit for bit, and the objective computed at the end is the one the
recording run has in its last row."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver

rng = np.random.default_rng(5)
X = rng.normal(size=(60, 2))
TWO = Dataset.from_labels(X, (X[:, 0] + 0.3 * rng.normal(size=60) > 0).astype(int))
THREE = Dataset.from_labels(X, np.digitize(X[:, 0], [-0.4, 0.4]))
TARGET = Dataset.regression(X, X[:, 0] - 0.5 * X[:, 1])
POINTS = Dataset.points(X)

CASES = [
    (dict(loss="squared_hinge"), TWO),
    (dict(loss="logistic", average="last"), TWO),
    (dict(loss="logistic", bias="none"), TWO),
    (dict(), THREE),
    (dict(multiclass="weston_watkins"), THREE),
    (dict(multiclass="ovr", bias="regularized"), THREE),
    (dict(multiclass="softmax"), THREE),
    (dict(problem="nu-svc", nu=0.3), TWO),
    (dict(problem="one-class", nu=0.3), POINTS),
    (dict(problem="epsilon-svr"), TARGET),
    (dict(problem="nu-svr", nu=0.4, algorithm="gd", iterations=300), TARGET),
    (dict(margin="hard"), TWO),  # (its objective is scaled: ½‖w‖² + C Σ ξ)
]


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize(
    "settings, data", CASES, ids=lambda v: str(v) if isinstance(v, dict) else ""
)
def test_not_recording_changes_no_bit(settings, data, kernel):
    config = SolverConfig(kernel=Kernel(kernel), iterations=800, seed=2).replace(**settings)
    lam = 1e-3 if config.margin == "hard" else None
    on = Solver(config).reset(data, lam)
    off = Solver(config, record=False).reset(data, lam)
    on.step(config.iterations)
    off.step(config.iterations)
    a, b = on.model(), off.model()
    for part in ("coef", "dual_coef", "intercept"):
        if getattr(a, part) is not None:
            assert np.array_equal(getattr(a, part), getattr(b, part)), part
    # (a linear binary hinge is screened: its telemetry is nearly free, always kept)
    assert np.all(np.isnan(off.history_["objective"])) != off.settings_.screened
    last = on.history_["objective"][-1]
    assert on.output_objective() == pytest.approx(last, rel=1e-9, abs=1e-12)
    assert b.extra["objective"] == pytest.approx(last, rel=1e-9, abs=1e-12)


def test_the_stopping_rule_checks_the_objective_it_computes():
    config = SolverConfig(loss="logistic", iterations=200_000, tol=1e-3, seed=1)
    on, off = Solver(config).reset(TWO), Solver(config, record=False).reset(TWO)
    while not on.done:
        on.step(10_000)
    while not off.done:
        off.step(10_000)
    assert on.status_ in ("objective", "weights") and off.status_ == on.status_
    assert off.t_ == on.t_ < config.iterations
