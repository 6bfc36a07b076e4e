"""A hard margin's objective after its exact final step: the status line, the presenter's
line and the exported model give the same number, the model's ½‖w‖² after the step, and
the status says so, and the file names the iterate's before it (the curve's last point). 8 s:
a hard margin's run with its exact optimum and budget extensions."""

import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.data import Dataset
from svmviz.core.generate import generate
from svmviz.core.model_io import read_model, write_model
from svmviz.ui.window.presentation import short_status


def test_the_screen_and_the_export_give_the_objective_after_the_exact_step(
    make_window, wait_frame, tmp_path
):
    X, y = generate("separable", n=40, seed=1)[:2]
    w = make_window(Dataset.from_labels(X, y), margin="hard", iterations=1000)
    w.run_to_budget()
    snap = wait_frame(w, lambda s: s.status == "budget" and s.reference is not None, 60000)
    after = snap.model.extra["objective"]  # ½‖w‖² of the model drawn, made feasible
    before = float(snap.history["objective"][-1])  # the output before the step
    assert "exact_step" in snap.model.extra and f"{after:.6g}" != f"{before:.6g}"
    text = w.status.text()
    assert f"objective {after:.6g} after the exact step" in text
    assert f"gap to the optimum {after - snap.reference.objective:.3g}" in text
    assert f"F = {after:.4g} ·" in short_status(snap, w.session.config)
    model = w.exports.model(snap)
    path = tmp_path / "model.json"

    write_model(path, model)
    saved = read_model(path).extra
    assert saved["objective"] == after and saved["objective_before_exact_step"] == before
