"""The race scenarios show what their captions say: each is raced as the window races it
(core.race on the scenario's points, runs 2… from its "race"), to its budget, and the
caption's claims are checked by their numbers, each run against the optimum of its own
problem, with room to spare (every run is seeded). Core only."""

import math

import numpy as np
import pytest

from svmviz.core.files.scenario import Scenario, list_scenarios, read_scenario
from svmviz.core.pictures.margins import margin_lines
from svmviz.core.training.race import Race
from svmviz.core.training.race_setup import race_configs
from svmviz.core.training.setup import reference_or_reason


def scenario(number: str) -> Scenario:
    return read_scenario(next(p for p in list_scenarios() if p.stem.startswith(number)))


class Raced:
    """A scenario's race run to its budget: per run its solver and F − F*."""

    def __init__(self, s: Scenario):
        assert s.race and "race" in s.view, "a race scenario turns View ▸ Race on"
        self.configs = [s.config, *race_configs(s.config, s.race)]
        self.race = Race(self.configs, s.data)
        while not self.race.done:
            self.race.step(s.config.iterations)
        assert self.race.same_samples()
        self.data = s.data
        self.gaps = []
        for config, solver in zip(self.configs, self.race.solvers, strict=True):
            reference, reason = reference_or_reason(config, s.data)
            assert reference is not None, reason
            self.gaps.append(solver.history_["objective"] - reference.objective)

    def near(self, run: int, t: int) -> float:
        """Run ``run``'s F − F* around t: the geometric mean over t … 2t (the level its
        curve is drawn at there)."""
        rows = self._rows(run, t, 2 * t)
        return float(np.exp(np.mean(np.log(np.maximum(self.gaps[run][rows], 1e-15)))))

    def spread(self, run: int, t: int) -> float:
        """The ratio of the largest to the smallest F − F* from t on."""
        gap = self.gaps[run][self._rows(run, t, math.inf)]
        return float(gap.max() / np.maximum(gap.min(), 1e-300))

    def _rows(self, run, lo, hi):
        t = self.race.solvers[run].history_["t"]
        return (t >= lo) & (t <= hi)

    def model(self, run: int):
        return self.race.solvers[run].model()

    def margins(self, run: int) -> np.ndarray:
        y = np.where(self.data.y == 1, 1.0, -1.0)
        return y * self.model(run).decision_function(self.data.X)


def test_07_is_a_race_of_plain_sgd_and_pegasos():
    s = scenario("07")
    (pegasos,) = race_configs(s.config, s.race)
    assert pegasos == s.config.replace(algorithm="pegasos")  # (test_scenario_claims: the rest)
    assert s.config.eta == pytest.approx(1 / s.config.lam)
    raced = Raced(s)
    for t in (1000, 10000):
        assert raced.near(1, t) * 10 < raced.near(0, t), t


def test_08_is_a_race_of_gd_and_sgd():
    s = scenario("08")
    (sgd,) = race_configs(s.config, s.race)
    assert s.config.algorithm == "gd" and sgd == s.config.replace(algorithm="sgd")
    raced = Raced(s)
    m = len(s.data.X)
    t = raced.race.solvers[0].history_["t"]
    assert raced.gaps[1][-1] * 10 < raced.gaps[0][t == s.config.iterations // m][0]


def test_15_the_average_is_steady_and_lower_than_the_last_iterate():
    s = scenario("15")
    raced = Raced(s)
    assert [c.average for c in raced.configs] == ["last", "uniform"]
    assert s.config.schedule == "constant" and s.config.eta == 0.1
    assert raced.spread(0, 1000) > 1e3  # three decades and more
    assert raced.spread(1, 1000) < 2.0  # within a factor of two
    assert raced.near(1, 10_000) * 3 < raced.near(0, 10_000)


def test_16_a_larger_lambda_widens_the_margin_and_converges_sooner():
    s = scenario("16")
    raced = Raced(s)
    lams = [c.lam for c in raced.configs]
    assert lams == [0.01, 1.0]
    widths = [2.0 / math.sqrt(raced.model(k).norm2()) for k in (0, 1)]
    assert widths[1] > 2 * widths[0]
    inside = [int(np.count_nonzero(raced.margins(k) < 1)) for k in (0, 1)]
    assert inside[1] >= 2 * inside[0]
    assert raced.near(1, 100) * 50 < raced.near(0, 100)
    assert raced.near(1, 1000) * 5 < raced.near(0, 1000)


def test_17_hinge_and_logistic_agree_on_the_boundary_and_logistic_is_faster():
    s = scenario("17")
    raced = Raced(s)
    assert [c.loss for c in raced.configs] == ["hinge", "logistic"]
    assert margin_lines(raced.model(0)) and not margin_lines(raced.model(1))  # (no margin lines)
    w = [raced.model(k).coef[0] for k in (0, 1)]
    cos = w[0] @ w[1] / (np.linalg.norm(w[0]) * np.linalg.norm(w[1]))
    assert math.degrees(math.acos(min(cos, 1.0))) < 1.0
    errors = [np.mean(raced.margins(k) < 0) for k in (0, 1)]
    assert errors[0] == errors[1]
    for t in (100, 1000):
        assert raced.near(1, t) * 3 < raced.near(0, t), t
