"""The plane keeps its room through a whole lesson, at a classroom projector's 1366×768 and
at 1920×1080: start, Play, a step, each reading tab, each scenario opened and stepped, and
presentation mode played to its end and left (assets/screenshots/lesson_walk.py walks it in
a process of its own, on the offscreen platform with a screen of that size)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.files.scenario import list_scenarios
from svmviz.core.problems import DECLARED
from svmviz.ui.window.companion import COMPANION_AREA
from svmviz.ui.window.layout import PLANE_SHARE

PRESENTING_SHARE = 0.5  # presentation mode: the plane is at least half the screen
ROOT = Path(__file__).parents[2]
WALK = ROOT / "assets" / "screenshots" / "lesson_walk.py"
SIZES = ("1366x768", "1920x1080")


@pytest.fixture(scope="module")
def walks():
    """Both sizes walked at once (two processes: the machine's two cores)."""
    # (this tree's svmviz, not the one installed: the script's folder is first on its path)
    path = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=path)
    procs = {
        size: subprocess.Popen(
            [sys.executable, str(WALK), "--size", size, "--json", "--settle", "0.3"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for size in SIZES
    }
    out = {}
    for size, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0, stderr[-3000:]
        out[size] = json.loads(stdout.strip().splitlines()[-1])
    return out


@pytest.mark.parametrize("size", SIZES)
def test_the_plane_keeps_its_room_in_every_state_of_a_lesson(walks, size):
    shares = walks[size]["shares"]
    states = {
        "start",
        "playing",
        "step",
        "tab-points",
        "tab-margins",
        "tab-theory",
        "tab-generalization",
        "present",
        "present-step",
        "present-playing",
        "present-end",
        "after-present",
    }
    assert states <= set(shares)
    scenarios = [name for name in shares if name.startswith("step-") and "problem-" not in name]
    assert len(scenarios) == len(list_scenarios())  # each
    small = {
        name: share
        for name, share in shares.items()
        if share < (PRESENTING_SHARE if name.startswith("present") else PLANE_SHARE)
    }
    assert not small, f"the plane's view box is under its share of the window: {small}"


@pytest.mark.parametrize("size", SIZES)
def test_the_companion_keeps_its_room_beside_the_plane(walks, size):
    """Each view beside the plane, and presented so (the curve beside it presenting when
    none is chosen, a race's too): its pane is at least a quarter of the window, while the
    plane keeps its share (the test above)."""
    layouts = walks[size]["layouts"]
    beside = {name: state["companion"] for name, state in layouts.items() if state["companion"]}
    assert {name for name in beside if name.startswith("present")} >= {
        name for name in layouts if name.startswith("present")
    }
    assert "present-step-07-pegasos-vs-sgd" in beside  # (a race presented)
    small = {name: share for name, share in beside.items() if share < COMPANION_AREA}
    assert not small, f"the companion's pane is under a quarter of the window: {small}"


@pytest.mark.parametrize("size", SIZES)
def test_opening_a_scenario_or_raising_a_tab_leaves_the_layout(walks, size):
    """The docks do not grow by themselves: the plane's share is the same after each tab
    and after stepping each scenario as when it was opened (a caption takes its lines; the
    legend's strip below the plane its rows, where a step's entries leave it no free spot
    inside: then the docks are as they were)."""
    shares, layouts = walks[size]["shares"], walks[size]["layouts"]
    tabs = {shares[name] for name in shares if name.startswith("tab-")} | {shares["step"]}
    assert len(tabs) == 1, tabs
    for name in shares:
        if name.startswith("step-"):
            opened = "open-" + name.removeprefix("step-")
            if layouts[name]["legend"] != layouts[opened]["legend"]:
                assert layouts[name]["docks"] == layouts[opened]["docks"], name
                continue
            assert shares[name] == pytest.approx(shares[opened], abs=0.002), name


@pytest.mark.parametrize("size", SIZES)
def test_presentation_mode_keeps_its_layout_while_playing_and_restores_the_window(walks, size):
    """Presentation mode: the plane's range and the curve's place do not move from the first
    step to the end of the run (a longer status line once widened the bar below the plane,
    narrowing the curve); leaving it puts back the docks and the curves' split."""
    layouts = walks[size]["layouts"]
    step = layouts["present-step"]
    for name in ("present-playing", "present-end"):
        assert layouts[name]["objective"] == step["objective"], name
        assert layouts[name]["range"] == step["range"], name
    before, after = layouts["before-present"], layouts["after-present"]
    assert after["docks"] == before["docks"]
    assert after["curves"] == before["curves"]
    assert after["tabs"] == before["tabs"]  # (no tab bar left over from the full screen)


@pytest.mark.parametrize("size", SIZES)
def test_every_tab_title_fits_the_column(walks, size):
    for name, state in walks[size]["layouts"].items():
        for tabs, width in state["tabs"]:
            assert tabs <= width, name


@pytest.mark.parametrize("size", SIZES)
def test_the_walk_shows_every_problem_and_loss_in_the_window_and_presenting(walks, size):
    """Every loss and problem of the engine is opened, stepped and presented in the walk
    (a scenario or a saved session), and regression on 2-D inputs too: each keeps its
    share (the test above)."""
    layouts = walks[size]["layouts"]
    stepped = {tuple(layouts[name]["trains"]) for name in layouts if name.startswith("step-")}
    presented = {tuple(layouts[n]["trains"]) for n in layouts if n.startswith("present-step-")}
    for seen in (stepped, presented):
        assert {name for name, _ in seen} == set(DECLARED)
        assert ("epsilon-svr", 2) in seen or ("nu-svr", 2) in seen
