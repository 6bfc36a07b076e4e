"""A reading registers with the frame router by name and is shown at its pace: with every
frame, with the curves, or with the curves only while on screen."""

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtWidgets

from svmviz.ui.views.reading import Pace, Reading


def test_each_reading_gets_the_snapshots_its_pace_asks_for(qtbot, make_window, wait_frame):
    w = make_window(iterations=300, show=True)
    seen = {"frame": [], "curves": [], "hidden": []}
    hidden = QtWidgets.QLabel()  # never shown: no visible region
    w.frames.register("frame", Reading(lambda s, r: seen["frame"].append(s), Pace.FRAME))
    w.frames.register("paced", Reading(lambda s, r: seen["curves"].append(s), Pace.CURVES))
    w.frames.register(
        "hidden", Reading(lambda s, r: seen["hidden"].append(s), Pace.VISIBLE, hidden)
    )
    with pytest.raises(ValueError, match="registered already"):
        w.frames.register("frame", Reading(lambda s, r: None))
    for t in (1, 2, 3):
        w.advance(1)
        wait_frame(w, lambda s, t=t: s.t == t)
    qtbot.waitUntil(lambda: len(seen["curves"]) >= 3 and seen["curves"][-1].t == 3)
    # every frame, in order (an iteration's frame may come twice: drawn again over the new
    # extent when the view settles, while the window just shown is still being laid out)
    ts = [s.t for s in seen["frame"]]
    assert [t for i, t in enumerate(ts) if i == 0 or ts[i - 1] != t][-3:] == [1, 2, 3]
    assert seen["hidden"] == []  # off screen: never computed


def test_the_tabs_are_registered_readings(make_window):
    w = make_window(iterations=100)
    for name in ("points", "margins", "theory"):  # (made when first shown or read)
        w.made[name]  # noqa: B018
    assert {"points", "margins", "theory"} <= set(w.frames.readings)
    assert w.frames.readings["theory"].clear is not None
