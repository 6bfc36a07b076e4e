"""The session as a document: a new one from a scenario's data and settings (``load``) or
from a session file (``restore``), everything it holds as a session file (``content``),
and the document's race and caption. A base of :class:`~.session.Session`; neither is an
undoable edit (the undo history is emptied by a new document).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from svmviz.app.session_points import points_of
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.edits import Points
from svmviz.core.files.session_file import SessionFile, View
from svmviz.core.lesson.generalization import Split
from svmviz.core.palette import MAX_CLASSES
from svmviz.core.training.race_setup import race_configs
from svmviz.core.training.start import Start

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance


class Document:
    """Load, restore and save the whole document; its race and caption."""

    if TYPE_CHECKING:  # (what the session holds, and the session's methods these call)
        cost: np.ndarray
        class_count: int
        config: SolverConfig
        split: Split
        caption: tuple | None
        start: Start | None
        race: tuple
        classes_changed: SignalInstance
        config_changed: SignalInstance
        split_changed: SignalInstance
        caption_changed: SignalInstance
        race_changed: SignalInstance

        @property
        def points(self) -> Points: ...

        def _set_notice(self, text: str) -> None: ...

        def set_start(self, start: Start | None) -> None: ...

        def _start(self, points: Points) -> None: ...

        def set_current_class(self, k: int) -> None: ...

        def job_config(self) -> SolverConfig: ...

    def load(self, data: Dataset, config: SolverConfig, race: tuple = ()) -> None:
        """A new document: the points and classes of ``data`` and the settings of ``config``
        (a scenario; its cost matrix is over the data's classes), with ``race`` (checked by
        the scenario's reader). Not undoable: the undo history is emptied (see
        ``restore``)."""
        K = min(data.n_classes, MAX_CLASSES)
        self.cost = np.ones((MAX_CLASSES, MAX_CLASSES)) - np.eye(MAX_CLASSES)
        if config.cost is not None:
            self.cost[:K, :K] = np.asarray(config.cost, dtype=float)[:K, :K]
        self.class_count = max(2, K)
        self.config = config.replace(cost=None)
        self.race = tuple(dict(v) for v in race)
        self._set_notice("")
        self.set_start(None)
        self._start(points_of(data))
        self.classes_changed.emit()
        self.config_changed.emit()
        self.race_changed.emit()

    def content(self, view: View | None = None) -> SessionFile:
        """Everything the session holds, as a session file (with ``view`` from the window)."""
        p = self.points
        return SessionFile(
            p.X,
            p.y,
            p.names,
            p.colors,
            self.class_count,
            self.cost.copy(),
            self.config,
            self.split,
            self.caption,
            view if view is not None else View(),
            p.target,
            self.start,
            self.race,
        )

    def restore(self, f: SessionFile) -> None:
        """A new document: everything from a session file (the points and classes, Δ, the
        settings, the split, the caption and the current class). The undo history is
        emptied: an undo would mix the old points with the new settings, caption and file
        name (New, Open and recovery replace the whole document, as in other apps)."""
        self.cost = np.array(f.cost, dtype=float)
        self.class_count = f.class_count
        self.config = f.config.replace(cost=None)
        self.split = f.split
        self.caption = f.caption
        self.race = f.race
        self._set_notice("")
        self.set_start(f.start)
        self._start(Points.of(f.X, f.y, f.names, f.colors, f.target))
        self.classes_changed.emit()
        self.config_changed.emit()
        self.split_changed.emit()
        self.caption_changed.emit()
        self.race_changed.emit()
        self.set_current_class(min(f.view.current_class, self.class_count - 1))

    def set_race(self, variations) -> None:
        """A race's runs 2–4, each a dict of the settings it changes (() : no race);
        checked against the configuration (an InputError says why not)."""
        race = tuple(dict(v) for v in variations)
        if race:
            race_configs(self.config, race)
        if race != self.race:
            self.race = race
            self.race_changed.emit()

    def race_configs(self) -> tuple:
        """The race's runs 2–4 for a job of ``job_config()``; an InputError when they
        cannot race it (e.g. after the base became a hard margin)."""
        return tuple(race_configs(self.job_config(), self.race)) if self.race else ()

    def set_caption(self, caption: tuple | None) -> None:
        if caption != self.caption:
            self.caption = caption
            self.caption_changed.emit()
