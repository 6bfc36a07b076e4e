"""Generating a regression data set (Ctrl+G) makes points (x, target) and switches the
problem to ε-SVR; a classification kind switches back; Undo brings the old points back."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtWidgets

from svmviz.core.generate import generate
from svmviz.ui.window import generate_dialog


def choose(monkeypatch, kind):
    def exec_(dialog):
        dialog.kind.setCurrentText(kind)
        dialog.n.setValue(40)
        return QtWidgets.QDialog.DialogCode.Accepted

    monkeypatch.setattr(generate_dialog.GenerateDialog, "exec", exec_)


def test_a_sine_switches_to_regression_and_trains(monkeypatch, make_window, wait_frame):
    w = make_window(iterations=500)
    before = w.session.points.X.copy()
    choose(monkeypatch, "sine")
    assert generate_dialog.generate_points(w.session, w)
    assert w.session.config.problem == "epsilon-svr"
    X, _ = generate("sine", n=40, noise=0.2)
    np.testing.assert_array_equal(w.session.points.X, X)
    data = w.session.dataset()
    np.testing.assert_array_equal(data.X[:, 0], X[:, 0])  # x the input,
    np.testing.assert_array_equal(data.target, X[:, 1])  # the plane's y the target
    w.run_to_budget()
    s = wait_frame(w, lambda s: s.status == "budget" and s.generation == w.controller.generation)
    assert s.frame.kind == "regression" and s.model.problem == "epsilon-svr"

    choose(monkeypatch, "moons")  # back to classification
    assert generate_dialog.generate_points(w.session, w)
    assert w.session.config.problem == "svc"
    w.session.undo()
    w.session.undo()
    assert w.session.config.problem == "epsilon-svr"
    w.session.undo()
    w.session.undo()
    assert w.session.config.problem == "svc"
    np.testing.assert_array_equal(w.session.points.X, before)
