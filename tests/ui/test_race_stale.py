"""A race's drawings are the race of the job shown: after a scenario or a session opened,
a Reset or an edit (paused, stepped or playing), no view keeps the previous race's lines,
legend, rings, curves or weight-space paths until the first step (issue 44)."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.files.scenario import list_scenarios
from svmviz.core.files.session_file import write_session
from svmviz.core.pictures.rings import ringed
from svmviz.core.pictures.weight_path import points
from svmviz.ui.plane.items import polylines

RACE = [{"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"lam": 0.1}, {"average": "last"}]


def scenario(word):
    return next(p for p in list_scenarios() if word in p.stem)


def opened(w, wait_frame, path):
    """``path`` opened; its job's first frame."""
    assert w.files.open_path(path, confirm=False)
    return wait_frame(w, lambda s: s.generation == w.controller.generation)


def plane_stale(w) -> list[str]:
    """What the plane shows of a race or of the marks that is not the snapshot's."""
    snap, out = w.snapshot, []
    runs = () if snap.race is None else snap.race.runs
    for i, item in enumerate(w.plot.race.boundaries):
        if item.isVisible() != (i < len(runs)):
            out.append(f"race line {i + 2} shown: {item.isVisible()}, runs: {len(runs)}")
        elif i < len(runs):
            x, _ = item.getData()
            want, _ = polylines(runs[i].contours["boundary"])
            if not np.array_equal(x, want, equal_nan=True):
                out.append(f"race line {i + 2}: another run's")
    named = [t for _, t in w.plot.legend_labels() if t.startswith("run ")]
    if named[1:] != [f"run {i + 2}: {r.label}" for i, r in enumerate(runs)]:
        out.append(f"legend: {named}")
    if not w.playing:  # (playing at full speed the rings follow at their own pace)
        X = w.session.points.X
        x, y = w.plot.rings.getData()
        if not np.array_equal(np.column_stack([x, y]), X[ringed(snap.frame, w.state.parts)]):
            out.append("rings: another frame's")
        if not runs and any(
            len(c.xData if c.xData is not None else []) for c in w.race_curves.curves
        ):
            out.append("race curves without a race")
    if w.race_steps.isVisibleTo(w) and (not runs or snap.step is None):
        out.append("race step lines without a race step")
    return out


def test_the_plane_shows_the_race_of_the_job_opened(make_window, wait_frame, qtbot, tmp_path):
    """A race stepped, then a scenario without a race; playing, then one with a race; after
    Reset, one without; a session saved with a race opened, then a scenario: every frame
    of the new job (the first before any step) draws its own race, or none. (One window
    through the seven opens: the scenarios' jobs take most of its seconds.)"""
    w = make_window(iterations=2000, seed=1, show=True)
    stale: list = []
    w.controller.snapshot_ready.connect(  # (after the window has drawn the frame)
        lambda snap: stale.extend((snap.t, p) for p in plane_stale(w))
    )
    w.session.set_race(RACE)
    w.state.set_race(True)
    wait_frame(w, lambda s: s.race is not None and len(s.race.runs) == 3)
    w.advance(50)
    wait_frame(w, lambda s: s.t == 50)
    session = tmp_path / "raced.json"
    write_session(session, w.session.content(w.state.view()))
    assert opened(w, wait_frame, scenario("hard-vs-soft")).race is None
    assert opened(w, wait_frame, scenario("pegasos-vs-sgd")).race is not None
    w.toggle_play()
    wait_frame(w, lambda s: s.t > 10)
    assert opened(w, wait_frame, scenario("last-iterate")).race is not None
    w.toggle_play()
    wait_frame(w, lambda s: not w.playing)
    w.reset()
    opened(w, wait_frame, scenario("hard-vs-soft"))
    assert len(opened(w, wait_frame, session).race.runs) == 3
    opened(w, wait_frame, scenario("lambda-large"))
    qtbot.wait(50)
    assert not stale and not plane_stale(w)


def weight_paths_stale(w) -> list[str]:
    """The weight space's race paths and key entries that are not the snapshot's runs'."""
    view, snap = w.weight_space, w.snapshot
    runs = [r for r in snap.race.runs if r.path is not None]
    out = [f"{len(view.items.race)} paths drawn, {len(runs)} runs"]
    if len(view.items.race) == len(runs):
        out = []
    for run, item in zip(runs, view.items.race, strict=False):
        x, y = item.getData()
        if not np.array_equal(np.column_stack([x, y]), points(run.path, output=True)):
            out.append(f"path of {run.label}: another run's")
        if run.label not in view.key.text():
            out.append(f"key without {run.label}")
    return out


def test_the_weight_space_draws_the_race_of_the_job_shown(make_window, wait_frame, qtbot):
    """Two race scenarios stepped alike (their paths as long, at the same t), the second
    while the weight space is behind the curves, then shown; an edit paused, twice at the
    same t: each time the paths and the key are the new job's."""
    w = make_window(iterations=500, seed=1, show=True)
    w.state.set_view("weight_space", True)
    view = w.weight_space
    for word in ("pegasos-vs-sgd", "gd-vs-sgd"):
        opened(w, wait_frame, scenario(word))
        w.advance(3)
        wait_frame(w, lambda s: s.t == 3 and s.race is not None)
        if word == "pegasos-vs-sgd":
            qtbot.waitUntil(lambda: view.drawn is w.snapshot)
            w.curves_dock.raise_()  # (the weight space hidden while the next one opens)
    w.docks["weight_space"].raise_()
    qtbot.waitUntil(lambda: view.drawn is w.snapshot)
    assert not weight_paths_stale(w)
    for lam in (0.5, 0.05):  # (each edit's job caught up to t = 3: paths as long)
        w.session.set_config(w.session.config.replace(lam=lam))
        wait_frame(w, lambda s: s.generation == w.controller.generation and s.t == 3)
        qtbot.waitUntil(lambda: view.drawn is w.snapshot)
        assert not weight_paths_stale(w)
