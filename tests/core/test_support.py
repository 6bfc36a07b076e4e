"""One support-vector definition (svmviz.core.pictures.margins.support_mask,
svmviz.core.lesson.support): at the exact optimum of every problem it is the exact solver's support
(α > 0) up to the points on the margin with α = 0, counted; `svmviz train` and its model file name
the count by it, with the nonzero α beside it."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.fit import summary, train
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.support import nonzero_alpha, support_of
from svmviz.core.model_io import read_model, read_model_npz, write_model, write_model_npz
from svmviz.core.pictures.frame import frame_kind, point_alpha
from svmviz.core.pictures.margins import margin_level, margin_unit, point_margins, tolerance
from svmviz.core.problems import DECLARED
from svmviz.core.training.reference import exact_optimum

RNG = np.random.default_rng(4)
X = RNG.normal(size=(40, 2))
TWO = Dataset.from_labels(X, (X[:, 0] + 0.5 * X[:, 1] + 0.4 * RNG.normal(size=40) > 0.2) * 1)
W3 = np.array([[1.0, -1.0, 0.0], [0.0, 1.0, -1.0]])
THREE = Dataset.from_labels(X, np.argmax(X @ W3 + 0.4 * RNG.normal(size=(40, 3)), 1))
SINE = Dataset.regression(X[:, :1], np.sin(2 * X[:, 0]) + 0.2 * RNG.normal(size=40))
CLOUD = Dataset.from_labels(X, np.zeros(40, dtype=np.int64))
# every problem of svmviz.core.problems.DECLARED: (its settings, its data)
PROBLEMS = {
    "hinge": ({"loss": "hinge"}, TWO),
    "squared_hinge": ({"loss": "squared_hinge"}, TWO),
    "logistic": ({"loss": "logistic"}, TWO),
    "modified_huber": ({"loss": "modified_huber"}, TWO),
    "crammer_singer": ({"multiclass": "crammer_singer"}, THREE),
    "weston_watkins": ({"multiclass": "weston_watkins"}, THREE),
    "ovr": ({"multiclass": "ovr"}, THREE),
    "softmax": ({"multiclass": "softmax"}, THREE),
    "nu-svc": ({"problem": "nu-svc", "nu": 0.3}, TWO),
    "one-class": ({"problem": "one-class", "nu": 0.2}, CLOUD),
    "epsilon-svr": ({"problem": "epsilon-svr", "epsilon": 0.2}, SINE),
    "nu-svr": ({"problem": "nu-svr", "nu": 0.3}, SINE),
}
# no margin lines in the plane: no support vectors (every point has a gradient weight in
# the logistic and softmax losses; one-vs-rest's K binary margins are not lines of
# f_y − max f_k, the multiclass margin the plane draws)
NO_MARGIN = ("logistic", "softmax", "ovr")


def exact_support(config, data, model) -> set:
    """The points with α > 0 (above 1e-6 of the largest) at the exact optimum: the exact
    reference's dual, and for the regressions libsvm's (the reference solves the primal in
    the kernel's factor, and its coefficients over the points need not be the dual's)."""
    if config.kind != "regression":
        alpha = point_alpha(model, data.X)
        return set(np.flatnonzero(alpha > 1e-6 * alpha.max()).tolist())
    from sklearn.svm import SVR, NuSVR

    C = 1 / (config.lam * len(data.X))  # (tests/core/test_exact_problems.py's scaling)
    if config.problem == "nu-svr":
        svm = NuSVR(nu=config.nu, C=C, kernel="precomputed", tol=1e-10)
    else:
        svm = SVR(C=C, epsilon=config.epsilon, kernel="precomputed", tol=1e-10)
    svm.fit(config.kernel.gram(data.X, data.X), data.target)
    a = np.abs(svm.dual_coef_.ravel())
    return set(svm.support_[a > 1e-6 * a.max()].tolist())


def test_the_table_covers_every_declared_problem():
    assert set(PROBLEMS) == set(DECLARED)


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_at_the_optimum_the_support_is_the_exact_solvers(name):
    settings, data = PROBLEMS[name]
    config = SolverConfig(kernel=Kernel("rbf", gamma=1.0), lam=0.05, **settings)
    model = exact_optimum(config, data).model
    geometric = set(support_of(model, data).tolist())
    exact = exact_support(config, data, model)
    if name in NO_MARGIN:
        assert geometric == set() and len(exact) > 0
        return
    kind, level = frame_kind(model, data), margin_level(model)
    margins, _ = point_margins(model.decision_function(data.X), data, kind, level)
    tol = tolerance(level, kind, margin_unit(model))
    distance = np.abs(margins) - level if kind == "regression" else margins - level
    on_margin = set(np.flatnonzero(np.abs(distance) <= tol).tolist())
    # every exact support vector is one; the others lie on the margin (α = 0 there)
    assert exact <= geometric
    extra = geometric - exact
    assert extra <= on_margin
    assert len(geometric) == len(exact) + len(extra)
    assert len(exact) > 0


def test_svmviz_train_counts_by_the_margin_and_names_the_nonzero_alpha(tmp_path):
    """The issue's case: averaged SGD gives almost every point a small α; the tube's support
    vectors are the points on its edge or outside."""
    config = SolverConfig(
        problem="epsilon-svr", epsilon=0.2, kernel=Kernel("rbf", gamma=1.0), iterations=2000
    )
    result = train(config, SINE)
    model = result.model
    count = len(support_of(model, SINE))
    record = model.extra["support_count"]
    assert record["count"] == count and record["of"] == 40
    assert record["rule"] == "|y − f| ≥ ε (within 1% of max(ε, 1))"
    alpha = nonzero_alpha(model)
    assert record["nonzero_alpha"] == alpha
    assert count < alpha  # not the same count, and both are named
    text = summary(result, SINE, "sine.csv")
    assert f"support vectors: {count} of 40 (|y − f| ≥ ε" in text
    assert f"nonzero α: {alpha} of 40" in text
    for name, write, read in (
        ("m.json", write_model, read_model),
        ("m.npz", write_model_npz, read_model_npz),
    ):
        write(tmp_path / name, model)
        again = read(tmp_path / name)
        assert again.extra["support_count"] == record  # (beside the model's own arrays)
        np.testing.assert_array_equal(again.support_vectors, model.support_vectors)


def test_a_linear_logistic_run_has_no_support_vectors_and_says_why():
    result = train(SolverConfig(loss="logistic", iterations=300), TWO)
    assert result.model.extra["support_count"]["count"] == 0
    text = summary(result, TWO, "two.csv")
    assert "support vectors: 0 of 40 (none (no margin: every point has a gradient" in text
    assert "nonzero α" not in text  # a linear model keeps w, no α
