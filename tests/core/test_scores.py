"""How well a model does (svmviz.core.lesson.scores) against a direct numpy count."""

import numpy as np
import pytest

from svmviz.core.lesson import scores


def counted(y, pred, K):
    """The confusion matrix by counting pairs."""
    M = np.zeros((K, K), dtype=np.int64)
    np.add.at(M, (y, pred), 1)
    return M


def test_confusion_of_binary_and_multiclass_values_is_the_count_of_pairs():
    rng = np.random.default_rng(0)
    y2 = rng.integers(0, 2, 50)
    f = rng.normal(size=50) + (2 * y2 - 1)
    assert np.array_equal(scores.confusion(y2, f, 2), counted(y2, (f > 0).astype(int), 2))
    y3 = rng.integers(0, 4, 60)
    F = rng.normal(size=(60, 4))
    F[np.arange(60), y3] += 1.0
    assert np.array_equal(scores.confusion(y3, F, 4), counted(y3, F.argmax(1), 4))
    # a class with no point keeps its row and column
    assert scores.confusion(np.zeros(3, int), np.ones((3, 3)) * [0, 0, 1], 3).shape == (3, 3)


def test_the_weighted_cost_is_the_mean_of_delta_over_the_predictions():
    M = np.array([[5, 1, 0], [2, 3, 1], [0, 0, 4]])
    D = np.array([[0, 1, 4], [1, 0, 2], [4, 2, 0]], dtype=float)
    y = np.repeat([0, 0, 1, 1, 1, 2], [5, 1, 2, 3, 1, 4])
    p = np.array([0] * 5 + [1] + [0] * 2 + [1] * 3 + [2] + [2] * 4)
    assert scores.weighted_cost(M, D) == pytest.approx(np.mean(D[y, p]))
    zero_one = 1 - np.eye(3)
    assert scores.weighted_cost(M, zero_one) == pytest.approx(1 - np.trace(M) / M.sum())


def test_roc_auc_is_the_share_of_ordered_pairs_and_its_point_is_the_rates_at_f_0():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 80)
    f = rng.normal(size=80) + 0.8 * (2 * y - 1)
    r = scores.roc(y, f)
    pos, neg = f[y == 1], f[y == 0]
    pairs = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    assert r.auc == pytest.approx(pairs.mean())
    fpr, tpr = np.mean(f[y == 0] > 0), np.mean(f[y == 1] > 0)
    assert r.point == pytest.approx((fpr, tpr))
    # the point is on the curve
    assert np.any(np.isclose(r.fpr, fpr) & np.isclose(r.tpr, tpr))


def test_roc_point_when_no_value_is_positive_or_all_are():
    y = np.array([0, 1, 0, 1])
    assert scores.roc(y, np.array([-3.0, -1, -2, -0.5])).point == (0.0, 0.0)
    assert scores.roc(y, np.array([3.0, 1, 2, 0.5])).point == (1.0, 1.0)
    assert scores.roc(np.ones(4, int), np.arange(4.0)) is None  # one class: no curve


def test_mae_and_one_class_shares():
    r = np.array([0.5, -1.5, 2.0, 0.0])
    assert scores.mean_absolute_error(r) == pytest.approx(1.0)
    f = np.array([-1.0, 0.0, 0.5, -0.2, 2.0])
    assert scores.outlier_share(f) == pytest.approx(2 / 5)
    assert scores.support_share(f) == pytest.approx(3 / 5)
