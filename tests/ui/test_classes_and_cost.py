"""The class bar (keys 1–9, add, rename, recolour, undo), the cost matrix editor and the
multiclass switch."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.data import Dataset
from svmviz.core.palette import MAX_CLASSES


@pytest.fixture
def window(make_window):
    X = np.array([[-1.0, 0.0], [-1.2, 0.3], [1.0, 0.0], [1.1, -0.4]])
    data = Dataset.from_labels(X, ["red", "red", "blue", "blue"])
    return make_window(data, iterations=2000, active=True)  # (shortcuts need it active)


def visible_buttons(w):
    return [b for b in w.class_bar.buttons if b.action.isVisible()]


def test_bar_shows_the_classes_and_keys_choose_them(qtbot, window):
    from PySide6.QtCore import Qt

    w = window
    assert [b.text() for b in visible_buttons(w)] == ["1 red", "2 blue"]
    assert w.class_bar.buttons[0].isChecked()
    qtbot.keyClick(w, Qt.Key.Key_9)  # the ninth class: shown and current
    assert w.session.current_class == 8
    assert len(visible_buttons(w)) == MAX_CLASSES
    assert w.class_bar.buttons[8].isChecked()
    assert not w.class_bar.add_action.isEnabled()  # nine is the most
    qtbot.mouseClick(w.class_bar.buttons[1], Qt.MouseButton.LeftButton)
    assert w.session.current_class == 1


def test_add_rename_recolour_and_undo(qtbot, window, monkeypatch):
    from PySide6 import QtGui, QtWidgets

    w = window
    w.class_bar.add_button.click()
    assert w.session.class_count == 3
    assert w.session.current_class == 2
    monkeypatch.setattr(QtWidgets.QInputDialog, "getText", lambda *a, **k: ("green", True))
    w.class_bar.rename(2)
    assert w.session.classes[2] == "green"
    assert w.class_bar.buttons[2].text() == "3 green"
    # a name in use is refused with a message, nothing changes
    warned = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "warning", lambda *a: warned.append(a[2]))
    monkeypatch.setattr(QtWidgets.QInputDialog, "getText", lambda *a, **k: ("red", True))
    w.class_bar.rename(2)
    assert "already called" in warned[0]
    assert w.session.classes[2] == "green"
    monkeypatch.setattr(QtWidgets.QColorDialog, "getColor", lambda *a: QtGui.QColor("#112233"))
    gen = w.controller.generation
    w.class_bar.recolor(0)
    assert w.session.colors[0] == "#112233"
    assert w.controller.generation == gen  # a colour is not a new problem: no restart
    brush = w.plot.class_points.scatters[0].opts["brush"]
    assert brush.color().name() == "#112233"
    # the regions take the colour too (blended over white)
    assert w.frames.region_colors[0] == w.plot.region_colors([0])[0]
    w.session.undo()
    assert w.session.colors[0] != "#112233"
    w.session.undo()
    assert w.session.classes[2] == "class 3"
    w.session.redo()
    assert w.session.classes[2] == "green"


def test_three_classes_switch_to_multiclass_and_the_cost_reaches_the_engine(
    wait_frame, window, monkeypatch
):
    from PySide6 import QtWidgets

    w = window
    assert w.panel.problem.text().startswith("binary")
    assert not w.panel.cost_button.isEnabled()
    w.session.add_point(0.0, 2.0, k=4)  # a third class (slot 5)
    assert "multiclass" in w.panel.problem.text()
    assert "3 classes" in w.panel.problem.text()
    assert w.panel.cost_button.isEnabled()
    wait_frame(w, lambda s: not s.model.binary)

    def fill(dialog):
        dialog.table.item(0, 1).setText("2.5")  # true red, predicted blue
        return QtWidgets.QDialog.DialogCode.Accepted

    monkeypatch.setattr(QtWidgets.QDialog, "exec", fill)
    gen = w.controller.generation
    w.panel.cost_button.click()
    assert w.controller.generation == gen + 1  # a new problem: restarted
    cost = w.session.job_config().cost
    assert cost[0][1] == 2.5
    assert cost[1][0] == 1.0
    assert cost[0][0] == 0.0
    assert "custom Δ" in w.panel.problem.text()
    wait_frame(w, lambda s: s.generation == w.controller.generation)
    assert w.snapshot.model.cost[0, 1] == 2.5  # the engine trains with it
    # deleting the third class: binary again, and Δ of the two left is kept per slot
    w.session.delete_points([4])
    assert w.session.job_config().cost is None
    w.session.undo()
    assert w.session.job_config().cost[0][1] == 2.5


def test_cost_dialog_refuses_a_bad_entry(qtbot):
    from svmviz.ui.panels.cost_editor import CostDialog

    d = CostDialog(["a", "b", "c"], np.ones((3, 3)) - np.eye(3))
    qtbot.addWidget(d)
    assert d.ok.isEnabled()
    d.table.item(1, 2).setText("-1")
    assert not d.ok.isEnabled()
    assert "'-1' is not a number from 0 to 1e+150" in d.error.text()
    d.table.item(1, 2).setText("1e151")  # (beyond the Δ a session file takes)
    assert not d.ok.isEnabled()
    d.table.item(1, 2).setText("x")
    assert not d.ok.isEnabled()
    d.set_zero_one()
    assert d.ok.isEnabled()
    np.testing.assert_array_equal(d.matrix(), np.ones((3, 3)) - np.eye(3))


def test_window_refuses_more_classes_than_it_draws(tmp_path, capsys):
    from svmviz.cli import main

    p = tmp_path / "ten.csv"
    p.write_text("x,y,label\n" + "".join(f"{k},{k},c{k}\n" for k in range(10)))
    assert main([str(p)]) == 2
    assert "at most 9 classes" in capsys.readouterr().err
