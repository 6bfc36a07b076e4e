"""The race offered by View ▸ Race without runs (svmviz.core.training.race_setup.default_race), what
trains alike, and the runs' short names for a narrow legend."""

import itertools

import numpy as np
import pytest

from svmviz.core.config import ALGORITHMS, MARGINS, PROBLEMS, SCHEDULES, SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.solvers import Solver
from svmviz.core.training.race_setup import (
    default_race,
    legend_label,
    race_configs,
    short_label,
    trains_alike,
)

rng = np.random.default_rng(3)
X = rng.normal(size=(40, 2))
DATA = Dataset.from_labels(X, (X[:, 0] + 0.3 * rng.normal(size=40) > 0).astype(int))


def panel_configs():
    """Every problem, algorithm, margin and step the solver panel offers, at λ = 0 and λ > 0."""
    for problem, algorithm, margin, schedule, lam in itertools.product(
        PROBLEMS, ALGORITHMS, MARGINS, SCHEDULES, (0.0, 0.01)
    ):
        try:
            yield SolverConfig(
                problem=problem, algorithm=algorithm, margin=margin, schedule=schedule, lam=lam
            )
        except InputError:
            continue  # (a choice the panel refuses: Pegasos with λ = 0, a hard ε-SVR)


def test_the_default_races_every_soft_run_and_says_why_a_hard_one_cannot():
    configs = list(panel_configs())
    assert {c.problem for c in configs} == set(PROBLEMS) and len(configs) > 100
    for base in configs:
        if base.margin == "hard":
            with pytest.raises(InputError, match="run 2: a hard margin runs alone"):
                default_race(base)
            continue
        race = default_race(base)
        (run,) = race_configs(base, race)  # (accepted as the session would take it)
        assert len(race) == 1 and not trains_alike(base, run), base


@pytest.mark.parametrize(
    "base, race",
    [
        (SolverConfig(), [{"algorithm": "sgd", "schedule": "inv_sqrt_t"}]),  # plain SGD
        (SolverConfig(algorithm="sgd", schedule="inv_t"), [{"algorithm": "pegasos"}]),
        (SolverConfig(algorithm="sgd", lam=0.0), [{"algorithm": "gd"}]),  # (no Pegasos)
        (SolverConfig(algorithm="gd", lam=0.0), [{"algorithm": "sgd"}]),
        (SolverConfig(algorithm="pegasos", schedule="inv_t"), [{"algorithm": "sgd"}]),
    ],
)
def test_the_default_is_the_first_of_pegasos_sgd_gd_that_trains_differently(base, race):
    assert default_race(base) == race


def run(config, t=200):
    solver = Solver(config.replace(iterations=t)).reset(DATA)
    solver.step(t)
    return solver.model().coef


def test_trains_alike_is_what_training_does():
    pegasos = SolverConfig(seed=2)
    sgd_auto = pegasos.replace(algorithm="sgd", eta=5.0)  # (auto at λ > 0 reads no η₀)
    assert trains_alike(pegasos, sgd_auto)
    np.testing.assert_array_equal(run(pegasos), run(sgd_auto))
    plain = sgd_auto.replace(schedule="inv_sqrt_t")
    gd = pegasos.replace(algorithm="gd", seed=9)
    assert not trains_alike(pegasos, plain) and not trains_alike(pegasos, gd)
    assert not np.array_equal(run(pegasos), run(plain))
    assert trains_alike(gd, gd.replace(seed=1, batch=4))  # (full-batch: nothing sampled)


def test_a_short_label_names_the_first_change_the_algorithm_first():
    base = SolverConfig()
    plain = base.replace(algorithm="sgd", schedule="inv_sqrt_t", lam=1.0)
    assert legend_label(base, plain) == "λ = 1, SGD, η ∝ 1/√t"
    assert short_label(base, plain) == "SGD, …"
    assert short_label(base, base.replace(average="last")) == "last iterate"
    assert short_label(base, base.replace(average="uniform")) == "averaged"
    assert short_label(base, base.replace(algorithm="gd")) == "GD"
    assert short_label(base, base.replace(loss="squared_hinge")) == "squared hinge"
    assert short_label(base, base) == "same settings"
