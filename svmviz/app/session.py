"""The session: the single source of truth for the points, the classes and the solver
configuration. Every edit of the points or of a class's name or colour goes through an
undoable command (svmviz.core.edits) and emits ``points_changed`` or ``classes_changed``;
widgets read the state back from here.

Classes live in fixed slots 0..MAX_CLASSES−1 (number keys 1–9). The slots shown in the class
bar are the first ``class_count``; the problem trained is over the slots that have points. The
cost matrix Δ is kept per slot pair, so deleting every point of a class keeps the costs of the
others; the configuration sent to the solver holds the submatrix of the classes present.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.edits import (
    DEFAULT_NAMES,
    Append,
    DeleteIndices,
    EditHistory,
    Move,
    Points,
    Replace,
    SetClass,
)
from svmviz.core.generalization import Split, split_parts
from svmviz.core.limits import MAX_COORDINATE
from svmviz.core.palette import CLASS_COLORS, MAX_CLASSES
from svmviz.core.session_file import SessionFile, View

EDIT_REACH = 0.999 * MAX_COORDINATE  # where clicks and drags stop (rounding kept inside)


class Session(QObject):
    points_changed = Signal()
    classes_changed = Signal()  # names, colours or the number of classes in the bar
    config_changed = Signal()
    split_changed = Signal()
    caption_changed = Signal()  # the scenario caption (what to look for), or none
    current_class_changed = Signal(int)

    def __init__(self, data: Dataset | None = None, config: SolverConfig | None = None):
        super().__init__()
        config = config if config is not None else SolverConfig()
        names = list(DEFAULT_NAMES)
        points = Points.empty()
        self.cost = np.ones((MAX_CLASSES, MAX_CLASSES)) - np.eye(MAX_CLASSES)  # 0-1
        self.class_count = 2
        if data is not None:
            K = min(data.n_classes, MAX_CLASSES)
            names = _slot_names(data)
            keep = data.y < MAX_CLASSES
            points = Points.of(data.X[keep, :2], data.y[keep], names, CLASS_COLORS)
            self.class_count = max(2, K)
            if config.cost is not None:
                self.cost[:K, :K] = np.asarray(config.cost, dtype=float)[:K, :K]
        self._history = EditHistory(points)
        # the cost lives in self.cost (per slot); the config's is derived per job
        self.config = config.replace(cost=None)
        self.current_class = 0
        self.split = Split()  # a train/test split of the points (none by default)
        self._parts = None  # (points, split, their parts): the last split_parts
        self.caption: tuple | None = None  # (title, text) of the scenario opened

    # ------------------------------------------------------------------ state
    @property
    def points(self) -> Points:
        return self._history.points

    @property
    def classes(self) -> tuple:
        return self.points.names

    @property
    def colors(self) -> tuple:
        return self.points.colors

    @property
    def edits(self) -> tuple:
        """The edits (svmviz.core.edits commands) that made the points from the document's."""
        return self._history.done

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

    def parts(self) -> np.ndarray | None:
        """Each point's part of the split (TRAIN, TEST, UNUSED), or None without one."""
        if not self.split.active:
            return None
        p = self.points
        # cached: the window and the Generalization tab both ask after every edit
        if self._parts is None or self._parts[0] is not p or self._parts[1] != self.split:
            self._parts = (p, self.split, split_parts(p.X, p.y, self.split))
        return self._parts[2]

    def set_split(self, split: Split) -> None:
        if split != self.split:
            self.split = split
            self.split_changed.emit()

    def cost_for(self, present) -> tuple | None:
        """Δ over the ``present`` slots, or None when it is the 0-1 cost (or binary)."""
        present = np.asarray(present, dtype=np.int64)
        sub = self.cost[np.ix_(present, present)]
        if present.size < 3 or np.array_equal(sub, 1.0 - np.eye(present.size)):
            return None
        return tuple(map(tuple, sub.tolist()))

    def job_config(self) -> SolverConfig:
        """The configuration to train now: the session's, with the cost of the classes
        present."""
        return self.config.replace(cost=self.cost_for(self.present_classes()))

    # ------------------------------------------------------------------ commands
    def _do(self, command, merge: bool = False) -> None:
        before = self.points
        self._history.do(command, merge)
        self._emit(before)

    def _start(self, points: Points) -> None:
        """Replace the points by a new document's, with nothing left to undo or redo."""
        before = self.points
        self._history.start(points)
        self._emit(before)

    def _emit(self, before: Points) -> None:
        after = self.points
        if after.names != before.names or after.colors != before.colors:
            self.classes_changed.emit()
        if after.X is not before.X or after.y is not before.y:
            self._grow_class_count()
            self.points_changed.emit()

    def _grow_class_count(self) -> None:
        if len(self.points):
            need = int(self.points.y.max()) + 1
            if need > self.class_count:
                self.class_count = need
                self.classes_changed.emit()

    def add_point(self, x: float, y: float, k: int | None = None) -> None:
        k = self.current_class if k is None else k
        xy = np.clip([[x, y]], -EDIT_REACH, EDIT_REACH)  # (a click in a view zoomed far out)
        self._do(Append(xy, np.array([k])))

    def delete_points(self, indices) -> None:
        indices = tuple(int(i) for i in indices)
        if indices:
            self._do(DeleteIndices(indices))

    def move_points(self, indices, dx: float, dy: float, merge: bool = False) -> None:
        indices = tuple(int(i) for i in indices)
        if indices:  # a drag stops at the edge of the coordinates svmviz takes
            X = self.points.X[list(indices)]
            lo, hi = -EDIT_REACH - X.min(axis=0), EDIT_REACH - X.max(axis=0)
            dx, dy = np.minimum(np.maximum([dx, dy], np.minimum(lo, 0)), np.maximum(hi, 0))
        self._do(Move(indices, (float(dx), float(dy))), merge)

    def replace_points(self, X, y) -> None:
        self._do(Replace(Points.of(X, y)))

    def load(self, data: Dataset, config: SolverConfig) -> None:
        """A new document: the points and classes of ``data`` and the settings of ``config``
        (a scenario; its cost matrix is over the data's classes). Not undoable: the undo
        history is emptied (see ``restore``)."""
        K = min(data.n_classes, MAX_CLASSES)
        names = _slot_names(data)
        keep = data.y < MAX_CLASSES
        self.cost = np.ones((MAX_CLASSES, MAX_CLASSES)) - np.eye(MAX_CLASSES)
        if config.cost is not None:
            self.cost[:K, :K] = np.asarray(config.cost, dtype=float)[:K, :K]
        self.class_count = max(2, K)
        self.config = config.replace(cost=None)
        self._start(Points.of(data.X[keep, :2], data.y[keep], names, CLASS_COLORS))
        self.classes_changed.emit()
        self.config_changed.emit()

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
        self._start(Points.of(f.X, f.y, f.names, f.colors))
        self.classes_changed.emit()
        self.config_changed.emit()
        self.split_changed.emit()
        self.caption_changed.emit()
        self.set_current_class(min(f.view.current_class, self.class_count - 1))

    def set_caption(self, caption: tuple | None) -> None:
        if caption != self.caption:
            self.caption = caption
            self.caption_changed.emit()

    def clear(self) -> None:
        if len(self.points):
            self._do(Replace(Points.empty()))

    def set_class(self, k: int, name: str | None = None, color: str | None = None) -> None:
        """Rename and/or recolour class ``k`` (undoable)."""
        name = self.classes[k] if name is None else name.strip()
        color = self.colors[k] if color is None else color
        if not name:
            return
        if name in self.classes and self.classes.index(name) != k:
            raise ValueError(f"another class is already called {name!r}")
        if (name, color) != (self.classes[k], self.colors[k]):
            self._do(SetClass(k, name, color))

    def add_class(self) -> int | None:
        """Show one more class slot in the bar and make it the current class."""
        if self.class_count >= MAX_CLASSES:
            return None
        self.class_count += 1
        self.classes_changed.emit()
        self.set_current_class(self.class_count - 1)
        return self.class_count - 1

    def set_cost(self, present, matrix) -> None:
        """Set Δ between the ``present`` slots (rows: true class, columns: predicted)."""
        present = np.asarray(present, dtype=np.int64)
        matrix = np.asarray(matrix, dtype=float)
        if not np.array_equal(self.cost[np.ix_(present, present)], matrix):
            self.cost[np.ix_(present, present)] = matrix
            self.config_changed.emit()

    def undo(self) -> None:
        if self.can_undo:
            before = self.points
            self._history.undo()
            self._emit(before)

    def redo(self) -> None:
        if self.can_redo:
            before = self.points
            self._history.redo()
            self._emit(before)

    def set_current_class(self, k: int) -> None:
        if 0 <= k < MAX_CLASSES and k != self.current_class:
            if k >= self.class_count:
                self.class_count = k + 1
                self.classes_changed.emit()
            self.current_class = k
            self.current_class_changed.emit(k)

    def set_config(self, config: SolverConfig) -> None:
        config = config.replace(cost=None)
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


def _slot_names(data: Dataset) -> list:
    """The data's class names in the first slots, default names after them (never one that
    repeats a data class: the data may have a class called "class 3")."""
    K = min(data.n_classes, MAX_CLASSES)
    names = list(DEFAULT_NAMES)
    names[:K] = data.classes[:K]
    for k in range(K, MAX_CLASSES):
        j = 2
        while names[k] in names[:K]:
            names[k] = f"{DEFAULT_NAMES[k]} ({j})"
            j += 1
    return names
