"""The window opens every value a session or a scenario file may hold, at the ends of its
range in svmviz.core.limits.BOUNDS: it draws a frame and steps without a Qt warning or an
exception (pytest fails on both), or refuses the file in one line; and the drawing that
crashed on values once accepted stays up."""

import copy
import json
import math

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtWidgets  # noqa: E402

from svmviz.core.limits import BOUNDS, MAX_WHOLE  # noqa: E402

SESSION = {
    "format": "svmviz-session",
    "version": 1,
    "classes": [{"name": "a"}, {"name": "b"}],
    "points": [[0, 0, 0], [1, 1, 1], [0, 1, 0], [1, 0, 1]],
}
SCENARIO = {
    "format": "svmviz-scenario",
    "version": 1,
    "title": "t",
    "caption": "c",
    "data": {"points": [[0, 0, "a"], [1, 1, "b"], [0, 1, "a"], [1, 0, "b"]]},
}
START = {"W": [[0.5, -0.5]], "b": [0.0], "classes": ["a", "b"]}
CONFIG = {  # where each setting goes in a config, and what makes a problem beside it
    "lam": (("lam",), {"algorithm": "sgd"}),
    "eta": (("eta",), {"algorithm": "sgd"}),
    "epsilon": (("epsilon",), {}),
    "nu": (("nu",), {}),
    "radius": (("radius",), {"project": True}),
    "tol": (("tol",), {}),
    "gamma": (("kernel", "gamma"), {}),
    "coef0": (("kernel", "coef0"), {}),
    "degree": (("kernel", "degree"), {}),
    "batch": (("batch",), {}),
    "iterations": (("iterations",), {}),
    "seed": (("seed",), {}),
}


def taken(name: str) -> list:
    return BOUNDS[name].edges()[0]


def config(name: str, value) -> dict:
    path, beside = CONFIG[name]
    c = copy.deepcopy(beside)
    if len(path) == 2:
        c["kernel"] = {"name": "poly", path[1]: value}
    else:
        c[path[0]] = value
    return c


def extreme_files() -> list:
    """(id, document) of every number of a session and a scenario at an end of its range."""
    cases = []
    for name in CONFIG:
        for v in taken(name):
            cases.append((f"session config.{name}={v!r}", {**SESSION, "config": config(name, v)}))
            cases.append((f"scenario config.{name}={v!r}", {**SCENARIO, "config": config(name, v)}))
    for v in taken("coordinate"):
        cases.append((f"session point={v!r}", {**SESSION, "points": [[0, 0, 0], [v, 1, 1]]}))
        points = [[0, 0, "a"], [v, 1, "b"]]
        cases.append((f"scenario point={v!r}", {**SCENARIO, "data": {"points": points}}))
    for v in taken("cost"):
        cost = [[0, v, 1], [1, 0, 1], [1, 1, 0]]
        points = [[0, 0, 0], [1, 1, 1], [2, 0, 2], [0, 2, 1]]
        doc = {**SESSION, "classes": SESSION["classes"] + [{"name": "c"}], "class_count": 3}
        cases.append((f"session cost={v!r}", {**doc, "points": points, "cost": cost}))
    for v in taken("target"):
        cases.append((f"session target={v!r}", {**SESSION, "targets": [0, v, 1, 2]}))
    for key, name in (("seed", "split_seed"), ("size", "split_size")):
        for v in taken(name):
            split = {key: v, "fraction": 0.25}
            cases.append((f"session split.{key}={v!r}", {**SESSION, "split": split}))
    for v in taken("speed"):
        cases.append((f"session view.speed={v!r}", {**SESSION, "view": {"speed": v}}))
        cases.append((f"scenario speed={v!r}", {**SCENARIO, "speed": v}))
    for v in taken("extent"):
        extent = [v, v + 1.0, 0.0, 1.0] if v < 0 else [v - 1.0, v, 0.0, 1.0]
        cases.append((f"session view.extent edge={v!r}", {**SESSION, "view": {"extent": extent}}))
    for v in taken("span"):
        extent = [-v / 2, v / 2, -v / 2, v / 2]
        cases.append((f"session view.extent span={v!r}", {**SESSION, "view": {"extent": extent}}))
    for v in taken("t0"):
        cases.append((f"session start.t0={v!r}", {**SESSION, "start": dict(START, t0=v)}))
    return cases


CASES = extreme_files()


def current(w):
    snap = w.snapshot
    return snap is not None and snap.generation == w.controller.generation


@pytest.fixture
def refusals(monkeypatch):
    """The messages of the dialogs that refuse a file (none is expected here)."""
    said = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "warning", lambda *args: said.append(args[2]))
    return said


@pytest.mark.parametrize("doc", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_an_extreme_accepted_value_opens_draws_and_steps(
    qtbot, make_window, tmp_path, refusals, doc
):
    w = make_window(iterations=2000, show=True)
    path = tmp_path / "extreme.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert w.files.open_path(path, confirm=False), refusals
    qtbot.waitUntil(lambda: current(w) or "Cannot train" in w.status.text(), timeout=30000)
    w.grab()  # (paints every widget: the crash was in paintEvent)
    if "Cannot train" not in w.status.text():
        t = w.snapshot.t
        w.advance(1)
        qtbot.waitUntil(lambda: current(w) and w.snapshot.t != t or w.snapshot.status != "running")
        w.grab()
    assert not refusals


@pytest.mark.parametrize(
    "part, message",
    [
        ({"view": {"extent": [-1e308, 1e308, -1e308, 1e308]}}, "an edge of view.extent must be"),
        ({"config": {"lam": 1e308}}, "λ (lam) must be a number from 1e-50 to 1e+06, or 0"),
        ({"config": {"lam": 5e-324, "algorithm": "sgd"}}, "λ (lam) must be a number from"),
        ({"start": dict(START, t0=2**31 - 1)}, "t0 must be a whole number from 1 to"),
    ],
    ids=["extent-1e308", "lam-1e308", "lam-5e-324", "t0-2**31-1"],
)
def test_the_values_that_crashed_the_window_are_refused_in_one_line(
    make_window, tmp_path, refusals, part, message
):
    """Once accepted: the extent died with SIGSEGV in GraphicsView.paintEvent, λ threw in
    the generalization panel's plot, t0 overflowed the timeline's slider at every frame."""
    w = make_window(iterations=2000, show=True)
    before = w.session.points.X.copy()
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps({**SESSION, **part}), encoding="utf-8")
    assert not w.files.open_path(path, confirm=False)
    assert len(refusals) == 1 and message in refusals[0] and "\n" not in refusals[0]
    assert (w.session.points.X == before).all()  # the window stays as it was
    w.grab()


def test_the_timeline_and_the_error_plot_take_the_ends_of_a_float_and_an_int(qtbot):
    """The drawing that threw stays up on values beyond the table too (a second line of
    defence: the readers refuse them)."""
    from svmviz.ui.panels.timeline import Timeline
    from svmviz.ui.views.error_plot import CurvePlot

    timeline = Timeline()
    qtbot.addWidget(timeline)
    timeline.show_t(MAX_WHOLE, MAX_WHOLE, 20_000_000)
    assert timeline.maximum() == MAX_WHOLE
    plot = CurvePlot("λ")
    qtbot.addWidget(plot)
    plot.set_log_x(True)
    for value in (1e308, 5e-324, math.ulp(0.0) * 3):
        plot.mark(value)
        (lo, hi), _ = plot.viewRange()
        assert math.isfinite(lo) and math.isfinite(hi)
    timeline.grab()
    plot.grab()


def test_the_largest_split_is_shown_as_it_is_and_reseeds_to_a_seed_files_take(
    qtbot, make_window, tmp_path, refusals
):
    """The Test set tab's size box took up to 1,000,000 (a file's 2**31-1 was shown as
    that), and Reseed at the largest seed made one no file takes."""
    from svmviz.core.files.session_file import read_session

    w = make_window(iterations=2000, show=True)
    path = tmp_path / "split.json"
    split = {"fraction": 0.25, "seed": MAX_WHOLE, "size": MAX_WHOLE}
    path.write_text(json.dumps({**SESSION, "split": split}), encoding="utf-8")
    assert w.files.open_path(path, confirm=False), refusals
    w.generalization.refresh()  # (as when its tab is shown)
    assert w.generalization.size.value() == MAX_WHOLE
    w.generalization.reseed.click()
    assert w.session.split.seed == 0 and w.session.split.size == MAX_WHOLE
    assert w.files._write(path)
    assert read_session(path).split == w.session.split
