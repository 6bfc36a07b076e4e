import numpy as np

from svmviz.core.edits import Append, DeleteIndices, EditHistory, Move, Points, Replace


def same(a: Points, b: Points):
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)


def test_every_edit_undoes_and_redoes_exactly():
    h = EditHistory()
    states = [h.points]
    for cmd in (
        Append(np.array([[0.0, 1.0], [2.0, 3.0]]), np.array([0, 1])),
        Append(np.array([[4.0, 5.0]]), np.array([2])),
        Move((0, 2), (0.5, -0.5)),
        DeleteIndices((1,)),
        Replace(Points.empty()),
        Append(np.array([[9.0, 9.0]]), np.array([1])),
    ):
        states.append(h.do(cmd))
    for expected in reversed(states[:-1]):
        same(h.undo(), expected)
    assert not h.can_undo
    for expected in states[1:]:
        same(h.redo(), expected)
    assert not h.can_redo


def test_delete_then_undo_restores_positions():
    h = EditHistory(Points.of([[0, 0], [1, 1], [2, 2], [3, 3]], [0, 1, 0, 1]))
    h.do(DeleteIndices((3, 1)))
    same(h.points, Points.of([[0, 0], [2, 2]], [0, 0]))
    same(h.undo(), Points.of([[0, 0], [1, 1], [2, 2], [3, 3]], [0, 1, 0, 1]))


def test_a_drag_is_one_undo_step():
    h = EditHistory(Points.of([[0, 0], [1, 1]], [0, 1]))
    h.do(Move((1,), (0.1, 0.0)))
    for _ in range(9):
        h.do(Move((1,), (0.1, 0.0)), merge=True)
    np.testing.assert_allclose(h.points.X[1], [2.0, 1.0])
    h.undo()
    np.testing.assert_allclose(h.points.X[1], [1.0, 1.0])
    assert not h.can_undo


def test_a_new_edit_clears_redo_and_points_are_immutable():
    h = EditHistory()
    h.do(Append(np.array([[1.0, 2.0]]), np.array([0])))
    h.undo()
    h.do(Append(np.array([[3.0, 4.0]]), np.array([1])))
    assert not h.can_redo
    assert not h.points.X.flags.writeable


def test_a_new_document_leaves_nothing_to_undo_or_redo():
    h = EditHistory()
    h.do(Append(np.array([[0.0, 1.0]]), np.array([0])))
    h.do(Append(np.array([[2.0, 3.0]]), np.array([1])))
    h.undo()
    assert h.can_undo
    assert h.can_redo
    opened = Points.of([[5.0, 5.0]], [2], names=("a", "b", "c", *"defghi"))
    h.start(opened)
    assert not h.can_undo
    assert not h.can_redo
    assert h.undo() is opened
    assert h.redo() is opened


def test_the_edits_done_are_those_not_undone():
    h = EditHistory()
    add = Append(np.array([[0.0, 1.0]]), np.array([0]))
    h.do(add)
    h.do(Move((0,), (1.0, 0.0)))
    h.do(Move((0,), (0.5, 0.0)), merge=True)  # (a drag: one Move)
    assert [type(c) for c in h.done] == [Append, Move]
    assert h.done[1].delta == (1.5, 0.0)
    h.undo()
    assert h.done == (add,)
    h.start(Points.empty())
    assert h.done == ()


def test_settings_are_edits_and_a_drag_of_them_is_one():
    from svmviz.core.config import SolverConfig
    from svmviz.core.edits import SetSettings

    a, b, c = (SolverConfig(lam=lam) for lam in (0.01, 0.1, 1.0))
    h = EditHistory()
    h.do(Move((), (1.0, 0.0)))
    h.do(SetSettings(b, a))
    h.do(SetSettings(c, b), merge=True)  # (the same drag of the λ slider)
    assert len(h.done) == 2 and h.done[-1] == SetSettings(c, a)
    h.undo()
    assert h.applied == SetSettings(a, c)
    h.redo()
    assert h.applied == SetSettings(c, a)
    h.do(Move((), (1.0, 0.0)), merge=True)  # a Move does not continue a setting
    assert len(h.done) == 3
