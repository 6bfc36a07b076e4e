import numpy as np
import pytest

pytest.importorskip("PySide6.QtCore")

from svmviz.app.session import Session
from svmviz.core.data import Dataset


def test_edits_emit_and_undo(qtbot):
    s = Session()
    with qtbot.waitSignal(s.points_changed):
        s.add_point(1.0, 2.0)
    s.set_current_class(2)
    s.add_point(3.0, 4.0)
    assert s.points.y.tolist() == [0, 2]
    data = s.dataset()
    assert data.classes == ("class 1", "class 3")
    assert data.y.tolist() == [0, 1]
    s.move_points([0], 0.5, 0.5)
    s.move_points([0], 0.5, 0.5, merge=True)
    np.testing.assert_allclose(s.points.X[0], [2.0, 3.0])
    s.undo()
    np.testing.assert_allclose(s.points.X[0], [1.0, 2.0])
    s.delete_points([1])
    assert s.dataset() is None  # one class left: nothing to train
    s.undo()
    s.clear()
    assert len(s.points) == 0
    s.undo()
    assert len(s.points) == 2
    s.redo()
    assert len(s.points) == 0


def test_from_a_dataset_keeps_names_and_labels(blobs3):
    s = Session(blobs3)
    assert s.classes[:3] == blobs3.classes
    d = s.dataset()
    np.testing.assert_array_equal(d.X, blobs3.X)
    np.testing.assert_array_equal(d.y, blobs3.y)


def test_nearest_point():
    s = Session(Dataset.from_labels(np.array([[0.0, 0.0], [1.0, 1.0]]), [0, 1]))
    assert s.nearest_point(0.9, 1.05, 0.2, 0.2) == 1
    assert s.nearest_point(0.5, 0.5, 0.2, 0.2) is None


def test_a_cost_matrix_given_at_start_is_kept_per_class(blobs3):
    from svmviz.core.config import SolverConfig

    cost = ((0.0, 2.0, 1.0), (1.0, 0.0, 3.0), (1.0, 1.0, 0.0))
    s = Session(blobs3, SolverConfig(cost=cost))
    assert s.config.cost is None  # the session keeps Δ per class slot
    assert s.job_config().cost == cost
    s.delete_points(np.flatnonzero(s.points.y == 0))  # class 1 gone: Δ of 2 and 3
    assert s.job_config().cost is None  # two classes left: binary, no Δ
    s.add_point(9.0, 9.0, k=0)
    assert s.job_config().cost == cost


def test_rename_and_recolour_are_undoable_and_names_stay_unique(qtbot):
    s = Session()
    with qtbot.waitSignal(s.classes_changed):
        s.set_class(1, name="spam", color="#123456")
    assert s.classes[1] == "spam"
    assert s.colors[1] == "#123456"
    with pytest.raises(ValueError, match="already called"):
        s.set_class(0, name="spam")
    with pytest.raises(ValueError, match="the class name has 101 characters; at most 100"):
        s.set_class(0, name="x" * 101)  # (a 5 MB name slowed every frame)
    s.add_point(0.0, 0.0, k=1)
    s.undo()  # the point
    s.undo()  # the rename
    assert s.classes[1] == "class 2"
    assert s.colors[1] != "#123456"
    s.redo()
    assert s.classes[1] == "spam"


def test_default_names_of_empty_classes_never_repeat_a_data_class():
    data = Dataset.from_labels(np.array([[0.0, 0.0], [1.0, 1.0]]), ["class 3", "b"])
    s = Session(data)
    assert len(set(s.classes)) == len(s.classes)
    assert s.classes[:3] == ("class 3", "b", "class 3 (2)")


def test_class_names_follow_one_scheme(qtbot):
    """Issue 16: the demo's classes were "circle" and "square", the next "class 3"."""
    from svmviz.core.files.scenario import list_scenarios, read_scenario
    from svmviz.ui.window.launch import demo_data

    s = Session(demo_data())
    assert s.add_class() == 2
    assert s.classes[:3] == ("class 1", "class 2", "class 3")
    for path in list_scenarios():
        names = read_scenario(path).data.classes
        assert names == tuple(f"class {k + 1}" for k in range(len(names))), path.name
