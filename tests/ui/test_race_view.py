"""A race in the window: View ▸ Race on and off, the runs' lines and legend on the plane,
their curves, their step lines, and the race in the session file (its editor:
test_race_editor)."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.errors import InputError
from svmviz.core.files.session_file import SessionFile

RACE = [{"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"lam": 0.1}, {"average": "last"}]


def raced(w, wait_frame, race=RACE):
    w.session.set_race(race)
    w.state.set_race(True)
    wait_frame(w, lambda s: s.race is not None and len(s.race.runs) == len(race))
    return w.snapshot


def test_view_race_draws_every_run_and_names_them(make_window, wait_frame):
    w = make_window(iterations=2000, seed=1)
    assert w.controls.race.text() == "Race" and not w.controls.race.isChecked()
    before = w.plot.legend_labels()
    snap = raced(w, wait_frame)
    assert w.controls.race.isChecked()
    w.advance(300)
    wait_frame(w, lambda s: s.t == 300 and s.race is not None)
    snap = w.snapshot
    labels = [text for _, text in w.plot.legend_labels()]
    assert sum(text.startswith("run ") for text in labels) == 4
    for k, label in enumerate(snap.race.labels, start=1):
        assert any(text.startswith(f"run {k}: {label}") for text in labels)
    assert "boundary f = 0" not in labels  # (run 1's entry names the plane's own lines)
    assert snap.race.runs[0].label == "SGD, η ∝ 1/√t" and snap.race.runs[1].label == "λ = 0.1"
    for run, item in zip(snap.race.runs, w.plot.race.boundaries, strict=False):
        x, y = item.getData()
        assert item.isVisible() and len(x)
        xy = np.column_stack([x, y])[np.isfinite(x)]
        f = xy @ run.model.coef[0] + run.model.intercept[0]
        np.testing.assert_allclose(f, 0.0, atol=1e-8)
    pens = {(i.opts["pen"].color().name(), i.opts["pen"].style()) for i in w.plot.race.boundaries}
    assert len(pens) == 3
    w.state.set_race(False)
    wait_frame(w, lambda s: s.race is None)
    assert not any(i.isVisible() for i in w.plot.race.boundaries)
    assert not any(text.startswith("run ") for _, text in w.plot.legend_labels())
    assert "boundary f = 0" in [text for _, text in w.plot.legend_labels()]
    assert before


def test_the_curves_overlay_every_run(make_window, wait_frame, qtbot):
    w = make_window(iterations=2000, seed=1, show=True)
    raced(w, wait_frame)
    w.run_to_budget()
    wait_frame(w, lambda s: s.t == 2000 and s.race is not None)
    w.frames.redraw_readings()
    for run, curve in zip(w.snapshot.race.runs, w.race_curves.curves, strict=False):
        t, f = curve.xData, curve.yData  # (getData: log10 of them on the log axes)
        assert len(t) > 10
        assert f[-1] == pytest.approx(run.history["objective"][-1])
    legend = w.curves.objective_plot.getPlotItem().legend
    assert all(legend.getLabel(c) is not None for c in w.race_curves.curves)
    w.state.set_suboptimality(True)  # (run 3, λ = 0.1, against its own F*)
    wait_frame(w, lambda s: s.reference is not None and s.race.runs[1].objective is not None)
    w.frames.redraw_readings()
    labels = [legend.getLabel(c) for c in w.race_curves.curves]
    # short enough for a narrow column, the long form in the tooltip
    assert [label.text for label in labels] == [
        "run 2: SGD, …",
        "run 3: λ = 0.1",
        "run 4: last iterate",
    ]
    assert labels[0].toolTip() == "run 2: SGD, η ∝ 1/√t, F − F* against its own F*"
    assert labels[1].toolTip() == "run 3: λ = 0.1, F − F* against its own F*"
    plot = w.curves.objective_plot
    plot.setFixedWidth(300)  # (a narrow column: fewer columns, every name whole)
    qtbot.waitUntil(lambda: plot.width() == 300)
    assert legend.columnCount < 3 and legend.boundingRect().width() <= 300
    plot.setFixedWidth(700)
    qtbot.waitUntil(lambda: legend.columnCount == 3)


def test_a_single_step_gives_a_line_per_run(make_window, wait_frame):
    w = make_window(iterations=2000, seed=1)
    raced(w, wait_frame)
    w.advance(1)
    wait_frame(w, lambda s: s.t == 1 and s.step is not None)
    text = w.race_steps.text()
    assert w.race_steps.isVisibleTo(w)
    for k in (2, 3, 4):
        assert f"run {k}</b></span>: Step 1: point" in text


def test_an_edit_retrains_every_run(make_window, wait_frame):
    w = make_window(iterations=2000, seed=1)
    raced(w, wait_frame)
    w.advance(100)
    wait_frame(w, lambda s: s.t == 100)
    w.session.delete_points([0, 1, 2])
    n = len(w.session.points)
    wait_frame(w, lambda s: len(s.frame.margins) == n and s.race is not None)
    snap = w.snapshot
    assert all(r.t == snap.t for r in snap.race.runs)
    # (each run's margins: on the edited points)
    assert snap.race.same_samples


def test_the_race_is_kept_in_the_session_file(make_window, wait_frame):
    w = make_window(iterations=500)
    raced(w, wait_frame)
    content = w.session.content(w.state.view())
    again = SessionFile.from_dict(content.to_dict())
    assert again.race == tuple(RACE) and "race" in again.view.toggles
    assert again.same_content(content)
    old = content.to_dict()
    del old["race"], old["view"]["race"]
    assert SessionFile.from_dict(old).race == ()  # older files open without a race
    bad = dict(content.to_dict(), race=[{"loss": "nope"}])
    with pytest.raises(InputError, match="race run 2: config: loss must be one of"):
        SessionFile.from_dict(bad)
    w2 = make_window(None, first_frame=False)
    w2.session.restore(again)
    w2.state.apply_view(again.view)
    assert w2.session.race == tuple(RACE) and w2.state.race
    wait_frame(w2, lambda s: s.race is not None and len(s.race.runs) == 3)


def test_a_base_the_race_cannot_follow_trains_alone(make_window, wait_frame):
    w = make_window(iterations=500)
    raced(w, wait_frame, [{"lam": 0.1}])
    w.session.set_config(w.session.config.replace(margin="hard"))
    wait_frame(w, lambda s: s.race is None and s.reference is not None)
    assert w.state.race and w.session.race == ({"lam": 0.1},)  # (kept for a soft margin)
    w.session.set_config(w.session.config.replace(margin="soft"))
    wait_frame(w, lambda s: s.race is not None and len(s.race.runs) == 1)


def test_presentation_mode_says_what_each_run_s_step_did(make_window, wait_frame):
    w = make_window(iterations=2000, seed=1)
    raced(w, wait_frame, [{"lam": 0.1}, {"loss": "logistic"}])
    w.set_presentation(True)
    w.advance(1)
    wait_frame(w, lambda s: s.t == 1 and s.step is not None)
    line = w.presentation.bar.step.text()
    assert line.startswith("Step 1: point")
    assert " · run 2 pushes · " in line or " · run 2 shrinks · " in line
    assert line.endswith(" · run 3 pulls")
    w.set_presentation(False)


def test_a_run_s_lines_are_set_again_only_when_they_changed(qtbot, monkeypatch):
    """A kernel race redraws one run's lines a frame and hands the others over as the same
    dicts: their items keep their paths (a new path a frame per item cost the GUI thread
    milliseconds a frame); new lines are drawn."""
    from types import SimpleNamespace

    from svmviz.app.session import Session
    from svmviz.core.data import Dataset
    from svmviz.ui.plane.decision_plot import DecisionPlot

    plot = DecisionPlot(Session(Dataset.from_labels(np.array([[0.0, 0.0], [1.0, 1.0]]), [0, 1])))
    qtbot.addWidget(plot)
    item = plot.race.boundaries[0]
    set_data = []
    monkeypatch.setattr(item, "setData", lambda *a, **k: set_data.append(a))

    def race(contours):
        run = SimpleNamespace(contours=contours, color="#332288", dash="dash")
        return SimpleNamespace(runs=(run,), labels=("solver panel", "λ = 0.1"))

    old = {"boundary": [np.array([[0.0, 0.0], [1.0, 1.0]])], "margin": []}
    plot.race.show(race(old))
    plot.race.show(race(old))
    assert len(set_data) == 1
    plot.race.show(race({"boundary": [np.array([[0.0, 1.0], [1.0, 0.0]])], "margin": []}))
    assert len(set_data) == 2 and set_data[1][1][0] == 1.0


def test_the_race_curves_set_their_pens_again_only_when_they_change(qtbot, monkeypatch):
    """Each redraw of the curves sets the runs' data; a pen set anew made pyqtgraph build
    the curve once more, so the pens are set when a run's style or the scale changes."""
    from types import SimpleNamespace

    from svmviz.ui.views.curves import CurvePanel
    from svmviz.ui.views.race_view import RaceCurves

    panel = CurvePanel()
    qtbot.addWidget(panel)
    curves = RaceCurves(panel)
    pens = []
    for item in (*curves.curves, panel.objective):
        monkeypatch.setattr(item, "setPen", lambda *a, item=item: pens.append(item))
    history = {"t": np.arange(1, 6), "objective": np.linspace(2.0, 1.0, 5)}
    run = SimpleNamespace(
        color="#332288", dash="dash", history=history, objective=None, label="λ = 0.1", short="λ"
    )
    race = SimpleNamespace(runs=(run,), common=True)
    curves.show(race, False)
    assert pens == [curves.curves[0], panel.objective]
    curves.show(race, False)
    assert len(pens) == 2  # (old: both pens set at every redraw)
    panel.scale = 2.0
    curves.show(race, False)
    assert pens[2:] == [curves.curves[0], panel.objective]
    curves.show(None, False)
    assert pens[4:] == [panel.objective]  # (its own pen again)
