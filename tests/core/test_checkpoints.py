"""Telemetry at checkpoints (issue 29): the exact objective at log-spaced iterations
instead of every step, where a loss has no screen to make it nearly free. The run itself
is the same, bit for bit; the history holds exact objectives at the iterations it names;
the stopping rule stops where every-step telemetry stops."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver, rules

X, Y = generate("blobs", n=120, classes=3, seed=3)
THREE = Dataset.from_labels(X, Y)
TWO = Dataset.from_labels(X, (Y > 0).astype(int))
TARGET = Dataset.regression(X, X[:, 0] - 0.5 * X[:, 1])
CASES = [
    (dict(loss="logistic"), TWO),
    (dict(loss="squared_hinge", bias="none"), TWO),
    (dict(multiclass="softmax"), THREE),
    (dict(multiclass="weston_watkins", bias="none"), THREE),
    (dict(problem="epsilon-svr", epsilon=0.1), TARGET),
    (dict(loss="logistic", kernel=Kernel("rbf", gamma=0.5)), TWO),
]


def test_checkpoints_are_dense_then_eight_per_octave():
    marks = [t for t in range(1, 4097) if rules.python().is_checkpoint(t)]
    assert marks[: rules.CHECKPOINT_DENSE] == list(range(1, rules.CHECKPOINT_DENSE + 1))
    for k in range(7, 12):
        assert sum(2**k <= t < 2 ** (k + 1) for t in marks) == rules.CHECKPOINTS_PER_OCTAVE
    assert len(marks) < 4096 // 10


@pytest.mark.parametrize("fields, data", CASES)
def test_the_run_is_the_same_and_the_history_exact_at_its_checkpoints(fields, data):
    config = SolverConfig(iterations=3000, seed=5, **fields)
    every = Solver(config).reset(data)
    every.step(3000)
    marked = Solver(config, record="checkpoints").reset(data)
    marked.step(1000)  # (cut into calls: the checkpoints are the iteration's, not the call's)
    marked.step(2000)
    a, b = every.model(objective=False), marked.model(objective=False)
    np.testing.assert_array_equal(a.intercept, b.intercept)
    for name in ("coef", "dual_coef"):
        if getattr(a, name) is not None:
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    t = marked.history_["t"]
    objective = marked.history_["objective"]
    holds = np.isfinite(objective)
    expected = np.array([rules.python().is_checkpoint(int(v)) for v in t])
    np.testing.assert_array_equal(holds, expected)  # the rows it holds: the checkpoints
    np.testing.assert_array_equal(objective[holds], every.history_["objective"][holds])
    np.testing.assert_array_equal(t, every.history_["t"])
    # the model's objective is exact at any iteration (computed on request between them)
    assert marked.model().extra["objective"] == pytest.approx(
        every.model().extra["objective"], rel=1e-12
    )


@pytest.mark.parametrize("fields, data", CASES[:3])
def test_the_stopping_rule_stops_where_every_step_telemetry_stops(fields, data):
    config = SolverConfig(iterations=200_000, seed=2, tol=1e-4, **fields)
    runs = [Solver(config, record=r).reset(data) for r in (True, "checkpoints")]
    for s in runs:
        s.step(200_000)
    assert runs[0].status_ in ("objective", "weights")
    assert runs[1].t_ == runs[0].t_ < 200_000 and runs[1].status_ == runs[0].status_


def test_record_takes_three_modes():
    with pytest.raises(ValueError, match="checkpoints"):
        Solver(SolverConfig(), record="sometimes")


def _softmax_bias_gradient(solver):
    """The gradient in b of the mean softmax loss at the iterate (w_t, b_t)."""
    F = solver.training_values(iterate=True)
    P = np.exp(F - F.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    truth = np.eye(F.shape[1])[solver.problem_.y]
    return (P - truth).mean(axis=0)


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=0.5)])
def test_a_softmax_free_bias_is_the_exact_profile_after_every_step(kernel):
    config = SolverConfig(multiclass="softmax", average="last", seed=4, kernel=kernel)
    s = Solver(config).reset(THREE)
    for _ in range(1, 300):
        s.step(1)
        assert np.abs(_softmax_bias_gradient(s)).max() < 1e-7
        assert abs(s.state_.b.sum()) < 1e-9  # (a shift of every b_k changes nothing)


@pytest.mark.parametrize("scale", [1.0, 40.0])
def test_the_softmax_profile_reaches_the_least_loss_from_a_far_bias(scale):
    """From b = (60, 0, −60): long steps, cut and checked by the loss, and exponentials
    taken anew once the shift passes REBASE; near-one-hot scores (scale 40) leave a
    Hessian that all but vanishes. The result is the least mean loss, Σ b kept."""
    from scipy.optimize import minimize

    from svmviz.core.solvers.losses import softmax

    rng = np.random.default_rng(5)
    F = rng.normal(size=(3, 200))
    y = np.where(F[0] > 0.8, 0, np.where(F[1] > 0.0, 1, 2)).astype(np.int64)

    def mean_loss(b):
        Z = scale * F.T + b
        top = Z.max(axis=1)
        return np.mean(top + np.log(np.exp(Z - top[:, None]).sum(axis=1)) - Z[np.arange(200), y])

    b = np.array([60.0, 0.0, -60.0])
    softmax.profile_bias(y, F, scale, b)
    best = minimize(mean_loss, np.zeros(3), method="BFGS", options=dict(gtol=1e-12))
    assert mean_loss(b) <= best.fun + 1e-12
    assert abs(b.sum()) < 1e-9


# far from the origin, or with a small λ: a b kept for a few steps between two profiles
# made the steps of w fit it instead, and the runs stalled at gaps of 7% to 60,000%
_R = np.random.default_rng(3)
_XF = _R.normal(size=(300, 2))
_YF = (_XF[:, 0] - _XF[:, 1] + 0.8 * _R.normal(size=300) > 0.7).astype(int)
_T = _XF[:, 0] - 0.5 * _XF[:, 1] + 0.3 * _R.normal(size=300)
FAR = {
    "binary": Dataset.from_labels(_XF + 3.0, _YF),
    "regression": Dataset.regression(_XF + 3.0, _T),
    "multiclass": Dataset.from_labels(_XF + 3.0, np.where(_XF[:, 1] > 0.6, 2, _YF)),
    # two clusters and one point of the second class near the first (scenario 09's data)
    "near": Dataset.from_labels(
        np.vstack([_XF[:20] * 0.4 + (-2.0, -1.0), _XF[20:40] * 0.4 + (2.0, 1.0), [(-1.1, 0.8)]]),
        np.r_[np.zeros(20, int), np.ones(21, int)],
    ),
}


@pytest.mark.parametrize(
    "fields, kind, lam",
    [
        (dict(), "binary", 0.01),
        (dict(loss="logistic"), "binary", 0.01),
        (dict(loss="squared_hinge"), "binary", 0.01),
        (dict(loss="squared_hinge"), "near", 1e-3),
        (dict(problem="epsilon-svr", epsilon=0.1), "regression", 0.01),
        (dict(problem="nu-svr", nu=0.5), "regression", 0.01),
        (dict(problem="nu-svc", nu=0.5), "binary", 0.01),
        (dict(multiclass="softmax"), "multiclass", 0.01),
        (dict(multiclass="softmax"), "multiclass", 1e-3),
    ],
)
def test_the_offsets_reach_the_optimum_far_from_the_origin_and_with_a_small_lambda(
    fields, kind, lam
):
    from svmviz.core.training.reference import exact_optimum

    config = SolverConfig(algorithm="pegasos", lam=lam, iterations=100_000, **fields)
    data = FAR[kind]
    s = Solver(config, record="checkpoints").reset(data)
    s.step(100_000)
    optimum = exact_optimum(config, data).objective
    gap = (s.model().extra["objective"] - optimum) / abs(optimum)
    assert -1e-9 < gap < 0.03
