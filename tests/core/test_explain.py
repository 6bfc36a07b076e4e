"""The step inspector's numbers against a hand computation of the same step."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.explain import margin_case, step_and_explain
from svmviz.core.solvers import Solver, rules

X = np.array([[1.0, 2.0], [2.0, 0.5], [-1.0, -1.5], [-2.0, 0.5], [0.2, -0.1]])
Y = [1, 1, 0, 0, 1]


@pytest.mark.parametrize("seed", range(6))
def test_one_pegasos_step_by_hand(seed):
    """004's cases and Pegasos' rule (002, in 003's indexing: step t takes α⁽ᵗ⁾ = β/(λt) to
    α⁽ᵗ⁺¹⁾, so η = 1/(λ(t+1))): w ← (1 − ηλ) w + η y_i x_i when y_i ⟨w, x_i⟩ < 1, else
    only the shrink."""
    lam = 0.1
    s = Solver(SolverConfig(lam=lam, bias="none", average="last", seed=seed)).reset(
        Dataset.from_labels(X, Y)
    )
    s.step(3 + seed)
    w = s.iterate()[0][0]  # w_t, from the solver's state
    r = step_and_explain(s)
    t = 4 + seed
    assert r.t == t
    assert r.eta == pytest.approx(1 / (lam * (t + 1)))
    (i,) = r.samples
    y_i = 1.0 if Y[i] == 1 else -1.0
    z = y_i * (w @ X[i])
    assert r.margins[0] == pytest.approx(z)
    assert bool(r.violated[0]) == (z < 1)
    expected = (1 - r.eta * lam) * w + (r.eta * y_i * X[i] if z < 1 else 0.0)
    np.testing.assert_allclose(r.w_before, w)
    np.testing.assert_allclose(r.shrink, (1 - r.eta * lam) * w)
    np.testing.assert_allclose(r.shrink + r.push, expected)
    np.testing.assert_allclose(r.w_after, expected)
    np.testing.assert_allclose(s.iterate()[0][0], expected)  # what the solver did
    assert not r.projected


def test_gd_step_uses_every_example_and_the_free_bias_is_reprofiled():
    s = Solver(
        SolverConfig(algorithm="gd", schedule="constant", eta=0.5, lam=0.1, average="last")
    ).reset(Dataset.from_labels(X, Y))
    s.step(2)
    w, b = s.iterate()[0][0], float(s.iterate()[1][0])
    r = step_and_explain(s)
    assert r.batch == len(X)
    ys = np.where(np.array(Y) == 1, 1.0, -1.0)
    z = ys * (X @ w + b)
    np.testing.assert_allclose(r.margins, z)
    np.testing.assert_array_equal(r.violated, z < 1)
    push = 0.5 / len(X) * (ys[z < 1, None] * X[z < 1]).sum(axis=0)
    np.testing.assert_allclose(r.w_after, (1 - 0.5 * 0.1) * w + push)
    assert r.b_after == pytest.approx(float(s.iterate()[1][0]))


def test_kernel_and_multiclass_steps_report_samples_margins_and_cases(blobs3):
    s = Solver(SolverConfig(kernel=Kernel("rbf"), iterations=50)).reset(blobs3)
    s.step(10)
    r = step_and_explain(s)
    assert r.t == 11
    assert not r.binary
    assert not r.linear
    assert r.w_before is None
    assert r.margins.shape == (1,)
    assert r.violated.shape == (1,)
    s.step(10**6)
    assert step_and_explain(s) is None  # at the budget


X3 = np.array([[0.0, 2.0], [0.3, 1.5], [2.0, -1.0], [1.5, -1.4], [-2.0, -1.0], [-1.6, -1.2]])
Y3 = [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize("seed", range(5))
def test_one_multiclass_step_by_hand(seed):
    """000 "SGD for Multiclass Learning" with the regularizer: ŷ = argmax_y' Δ(y', y) +
    ⟨w, Ψ(x, y') − Ψ(x, y)⟩; if positive, w_y += η x and w_ŷ −= η x (after the shrink)."""
    lam = 0.05
    cost = ((0.0, 1.0, 2.0), (1.0, 0.0, 1.0), (2.0, 1.0, 0.0))
    s = Solver(SolverConfig(lam=lam, bias="none", average="last", seed=seed, cost=cost))
    s.reset(Dataset.from_labels(X3, Y3))
    s.step(2 + seed)
    W = s.iterate()[0]
    r = step_and_explain(s)
    (i,) = r.samples
    y = Y3[i]
    f = W @ X3[i]
    g = np.array(cost[y]) + f - f[y]
    g[y] = 0.0
    yhat = int(np.argmax(g)) if g.max() > 0 else -1
    assert r.yhat[0] == yhat
    assert bool(r.violated[0]) == (yhat >= 0)
    others = f.copy()
    others[y] = -np.inf
    assert r.runner_up[0] == int(np.argmax(others))
    assert r.margins[0] == pytest.approx(f[y] - others.max())
    expected = (1 - r.eta * lam) * W
    if yhat >= 0:
        assert r.cost[0] == cost[y][yhat]
        expected[y] += r.eta * X3[i]
        expected[yhat] -= r.eta * X3[i]
    np.testing.assert_allclose(r.W_before, W)
    np.testing.assert_allclose(r.W_after, expected)


@pytest.mark.parametrize("seed", range(5))
def test_one_kernel_pegasos_step_by_hand(seed):
    """003: sample i; if y_i Σ_j α_j K(x_j, x_i) < 1 then β_i += y_i; α = β/(λt) (our step t
    makes α⁽ᵗ⁺¹⁾, see rules.step_size). So α_i ← (1 − ηλ) α_i + η y_i, and β = α λ (t+1) counts."""
    lam = 0.1
    cfg = SolverConfig(
        kernel=Kernel("rbf", gamma=0.5), lam=lam, bias="none", average="last", seed=seed
    )
    s = Solver(cfg).reset(Dataset.from_labels(X, Y))
    s.step(4 + seed)
    alpha = s.iterate()[0][0]
    r = step_and_explain(s)
    (i,) = r.samples
    y_i = 1.0 if Y[i] == 1 else -1.0
    K = Kernel("rbf", gamma=0.5).gram(X, X)
    z = y_i * (K[i] @ alpha)
    assert r.margins[0] == pytest.approx(z)
    assert bool(r.violated[0]) == (z < 1)
    after = (1 - r.eta * lam) * alpha[i] + (r.eta * y_i if z < 1 else 0.0)
    assert r.alpha_before[0, 0] == pytest.approx(alpha[i])
    assert r.alpha_after[0, 0] == pytest.approx(after)
    beta = r.alpha_after[0, 0] * lam * (r.t + 1)
    assert beta == pytest.approx(round(beta), abs=1e-9)  # 003's β: a sum of ±1


def _norm2(params, G):
    """‖w‖² of weights (K×p, G None) or of kernel coefficients α (K×m): Σ_k α_k G α_k."""
    return float(np.sum(params * params) if G is None else np.sum((params @ G) * params))


@pytest.mark.parametrize("algorithm", ["sgd", "gd"])
@pytest.mark.parametrize("schedule", ["constant", "inv_t", "inv_sqrt_t", "pegasos"])
@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=0.5)])
@pytest.mark.parametrize("classes", [2, 3])
def test_the_explained_step_is_the_loops_step_by_the_shared_rules(
    classes, kernel, schedule, algorithm
):
    """The rules of svmviz.core.solvers.rules, applied by hand to the iterate before a step,
    give the step the solver's loop took and the one the explainer reports: step size,
    hinge or Crammer–Singer cases, shrink, subgradient terms and projection."""
    R = rules.python()
    lam, eta0 = 0.1, 0.7
    data = Dataset.from_labels(X, Y) if classes == 2 else Dataset.from_labels(X3, Y3)
    cfg = SolverConfig(
        algorithm=algorithm,
        schedule=schedule,
        eta=eta0,
        lam=lam,
        batch=2,
        bias="none",
        average="last",
        project=True,
        kernel=kernel,
        seed=3,
    )
    s = Solver(cfg).reset(data)
    G = None if kernel.is_linear else kernel.gram(data.X, data.X)
    Xs = np.asarray(data.X, dtype=float)
    for _ in range(6):
        P, _ = s.iterate()
        F = s.training_values(iterate=True)
        F = F[None, :] if F.ndim == 1 else F.T  # K×m
        t = s.t_ + 1
        r = step_and_explain(s)
        eta = R.step_size(rules.SCHEDULES[schedule], eta0, lam, t)
        assert r.eta == pytest.approx(eta, rel=1e-15)
        assert r.schedule == schedule
        k = len(r.samples)
        expected = R.shrink_factor(eta, lam) * P
        for j, i in enumerate(r.samples):
            yi = int(data.y[i])
            if classes == 2:
                y_sign = 1.0 if yi == 1 else -1.0
                violated = bool(R.hinge_violated(y_sign, F[0, i]))
                yhat = 0
            else:
                y_sign = 0.0
                yhat = R.crammer_singer(s.problem_.cost, F[:, i], yi)
                violated = yhat >= 0
                assert r.yhat[j] == yhat
            assert bool(r.violated[j]) == violated
            if not violated:
                continue
            count, k0, c0, k1, c1 = R.subgradient_terms(classes == 2, yi, y_sign, yhat)
            for row, sign in [(k0, c0), (k1, c1)][:count]:
                if G is None:
                    expected[row] += sign * (eta / k) * Xs[i]
                else:
                    expected[row, i] += sign * (eta / k)
        expected *= R.projection_factor(_norm2(expected, G), s.settings_.radius)
        after, _ = s.iterate()
        np.testing.assert_allclose(after, expected, rtol=1e-9, atol=1e-12)
        if G is not None:
            alpha = expected[:, r.samples]
            np.testing.assert_allclose(r.alpha_after, alpha, rtol=1e-9, atol=1e-12)
        elif classes == 2:
            np.testing.assert_allclose(r.w_after, expected[0], rtol=1e-9, atol=1e-12)
        else:
            np.testing.assert_allclose(r.W_after, expected, rtol=1e-9, atol=1e-12)


def test_the_margin_of_a_step_is_where_its_loss_puts_it(blobs2):
    """A point lies misclassified (y f < 0), inside the margin or outside it; the margin is at
    y f = 1, and at the learned ρ for ν-SVC (a violation there is y f < ρ)."""
    assert [margin_case(z) for z in (-1.0, 0.0, 0.5, 1.0, 1.5)] == [
        "misclassified",
        "inside the margin",
        "inside the margin",
        "outside the margin",
        "outside the margin",
    ]
    assert margin_case(0.5, margin=0.4) == "outside the margin"
    hinge = Solver(SolverConfig(iterations=100)).reset(blobs2)
    hinge.step(10)
    assert step_and_explain(hinge).margin == 1.0
    nu = Solver(SolverConfig(problem="nu-svc", nu=0.3, iterations=100, seed=2)).reset(blobs2)
    nu.step(50)
    rho = float(nu.state_.off[0])
    r = step_and_explain(nu)
    assert r.margin == rho != 1.0
    assert bool(r.violated[0]) == (r.margins[0] < rho)
