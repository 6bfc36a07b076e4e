"""The selection is part of the edit model (issue 42): every edit carries it to the new
points, Delete deletes exactly the points selected, undo brings back the selection the edit
had and redo the one after. Random sequences run against a plain model: a list of points
that each carry a selected flag, with whole copies of it as the undo and redo stacks."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.edits import (
    Append,
    DeleteIndices,
    EditHistory,
    Move,
    Points,
    Replace,
    SetClass,
    SwitchProblem,
)

SEQUENCES = 1000
STEPS = 30
CONFIG = SolverConfig()
ACTIONS = (
    *("add", "add", "move", "drag", "delete", "delete selection", "select", "select"),
    *("undo", "undo", "redo", "replace", "clear", "class", "switch", "start"),
)


class Plain:
    """The edit model in the plainest terms: rows [x, y, class, selected]."""

    def __init__(self):
        self.rows: list[list] = []
        self.undos: list[list] = []
        self.redos: list[list] = []
        self.moving = None  # the indices of the Move just done (a drag continues it)

    def copy(self) -> list:
        return [list(r) for r in self.rows]

    def edit(self, rows: list, moving=None) -> None:
        """The rows after an edit; a drag's next Move (``moving``) is the same undo step."""
        if moving is None or moving != self.moving:
            self.undos.append(self.copy())
        self.rows = rows
        self.redos.clear()
        self.moving = moving

    def undo(self) -> None:
        if self.undos:
            self.redos.append(self.copy())
            self.rows = self.undos.pop()
        self.moving = None

    def redo(self) -> None:
        if self.redos:
            self.undos.append(self.copy())
            self.rows = self.redos.pop()
        self.moving = None

    def selection(self) -> tuple:
        return tuple(i for i, r in enumerate(self.rows) if r[3])


def check(h: EditHistory, m: Plain) -> None:
    assert len(h.points) == len(m.rows)
    if m.rows:
        assert np.abs(h.points.X - [r[:2] for r in m.rows]).max() <= 1e-9
        assert h.points.y.tolist() == [r[2] for r in m.rows]
    assert h.selection == m.selection()
    assert h.can_undo == bool(m.undos) and h.can_redo == bool(m.redos)


def new_rows(rng, k: int) -> tuple:
    """k random points: (X, y) and their rows, unselected."""
    X, y = rng.normal(size=(k, 2)).round(3), rng.integers(0, 3, k)
    return X, y, [[*x, int(c), False] for x, c in zip(X.tolist(), y, strict=True)]


def random_step(rng, h: EditHistory, m: Plain) -> None:
    n = len(m.rows)

    def some():
        return tuple(sorted(set(rng.integers(0, n, rng.integers(1, n + 1)).tolist())))

    what = ACTIONS[rng.integers(len(ACTIONS))]
    if what == "add":
        X, y, rows = new_rows(rng, int(rng.integers(1, 4)))
        h.do(Append(X, y))
        m.edit(m.copy() + rows)
    elif what in ("move", "drag") and n:
        drag = what == "drag" and m.moving is not None
        idx = m.moving if drag else some()
        d = tuple(rng.normal(size=2).round(3).tolist())
        h.do(Move(idx, d), merge=what == "drag")
        moved = m.copy()
        for i in idx:
            moved[i][0] += d[0]
            moved[i][1] += d[1]
        m.edit(moved, moving=idx if drag else None)
        m.moving = idx
    elif what == "delete" and n:
        idx = some()
        h.do(DeleteIndices(idx))
        m.edit([r for i, r in enumerate(m.copy()) if i not in idx])
    elif what == "delete selection" and m.selection():
        h.do(DeleteIndices(h.selection))
        m.edit([r for r in m.copy() if not r[3]])
    elif what == "select":
        idx = some() if n and rng.random() < 0.8 else ()
        h.select(idx)
        for i, r in enumerate(m.rows):
            r[3] = i in idx
    elif what == "undo":
        h.undo()
        m.undo()
    elif what == "redo":
        h.redo()
        m.redo()
    elif what in ("replace", "clear"):
        X, y, rows = new_rows(rng, int(rng.integers(1, 5)) if what == "replace" else 0)
        h.do(Replace(Points.of(X, y)))
        m.edit(rows)
    elif what == "class":
        h.do(SetClass(0, f"c{rng.integers(100)}", "#123456"))
        m.edit(m.copy())
    elif what == "switch":
        same = h.points.with_xy(h.points.X, h.points.y) if rng.random() < 0.5 else None
        h.do(SwitchProblem(CONFIG, CONFIG, same))
        m.edit(m.copy())
    elif what == "start":
        h.start(Points.of([[0.0, 0.0]], [1]))
        m.rows, m.undos, m.redos, m.moving = [[0.0, 0.0, 1, False]], [], [], None


def test_random_edits_keep_the_points_and_the_selection():
    rng = np.random.default_rng(42)
    for _ in range(SEQUENCES):
        h, m = EditHistory(), Plain()
        for _ in range(STEPS):
            random_step(rng, h, m)
            check(h, m)


def test_delete_after_a_delete_removes_the_point_selected():
    """The tester's first report: select point 30, remove point 10, Delete."""
    h = EditHistory(Points.of(np.arange(120.0).reshape(60, 2), np.arange(60) % 2))
    h.select([30])
    h.do(DeleteIndices((10,)))
    assert h.selection == (29,)
    h.do(DeleteIndices(h.selection))
    assert 60.0 not in h.points.X[:, 0] and 20.0 not in h.points.X[:, 0]
    assert h.selection == ()
    h.undo()
    assert h.selection == (29,) and 60.0 in h.points.X[:, 0]


def test_undo_of_an_add_drops_the_added_point_from_the_selection():
    """The tester's second report: add a point, select it, undo, Delete."""
    h = EditHistory(Points.of(np.zeros((60, 2)), np.zeros(60)))
    h.do(Append(np.array([[5.0, 5.0]]), np.array([1])))
    h.select([60])
    h.undo()
    assert h.selection == ()  # (the selection the add had)
    h.redo()
    assert h.selection == (60,)  # (the one after it)


def test_indices_of_no_point_are_refused():
    h = EditHistory(Points.of(np.zeros((3, 2)), np.zeros(3)))
    for bad in ([3], [-1]):
        with pytest.raises(IndexError):
            h.select(bad)
        with pytest.raises(IndexError):
            h.do(DeleteIndices(tuple(bad)))
        with pytest.raises(IndexError):
            h.do(Move(tuple(bad), (1.0, 0.0)))
    assert len(h.points) == 3 and not h.can_undo


def test_a_drag_continues_only_the_move_just_done():
    h = EditHistory(Points.of(np.zeros((2, 2)), np.zeros(2)))
    h.do(Move((0,), (1.0, 0.0)))
    h.undo()
    h.redo()
    h.do(Move((0,), (1.0, 0.0)), merge=True)  # after an undo and a redo: a new step
    h.undo()
    np.testing.assert_allclose(h.points.X[0], [1.0, 0.0])
