"""ν bounds the share of the points beyond the margin from above and the share of support
vectors from below at the exact optimum, for every ν problem, and the optimum's shares
(svmviz.core.training.nu_bounds) are counted on its own f; an averaged iterate need not keep
them."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.training.nu_bounds import nu_shares
from svmviz.core.training.reference import exact_optimum

RNG = np.random.default_rng(3)
X = RNG.normal(size=(50, 2))
BINARY = Dataset.from_labels(X, (X[:, 0] + 0.6 * RNG.normal(size=50) > 0).astype(int))
POINTS = Dataset.points(X)
CURVE = Dataset.regression(X[:, :1], np.sin(2 * X[:, 0]) + 0.2 * RNG.normal(size=50))
DATA = {"nu-svc": BINARY, "one-class": POINTS, "nu-svr": CURVE}


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=0.5)], ids=["linear", "rbf"])
@pytest.mark.parametrize("problem", DATA)
@pytest.mark.parametrize("nu", [0.13, 0.3, 0.55])
def test_the_optimum_keeps_both_bounds(problem, kernel, nu):
    data = DATA[problem]
    ref = exact_optimum(SolverConfig(problem=problem, nu=nu, kernel=kernel), data)
    shares = ref.nu_shares
    assert shares is not None and shares.nu == nu
    assert shares.beyond <= nu <= shares.support, shares
    # some support vectors sit on the margin itself, between the two shares
    assert shares.support > shares.beyond
    assert shares == nu_shares(ref.model, data)  # the optimum's own f, counted once


def test_only_nu_problems_have_shares():
    for problem, data in (("svc", BINARY), ("epsilon-svr", CURVE)):
        assert exact_optimum(SolverConfig(problem=problem), data).nu_shares is None


def test_an_averaged_iterate_may_break_a_bound_the_optimum_keeps():
    """One-class at ν = 0.3 on the scenario's points, trained to its budget: the output
    w̄ has more outliers than ν, the optimum fewer (the status once said ν bounds both)."""
    from svmviz.core.files.scenario import list_scenarios, read_scenario
    from svmviz.core.training.setup import prepare

    s = read_scenario(next(p for p in list_scenarios() if p.stem.startswith("12")))
    data = Dataset.points(s.data.X)
    solver, ref, _ = prepare(s.config.replace(nu=0.3), data)
    while not solver.done:
        solver.step(s.config.iterations)
    shown = solver.model().decision_function(data.X)
    assert np.mean(shown < 0) > 0.3 >= ref.nu_shares.beyond
    assert ref.nu_shares.holds()
