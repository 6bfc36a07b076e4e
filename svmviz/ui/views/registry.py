"""The views registry: every view of the training the window can show (the curves, the step
inspector, the tabs, the weight space, the kernel matrix, the 3-D view), each declared once.

A view is one module and one :class:`ViewSpec` in :data:`REGISTRY`: its name (what sessions
and preferences keep), its titles, its shortcut, what it can draw, its pace, its home (the
curves' place, a tab below them, or in front of them, off until asked) and its factory. The
window, the View menu, the companion chooser, presentation mode, the view flags of the state,
the session file and the preferences, and the frame router all loop over the registry
(napari registers its dock widgets by name the same way: ``_qt/qt_main_window.py``).
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from PySide6 import QtWidgets

from svmviz.ui.views.reading import Pace, Reading


class Home(enum.Enum):
    CURVES = "the right column's top: the place the readings are tabbed below"
    TAB = "a tab below the curves"
    FRONT = "in front of the curves, when turned on"


@dataclass
class Made:
    """What a view's factory makes: ``widget`` (what its dock or the companion holds),
    ``view`` (the view itself, kept as the window's ``spec.attr``), its ``reading`` of
    the training (None: the router feeds it itself, as the step inspector), what draws its
    text and marks ``k`` times as large (``scale(k)``: presentation mode) and what stops its
    threads when the window closes (``shutdown``)."""

    widget: QtWidgets.QWidget
    view: Any
    reading: Reading | None = None
    scale: Callable[[float], None] | None = None
    shutdown: Callable[[], None] | None = None


@dataclass(frozen=True)
class ViewSpec:
    name: str  # kept in session files and the preferences (never renamed)
    title: str  # its tab's and the companion's title (short: a row of tabs at 1366 px)
    make: Callable[[Any], Made]  # the window -> the view (made when first shown or read)
    menu: str | None = None  # the View menu's text (default: the title)
    shortcut: str | None = None  # makes it the companion
    draws: str = "every model"  # what it can draw, in words (its menu entry's tip)
    pace: Pace = Pace.VISIBLE
    home: Home = Home.TAB
    attr: str | None = None  # the window's attribute for ``Made.view`` (older code reads it)

    @property
    def menu_text(self) -> str:
        return self.menu or self.title

    @property
    def dock_name(self) -> str:
        """Its dock's object name (a saved dock layout finds it by it)."""
        return self.name.replace("_", "-") + "-dock"

    @property
    def on_by_default(self) -> bool:
        return self.home is not Home.FRONT

    def reading(self, made: Made) -> Reading | None:
        """Its reading at its pace, judged on screen by its whole widget."""
        if made.reading is None:
            return None
        return replace(made.reading, pace=self.pace, widget=made.widget)


class MadeOnRead(dict[str, Made]):
    """A window's views by name, each made by ``make(name)`` when first read (``[name]``;
    ``get`` and ``in`` do not make one)."""

    def __init__(self, make: Callable[[str], Made]):
        super().__init__()
        self._make = make

    def __missing__(self, name: str) -> Made:
        made = self[name] = self._make(name)
        return made


REGISTRY: list[ViewSpec] = []


def register(spec: ViewSpec) -> ViewSpec:
    """Add ``spec`` (once per name); windows made from now on show it."""
    if any(s.name == spec.name for s in REGISTRY):
        raise ValueError(f"a view named {spec.name!r} is registered already")
    REGISTRY.append(spec)
    return spec


@contextlib.contextmanager
def registered(spec: ViewSpec) -> Iterator[ViewSpec]:
    """``spec`` registered for the block (a test's view)."""
    register(spec)
    try:
        yield spec
    finally:
        REGISTRY.remove(spec)


def spec(name: str) -> ViewSpec:
    return next(s for s in REGISTRY if s.name == name)


def names() -> tuple[str, ...]:
    return tuple(s.name for s in REGISTRY)


def default_on() -> frozenset[str]:
    """The views shown when nothing is remembered."""
    return frozenset(s.name for s in REGISTRY if s.on_by_default)
