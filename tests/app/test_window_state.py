"""The window's state model without a window: each setter signals once per change and
never for an equal value, and a View goes through it unchanged."""

import numpy as np
import pytest

pytest.importorskip("PySide6.QtCore")

from svmviz.app.session import Session
from svmviz.app.window_state import WindowState
from svmviz.core.files.session_file import VIEW_TOGGLES, View
from svmviz.core.training.pace import CHOICES, DEFAULT, INSTANT, Speed


class Recorder:
    """The arguments of every emission of ``signal``."""

    def __init__(self, signal):
        self.calls = []
        signal.connect(lambda *args: self.calls.append(args))


@pytest.mark.parametrize("name", VIEW_TOGGLES)
def test_a_toggle_signals_once_per_change(name):
    state = WindowState()
    seen = Recorder(state.toggle_signal(name))
    others = {n: Recorder(state.toggle_signal(n)) for n in VIEW_TOGGLES if n != name}
    assert getattr(state, name) is False, "every toggle starts off"
    getattr(state, f"set_{name}")(True)
    getattr(state, f"set_{name}")(True)  # equal: nothing
    assert seen.calls == [(True,)], "one signal for one change"
    assert getattr(state, name) is True
    state.set_toggle(name, False)
    assert seen.calls == [(True,), (False,)]
    assert state.toggle(name) is False
    assert {n: r.calls for n, r in others.items()} == {n: [] for n in others}, "only its own"


def test_presentation_and_warm_start_signal_once_per_change():
    state = WindowState()
    shown, warm = Recorder(state.presentation_changed), Recorder(state.warm_start_changed)
    for _ in range(2):
        state.set_presentation(True)
        state.set_warm_start(1)
    assert shown.calls == [(True,)]
    assert warm.calls == [(True,)]
    assert state.presentation is True
    assert state.warm_start is True
    state.set_presentation(False)
    assert shown.calls == [(True,), (False,)]


def test_speed_takes_a_speed_or_its_code_and_signals_once():
    state = WindowState()
    seen = Recorder(state.speed_changed)
    assert state.speed == DEFAULT
    state.set_speed(INSTANT)
    state.set_speed(INSTANT.code)  # the same speed, by its saved code
    assert seen.calls == [(INSTANT,)]
    assert state.speed == INSTANT
    state.set_speed(10)
    assert state.speed == Speed(10)
    assert len(seen.calls) == 2
    assert state.speed in CHOICES


def test_parts_signal_on_a_different_split_only():
    state = WindowState()
    seen = Recorder(state.parts_changed)
    state.set_parts(None)  # as it was
    parts = np.array([0, 1, 0])
    state.set_parts(parts)
    state.set_parts(parts.copy())  # equal content: nothing
    state.set_parts(np.array([0, 0, 0]))
    state.set_parts(None)
    assert [c[0] is None for c in seen.calls] == [False, False, True]
    assert state.training_mask(3).all(), "no split: every point trains"
    state.set_parts(parts)
    assert state.training_mask(3).tolist() == [True, False, True]
    assert state.training_mask(4).all(), "parts of other points (edited since): all train"


def test_a_view_goes_through_unchanged():
    session = Session()
    session.set_current_class(1)
    state = WindowState(session)
    asked = Recorder(state.extent_requested)
    view = View(
        extent=(-1.0, 2.0, -3.0, 4.0),
        toggles=("optimum", "slack"),
        speed=10,
        warm_start=True,
        current_class=1,
        views=("a", "b"),
        companion="b",
    )
    state.apply_view(view, fit=False)
    assert asked.calls == [((-1.0, 2.0, -3.0, 4.0),)], "the plane is asked to show it"
    state.set_extent(view.extent)  # (which the plane reports back)
    assert state.view() == view
    assert (state.optimum, state.iterate, state.suboptimality, state.slack) == (
        True,
        False,
        False,
        True,
    )
    assert state.speed == Speed(10)
    assert state.warm_start


def test_applying_a_view_signals_only_what_changes_and_fits_on_request():
    state = WindowState()
    state.apply_view(View(toggles=("optimum",), speed=INSTANT.code), fit=False)
    changes = {name: Recorder(state.toggle_signal(name)) for name in VIEW_TOGGLES}
    speed, warm = Recorder(state.speed_changed), Recorder(state.warm_start_changed)
    asked = Recorder(state.extent_requested)
    state.apply_view(View(toggles=("optimum", "iterate"), speed=INSTANT.code), fit=True)
    assert {n: r.calls for n, r in changes.items()} == {
        "optimum": [],
        "iterate": [(True,)],
        "suboptimality": [],
        "slack": [],
        "race": [],
    }
    assert speed.calls == []
    assert warm.calls == []
    assert asked.calls == [(None,)], "None: fit the points"
    state.apply_view(View(), fit=False)  # no extent, no fit: the plane stays
    assert asked.calls == [(None,)]
    assert state.view() == View(views=()), "no session: class 0; no extent reported"


def test_a_view_without_views_keeps_those_on_but_for_its_flags():
    state = WindowState()
    state.apply_view(View(views=("a", "b"), companion="a"))
    state.apply_view(View(flags=(("b", False), ("c", True))))
    assert state.views == {"a", "c"} and state.companion == "a"
    state.apply_view(View(views=("d",)))  # a file that names its views: those, no companion
    assert state.views == {"d"} and state.companion is None
