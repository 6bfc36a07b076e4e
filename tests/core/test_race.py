"""A race: runs stepped together on the same samples, each equal to its run alone, with
its path in weight space and a legend of what differs."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver
from svmviz.core.training.race import MAX_PATH, Path, Race, differences

rng = np.random.default_rng(4)
X = rng.normal(size=(80, 2))
DATA = Dataset.from_labels(X, (X[:, 0] + 0.3 * rng.normal(size=80) > 0).astype(int))
BASE = SolverConfig(iterations=2000, seed=5)
CONFIGS = [
    BASE,
    BASE.replace(algorithm="sgd", schedule="inv_sqrt_t", lam=0.0),
    BASE.replace(average="last"),
    BASE.replace(loss="logistic"),
]


def alone(config, t):
    solver = Solver(config).reset(DATA)
    solver.step(t)
    return solver


def test_each_run_equals_its_run_alone_on_the_same_samples():
    race = Race(CONFIGS, DATA)
    for _ in range(7):
        race.step(150)
    assert race.sample_groups() == [[0, 1, 2, 3]]
    assert race.same_samples()
    for config, solver in zip(CONFIGS, race.solvers, strict=True):
        solo = alone(config, 7 * 150)
        assert np.array_equal(solver.model().coef, solo.model().coef)
        assert np.array_equal(solver.model().intercept, solo.model().intercept)
        assert np.array_equal(solver.history_["sampled"], solo.history_["sampled"])


def test_the_path_is_the_iterates():
    race = Race(CONFIGS[:2], DATA)
    for _ in range(3):
        race.step(100)
    path = race.paths[0]
    assert path.t == [0, 100, 200, 300]
    for t, w, w_bar in zip(path.t, path.iterate, path.output, strict=True):
        solo = alone(CONFIGS[0], t)
        assert np.array_equal(w, solo.iterate()[0])
        assert np.array_equal(w_bar, solo.model().coef)


def test_a_seed_apart_is_another_sequence_and_gd_samples_nothing():
    race = Race([BASE, BASE.replace(seed=6), BASE.replace(algorithm="gd")], DATA)
    race.step(50)
    assert race.sample_groups() == []
    assert race.same_samples()  # (nothing to compare)
    a, b = (s.history_["sampled"] for s in race.solvers[:2])
    assert not np.array_equal(a, b)


def test_the_legend_names_what_differs():
    assert differences(CONFIGS[2:]) == [
        "loss hinge, average last",
        "loss logistic, average weighted",
    ]
    rbf = BASE.replace(kernel=Kernel("rbf", gamma=2.0))
    assert differences([BASE, rbf]) == ["kernel linear, gamma 1", "kernel rbf, gamma 2"]
    assert differences([BASE, BASE]) == ["run 1", "run 2"]


def test_a_path_is_thinned_and_keeps_its_newest_point():
    path = Path()
    for t in range(MAX_PATH + 1):
        path.add(t, np.zeros((1, 2)), np.zeros((1, 2)))
    assert len(path.t) <= MAX_PATH // 2 + 2 and path.t[-1] == MAX_PATH and path.t[0] == 0


def test_refusals():
    with pytest.raises(InputError, match="2 to 4 runs"):
        Race([BASE], DATA)
    with pytest.raises(InputError, match="2 to 4 runs"):
        Race([BASE] * 5, DATA)
    with pytest.raises(InputError, match="one kind"):
        Race([BASE, BASE.replace(problem="one-class")], DATA)
