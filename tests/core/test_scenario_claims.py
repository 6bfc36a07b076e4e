"""Each scenario that comes with svmviz shows what its caption says.

A caption names a difference a class should see, before and after the edit it asks for
(switch an algorithm, a margin or a kernel, drag λ, move a point). Each test trains the
scenario as shipped and as edited, at the scenario's budget or at the iteration the
caption names, and checks that difference by its numbers, with room to spare (every run
is seeded). Core only, so that it runs in the core pass too.
"""

import math
from dataclasses import dataclass

import numpy as np
import pytest

from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import Model
from svmviz.core.reference import Reference
from svmviz.core.scenario import Scenario, list_scenarios, read_scenario
from svmviz.core.solvers import Solver
from svmviz.core.solvers.rules import shrink_factor
from svmviz.core.training import prepare


def scenario(number: str) -> Scenario:
    """The shipped scenario whose file name starts with ``number`` ("01" … "09")."""
    return read_scenario(next(p for p in list_scenarios() if p.stem.startswith(number)))


@dataclass
class Run:
    solver: Solver
    reference: Reference
    models: dict  # iteration → the output model then; "end": at the end of the run

    @property
    def model(self) -> Model:
        return self.models["end"]

    def gap_at(self, t: int) -> float:
        """F − F* at iteration t."""
        h = self.solver.history_
        return float(h["objective"][h["t"] == t][0] - self.reference.objective)

    def gap_near(self, t: int) -> float:
        """F − F* around iteration t: the geometric mean over t … 2t (a last iterate jumps
        from one step to the next; this is the level its curve is drawn at there)."""
        h = self.solver.history_
        rows = (h["t"] >= t) & (h["t"] <= 2 * t)
        gap = np.maximum(h["objective"][rows] - self.reference.objective, 1e-15)
        return float(np.exp(np.mean(np.log(gap))))


def run(config, data: Dataset, at=()) -> Run:
    """Train ``config`` on ``data`` from w = 0 to its end, keeping the model at each of ``at``."""
    solver, reference, _ = prepare(config, data)
    models = {}
    for t in sorted(at):
        solver.step(t - solver.t_)
        models[t] = solver.model()
    while not solver.done:
        solver.step(config.iterations)
    models["end"] = solver.model()
    return Run(solver, reference, models)


def margins(model: Model, data: Dataset) -> np.ndarray:
    """y_i f(x_i) of a binary model: < 1 inside the band (or beyond it, misclassified)."""
    return np.where(data.y == 1, 1.0, -1.0) * model.decision_function(data.X)


def inside(model: Model, data: Dataset) -> int:
    return int(np.count_nonzero(margins(model, data) < 1 - 1e-3))


def width(model: Model) -> float:
    """The width of the band, 2/‖w‖."""
    return 2.0 / math.sqrt(model.norm2())


def error(model: Model, data: Dataset) -> float:
    return float(np.mean(model.predict_index(data.X) != data.y))


def angle(model: Model) -> float:
    """The direction of w (degrees) of a linear binary model."""
    w = model.coef[0]
    return math.degrees(math.atan2(w[1], w[0]))


def with_kernel(config, name: str, **changes):
    """The configuration after choosing another kernel in the solver dock (γ, the degree
    and c₀ stay as they were)."""
    k = config.kernel
    fields = {"gamma": k.gamma, "degree": k.degree, "coef0": k.coef0, **changes}
    return config.replace(kernel=Kernel(name, **fields))


def test_01_the_hard_margin_is_the_widest_empty_band_and_a_soft_one_lets_points_in():
    s = scenario("01")
    hard = run(s.config, s.data, at=(1000,))
    for model in hard.models.values():  # at t = 1000 (10 frames) and at the end
        assert margins(model, s.data).min() > 0.98  # no point inside the band
    assert width(hard.model) == pytest.approx(2 * hard.reference.margin, rel=0.02)  # widest
    on_edge = np.abs(margins(hard.reference.model, s.data) - 1) < 1e-3
    assert 2 <= np.count_nonzero(on_edge) <= 5  # set by a few support vectors
    soft = run(s.config.replace(margin="soft"), s.data)  # Margin: soft, at the file's λ
    assert inside(soft.model, s.data) >= 5  # points enter the band …
    assert width(soft.model) > 1.15 * width(hard.model)  # … and it widens
    raised = run(s.config.replace(margin="soft", lam=1.0), s.data)
    assert inside(raised.model, s.data) > 2 * inside(soft.model, s.data)
    assert width(raised.model) > 2 * width(hard.model)
    assert soft.model.lam == pytest.approx(0.1)  # the λ the caption names


def test_02_a_larger_lambda_gives_a_smaller_w_a_wider_margin_and_more_points_inside():
    s = scenario("02")
    lams = [s.config.lam * 10**k for k in range(4)]  # the slider dragged from 0.001 to 1
    models = [run(s.config.replace(lam=lam), s.data).model for lam in lams]
    norms = [math.sqrt(m.norm2()) for m in models]
    counts = [inside(m, s.data) for m in models]
    assert np.all(np.diff(norms) < 0), norms
    assert np.all(np.diff(counts) > 0), counts
    assert width(models[-1]) > 2.5 * width(models[0])
    assert counts[-1] > 2 * counts[0]


def test_03_the_gaussian_kernel_draws_a_closed_boundary_and_a_line_fails():
    s = scenario("03")
    rbf = run(s.config, s.data, at=(1000,))
    for model in rbf.models.values():  # by t = 1000 (4.8 s at the log-t pace) and after
        assert error(model, s.data) <= 0.02
    ring = int(np.argmax([np.linalg.norm(s.data.X[s.data.y == k], axis=1).mean() for k in (0, 1)]))
    assert rbf.model.predict_index([[0.0, 0.0]])[0] == 1 - ring  # the centre's class inside …
    around = np.linspace(0, 2 * np.pi, 90, endpoint=False)
    for radius in (1.2 * np.linalg.norm(s.data.X, axis=1).max(), 10.0):
        circle = radius * np.column_stack([np.cos(around), np.sin(around)])
        assert np.all(rbf.model.predict_index(circle) == ring)  # … the ring's all around it
    line = run(with_kernel(s.config, "linear"), s.data)
    assert error(line.model, s.data) >= 0.3
    assert error(line.reference.model, s.data) >= 0.3  # not even the best line


def test_04_degree_2_and_rbf_solve_xor_and_degree_1_cannot():
    s = scenario("04")
    assert s.config.kernel.name == "poly" and s.config.kernel.degree == 2
    for config in (s.config, with_kernel(s.config, "rbf")):
        for model in run(config, s.data, at=(1000,)).models.values():
            assert error(model, s.data) <= 0.1
    line = run(with_kernel(s.config, "poly", degree=1), s.data)
    assert error(line.model, s.data) >= 0.25
    assert error(line.reference.model, s.data) >= 0.25


def test_05_a_dearer_mistake_moves_the_boundary_away_from_class_1():
    s = scenario("05")
    assert s.config.cost[0][2] == 3  # Δ(class 1 → class 3)
    means = [s.data.X[s.data.y == k].mean(axis=0) for k in range(3)]

    def distance_from_class_1(model) -> float:
        """From class 1's mean to the line f₁ = f₃, the boundary between classes 1 and 3."""
        a = model.coef[0] - model.coef[2]
        c = model.intercept[0] - model.intercept[2]
        return float((a @ means[0] + c) / np.linalg.norm(a))

    dear = run(s.config, s.data).model
    even = run(s.config.replace(cost=None), s.data).model  # Δ all ones
    assert distance_from_class_1(dear) > distance_from_class_1(even) + 0.3


def test_06_a_step_size_too_large_diverges_and_a_lower_one_or_pegasos_trains():
    s = scenario("06")
    cfg = s.config
    assert shrink_factor(cfg.eta, cfg.lam) == pytest.approx(-4.0)
    blown = run(cfg, s.data)
    assert blown.solver.status_ == "diverged"
    assert blown.solver.t_ <= 200  # within the first 3.7 s at the log-t pace
    assert np.nanmax(blown.solver.history_["norm"]) > 1e10
    for fixed in (cfg.replace(eta=1.0), cfg.replace(algorithm="pegasos")):
        trained = run(fixed, s.data)
        assert trained.solver.status_ == "budget"
        assert trained.solver.history_["objective"][-1] - trained.reference.objective < 0.05
        assert error(trained.model, s.data) <= error(trained.reference.model, s.data) + 0.02


def test_07_pegasos_falls_far_faster_than_plain_sgd():
    s = scenario("07")
    assert "suboptimality" in s.view  # F − F* beside the 1/√t and log t/(λt) guides
    sgd = run(s.config, s.data)
    pegasos = run(s.config.replace(algorithm="pegasos"), s.data)
    for t in (1000, 10000, 50000):  # ten times lower and more, from t = 1000 to the end
        assert pegasos.gap_near(t) * 10 < sgd.gap_near(t), t

    def slope(r: Run) -> float:
        """d log(F − F*) / d log t from t ≈ 100 to t ≈ 10⁴."""
        return math.log10(r.gap_near(10000) / r.gap_near(100)) / 2

    assert -0.75 < slope(sgd) < -0.3  # the 1/√t guide: −1/2
    assert slope(pegasos) < -0.75  # log t/(λt): −1 + 1/ln t
    assert s.config.eta == pytest.approx(1 / s.config.lam)  # η₀ = 1/λ, as the caption says


def test_08_gd_descends_smoothly_and_sgd_jumps_but_costs_far_less():
    s = scenario("08")
    m = len(s.data.X)
    assert m == 100 and s.config.iterations // m == 20  # the caption's numbers
    assert "iterate" in s.view  # the plane draws w_t, not the average that hides its jumps
    gd = run(s.config, s.data)
    gap = gd.solver.history_["objective"] - gd.reference.objective  # row j: t = j + 1
    assert gap[1] > gap[0]  # the first step, η = 1/(2λ) = 50, overshoots …
    assert np.all(gap[2:] < 1.1 * gap[1:-1])  # … then never up by a tenth: a steady descent

    def turns(config) -> np.ndarray:
        """How far the iterate w_t turns at each of the steps 10 … 1000 (degrees)."""
        solver, _, _ = prepare(config, s.data)
        solver.step(9)
        directions = []
        while solver.t_ < 1000:
            solver.step(1)
            w = solver.iterate()[0][0]
            directions.append(math.atan2(w[1], w[0]))
        return np.degrees(np.abs(np.angle(np.exp(1j * np.diff(directions)))))

    gd_turns = turns(s.config)
    sgd_turns = turns(s.config.replace(algorithm="sgd"))
    assert sgd_turns.mean() > 3 * gd_turns.mean()
    assert sgd_turns.max() > 3 * gd_turns.max()
    sgd = run(s.config.replace(algorithm="sgd"), s.data)
    assert sgd.gap_at(s.config.iterations) * 10 < gd.gap_at(s.config.iterations // m)


def test_09_an_outlier_narrows_and_tilts_a_hard_margin():
    s = scenario("09")
    data = s.data
    outlier = len(data.X) - 1
    assert data.classes[data.y[outlier]] == "class 2"  # a square …
    apart = np.linalg.norm(data.X[:-1] - data.X[outlier], axis=1)
    squares = data.y[:-1] == data.y[outlier]
    assert apart[~squares].min() < apart[squares].min() / 2  # … close to the circles
    held = run(s.config, data)
    deleted = Dataset(data.X[:-1], data.y[:-1], data.classes)
    moved_x = data.X.copy()
    moved_x[outlier] = [1.5, 1.5]  # dragged in among the squares
    moved = Dataset(moved_x, data.y, data.classes)
    for edited in (deleted, moved):
        free = run(s.config, edited)
        assert width(free.model) > 3 * width(held.model)  # the margin widens
        assert abs(angle(free.model) - angle(held.model)) > 20  # it was tilted
    z = margins(held.model, data)
    assert z.min() > 0.98  # the hard margin keeps every point outside the band …
    assert z[outlier] < 1.02  # … the outlier on its edge, holding it
    soft = run(s.config.replace(margin="soft"), data)  # at the file's λ
    assert margins(soft.model, data)[outlier] < 1  # let into the band
    assert width(soft.model) > 2 * width(held.model)
    assert soft.model.lam == pytest.approx(0.1)  # the λ the caption names
