"""The session: the single source of truth for the points, the classes and the solver
configuration. Every point edit goes through an undoable command (svmviz.core.edits) and
emits ``points_changed``; widgets read the state back from here."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.edits import Append, DeleteIndices, EditHistory, Move, Points, Replace

MAX_CLASSES = 8


class Session(QObject):
    points_changed = Signal()
    config_changed = Signal()
    current_class_changed = Signal(int)

    def __init__(self, data: Dataset | None = None, config: SolverConfig | None = None):
        super().__init__()
        self.classes: list[str] = [f"class {k + 1}" for k in range(MAX_CLASSES)]
        points = Points.empty()
        if data is not None:
            for k, name in enumerate(data.classes[:MAX_CLASSES]):
                self.classes[k] = name
            keep = data.y < MAX_CLASSES
            points = Points.of(data.X[keep, :2], data.y[keep])
        self._history = EditHistory(points)
        self.config = config if config is not None else SolverConfig()
        self.current_class = 0

    # ------------------------------------------------------------------ state
    @property
    def points(self) -> Points:
        return self._history.points

    @property
    def can_undo(self) -> bool:
        return self._history.can_undo

    @property
    def can_redo(self) -> bool:
        return self._history.can_redo

    def present_classes(self) -> np.ndarray:
        """Session class indices that have points, in order (the data set's classes)."""
        return np.unique(self.points.y)

    def dataset(self) -> Dataset | None:
        """The points as a data set of the classes present; None with fewer than two."""
        present = self.present_classes()
        if present.size < 2:
            return None
        index = np.full(MAX_CLASSES, -1, dtype=np.int64)
        index[present] = np.arange(present.size)
        p = self.points
        return Dataset(np.array(p.X), index[p.y], tuple(self.classes[k] for k in present))

    # ------------------------------------------------------------------ commands
    def _do(self, command, merge: bool = False) -> None:
        self._history.do(command, merge)
        self.points_changed.emit()

    def add_point(self, x: float, y: float, k: int | None = None) -> None:
        k = self.current_class if k is None else k
        self._do(Append(np.array([[x, y]]), np.array([k])))

    def delete_points(self, indices) -> None:
        indices = tuple(int(i) for i in indices)
        if indices:
            self._do(DeleteIndices(indices))

    def move_points(self, indices, dx: float, dy: float, merge: bool = False) -> None:
        self._do(Move(tuple(int(i) for i in indices), (float(dx), float(dy))), merge)

    def replace_points(self, X, y) -> None:
        self._do(Replace(Points.of(X, y)))

    def clear(self) -> None:
        if len(self.points):
            self._do(Replace(Points.empty()))

    def undo(self) -> None:
        if self.can_undo:
            self._history.undo()
            self.points_changed.emit()

    def redo(self) -> None:
        if self.can_redo:
            self._history.redo()
            self.points_changed.emit()

    def set_current_class(self, k: int) -> None:
        if 0 <= k < MAX_CLASSES and k != self.current_class:
            self.current_class = k
            self.current_class_changed.emit(k)

    def set_config(self, config: SolverConfig) -> None:
        if config != self.config:
            self.config = config
            self.config_changed.emit()

    def nearest_point(self, x: float, y: float, radius_x: float, radius_y: float) -> int | None:
        """The point nearest to (x, y) within an ellipse of the given radii (data units)."""
        p = self.points
        if not len(p):
            return None
        d = ((p.X[:, 0] - x) / radius_x) ** 2 + ((p.X[:, 1] - y) / radius_y) ** 2
        i = int(np.argmin(d))
        return i if d[i] <= 1.0 else None
