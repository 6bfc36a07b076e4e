"""The plane keeps its room through a whole lesson, at a classroom projector's 1366×768 and
at 1920×1080: start, Play, a step, each reading tab, each scenario opened and stepped, and
presentation mode (assets/screenshots/lesson_walk.py walks it in a process of its own, on
the offscreen platform with a screen of that size)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.ui.layout import PLANE_SHARE

PRESENTING_SHARE = 0.5  # presentation mode: the plane is at least half the screen
WALK = Path(__file__).parents[2] / "assets" / "screenshots" / "lesson_walk.py"
SIZES = ("1366x768", "1920x1080")


@pytest.fixture(scope="module")
def walks():
    """Both sizes walked at once (two processes: the machine's two cores)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
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
        out[size] = json.loads(stdout.strip().splitlines()[-1])["shares"]
    return out


@pytest.mark.parametrize("size", SIZES)
def test_the_plane_keeps_its_room_in_every_state_of_a_lesson(walks, size):
    shares = walks[size]
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
        "after-present",
    }
    assert states <= set(shares)
    assert sum(name.startswith("step-") for name in shares) == 9  # every scenario, stepped
    small = {
        name: share
        for name, share in shares.items()
        if share < (PRESENTING_SHARE if name.startswith("present") else PLANE_SHARE)
    }
    assert not small, f"the plane's view box is under its share of the window: {small}"


@pytest.mark.parametrize("size", SIZES)
def test_opening_a_scenario_or_raising_a_tab_leaves_the_layout(walks, size):
    """The docks do not grow by themselves: the plane's share is the same after each tab
    and after stepping each scenario as when it was opened (a caption takes its lines)."""
    shares = walks[size]
    tabs = {shares[name] for name in shares if name.startswith("tab-")} | {shares["step"]}
    assert len(tabs) == 1, tabs
    for name in shares:
        if name.startswith("step-"):
            opened = shares["open-" + name.removeprefix("step-")]
            assert shares[name] == pytest.approx(opened, abs=0.002), name
