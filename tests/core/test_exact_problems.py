"""The exact reference of every problem, checked against independent solvers.

The scalings (C = 1/(λm) throughout; each library's objective is a multiple of ours):

* SVC, SVR, NuSVR (libsvm, precomputed kernel): ½‖w‖² + C Σ ξ (NuSVR: + C·νmε) is 1/λ
  times ours: the same w, intercept and, for NuSVR, ε = |y − f| on its free support
  vectors (0 < |α| < C).
* NuSVC (libsvm): it returns the ν-SVC solution divided by ρ (margin made 1), dual_coef
  y_i α_i/ρ with Σ α_i = ν, so ours is ρ times its w and intercept. Its own ρ,
  ν/Σ|dual_coef|, rests on averages over free support vectors (to about 1e-3); the exact
  scale of its direction is ρ = (ν − mean max(0, 1 − y f))/‖w‖², the minimizer of our
  objective along it (½ρ²‖w‖² − νρ + ρ·mean hinge).
* OneClassSVM (libsvm): it solves our problem scaled by νm (α ∈ [0, 1], Σ α = νm), so
  its dual_coef and its offset ρ (intercept_ = −ρ) are νm times ours.
* LogisticRegression (lbfgs, unpenalized intercept): ½‖w‖² + C Σ ℓ, our logistic (and
  multinomial: softmax) with a free bias; LinearSVC (squared_hinge, no intercept):
  ½‖w‖² + C Σ ξ², our squared hinge without a bias.
* One-vs-rest with free biases is K independent binary hinge SVMs: SVC on class k vs rest.

Each library's solution is made a Model and evaluated by our objective: the values agree.
ν is chosen so that νm/2 (νm for one-class) is not whole: otherwise ρ, ε and b are order
statistics that may lie anywhere between two scores (the same objective on an interval).
"""

import warnings

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import Model
from svmviz.core.objectives import model_objective
from svmviz.core.training.reference import exact_optimum

KERNELS = [Kernel(), Kernel("rbf", gamma=0.8)]
LAM = 0.05


def _rng():
    return np.random.default_rng(7)


@pytest.fixture(scope="module")
def binary():
    rng = _rng()
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] + 0.5 * X[:, 1] + 0.4 * rng.normal(size=60) > 0.2).astype(int)
    return Dataset.from_labels(X, y)


@pytest.fixture(scope="module")
def three():
    rng = _rng()
    X = rng.normal(size=(60, 2))
    y = np.argmax(
        X @ np.array([[1.0, -1.0, 0.0], [0.0, 1.0, -1.0]]) + 0.4 * rng.normal(size=(60, 3)), 1
    )
    return Dataset.from_labels(X, y)


@pytest.fixture(scope="module")
def regression():
    rng = _rng()
    X = rng.uniform(-2, 2, size=(60, 2))
    return Dataset.regression(X, np.sin(X[:, 0]) + 0.3 * X[:, 1] + 0.1 * rng.normal(size=60))


@pytest.fixture(scope="module")
def cloud():
    """Points away from the origin (a linear one-class SVM separates them from it)."""
    rng = _rng()
    return Dataset.from_labels(rng.normal(size=(50, 2)) * 0.6 + [2.0, 1.0], np.zeros(50, int))


def _certified(ref):
    assert ref.lower <= ref.objective
    assert ref.objective - ref.lower <= 1e-6 * max(1.0, abs(ref.objective))


def _kernel_model(ref, data, dual, intercept, **fields):
    """A libsvm answer on the precomputed kernel as a Model on every training point."""
    m = ref.model
    common = dict(classes=m.classes, kernel=m.kernel, lam=m.lam, bias="free", problem=m.problem)
    common.update(loss=m.loss, epsilon=m.epsilon, nu=m.nu, rho=m.rho)
    common.update(fields)
    return Model(
        support_vectors=data.X.copy(),
        dual_coef=np.atleast_2d(dual),
        intercept=np.atleast_1d(np.asarray(intercept, dtype=float)),
        **common,
    )


def _full(svm, m):
    a = np.zeros((svm.dual_coef_.shape[0], m))
    a[:, svm.support_] = svm.dual_coef_
    return a


def _quiet():
    from sklearn.exceptions import ConvergenceWarning

    warnings.simplefilter("ignore", ConvergenceWarning)


@pytest.mark.parametrize("kernel", KERNELS)
def test_svc_and_svr_match_libsvm(kernel, binary, regression):
    from sklearn.svm import SVC, SVR

    for data, make, cfg in (
        (binary, SVC, SolverConfig(kernel=kernel, lam=LAM)),
        (regression, SVR, SolverConfig(problem="epsilon-svr", kernel=kernel, lam=LAM, epsilon=0.2)),
    ):
        m = data.X.shape[0]
        ref = exact_optimum(cfg, data)
        _certified(ref)
        extra = {"epsilon": cfg.epsilon} if make is SVR else {}
        svm = make(C=1 / (LAM * m), kernel="precomputed", tol=1e-10, **extra)
        svm.fit(kernel.gram(data.X, data.X), data.y if make is SVC else data.target)
        theirs = _kernel_model(ref, data, _full(svm, m), svm.intercept_)
        obj = model_objective(theirs, data.X, data.y, target=data.target)["objective"]
        assert ref.objective == pytest.approx(obj, rel=1e-4)
        assert ref.objective <= obj + 1e-9
        assert ref.model.intercept[0] == pytest.approx(svm.intercept_[0], rel=1e-3, abs=1e-4)


@pytest.mark.parametrize("kernel", KERNELS)
def test_nu_svr_matches_libsvm(kernel, regression):
    from sklearn.svm import NuSVR

    data, m, nu = regression, regression.X.shape[0], 0.37
    cfg = SolverConfig(problem="nu-svr", kernel=kernel, lam=LAM, nu=nu)
    ref = exact_optimum(cfg, data)
    _certified(ref)
    C = 1 / (LAM * m)
    svm = NuSVR(nu=nu, C=C, kernel="precomputed", tol=1e-10)
    svm.fit(kernel.gram(data.X, data.X), data.target)
    a = np.abs(svm.dual_coef_.ravel())
    free = svm.support_[(a > 1e-6 * C) & (a < C * (1 - 1e-6))]
    eps = float(np.mean(np.abs(data.target - svm.predict(kernel.gram(data.X, data.X)))[free]))
    theirs = _kernel_model(ref, data, _full(svm, m), svm.intercept_, epsilon=eps)
    obj = model_objective(theirs, data.X, data.y, target=data.target)["objective"]
    assert ref.objective == pytest.approx(obj, rel=1e-4)
    assert ref.model.epsilon == pytest.approx(eps, rel=1e-3)
    assert ref.model.intercept[0] == pytest.approx(svm.intercept_[0], rel=1e-3, abs=1e-4)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("bias", ["free", "none"])
def test_nu_svc_matches_libsvm(kernel, bias, binary):
    from sklearn.svm import NuSVC

    data, m, nu = binary, binary.X.shape[0], 0.45
    ref = exact_optimum(SolverConfig(problem="nu-svc", kernel=kernel, nu=nu, bias=bias), data)
    _certified(ref)
    assert ref.model.lam == 1.0 and ref.model.rho > 0
    if bias == "none":  # (libsvm always has a free bias)
        return
    svm = NuSVC(nu=nu, kernel="precomputed", tol=1e-10)
    svm.fit(kernel.gram(data.X, data.X), data.y)
    # the best scale of libsvm's direction: ρ = argmin ½ρ²‖w‖² − νρ + ρ·mean hinge(f)
    unit = _kernel_model(ref, data, _full(svm, m), svm.intercept_, rho=1.0)
    hinge = np.maximum(0, 1 - np.where(data.y == 1, 1, -1) * unit.decision_function(data.X))
    rho = (nu - hinge.mean()) / unit.norm2()
    assert rho == pytest.approx(nu / np.abs(svm.dual_coef_).sum(), rel=1e-2)  # libsvm's ρ
    theirs = _kernel_model(ref, data, rho * _full(svm, m), rho * svm.intercept_, rho=rho)
    obj = model_objective(theirs, data.X, data.y)["objective"]
    assert ref.objective == pytest.approx(obj, rel=1e-4)
    assert ref.model.rho == pytest.approx(rho, rel=1e-3)
    assert ref.model.intercept[0] == pytest.approx(rho * svm.intercept_[0], rel=1e-3, abs=1e-4)


@pytest.mark.parametrize("kernel", KERNELS)
def test_one_class_matches_libsvm(kernel, cloud):
    from sklearn.svm import OneClassSVM

    data, m, nu = cloud, cloud.X.shape[0], 0.31
    ref = exact_optimum(SolverConfig(problem="one-class", kernel=kernel, nu=nu), data)
    _certified(ref)
    assert ref.model.classes == () and ref.model.intercept[0] == -ref.model.rho
    svm = OneClassSVM(nu=nu, kernel="precomputed", tol=1e-10)
    svm.fit(kernel.gram(data.X, data.X))
    scale = nu * m
    rho = -svm.intercept_[0] / scale
    theirs = _kernel_model(ref, data, _full(svm, m) / scale, [-rho], rho=rho)
    obj = model_objective(theirs, data.X, data.y)["objective"]
    assert ref.objective == pytest.approx(obj, rel=1e-4)
    assert ref.model.rho == pytest.approx(rho, rel=1e-3)


def test_logistic_and_softmax_match_scikit_learn(binary, three):
    from sklearn.linear_model import LogisticRegression

    for data, loss in ((binary, dict(loss="logistic")), (three, dict(multiclass="softmax"))):
        m = data.X.shape[0]
        ref = exact_optimum(SolverConfig(lam=LAM, **loss), data)
        _certified(ref)
        lr = LogisticRegression(C=1 / (LAM * m), tol=1e-12, max_iter=10000).fit(data.X, data.y)
        theirs = Model(
            classes=data.classes,
            kernel=Kernel(),
            lam=LAM,
            bias="free",
            coef=lr.coef_,
            intercept=lr.intercept_,
            loss=ref.model.loss,
        )
        obj = model_objective(theirs, data.X, data.y)["objective"]
        assert ref.objective == pytest.approx(obj, rel=1e-6)
        assert ref.objective <= obj + 1e-9


def test_squared_hinge_matches_liblinear(binary):
    from sklearn.svm import LinearSVC

    m = binary.X.shape[0]
    ref = exact_optimum(SolverConfig(loss="squared_hinge", bias="none", lam=LAM), binary)
    _certified(ref)
    svm = LinearSVC(C=1 / (LAM * m), fit_intercept=False, tol=1e-12, max_iter=100000)
    with warnings.catch_warnings():
        _quiet()
        svm.fit(binary.X, binary.y)
    assert ref.model.coef.ravel() == pytest.approx(svm.coef_.ravel(), rel=1e-4, abs=1e-6)
    theirs = Model(
        classes=binary.classes,
        kernel=Kernel(),
        lam=LAM,
        bias="none",
        coef=svm.coef_,
        intercept=np.zeros(1),
        loss="squared_hinge",
    )
    assert ref.objective == pytest.approx(model_objective(theirs, binary.X, binary.y)["objective"])


@pytest.mark.parametrize("kernel", KERNELS)
def test_one_vs_rest_is_k_binary_svms(kernel, three):
    from sklearn.svm import SVC

    m = three.X.shape[0]
    ref = exact_optimum(SolverConfig(multiclass="ovr", kernel=kernel, lam=LAM), three)
    _certified(ref)
    total = 0.0
    for k in range(3):
        yk = (three.y == k).astype(int)
        data = Dataset.from_labels(three.X, yk)
        svm = SVC(C=1 / (LAM * m), kernel="precomputed", tol=1e-10)
        svm.fit(kernel.gram(three.X, three.X), yk)
        theirs = Model(
            classes=("0", "1"),
            kernel=kernel,
            lam=LAM,
            bias="free",
            support_vectors=three.X.copy(),
            dual_coef=_full(svm, m),
            intercept=svm.intercept_,
        )
        total += model_objective(theirs, data.X, data.y)["objective"]
        assert ref.model.intercept[k] == pytest.approx(svm.intercept_[0], rel=1e-3, abs=1e-4)
    assert ref.objective == pytest.approx(total, rel=1e-4)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("bias", ["free", "regularized", "none"])
def test_every_reference_is_certified(kernel, bias, binary, three, regression, cloud):
    cases = [
        (dict(loss="squared_hinge"), binary),
        (dict(loss="logistic"), binary),
        (dict(multiclass="weston_watkins", cost=((0, 1, 2), (1, 0, 1), (2, 1, 0))), three),
        (dict(multiclass="ovr"), three),
        (dict(multiclass="softmax"), three),
        (dict(problem="epsilon-svr"), regression),
        (dict(problem="nu-svr"), regression),
        (dict(problem="one-class"), cloud),
        (dict(problem="nu-svc"), binary),
    ]
    for fields, data in cases:
        cfg = SolverConfig(kernel=kernel, bias=bias, lam=LAM, algorithm="sgd", **fields)
        ref = exact_optimum(cfg, data)
        _certified(ref)
        assert ref.model.problem == cfg.problem
        if cfg.kind != "svc":
            assert ref.model.classes == ()
        if cfg.multiclass in ("weston_watkins", "softmax") and bias == "free":
            assert abs(ref.model.intercept.sum()) < 1e-6  # the shift-invariant b, centred


def test_infeasible_nu_is_refused(binary):
    y = np.r_[np.zeros(8, int), np.ones(32, int)]  # m₊ = 32, m₋ = 8: ν ≤ 0.4
    data = Dataset.from_labels(binary.X[:40], y)
    with pytest.raises(InputError, match=r"^ν = 0.9 is infeasible for ν-SVC .* = 0.4$"):
        exact_optimum(SolverConfig(problem="nu-svc", nu=0.9), data)
    ref = exact_optimum(SolverConfig(problem="nu-svc", nu=0.4), data)  # the bound itself
    _certified(ref)


@pytest.mark.parametrize("kernel", KERNELS)
def test_lambda_zero_has_a_reference(kernel):
    """λ = 0 on separable data: the smooth losses' infimum 0 is at ‖w‖ → ∞ (a box on w
    keeps the interior point finite), the piecewise-linear ones make a linear program."""
    rng = _rng()
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(int)
    X[:, 0] += np.where(y == 1, 0.5, -0.5)
    sep = Dataset.from_labels(X, y)
    line = Dataset.regression(X, 2 * X[:, 0] - X[:, 1])
    for fields, data in (
        (dict(loss="logistic"), sep),
        (dict(loss="squared_hinge"), sep),
        (dict(multiclass="softmax"), Dataset.from_labels(X, np.digitize(X[:, 0], [-0.8, 0.8]))),
        (dict(problem="epsilon-svr"), line),
    ):
        cfg = SolverConfig(lam=0.0, algorithm="sgd", kernel=kernel, **fields)
        ref = exact_optimum(cfg, data)
        _certified(ref)
        assert ref.objective == pytest.approx(0.0, abs=1e-8)


@pytest.mark.parametrize(
    "fields",
    [
        dict(loss="squared_hinge"),
        dict(loss="logistic"),
        dict(multiclass="weston_watkins"),
        dict(multiclass="ovr"),
        dict(multiclass="softmax"),
        dict(problem="epsilon-svr"),
        dict(problem="nu-svr", nu=0.37),
        dict(problem="one-class", nu=0.31),
        dict(problem="nu-svc", nu=0.45),
    ],
)
def test_no_solver_iterate_is_below_the_optimum(fields, binary, three, regression, cloud):
    """The iterative solver's objective (the same definition) stays above the reference
    and comes close to it."""
    from svmviz.core.solvers import Solver

    cfg = SolverConfig(lam=LAM, algorithm="gd", iterations=3000, **fields)
    data = {"svc": binary, "regression": regression, "one-class": cloud}[cfg.kind]
    if cfg.problem == "svc" and "multiclass" in fields:
        data = three
    ref = exact_optimum(cfg, data)
    s = Solver(cfg).reset(data)
    s.step(3000)
    best = np.nanmin(s.history_["objective"])
    assert ref.objective - 1e-8 <= best <= ref.objective + 1e-2 * max(1.0, abs(ref.objective))


def test_a_badly_scaled_softmax_program_is_still_solved():
    """Kernel values of 1e13 against λ = 1e-3 stalled Clarabel (InsufficientProgress; a
    case the property tests drew): the retry with more regularization solves it, and its
    bound certifies it."""

    X = np.zeros((15, 2))
    X[12], X[13], X[14] = (0, 2000), (0, 3000), (1000, 0)
    y = np.array([0, 1] + [0] * 12 + [2])
    config = SolverConfig(
        multiclass="softmax",
        lam=0.001,
        bias="regularized",
        kernel=Kernel("poly", degree=2, coef0=1.0),
    )
    ref = exact_optimum(config, Dataset(X, y, ("0", "1", "2")))
    assert ref.lower <= ref.objective <= ref.lower + 1e-5 * abs(ref.objective)
