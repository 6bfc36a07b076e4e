"""Undoable edits of the point set and its classes, as commands with inverses (after
Orange's owpaintdata: ``Append``, ``Move``, ``DeleteIndices``; applying a command returns the
new state and the command that undoes it). Pure numpy: the app layer keeps the stacks and
emits the signals.

The points of a regression on 2-D inputs carry a real target each (``Points.target``); every
command carries it along with the coordinates and classes. A switch of the problem is an
edit too (``SwitchProblem``): it holds the settings that change with it, and the points it
implies, so one Undo brings both back; so is every other change of the solver settings
(``SetSettings``), and of Δ (``SetCost``), so that Undo brings back λ, the kernel, ν, Δ…
as the panel had them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.palette import CLASS_COLORS, MAX_CLASSES

DEFAULT_NAMES = tuple(f"class {k + 1}" for k in range(MAX_CLASSES))


@dataclass(frozen=True)
class Points:
    """An immutable point set: coordinates (n×2), class indices (n) into the class slots,
    each slot's name and colour, and the real targets (n) of a regression on 2-D inputs
    (None otherwise)."""

    X: np.ndarray
    y: np.ndarray
    names: tuple = DEFAULT_NAMES
    colors: tuple = CLASS_COLORS
    target: np.ndarray | None = None

    @classmethod
    def empty(cls, targets: bool = False) -> Points:
        return cls(
            np.zeros((0, 2)), np.zeros(0, dtype=np.int64), target=np.zeros(0) if targets else None
        )

    @classmethod
    def of(cls, X, y, names=DEFAULT_NAMES, colors=CLASS_COLORS, target=None) -> Points:
        X, y, target = _frozen(X, y, target)
        return cls(X, y, tuple(names), tuple(colors), target)

    def with_xy(self, X, y, target=None) -> Points:
        """The same classes, other points (and their targets)."""
        X, y, target = _frozen(X, y, target)
        return replace(self, X=X, y=y, target=target)

    def rows(self, index) -> tuple:
        """(X, y, target) of the points ``index`` (target None without targets)."""
        t = None if self.target is None else self.target[index]
        return self.X[index], self.y[index], t

    def __len__(self) -> int:
        return self.X.shape[0]


def _frozen(X, y, target=None) -> tuple:
    X = np.array(X, dtype=float).reshape(-1, 2)
    y = np.array(y, dtype=np.int64).reshape(-1)
    X.flags.writeable = False
    y.flags.writeable = False
    if target is not None:
        target = np.array(target, dtype=float).reshape(-1)
        if target.shape != y.shape:
            raise ValueError(f"{len(target)} targets for {len(y)} points")
        target.flags.writeable = False
    return X, y, target


def _checked(indices, n: int) -> np.ndarray:
    """``indices`` as sorted unique int64 indices of n points; an IndexError for any index of
    no point (a negative one included: it would pick a point from the end)."""
    idx = np.array(sorted({int(i) for i in indices}), dtype=np.int64)
    if idx.size and (idx[0] < 0 or idx[-1] >= n):
        raise IndexError(f"point indices {idx.tolist()} out of range for {n} points")
    return idx


def _joined(a, b, n_a: int, n_b: int):
    """Targets of two point sets joined (a point set without them counts as 0 each)."""
    if a is None and b is None:
        return None
    a = np.zeros(n_a) if a is None else a
    b = np.zeros(n_b) if b is None else b
    return np.concatenate([a, b])


@dataclass(frozen=True)
class Append:
    X: np.ndarray
    y: np.ndarray
    target: np.ndarray | None = None  # (the points' targets, for points that carry them)

    def apply(self, p: Points):
        n, k = len(p), len(self.y)
        target = _joined(p.target, self.target, n, k)
        new = p.with_xy(np.vstack([p.X, self.X]), np.concatenate([p.y, self.y]), target)
        return new, DeleteIndices(tuple(range(n, n + k)))

    def remap(self, selection: tuple, n: int) -> tuple:
        """The points before keep their indices; those added are not selected."""
        return selection


@dataclass(frozen=True)
class Insert:
    """Put points back at the given (sorted) positions: the inverse of DeleteIndices."""

    indices: tuple
    X: np.ndarray
    y: np.ndarray
    target: np.ndarray | None = None

    def apply(self, p: Points):
        n = len(p) + len(self.indices)
        keep = np.ones(n, dtype=bool)
        keep[list(self.indices)] = False
        X = np.empty((n, 2))
        y = np.empty(n, dtype=np.int64)
        X[keep], y[keep] = p.X, p.y
        X[~keep], y[~keep] = self.X, self.y
        target = None
        if p.target is not None or self.target is not None:
            target = np.zeros(n)
            target[keep] = 0.0 if p.target is None else p.target
            target[~keep] = 0.0 if self.target is None else self.target
        return p.with_xy(X, y, target), DeleteIndices(self.indices)

    def remap(self, selection: tuple, n: int) -> tuple:
        """Each point before moves up past the points put back before it."""
        keep = np.ones(n + len(self.indices), dtype=bool)
        keep[list(self.indices)] = False
        return tuple(np.flatnonzero(keep)[list(selection)].tolist())


@dataclass(frozen=True)
class DeleteIndices:
    indices: tuple

    def apply(self, p: Points):
        idx = _checked(self.indices, len(p))
        keep = np.ones(len(p), dtype=bool)
        keep[idx] = False
        return p.with_xy(*p.rows(keep)), Insert(tuple(idx.tolist()), *p.rows(idx))

    def remap(self, selection: tuple, n: int) -> tuple:
        """The points deleted leave the selection; the others move down past them."""
        gone = _checked(self.indices, n)
        kept = np.setdiff1d(np.asarray(selection, dtype=np.int64), gone)
        return tuple((kept - np.searchsorted(gone, kept)).tolist())


@dataclass(frozen=True)
class Move:
    indices: tuple
    delta: tuple  # (dx, dy)

    def apply(self, p: Points):
        X = p.X.copy()
        X[_checked(self.indices, len(p))] += np.asarray(self.delta)
        return p.with_xy(X, p.y, p.target), self.undone()

    def undone(self) -> Move:
        """The inverse, whatever the points."""
        return Move(self.indices, (-self.delta[0], -self.delta[1]))

    def merged(self, other: Move) -> Move | None:
        """One Move for a drag: consecutive moves of the same points add up."""
        if other.indices != self.indices:
            return None
        return Move(self.indices, (self.delta[0] + other.delta[0], self.delta[1] + other.delta[1]))

    def remap(self, selection: tuple, n: int) -> tuple:
        return selection


@dataclass(frozen=True)
class Replace:
    """Replace every point (Clear, Generate), keeping the classes; undoable like any other
    edit. With ``classes``, the class names and colours are replaced too (Open)."""

    points: Points
    classes: bool = False

    def apply(self, p: Points):
        q = self.points
        new = q if self.classes else p.with_xy(q.X, q.y, q.target)
        return new, Replace(p, self.classes)

    def remap(self, selection: tuple, n: int) -> tuple:
        """Other points: none selected."""
        return ()


@dataclass(frozen=True)
class SwitchProblem:
    """Switch the problem to ``config``'s (a SolverConfig) from ``before``'s and, when the
    switch implies it, to new ``points`` (the targets of a 2-D regression dropped for a
    classification). The app layer applies the configuration (see
    svmviz.app.session.Session); the inverse switches back, to the points before."""

    config: SolverConfig
    before: SolverConfig
    points: Points | None = None  # None: the points stay as they are

    def apply(self, p: Points):
        new = p if self.points is None else self.points
        back = None if self.points is None else p
        return new, SwitchProblem(self.before, self.config, back)

    def remap(self, selection: tuple, n: int) -> tuple:
        """The points implied are the same points (their targets dropped or back)."""
        return selection if self.points is None or len(self.points) == n else ()


@dataclass(frozen=True)
class SetSettings:
    """Change the solver settings to ``config`` from ``before`` (SolverConfigs of the same
    problem; the points stay). The app layer puts the configuration in force (see
    svmviz.app.session.Session); the inverse goes back to ``before``."""

    config: SolverConfig
    before: SolverConfig

    def apply(self, p: Points):
        return p, self.undone()

    def undone(self) -> SetSettings:
        """The inverse, whatever the points."""
        return SetSettings(self.before, self.config)

    def merged(self, other: SetSettings) -> SetSettings:
        """One edit for a drag of the λ slider: from the first setting to the last."""
        return SetSettings(other.config, self.before)

    def remap(self, selection: tuple, n: int) -> tuple:
        return selection


@dataclass(frozen=True, eq=False)
class SetCost:
    """Set Δ between the class slots ``present`` to ``matrix`` from ``before`` (rows: true
    class; the points stay). The app layer keeps Δ (see svmviz.app.session.Session)."""

    present: tuple
    matrix: np.ndarray
    before: np.ndarray

    def apply(self, p: Points):
        return p, SetCost(self.present, self.before, self.matrix)

    def remap(self, selection: tuple, n: int) -> tuple:
        return selection


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

    def remap(self, selection: tuple, n: int) -> tuple:
        return selection


@dataclass
class _Step:
    """One undo step: the command, its inverse, the selection before it and (once undone)
    the one after it, each as the user left it (a selection changed after an undo or a
    redo is the one the next redo or undo brings back)."""

    command: object
    inverse: object
    before: tuple
    after: tuple = ()


class EditHistory:
    """Undo and redo stacks of inverse commands over an immutable point set, and the
    selection of its points (``selection``: sorted indices), which every edit carries."""

    def __init__(self, points: Points | None = None):
        self.points = points if points is not None else Points.empty()
        self.selection: tuple = ()
        self._undo: list[_Step] = []
        self._redo: list[_Step] = []
        self._moving = False  # the last edit was a Move or a SetSettings, which a drag continues
        self.applied: object = None  # the last command applied (by do, undo or redo)

    def start(self, points: Points) -> None:
        """A new document: ``points``, none selected, with nothing to undo or redo (an undo
        after Open would bring back the old points under the new file's settings and
        title)."""
        self.points = points
        self.selection = ()
        self._undo.clear()
        self._redo.clear()
        self._moving = False
        self.applied = None

    def select(self, indices) -> tuple:
        """Select the points ``indices`` of the current points (the others not); an
        IndexError for an index of no point. Not an edit: nothing to undo."""
        self.selection = tuple(_checked(indices, len(self.points)).tolist())
        return self.selection

    def do(self, command, merge: bool = False) -> Points:
        """Apply ``command``. With ``merge``, a Move continues the Move just done (a drag
        of points), a SetSettings the SetSettings just done (a drag of the λ slider)."""
        n, before = len(self.points), self.selection
        if merge and self._moving and type(command) is type(self._undo[-1].command):
            last = self._undo[-1]
            combined = last.command.merged(command)  # type: ignore[attr-defined]
            if combined is not None:
                self.points, _ = command.apply(self.points)  # type: ignore[attr-defined]
                last.command = combined
                last.inverse = combined.undone()
                self._redo.clear()
                self.applied = command
                return self.points
        self.points, inverse = command.apply(self.points)
        self.selection = command.remap(before, n)
        self._undo.append(_Step(command, inverse, before))
        self._redo.clear()
        self._moving = isinstance(command, (Move, SetSettings))
        self.applied = command
        return self.points

    @property
    def done(self) -> tuple:
        """The commands done since the start, in order (those undone are not)."""
        return tuple(step.command for step in self._undo)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Points:
        """Undo the last step, back to the points and the selection before it."""
        self._moving = False
        if self._undo:
            step = self._undo.pop()
            step.after = self.selection
            self.points, _ = step.inverse.apply(self.points)  # type: ignore[attr-defined]
            self.selection = step.before
            self._redo.append(step)
            self.applied = step.inverse
        return self.points

    def redo(self) -> Points:
        """Redo the last step undone, to the points and the selection it was undone from."""
        self._moving = False
        if self._redo:
            step = self._redo.pop()
            step.before = self.selection
            self.points, step.inverse = step.command.apply(self.points)  # type: ignore[attr-defined]
            self.selection = step.after
            self._undo.append(step)
            self.applied = step.command
        return self.points
