"""Undoable edits of the point set and its classes, as commands with inverses (after
Orange's owpaintdata: ``Append``, ``Move``, ``DeleteIndices``; applying a command returns the
new state and the command that undoes it). Pure numpy: the app layer keeps the stacks and
emits the signals.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from svmviz.core.palette import CLASS_COLORS, MAX_CLASSES

DEFAULT_NAMES = tuple(f"class {k + 1}" for k in range(MAX_CLASSES))


@dataclass(frozen=True)
class Points:
    """An immutable point set: coordinates (n×2), class indices (n) into the class slots,
    and each slot's name and colour."""

    X: np.ndarray
    y: np.ndarray
    names: tuple = DEFAULT_NAMES
    colors: tuple = CLASS_COLORS

    @classmethod
    def empty(cls) -> Points:
        return cls(np.zeros((0, 2)), np.zeros(0, dtype=np.int64))

    @classmethod
    def of(cls, X, y, names=DEFAULT_NAMES, colors=CLASS_COLORS) -> Points:
        return cls(*_frozen(X, y), tuple(names), tuple(colors))

    def with_xy(self, X, y) -> Points:
        """The same classes, other points."""
        X, y = _frozen(X, y)
        return replace(self, X=X, y=y)

    def __len__(self) -> int:
        return self.X.shape[0]


def _frozen(X, y) -> tuple[np.ndarray, np.ndarray]:
    X = np.array(X, dtype=float).reshape(-1, 2)
    y = np.array(y, dtype=np.int64).reshape(-1)
    X.flags.writeable = False
    y.flags.writeable = False
    return X, y


@dataclass(frozen=True)
class Append:
    X: np.ndarray
    y: np.ndarray

    def apply(self, p: Points):
        n = len(p)
        new = p.with_xy(np.vstack([p.X, self.X]), np.concatenate([p.y, self.y]))
        return new, DeleteIndices(tuple(range(n, n + len(self.y))))


@dataclass(frozen=True)
class Insert:
    """Put points back at the given (sorted) positions: the inverse of DeleteIndices."""

    indices: tuple
    X: np.ndarray
    y: np.ndarray

    def apply(self, p: Points):
        n = len(p) + len(self.indices)
        keep = np.ones(n, dtype=bool)
        keep[list(self.indices)] = False
        X = np.empty((n, 2))
        y = np.empty(n, dtype=np.int64)
        X[keep], y[keep] = p.X, p.y
        X[~keep], y[~keep] = self.X, self.y
        return p.with_xy(X, y), DeleteIndices(self.indices)


@dataclass(frozen=True)
class DeleteIndices:
    indices: tuple

    def apply(self, p: Points):
        idx = np.array(sorted(set(self.indices)), dtype=np.int64)
        keep = np.ones(len(p), dtype=bool)
        keep[idx] = False
        return p.with_xy(p.X[keep], p.y[keep]), Insert(tuple(idx), p.X[idx], p.y[idx])


@dataclass(frozen=True)
class Move:
    indices: tuple
    delta: tuple  # (dx, dy)

    def apply(self, p: Points):
        X = p.X.copy()
        X[list(self.indices)] += np.asarray(self.delta)
        return p.with_xy(X, p.y), Move(self.indices, (-self.delta[0], -self.delta[1]))

    def merged(self, other: Move) -> Move | None:
        """One Move for a drag: consecutive moves of the same points add up."""
        if other.indices != self.indices:
            return None
        return Move(self.indices, (self.delta[0] + other.delta[0], self.delta[1] + other.delta[1]))


@dataclass(frozen=True)
class Replace:
    """Replace every point (Clear, Generate), keeping the classes; undoable like any other
    edit. With ``classes``, the class names and colours are replaced too (Open)."""

    points: Points
    classes: bool = False

    def apply(self, p: Points):
        new = self.points if self.classes else p.with_xy(self.points.X, self.points.y)
        return new, Replace(p, self.classes)


@dataclass(frozen=True)
class SetClass:
    """Rename and/or recolour class slot ``k``."""

    k: int
    name: str
    color: str

    def apply(self, p: Points):
        names, colors = list(p.names), list(p.colors)
        inverse = SetClass(self.k, names[self.k], colors[self.k])
        names[self.k], colors[self.k] = self.name, self.color
        return replace(p, names=tuple(names), colors=tuple(colors)), inverse


class EditHistory:
    """Undo and redo stacks of inverse commands over an immutable point set."""

    def __init__(self, points: Points | None = None):
        self.points = points if points is not None else Points.empty()
        self._undo: list = []  # (command, inverse)
        self._redo: list = []

    def start(self, points: Points) -> None:
        """A new document: ``points``, with nothing to undo or redo (an undo after Open
        would bring back the old points under the new file's settings and title)."""
        self.points = points
        self._undo.clear()
        self._redo.clear()

    def do(self, command, merge: bool = False) -> Points:
        """Apply ``command``. With ``merge``, a Move continues the previous Move (a drag)."""
        if merge and self._undo and isinstance(command, Move):
            last, _ = self._undo[-1]
            if isinstance(last, Move) and (combined := last.merged(command)) is not None:
                self.points, _ = command.apply(self.points)
                inverse = Move(combined.indices, (-combined.delta[0], -combined.delta[1]))
                self._undo[-1] = (combined, inverse)
                self._redo.clear()
                return self.points
        self.points, inverse = command.apply(self.points)
        self._undo.append((command, inverse))
        self._redo.clear()
        return self.points

    @property
    def done(self) -> tuple:
        """The commands done since the start, in order (those undone are not)."""
        return tuple(command for command, _ in self._undo)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Points:
        if self._undo:
            command, inverse = self._undo.pop()
            self.points, _ = inverse.apply(self.points)
            self._redo.append((command, inverse))
        return self.points

    def redo(self) -> Points:
        if self._redo:
            command, inverse = self._redo.pop()
            self.points, inverse = command.apply(self.points)
            self._undo.append((command, inverse))
        return self.points
