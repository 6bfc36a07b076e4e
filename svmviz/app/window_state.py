"""What the window shows, as a model: the View menu's toggles, presentation mode, Play's
speed, warm start, the job's train/test split and the plane's extent.

The menus, the toolbar and the solver panel are views of it (bound both ways: a control
sets the model, the model's ``*_changed`` signals set every control), and the window's
parts read it, never a control. It is also what a session file keeps of the window
(:class:`svmviz.core.files.session_file.View`): :meth:`WindowState.view` and
:meth:`WindowState.apply_view`. QtCore only, like the rest of svmviz.app.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
from PySide6 import QtCore

from svmviz.core.files.session_file import VIEW_TOGGLES, View
from svmviz.core.lesson.generalization import TRAIN
from svmviz.core.training.pace import DEFAULT, Speed

if TYPE_CHECKING:
    from svmviz.app.session import Session


class WindowState(QtCore.QObject):
    """The window's state. Every setter emits its signal once per change, never for a
    value equal to the current one (so two-way bound controls do not echo)."""

    optimum_changed = QtCore.Signal(bool)  # the exact optimum over the model
    iterate_changed = QtCore.Signal(bool)  # the last iterate w_t instead of the average
    suboptimality_changed = QtCore.Signal(bool)  # F − F* in the objective panel
    slack_changed = QtCore.Signal(bool)  # slack segments of linear models
    race_changed = QtCore.Signal(bool)  # the session's race run beside its own run
    presentation_changed = QtCore.Signal(bool)
    speed_changed = QtCore.Signal(object)  # Speed
    warm_start_changed = QtCore.Signal(bool)
    parts_changed = QtCore.Signal(object)  # the job's split: an array of parts, or None
    views_changed = QtCore.Signal(object)  # the names of the views on (a frozenset)
    companion_changed = QtCore.Signal(object)  # the view beside the plane: a name, or None
    weight_class_changed = QtCore.Signal(int)  # the class whose weights weight space varies
    # apply_view asks the plane for an extent (x0, x1, y0, y1), or (None) to fit the points
    extent_requested = QtCore.Signal(object)

    TOGGLES = VIEW_TOGGLES  # ("optimum", "iterate", "suboptimality", "slack", "race")

    def __init__(self, session: Session | None = None, parent: QtCore.QObject | None = None):
        """``session`` (svmviz.app.session.Session): whose current class a View keeps."""
        super().__init__(parent)
        self._session = session
        self._toggles = dict.fromkeys(self.TOGGLES, False)
        self._presentation = False
        self._speed = DEFAULT
        self._warm_start = False
        self._parts: np.ndarray | None = None
        self._extent: tuple | None = None
        self._views: frozenset[str] = frozenset()
        self._companion: str | None = None
        self._weight_class = 0

    def _set(self, name: str, value: object) -> None:
        """``self._<name> = value``, and ``<name>_changed`` emitted, when it changes."""
        if value != getattr(self, f"_{name}"):
            setattr(self, f"_{name}", value)
            getattr(self, f"{name}_changed").emit(value)

    # ------------------------------------------------------------------ the View toggles
    def toggle(self, name: str) -> bool:
        return self._toggles[name]

    def set_toggle(self, name: str, on: bool) -> None:
        on = bool(on)
        if self._toggles[name] != on:
            self._toggles[name] = on
            getattr(self, f"{name}_changed").emit(on)

    def toggle_signal(self, name: str) -> QtCore.SignalInstance:
        return getattr(self, f"{name}_changed")

    @property
    def optimum(self) -> bool:
        return self._toggles["optimum"]

    def set_optimum(self, on: bool) -> None:
        self.set_toggle("optimum", on)

    @property
    def iterate(self) -> bool:
        return self._toggles["iterate"]

    def set_iterate(self, on: bool) -> None:
        self.set_toggle("iterate", on)

    @property
    def suboptimality(self) -> bool:
        return self._toggles["suboptimality"]

    def set_suboptimality(self, on: bool) -> None:
        self.set_toggle("suboptimality", on)

    @property
    def slack(self) -> bool:
        return self._toggles["slack"]

    def set_slack(self, on: bool) -> None:
        self.set_toggle("slack", on)

    @property
    def race(self) -> bool:
        return self._toggles["race"]

    def set_race(self, on: bool) -> None:
        self.set_toggle("race", on)

    # ------------------------------------------------------------------ presentation mode
    @property
    def presentation(self) -> bool:
        return self._presentation

    def set_presentation(self, on: bool) -> None:
        self._set("presentation", bool(on))

    # ------------------------------------------------------------------ speed, warm start
    @property
    def speed(self) -> Speed:
        """Play's speed (its default: the log-t pace)."""
        return self._speed

    def set_speed(self, speed: Speed | int) -> None:
        """Choose ``speed`` (or its saved code: see Speed.from_code)."""
        speed = Speed.from_code(speed.code if isinstance(speed, Speed) else speed)
        if speed != self._speed:
            self._speed = speed
            self.speed_changed.emit(speed)

    @property
    def warm_start(self) -> bool:
        """Edits go on from the current w instead of restarting from w = 0."""
        return self._warm_start

    def set_warm_start(self, on: bool) -> None:
        self._set("warm_start", bool(on))

    # ------------------------------------------------------------------ the job's split
    @property
    def parts(self) -> np.ndarray | None:
        """The part (train or test) of each point the current job was given; None: every
        point trains."""
        return self._parts

    def set_parts(self, parts: np.ndarray | None) -> None:
        old = self._parts
        same = (old is None and parts is None) or (
            old is not None and parts is not None and np.array_equal(old, parts)
        )
        self._parts = parts
        if not same:
            self.parts_changed.emit(parts)

    def training_mask(self, n: int) -> np.ndarray:
        """Which of ``n`` points the current job trains on."""
        if self._parts is None or len(self._parts) != n:
            return np.ones(n, dtype=bool)
        return self._parts == TRAIN

    # ------------------------------------------------------------------ the plane's extent
    @property
    def extent(self) -> tuple | None:
        """The plane's extent (x0, x1, y0, y1), as the plane reports it."""
        return self._extent

    def set_extent(self, extent: tuple | None) -> None:
        """Reported by the plane at each change of its range (no signal: nothing follows
        it but what a session file saves)."""
        self._extent = None if extent is None else tuple(float(v) for v in extent)

    # ------------------------------------------------------------------ the views
    @property
    def views(self) -> frozenset[str]:
        """The names of the views on (svmviz.ui.views.registry: the window shows those it knows and
        keeps the others, a newer release's, for the files it saves)."""
        return self._views

    def set_views(self, names: Iterable[str]) -> None:
        self._set("views", frozenset(names))

    def view_on(self, name: str) -> bool:
        return name in self._views

    def set_view(self, name: str, on: bool) -> None:
        self.set_views(self._views | {name} if on else self._views - {name})

    @property
    def companion(self) -> str | None:
        """The view beside the plane, or None (the plane alone)."""
        return self._companion

    def set_companion(self, name: str | None) -> None:
        self._set("companion", name or None)

    @property
    def weight_class(self) -> int:
        """The class row whose weights the weight-space view varies."""
        return self._weight_class

    def set_weight_class(self, k: int) -> None:
        self._set("weight_class", max(0, int(k)))

    # ------------------------------------------------------------------ a session's View
    def view(self) -> View:
        """What a session file keeps of the window: extent, toggles, speed, warm start, the
        current class, the views on and the companion."""
        toggles = tuple(name for name in self.TOGGLES if self._toggles[name])
        current = self._session.current_class if self._session is not None else 0
        return View(
            extent=self._extent,
            toggles=toggles,
            speed=self._speed.code,
            warm_start=self._warm_start,
            current_class=current,
            weight_class=self._weight_class,
            views=tuple(sorted(self._views)),
            companion=self._companion,
        )

    def apply_view(self, view: View, fit: bool = True) -> None:
        """Show ``view``: its speed, toggles, warm start and views (a file that names no
        views keeps those on, but for the flags it sets); then the plane fits the points
        (``fit``) or shows the view's extent (if it has one)."""
        self.set_speed(view.speed)
        for name in self.TOGGLES:
            self.set_toggle(name, name in view.toggles)
        self.set_warm_start(view.warm_start)
        self.set_weight_class(view.weight_class)
        views = set(self._views if view.views is None else view.views)
        for name, on in view.flags:  # (an older file's or a scenario's "surface": true)
            views = views | {name} if on else views - {name}
        self.set_views(views)
        if view.companion is not None or view.views is not None:
            self.set_companion(view.companion)
        if fit:
            self.extent_requested.emit(None)
        elif view.extent is not None:
            self.extent_requested.emit(tuple(view.extent))
