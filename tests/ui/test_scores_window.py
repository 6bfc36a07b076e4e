"""The Generalization tab's readings in the window equal a direct computation from the
model's decision values on the points: the confusion matrices (binary and multiclass, with
a test split and without), the Δ-weighted cost, the AUC and the ROC's operating point."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import TEST, TRAIN, Split


def counted(y, pred, K):
    M = np.zeros((K, K), dtype=np.int64)
    np.add.at(M, (y, pred), 1)
    return M


def trained_readings(w, qtbot, wait_frame, page: int):
    """Run to the budget with the Generalization tab's ``page`` on screen, and its
    readings of the last frame."""
    w.docks["generalization"].raise_()
    w.generalization.pages.setCurrentIndex(page)
    w.run_to_budget()
    snap = wait_frame(w, lambda s: s.status == "budget")
    qtbot.waitUntil(lambda: w.generalization._shown is w.snapshot, timeout=10000)
    return w.snapshot if w.snapshot is not None else snap, w.generalization.readings


@pytest.mark.parametrize("split", [False, True])
def test_binary_confusion_auc_and_operating_point(qtbot, make_window, wait_frame, moons, split):
    w = make_window(moons, kernel=Kernel("rbf", gamma=1.0), iterations=2000, show=True)
    if split:
        w.session.set_split(Split(0.3, seed=3))
        wait_frame(w, lambda s: s.test_error is not None)
    snap, r = trained_readings(w, qtbot, wait_frame, page=0)
    data, parts = w.session.dataset(), w.session.parts()
    f = snap.model.decision_function(data.X)
    train = np.ones(len(f), bool) if parts is None else parts == TRAIN
    M = counted(data.y[train], (f[train] > 0).astype(int), 2)
    assert np.array_equal(r.train, M)
    assert np.array_equal(w.generalization.matrices.tables[0].matrix, M)
    assert f"error {100 * (1 - np.trace(M) / M.sum()):.1f}%" in (
        w.generalization.matrices.titles[0].text()
    )
    if split:
        test = parts == TEST
        assert np.array_equal(r.test, counted(data.y[test], (f[test] > 0).astype(int), 2))
        assert r.roc_of == "test"
        pick = test
    else:
        assert r.test is None and r.roc_of == "training"
        pick = train
    y, fp = data.y[pick], f[pick]
    pos, neg = fp[y == 1], fp[y == 0]
    auc = np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :]))
    assert r.roc.auc == pytest.approx(auc)
    # the ROC page: its curve and the model at f = 0 on it
    w.generalization.pages.setCurrentIndex(1)
    roc = w.generalization.roc
    qtbot.waitUntil(roc.isVisible)
    point = (np.mean(neg > 0), np.mean(pos > 0))
    assert (roc.point.xData[0], roc.point.yData[0]) == pytest.approx(point)
    assert f"AUC {auc:.3f}" in roc.title.text()
    assert f"{100 * point[1]:.0f}% true positives" in roc.title.toolTip()
    assert w.generalization.pages.tabText(1) == "ROC"


@pytest.mark.parametrize("split", [False, True])
def test_multiclass_confusion_and_delta_weighted_cost(
    qtbot, make_window, wait_frame, blobs3, split
):
    w = make_window(blobs3, iterations=2000, show=True)
    D = np.array([[0.0, 1.0, 4.0], [1.0, 0.0, 2.0], [4.0, 2.0, 0.0]])
    w.session.set_cost(w.session.present_classes(), D)
    if split:
        w.session.set_split(Split(0.25, seed=1))
    wait_frame(w, lambda s: s.generation == w.controller.generation)
    assert w.session.job_config().cost is not None
    snap, r = trained_readings(w, qtbot, wait_frame, page=0)
    data, parts = w.session.dataset(), w.session.parts()
    F = snap.model.decision_function(data.X)
    sets = [np.ones(len(F), bool) if parts is None else parts == TRAIN]
    if split:
        sets.append(parts == TEST)
    else:
        assert r.test is None
    for k, mask in enumerate(sets):
        pred = F[mask].argmax(1)
        M = counted(data.y[mask], pred, 3)
        assert np.array_equal(r.train if k == 0 else r.test, M)
        assert np.array_equal(w.generalization.matrices.tables[k].matrix, M)
        cost = np.mean(D[data.y[mask], pred])
        assert f"Δ-cost {cost:.3g}" in w.generalization.matrices.titles[k].text()
    assert r.roc is None
    assert not w.generalization.pages.isTabVisible(1)  # no ROC curve for three classes
