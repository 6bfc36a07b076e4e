"""Each scenario that comes with svmviz shows what its caption says.

A caption names a difference a class should see, before and after the edit it asks for
(switch an algorithm, a margin or a kernel, drag λ, move a point). Each test trains the
scenario as shipped and as edited, at the scenario's budget or at the iteration the
caption names, and checks that difference by its numbers, with room to spare (every run
is seeded). Core only, so that it runs in the core pass too.
"""

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from svmviz.core.data import Dataset
from svmviz.core.files.scenario import Scenario, list_scenarios, read_scenario
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.support import support_of
from svmviz.core.model_io import Model
from svmviz.core.pictures.feature_map import feature_map
from svmviz.core.pictures.lift import lift
from svmviz.core.pictures.margins import support_mask, tolerance
from svmviz.core.solvers import Solver
from svmviz.core.solvers.rules import shrink_factor
from svmviz.core.training.reference import Reference
from svmviz.core.training.setup import prepare


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
    assert 2 <= np.count_nonzero(on_edge) <= 5  # set by a few support vectors …
    assert 2 <= np.count_nonzero(support_mask(margins(hard.model, s.data))) <= 5  # … ringed
    soft = run(s.config.replace(margin="soft"), s.data)  # Margin: soft, at the file's λ
    assert inside(soft.model, s.data) >= 5  # points enter the band …
    assert width(soft.model) > 1.15 * width(hard.model)  # … and it widens
    raised = run(s.config.replace(margin="soft", lam=1.0), s.data)
    assert inside(raised.model, s.data) > 2 * inside(soft.model, s.data)
    assert width(raised.model) > 2 * width(hard.model)
    assert width(raised.model) > 1.5 * width(soft.model)  # widens further
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
    assert s.companion == "surface"  # the 3-D view opens beside the plane
    rbf = run(s.config, s.data, at=(1000,))
    for model in rbf.models.values():  # by t = 1000 (4.8 s at the log-t pace) and after
        assert error(model, s.data) <= 0.02
    ring = int(np.argmax([np.linalg.norm(s.data.X[s.data.y == k], axis=1).mean() for k in (0, 1)]))
    assert rbf.model.predict_index([[0.0, 0.0]])[0] == 1 - ring  # the centre's class inside …
    around = np.linspace(0, 2 * np.pi, 90, endpoint=False)
    for radius in (1.2 * np.linalg.norm(s.data.X, axis=1).max(), 10.0):
        circle = radius * np.column_stack([np.cos(around), np.sin(around)])
        assert np.all(rbf.model.predict_index(circle) == ring)  # … the ring's all around it
    # the 3-D view: f a hill above z = 0 over the centre, the ring below (f's sign is the
    # second class's: 1 − ring is the centre, the positive class)
    assert ring == 0
    f = rbf.model.decision_function(s.data.X)
    centre = s.data.y == 1
    assert rbf.model.decision_function([[0.0, 0.0]])[0] > 1.0  # the hilltop above f = 1
    assert np.mean(f[centre] > 0) >= 0.98 and np.mean(f[~centre] < 0) >= 0.98
    assert np.median(f[centre]) > 0.5 and np.median(f[~centre]) < -0.5
    # degree 2, c₀ = 0: the lift is exact, and a flat plane separates the classes there
    poly = run(with_kernel(s.config, "poly", degree=2, coef0=0.0), s.data).model
    lifted = lift(poly, s.data.X)
    assert lifted.share == 1.0 and lifted.names == ("x₁²", "x₁x₂", "x₂²")
    np.testing.assert_allclose(lifted.points, feature_map(poly.kernel, s.data.X))
    np.testing.assert_allclose(lifted.side(), poly.decision_function(s.data.X), atol=1e-8)
    assert np.mean((lifted.side() > 0) == centre) >= 0.98
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


def regression_data(s: Scenario) -> Dataset:
    """A 1-D regression scenario's points as the window trains them: x the input, the
    plane's second coordinate the target."""
    return Dataset.regression(s.data.X[:, :1], s.data.X[:, 1])


def exact(config, data: Dataset) -> Model:
    return prepare(config, data)[1].model


def test_10_only_the_points_on_or_outside_the_tube_count():
    s = scenario("10")
    data, eps = regression_data(s), s.config.epsilon
    shown = run(s.config, data).model
    f = shown.decision_function(data.X)
    sine = 1.5 * np.sin(1.2 * data.X[:, 0])  # the generator's curve (svmviz.core.generate)
    assert np.mean(np.abs(f - sine)) < 0.1 * np.mean(np.abs(sine - sine.mean()))  # follows it
    support = support_of(shown, data)  # on the tube's edge or outside
    assert 0.2 <= len(support) / len(data.X) <= 0.45  # "about a third"
    # a point well inside the tube, moved inside it: the optimum does not move, nor the
    # curve the window shows (trained again from w = 0 on the same samples)
    ref = exact(s.config, data)
    r_star = data.target - ref.decision_function(data.X)
    i = int(np.argmin(np.abs(r_star)))
    assert abs(r_star[i]) < eps / 2 and abs(data.target[i] - f[i]) < eps / 2
    target = data.target.copy()
    target[i] += 0.5 * eps * (1 if r_star[i] <= 0 else -1)  # still inside
    moved_data = Dataset.regression(data.X, target)
    moved = exact(s.config, moved_data)
    grid = np.linspace(-3, 3, 61)[:, None]
    assert np.abs(moved.decision_function(grid) - ref.decision_function(grid)).max() < 1e-3
    moved_shown = run(s.config, moved_data).model
    assert np.abs(moved_shown.decision_function(grid) - shown.decision_function(grid)).max() < 0.01


def test_11_a_wide_tube_flattens_the_curve_and_a_narrow_one_makes_every_point_count():
    s = scenario("11")
    data = regression_data(s)
    x = data.X[:, 0]
    sine = 1.5 * np.sin(1.2 * x)  # the generator's curve (svmviz.core.generate)

    def trained(eps):
        model = run(s.config.replace(epsilon=eps), data).model
        f = model.decision_function(data.X)
        r = data.target - f
        assert eps != 0.8 or np.all(np.abs(r) <= eps)  # the wide tube swallows every point
        return len(support_of(model, data)) / len(f), np.mean(np.abs(f - sine))

    assert s.config.epsilon == 0.8
    wide_support, wide_off = trained(0.8)
    narrow_support, _ = trained(0.05)
    _, good_off = trained(0.2)
    assert wide_support <= 0.15  # the tube swallows (nearly) every point
    assert wide_off > 5 * good_off  # and the curve flattens away from the sine
    assert 0.75 <= narrow_support <= 0.85  # "four points in five"


def region_parts(model: Model, at: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The one-class region f ≥ 0 on a grid over [-4, 4]² labelled by its connected parts,
    and the part each point of ``at`` lies in or nearest to."""
    from scipy import ndimage

    xs = np.linspace(-4, 4, 201)
    grid = np.stack(np.meshgrid(xs, xs), axis=-1).reshape(-1, 2)
    labels, _ = ndimage.label((model.decision_function(grid) >= 0).reshape(201, 201))
    inside = np.flatnonzero(labels.ravel())
    nearest = [int(labels.ravel()[inside[np.argmin(np.hypot(*(grid[inside] - p).T))]]) for p in at]
    return labels, nearest


def test_12_nu_bounds_the_optimums_shares_and_the_far_point_is_a_support_vector():
    s = scenario("12")
    data = Dataset.points(s.data.X)
    far = int(np.argmax(np.linalg.norm(data.X - data.X.mean(axis=0), axis=1)))
    blobs = [data.X[:30], data.X[30:60]]
    assert far == 60 and s.config.nu == 0.05
    for words in ("≤ ν ≤", "tiny island", "about a third", "a quarter at the optimum"):
        assert words in s.caption  # the claims checked below
    tight, loose = (run(s.config.replace(nu=nu), data) for nu in (0.05, 0.3))
    for r in (tight, loose):  # ν bounds both shares at the optimum
        assert r.reference.nu_shares.holds(), r.reference.nu_shares
    # ν = 0.05: the region holds both blobs; the far point, on the edge of a tiny island of
    # its own, is a support vector (at the model shown and at the optimum)
    for model in (tight.model, tight.reference.model):
        f = model.decision_function(data.X)
        assert all(np.mean(model.decision_function(b) >= 0) >= 0.9 for b in blobs)
        assert support_mask(f, "one-class", 0.0)[far]
        assert abs(f[far]) <= tolerance(0.0, "one-class")  # on the edge
        labels, (a, b, island) = region_parts(
            model, [*(b.mean(axis=0) for b in blobs), data.X[far]]
        )
        assert len({a, b, island}) == 3  # a part of its own …
        assert np.count_nonzero(labels == island) * (8 / 200) ** 2 < 0.1  # … tiny
    # ν = 0.3: the regions shrink, the island goes, about a third of the points outside
    labels_tight, _ = region_parts(tight.model, [])
    labels_loose, _ = region_parts(loose.model, [])
    assert labels_loose.max() == 2
    assert np.count_nonzero(labels_loose) < 0.7 * np.count_nonzero(labels_tight)
    f = loose.model.decision_function(data.X)
    assert f[far] < -0.5 * loose.model.rho
    assert 0.28 <= np.mean(f < 0) <= 0.38  # about a third
    assert 0.2 <= loose.reference.nu_shares.beyond <= 0.3  # a quarter at the optimum, at most ν


def test_13_the_hinge_counts_few_points_the_logistic_loss_all_of_them():
    s = scenario("13")
    data = s.data
    ys = np.where(data.y == 1, 1.0, -1.0)
    z = {
        loss: ys * exact(s.config.replace(loss=loss), data).decision_function(data.X)
        for loss in ("hinge", "logistic", "squared_hinge")
    }
    shown = ys * run(s.config, data).model.decision_function(data.X)
    assert "about one in seven" in s.caption
    for hinge in (z["hinge"], shown):  # on or inside the margin: "about one in seven"
        assert 0.125 < np.mean(support_mask(hinge)) < 0.17
    weight = 1 / (1 + np.exp(z["logistic"]))
    assert weight.min() > 1e-4  # every point pulls
    # the ones near the boundary most: the largest weights are the smallest |y f|
    near = np.argsort(np.abs(z["logistic"]))[:5]
    assert weight[near].min() > 5 * np.median(weight)
    pull = 2 * np.maximum(0, 1 - z["squared_hinge"])
    assert np.argmax(pull) == np.argmin(z["squared_hinge"])  # the most wrong pulls hardest
    assert pull.max() > 2


def test_14_one_vs_rest_loses_the_middle_class_and_joint_losses_keep_it():
    s = scenario("14")
    data = s.data
    middle = data.classes.index("class 2")

    def lost(multiclass) -> list[int]:
        """Class 2's points misclassified at the optimum and by the model shown after Run."""
        config = s.config.replace(multiclass=multiclass)
        counts = []
        for model in (exact(config, data), run(config, data).model):
            pred = model.decision_function(data.X).argmax(axis=1)
            counts.append(int(np.count_nonzero((pred != data.y) & (data.y == middle))))
        return counts

    assert s.config.multiclass == "crammer_singer"
    assert max(lost("crammer_singer") + lost("weston_watkins")) <= 1
    assert all(4 <= n <= 10 for n in lost("ovr"))  # "about a quarter" of 25


NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve thirteen".split()
NUMBERS += "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()


def test_the_readme_counts_and_lists_every_scenario():
    """The README's "Scenarios" item says how many demos ship and names each one (it said
    fourteen when there were seventeen)."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    item = readme[readme.index("- **Scenarios**") :].split("They are JSON files")[0]
    count = re.search(r"\): (\w+) ready demos", item)
    assert count is not None, item
    assert NUMBERS.index(count.group(1)) == len(list_scenarios())
    named = item.split("look\n  for — ")[1].rstrip(". \n").replace("\n  ", " ")
    assert len(named.split(", ")) == len(list_scenarios()), named
