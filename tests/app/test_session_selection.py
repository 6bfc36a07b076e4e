"""The session holds the selection (issue 42): random sequences of the edits the window
makes, selections (some stale: taken before an edit), undos, redos and deletes, against
the plain model of tests/core/test_edit_selection.py; ``selection_changed`` is emitted
exactly when the selection changes."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtCore")

from svmviz.app.session import Session
from svmviz.core.data import Dataset
from tests.core.test_edit_selection import Plain, check

SEQUENCES = 150
STEPS = 25
ACTIONS = (
    *("add", "add", "drag", "delete", "delete selection", "select", "select", "stale"),
    *("undo", "undo", "redo", "clear", "generate", "class", "switch", "open"),
)


def random_step(rng, s: Session, m: Plain) -> None:
    n = len(m.rows)

    def some():
        return sorted(set(rng.integers(0, n, rng.integers(1, n + 1)).tolist()))

    what = ACTIONS[rng.integers(len(ACTIONS))]
    if what == "add":
        x, y, k = *rng.normal(size=2).round(3).tolist(), int(rng.integers(0, 3))
        s.add_point(x, y, k)
        m.edit([*m.copy(), [x, y, k, False]])
    elif what == "drag" and n:
        idx = tuple(m.selection() or some())  # (a drag moves the selection, or one point)
        for step in range(int(rng.integers(1, 4))):
            d = rng.normal(size=2).round(3).tolist()
            s.move_points(idx, *d, merge=step > 0)
            moved = m.copy()
            for i in idx:
                moved[i][0] += d[0]
                moved[i][1] += d[1]
            m.edit(moved, moving=idx if step > 0 else None)
            m.moving = idx
    elif what == "delete" and n:  # a right click
        i = int(rng.integers(n))
        s.delete_points([i])
        m.edit([r for j, r in enumerate(m.copy()) if j != i])
    elif what == "delete selection":
        if m.selection():
            m.edit([r for r in m.copy() if not r[3]])
        s.delete_selection()
    elif what == "select":
        idx = some() if n and rng.random() < 0.8 else []
        s.select(idx, s.points)
        for i, r in enumerate(m.rows):
            r[3] = i in idx
    elif what == "stale" and len(m.shown):  # a view's last row, drawn before this step
        shown = m.shown
        s.select([len(shown) - 1], shown)
        if shown is s.points:  # (no edit since: selected; else ignored)
            for i, r in enumerate(m.rows):
                r[3] = i == len(shown) - 1
    elif what == "undo":
        s.undo()
        m.undo()
    elif what == "redo":
        s.redo()
        m.redo()
    elif what == "clear" and n:
        s.clear()
        m.edit([])
    elif what == "generate":
        X, y = rng.normal(size=(4, 2)).round(3), rng.integers(0, 2, 4)
        s.replace_points(X, y)
        m.edit([[*x, int(c), False] for x, c in zip(X.tolist(), y, strict=True)])
    elif what == "class":
        s.set_class(1, f"c{rng.integers(1000)}")
        m.edit(m.copy())
    elif what == "switch":
        problem = "epsilon-svr" if s.config.problem == "svc" else "svc"
        s.set_config(s.config.replace(problem=problem))
        m.edit(m.copy())
    elif what == "open":
        s.load(Dataset.from_labels(np.array([[0.0, 0.0], [1.0, 1.0]]), [0, 1]), s.config)
        m.rows, m.undos, m.redos, m.moving = (
            [[0.0, 0.0, 0, False], [1.0, 1.0, 1, False]],
            [],
            [],
            None,
        )
    if rng.random() < 0.5:
        m.shown = s.points  # (what a view draws; it catches up with the edits now and then)


def test_random_edits_through_the_session(qtbot):
    rng = np.random.default_rng(7)
    for _ in range(SEQUENCES):
        s, m = Session(), Plain()
        m.shown = s.points
        emitted = []
        s.selection_changed.connect(lambda s=s, e=emitted: e.append(s.selection))
        for _ in range(STEPS):
            before = s.selection
            random_step(rng, s, m)
            check(s, m)
            assert emitted == ([] if s.selection == before else [s.selection])
            emitted.clear()


def test_a_selection_of_points_since_edited_is_ignored():
    s = Session(Dataset.from_labels(np.arange(8.0).reshape(4, 2), [0, 1, 0, 1]))
    shown = s.points  # (what a view drew)
    s.delete_points([0])
    s.select([3], shown)  # (the view's row 3: no point now)
    assert s.selection == ()
    s.select([2], s.points)
    assert s.selection == (2,)
    s.undo()  # the delete undone: the selection it had
    assert s.selection == ()


def test_delete_deletes_exactly_the_selection():
    X = np.arange(120.0).reshape(60, 2)
    s = Session(Dataset.from_labels(X, np.arange(60) % 2))
    s.select([30])
    s.delete_points([10])
    s.delete_selection()
    assert len(s.points) == 58
    assert 60.0 not in s.points.X[:, 0] and 20.0 not in s.points.X[:, 0]
