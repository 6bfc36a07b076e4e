"""The targets of a regression on 2-D inputs: carried by every edit and by session files
(issue 24)."""

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
    SwitchProblem,
)
from svmviz.core.errors import InputError
from svmviz.core.files.session_file import SessionFile, read_session, write_session


def start():
    return Points.of([[0, 0], [1, 1], [2, 2]], [0, 0, 0], target=[0.5, 1.5, 2.5])


def test_every_edit_carries_the_targets_and_undo_restores_them():
    h = EditHistory(start())
    h.do(Append(np.array([[3.0, 3.0]]), np.array([0]), np.array([3.5])))
    assert h.points.target.tolist() == [0.5, 1.5, 2.5, 3.5]
    h.do(DeleteIndices((0, 2)))
    assert h.points.target.tolist() == [1.5, 3.5]
    h.do(Move((0,), (1.0, 0.0)))
    assert h.points.target.tolist() == [1.5, 3.5] and h.points.X[0].tolist() == [2.0, 1.0]
    h.do(Replace(Points.of([[9, 9]], [0], target=[-1.0])))
    assert h.points.target.tolist() == [-1.0]
    for expected in ([1.5, 3.5], [1.5, 3.5], [0.5, 1.5, 2.5, 3.5], [0.5, 1.5, 2.5]):
        assert h.undo().target.tolist() == expected
    for expected in ([0.5, 1.5, 2.5, 3.5], [1.5, 3.5]):
        assert h.redo().target.tolist() == expected


def test_a_switch_drops_the_targets_and_its_inverse_brings_them_back():
    h = EditHistory(start())
    svr, one = SolverConfig(problem="epsilon-svr"), SolverConfig(problem="one-class")
    dropped = h.points.with_xy(h.points.X, h.points.y)
    h.do(SwitchProblem(one, svr, dropped))
    assert h.points.target is None and h.applied.config == one
    h.undo()
    assert h.points.target.tolist() == [0.5, 1.5, 2.5] and h.applied.config == svr
    h.redo()
    assert h.points.target is None


def test_a_session_file_keeps_the_targets_bit_for_bit(tmp_path):
    p = start()
    target = np.array([0.1, 1 / 3, -2e-300])
    f = SessionFile(p.X, p.y, p.names, p.colors, target=target)
    path = tmp_path / "s.json"
    write_session(path, f)
    back = read_session(path)
    assert back.target.tolist() == target.tolist() and back.same_content(f)
    assert not back.same_content(SessionFile(p.X, p.y, p.names, p.colors))
    plain = SessionFile(p.X, p.y, p.names, p.colors)  # no targets: no field, version 1
    d = plain.to_dict()
    assert "targets" not in d and d["version"] == 1
    assert SessionFile.from_dict(d).target is None


@pytest.mark.parametrize("targets", [[1.0, 2.0], [1.0, "a", 2.0], [1, 2, 1e400], {"a": 1}])
def test_bad_targets_are_refused(targets):
    p = start()
    d = SessionFile(p.X, p.y, p.names, p.colors).to_dict()
    d["targets"] = targets
    with pytest.raises(InputError, match="target"):
        SessionFile.from_dict(d)
