"""The step inspector's numbers for every problem and loss against a hand computation: numpy
from the iterate before the step, the sampled index and the loss's rule (each module's
docstring), never the explainer's own code."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.explain import point_terms, step_and_explain
from svmviz.core.solvers import Solver

RNG = np.random.default_rng(7)
X2 = RNG.normal(size=(24, 2)) + np.array([0.5, 0.2])
Y2 = (X2[:, 0] + 0.4 * X2[:, 1] + 0.3 * RNG.normal(size=24) > 0.5).astype(int)
Y3 = np.digitize(X2[:, 0] - 0.3 * X2[:, 1], [-0.1, 0.9])
X1 = np.sort(RNG.uniform(-3, 3, size=(20, 1)), axis=0)
T1 = np.sin(X1[:, 0]) + 0.2 * RNG.normal(size=20)
COST = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])


def before_and_after(config, data, steps):
    """The solver after ``steps`` steps, its iterate W (K×d) before one more step, and the
    record of that step."""
    s = Solver(config).reset(data)
    s.step(steps)
    W = s.iterate()[0].copy()
    return s, W, step_and_explain(s)


def nth_smallest(v, q):
    """The minimizer of −q·u + Σ max(0, u − v_j) the solvers use for ρ (a whole q: the middle
    of the q-th and (q+1)-th smallest; else the ⌈q⌉-th)."""
    v = np.sort(v)
    k = int(np.ceil(q - 1e-9))
    if abs(k - q) < 1e-9 and k < len(v):
        return 0.5 * (v[k - 1] + v[k])
    return v[k - 1]


@pytest.mark.parametrize("steps", [3, 8, 21])
def test_epsilon_svr_step_by_hand(steps):
    """ε-SVR: r = y − f(x); r > ε: f moves up (w += η φ), r < −ε: down, |r| ≤ ε: no term."""
    lam, eps = 0.1, 0.3
    cfg = SolverConfig(
        problem="epsilon-svr", epsilon=eps, lam=lam, bias="none", average="last", seed=steps
    )
    s, W, r = before_and_after(cfg, Dataset.regression(X1, T1), steps)
    (i,) = r.samples
    f = float(W[0] @ X1[i])
    res = T1[i] - f
    side = 1.0 if res > eps else -1.0 if res < -eps else 0.0
    assert r.kind == "regression" and r.loss == "epsilon-svr" and r.inputs == 1
    assert r.eta == pytest.approx(1 / (lam * (r.t + 1)))
    assert r.scores[0, 0] == pytest.approx(f)
    assert r.targets[0] == pytest.approx(T1[i])
    assert r.margins[0] == pytest.approx(res)
    assert r.epsilon == r.epsilon_after == eps
    assert r.weights[0, 0] == side
    assert bool(r.violated[0]) == (side != 0)
    expected = (1 - r.eta * lam) * W[0] + r.eta * side * X1[i]
    np.testing.assert_allclose(r.push, r.eta * side * X1[i], atol=1e-15)
    np.testing.assert_allclose(r.w_after, expected)
    np.testing.assert_allclose(s.iterate()[0][0], expected)


def test_epsilon_svr_meets_every_case():
    """The cases above, below and inside the tube all come up in a short run."""
    cfg = SolverConfig(problem="epsilon-svr", epsilon=0.3, bias="free", average="last")
    s = Solver(cfg).reset(Dataset.regression(X1, T1))
    sides = set()
    for _ in range(80):
        r = step_and_explain(s)
        sides.add(float(r.weights[0, 0]))
        assert (r.weights[0, 0] != 0) == (abs(r.margins[0]) > 0.3)
    assert sides == {-1.0, 0.0, 1.0}


def test_nu_svr_learns_epsilon_in_the_step():
    """ν-SVR: the tube's ε before the step is the one the terms use, and after it the one
    that leaves νm of the |r| outside (no free bias)."""
    nu = 0.3
    cfg = SolverConfig(problem="nu-svr", nu=nu, lam=0.1, bias="none", average="last", seed=2)
    s, W, r = before_and_after(cfg, Dataset.regression(X1, T1), 6)
    (i,) = r.samples
    res_all = T1 - X1 @ W[0]
    eps = -nth_smallest(-np.abs(res_all), nu * len(T1))  # upper quantile of |r|
    assert r.epsilon == pytest.approx(eps)
    res = res_all[i]
    side = 1.0 if res > eps else -1.0 if res < -eps else 0.0
    assert r.weights[0, 0] == side
    after = s.iterate()[0][0]
    assert r.epsilon_after == pytest.approx(-nth_smallest(-np.abs(T1 - X1 @ after), nu * 20))
    assert r.nu == nu


@pytest.mark.parametrize("seed", range(4))
def test_one_class_step_by_hand(seed):
    """One-class (λ = 1 in ½‖w‖²): ⟨w, φ(x)⟩ ≤ ρ: w ← (1 − η) w + (η/ν) φ(x); ρ is the
    νm-th smallest score before and after the step."""
    nu = 0.25
    cfg = SolverConfig(problem="one-class", nu=nu, average="last", seed=seed)
    s, W, r = before_and_after(cfg, Dataset.points(X2), 4 + seed)
    (i,) = r.samples
    scores = X2 @ W[0]
    rho = nth_smallest(scores, nu * len(X2))
    assert r.kind == "one-class"
    assert r.rho == pytest.approx(rho)
    assert r.scores[0, 0] == pytest.approx(scores[i])
    assert r.margins[0] == pytest.approx(scores[i] - rho)  # f = ⟨w, φ⟩ − ρ
    inside = scores[i] > rho
    assert r.weights[0, 0] == (0.0 if inside else 1 / nu)
    expected = (1 - r.eta * r.lam) * W[0] + (0.0 if inside else r.eta / nu * X2[i])
    assert r.lam == 1.0
    np.testing.assert_allclose(r.w_after, expected)
    assert r.rho_after == pytest.approx(nth_smallest(X2 @ expected, nu * len(X2)))


def test_one_class_kernel_step_records_rho_and_alpha():
    cfg = SolverConfig(problem="one-class", nu=0.3, kernel=Kernel("rbf", gamma=0.5))
    s, A, r = before_and_after(cfg, Dataset.points(X2), 5)
    (i,) = r.samples
    G = Kernel("rbf", gamma=0.5).gram(X2, X2)
    scores = A[0] @ G
    assert r.rho == pytest.approx(nth_smallest(scores, 0.3 * len(X2)))
    assert r.scores[0, 0] == pytest.approx(scores[i])
    g = 0.0 if scores[i] > r.rho else 1 / 0.3
    assert r.alpha_after[0, 0] == pytest.approx((1 - r.eta) * A[0, i] + r.eta * g)


@pytest.mark.parametrize("seed", range(4))
def test_nu_svc_step_by_hand(seed):
    """ν-SVC (λ = 1): y f ≤ ρ: w ← (1 − η) w + η y x; ρ the νm-th smallest y f (no bias)."""
    nu = 0.3
    cfg = SolverConfig(problem="nu-svc", nu=nu, bias="none", average="last", seed=seed)
    s, W, r = before_and_after(cfg, Dataset.from_labels(X2, Y2), 5 + seed)
    (i,) = r.samples
    ys = np.where(Y2 == 1, 1.0, -1.0)
    z = ys * (X2 @ W[0])
    rho = nth_smallest(z, nu * len(X2))
    assert r.rho == r.margin == pytest.approx(rho)
    assert r.margins[0] == pytest.approx(z[i])
    term = z[i] <= rho
    assert r.weights[0, 0] == (ys[i] if term else 0.0)
    expected = (1 - r.eta) * W[0] + (r.eta * ys[i] * X2[i] if term else 0.0)
    np.testing.assert_allclose(r.w_after, expected)
    assert r.rho_after == pytest.approx(nth_smallest(ys * (X2 @ expected), nu * len(X2)))


@pytest.mark.parametrize("seed", range(4))
def test_logistic_step_by_hand(seed):
    """Logistic: every example pulls w toward y x by 1/(1 + e^(y f))."""
    lam = 0.05
    cfg = SolverConfig(loss="logistic", lam=lam, bias="none", average="last", seed=seed)
    s, W, r = before_and_after(cfg, Dataset.from_labels(X2, Y2), 3 + seed)
    (i,) = r.samples
    y = 1.0 if Y2[i] == 1 else -1.0
    z = y * (W[0] @ X2[i])
    weight = 1 / (1 + np.exp(z))
    assert r.margins[0] == pytest.approx(z)
    assert r.weights[0, 0] == pytest.approx(y * weight)
    assert r.violated[0]
    np.testing.assert_allclose(r.w_after, (1 - r.eta * lam) * W[0] + r.eta * y * weight * X2[i])


def test_squared_hinge_weight_is_twice_the_slack():
    cfg = SolverConfig(loss="squared_hinge", lam=0.05, bias="none", average="last", seed=1)
    s, W, r = before_and_after(cfg, Dataset.from_labels(X2, Y2), 6)
    (i,) = r.samples
    y = 1.0 if Y2[i] == 1 else -1.0
    z = y * (W[0] @ X2[i])
    assert r.weights[0, 0] == pytest.approx(2 * max(0.0, 1 - z) * y)


def multiclass_case(multiclass, seed, steps):
    lam = 0.05
    cost = tuple(map(tuple, COST)) if multiclass == "weston_watkins" else None
    cfg = SolverConfig(
        multiclass=multiclass, lam=lam, bias="none", average="last", seed=seed, cost=cost
    )
    s, W, r = before_and_after(cfg, Dataset.from_labels(X2, Y3), steps)
    (i,) = r.samples
    return s, W, r, int(i), W @ X2[i], int(Y3[i])


@pytest.mark.parametrize("seed", range(5))
def test_weston_watkins_step_by_hand(seed):
    """Every class y′ ≠ y with Δ(y′, y) + f_y′ − f_y > 0 moves w_y′ by −η x and w_y by +η x."""
    s, W, r, i, f, y = multiclass_case("weston_watkins", seed, 3 + seed)
    terms = COST[y] + f - f[y]
    terms[y] = np.nan
    np.testing.assert_allclose(r.class_terms[0], terms)
    violators = [k for k in range(3) if k != y and terms[k] > 0]
    expected = (1 - r.eta * r.lam) * W
    for k in violators:
        expected[k] -= r.eta * X2[i]
        expected[y] += r.eta * X2[i]
    np.testing.assert_allclose(r.W_after, expected)
    g = np.zeros(3)
    g[violators] = -1.0
    g[y] = len(violators)
    np.testing.assert_allclose(r.weights[0], g)
    assert bool(r.violated[0]) == bool(violators)


def test_weston_watkins_meets_more_than_one_violating_class():
    """At w = 0 every class y′ ≠ y violates (Δ = 1 > 0): both move."""
    s = Solver(SolverConfig(multiclass="weston_watkins")).reset(Dataset.from_labels(X2, Y3))
    r = step_and_explain(s)
    assert int(np.sum(r.weights[0] < 0)) == 2
    assert r.weights[0, int(Y3[r.samples[0]])] == 2


@pytest.mark.parametrize("seed", range(4))
def test_one_vs_rest_step_by_hand(seed):
    """Each class k with 1 − s_k f_k > 0 (inside its margin) moves w_k by η s_k x."""
    s, W, r, i, f, y = multiclass_case("ovr", seed, 4 + seed)
    sign = np.where(np.arange(3) == y, 1.0, -1.0)
    np.testing.assert_allclose(r.class_terms[0], 1 - sign * f)
    inside = 1 - sign * f > 0
    expected = (1 - r.eta * r.lam) * W + r.eta * (inside * sign)[:, None] * X2[i]
    np.testing.assert_allclose(r.W_after, expected)


@pytest.mark.parametrize("seed", range(4))
def test_softmax_step_by_hand(seed):
    """Each w_k moves by η (1[k = y] − p_k) x, p the softmax of the scores."""
    s, W, r, i, f, y = multiclass_case("softmax", seed, 4 + seed)
    p = np.exp(f - f.max())
    p /= p.sum()
    np.testing.assert_allclose(r.probabilities[0], p)
    weight = (np.arange(3) == y) - p
    np.testing.assert_allclose(r.weights[0], weight)
    np.testing.assert_allclose(r.W_after, (1 - r.eta * r.lam) * W + r.eta * weight[:, None] * X2[i])


def test_a_points_terms_as_cs231n_lists_them():
    f, y = np.array([3.2, 5.1, -1.7]), 0  # CS231n's cat example, Δ = 1
    ones = np.ones((3, 3)) - np.eye(3)
    np.testing.assert_allclose(point_terms("weston_watkins", f, y, ones), [0.0, 2.9, 0.0])
    np.testing.assert_allclose(point_terms("ovr", f, y, ones), [0.0, 6.1, 0.0])
    np.testing.assert_allclose(point_terms("crammer_singer", f, y, ones), [0.0, 2.9, -3.9])
    p = point_terms("softmax", f, y, ones)
    np.testing.assert_allclose(p, np.exp(f) / np.exp(f).sum())
