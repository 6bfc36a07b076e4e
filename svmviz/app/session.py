"""The session: the single source of truth for the points, the classes and the solver
configuration. Every edit of the points or of a class's name or colour goes through an
undoable command (svmviz.core.edits) and emits ``points_changed`` or ``classes_changed``;
widgets read the state back from here. The selection of points lives here too (the edit
history carries it through every edit, undo and redo): views show it and ask for a new one
with the point set their indices were taken from, so that an index drawn before an edit
never selects another point.

Classes live in fixed slots 0..MAX_CLASSES−1 (number keys 1–9). The slots shown in the class
bar are the first ``class_count``; the problem trained is over the slots that have points. The
cost matrix Δ is kept per slot pair, so deleting every point of a class keeps the costs of the
others; the configuration sent to the solver holds the submatrix of the classes present.

The points are read by the problem in force (``SolverConfig.kind``, see ``dataset``): the
classes of an svc; the coordinates alone for one-class (the classes are kept, ignored);
for a regression, either the plane itself (x the input, y the target: 1-D inputs) or, when
the points carry targets (a CSV of two coordinates and a target), the 2-D inputs and their
targets. A switch of the problem is an undoable edit (``SwitchProblem``) with the point
change it implies; ``notice`` says what it did to the points. Every other change of the
settings (``SetSettings``) and of Δ (``SetCost``) is an undoable edit too.

The session may hold a start w₀ (svmviz.core.training.start) that training begins from; it is part
of the document (saved, compared for unsaved changes) and not an undoable edit (the undo
history holds the points, the classes and the settings). A job takes it through
``job_start``, which drops it, with a notice, once the problem no longer fits it (a kernel,
other classes, other dimensions).

The session as a document (load, restore, its content as a file) is a base of its own
(:mod:`.session_document`); the functions of the points alone (from a data set, to the data
set a problem reads, through a switch of the problem) are :mod:`.session_points`.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from svmviz.app.session_document import Document
from svmviz.app.session_points import dataset_of, points_of, switch_notice, switch_points
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.edits import (
    Append,
    DeleteIndices,
    EditHistory,
    Move,
    Points,
    Replace,
    SetClass,
    SetCost,
    SetSettings,
    SwitchProblem,
)
from svmviz.core.errors import InputError
from svmviz.core.lesson.generalization import Split, split_parts
from svmviz.core.limits import MAX_COORDINATE, MAX_NAME, check_text
from svmviz.core.palette import MAX_CLASSES
from svmviz.core.training.start import Start

EDIT_REACH = 0.999 * MAX_COORDINATE  # where clicks and drags stop (rounding kept inside)
START_CLEARED = "The start w₀ was cleared"  # the notice that the start no longer fits


class Session(QObject, Document):
    points_changed = Signal()
    classes_changed = Signal()  # names, colours or the number of classes in the bar
    config_changed = Signal()
    split_changed = Signal()
    caption_changed = Signal()  # the scenario caption (what to look for), or none
    current_class_changed = Signal(int)
    notice_changed = Signal()  # what a switch of the problem did to the points (or "")
    target_changed = Signal()  # the target a click gives a point of a 2-D regression
    start_changed = Signal()  # the start w₀ set or cleared
    race_changed = Signal()  # the race's runs 2–4 (svmviz.core.training.race_setup)
    selection_changed = Signal()  # the points selected (``selection``)

    def __init__(self, data: Dataset | None = None, config: SolverConfig | None = None):
        super().__init__()
        config = config if config is not None else SolverConfig()
        points = Points.empty()
        self.cost = np.ones((MAX_CLASSES, MAX_CLASSES)) - np.eye(MAX_CLASSES)  # 0-1
        self.class_count = 2
        if data is not None:
            K = min(data.n_classes, MAX_CLASSES)
            points = points_of(data)
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
        self.notice = ""  # what the last switch of the problem did to the points
        self.current_target = 0.0  # the target of a point placed in a 2-D regression
        self.start: Start | None = None  # the w₀ training begins from (None: w = 0)
        self.race: tuple = ()  # a race's runs 2–4: the settings each changes of ``config``

    # ------------------------------------------------------------------ state
    @property
    def points(self) -> Points:
        return self._history.points

    @property
    def selection(self) -> tuple:
        """The selected points' indices, sorted (carried through every edit)."""
        return self._history.selection

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

    @property
    def kind(self) -> str:
        """The kind of problem in force: "svc", "regression" or "one-class"."""
        return self.config.kind

    @property
    def has_targets(self) -> bool:
        """Whether the points carry targets (a regression on 2-D inputs)."""
        return self.points.target is not None

    def dataset(self) -> Dataset | None:
        """The points as the problem in force reads them (:func:`.session_points.dataset_of`);
        None when they make no problem."""
        return dataset_of(self.points, self.kind)

    def needed(self) -> str:
        """What to do when the points make no problem (``dataset`` is None)."""
        if self.kind == "one-class":
            return "Click to place points: one-class learns the region that holds them"
        if self.kind == "regression":
            if self.has_targets:
                return "Click to place points of at least two targets (the field sets a click's)"
            return "Click to place at least two points: x is the input, y the target"
        return (
            "Click to place points of at least two classes "
            f"(keys 1–{MAX_CLASSES} choose the class, right click removes a point)"
        )

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
        present where the loss in force takes one."""
        cost = self.cost_for(self.present_classes())
        if cost is None or self.kind != "svc":
            return self.config
        try:  # (the configuration knows which losses take Δ)
            return self.config.replace(cost=cost)
        except InputError:
            return self.config

    def job_start(self, data: Dataset, config: SolverConfig) -> Start | None:
        """The start w₀ of a job of ``config`` on ``data``; a start the problem no longer
        fits is cleared here, and the notice says why."""
        if self.start is None:
            return None
        why = self.start.misfit(config, data)
        if why is None:
            return self.start
        self.clear_start(why)
        return None

    def clear_start(self, why: str) -> None:
        """Forget the start w₀ (training begins at w = 0), saying ``why`` in the notice."""
        if self.start is not None:
            self.set_start(None)
            self._set_notice(f"{START_CLEARED} ({why}): training begins at w = 0")

    # ------------------------------------------------------------------ commands
    def set_start(self, start: Start | None) -> None:
        """Train from ``start`` (None: from w = 0) from the next job on."""
        if start != self.start:
            self.start = start
            self.start_changed.emit()
        if start is not None and self.notice.startswith(START_CLEARED):
            self._set_notice("")  # (a new start: the old one's notice is no longer true)

    def _do(self, command, merge: bool = False) -> None:
        before, selected = self.points, self.selection
        self._history.do(command, merge)
        self._emit(before, selected)

    def _start(self, points: Points) -> None:
        """Replace the points by a new document's, with nothing left to undo or redo."""
        before, selected = self.points, self.selection
        self._history.start(points)
        self._emit(before, selected)

    def _emit(self, before: Points, selected: tuple) -> None:
        after = self.points
        applied = self._history.applied
        if isinstance(applied, SwitchProblem):
            self._switched(applied, before)
        elif isinstance(applied, (SetSettings, SetCost)):
            if isinstance(applied, SetCost):
                self.cost[np.ix_(applied.present, applied.present)] = applied.matrix
            else:
                self.config = applied.config
            self._history.applied = None  # (said once)
            self.config_changed.emit()
        elif self.notice and after is not before:
            self._set_notice("")  # (said once: the next edit of the points clears it)
        if after.names != before.names or after.colors != before.colors:
            self.classes_changed.emit()
        if after.X is not before.X or after.y is not before.y or after.target is not before.target:
            self._grow_class_count()
            self.points_changed.emit()
        if self.selection != selected:
            self.selection_changed.emit()

    def _switched(self, command: SwitchProblem, before: Points) -> None:
        """A switch done, undone or redone: its configuration in force, and its notice."""
        old = self.config
        try:  # the problem's settings on the current ones (λ, the kernel… stay)
            config = old.replace(
                **{
                    f: getattr(command.config, f)
                    for f in ("problem", "loss", "multiclass", "margin")
                }
            )
        except InputError:
            config = command.config.replace(cost=None)
        self.config = config
        self._history.applied = None  # (said once)
        self._set_notice(switch_notice(old, config, before, self.points))
        self.config_changed.emit()

    def _set_notice(self, text: str) -> None:
        if text != self.notice:
            self.notice = text
            self.notice_changed.emit()

    def _grow_class_count(self) -> None:
        if len(self.points):
            need = int(self.points.y.max()) + 1
            if need > self.class_count:
                self.class_count = need
                self.classes_changed.emit()

    def add_point(self, x: float, y: float, k: int | None = None, target=None) -> None:
        """A point at (x, y) of class ``k`` (the current class); with targets (a 2-D
        regression), of target ``target`` (the current target)."""
        k = self.current_class if k is None else k
        xy = np.clip([[x, y]], -EDIT_REACH, EDIT_REACH)  # (a click in a view zoomed far out)
        t = None
        if self.has_targets:
            t = np.array([self.current_target if target is None else float(target)])
        self._do(Append(xy, np.array([k]), t))

    def set_current_target(self, value: float) -> None:
        value = float(value)
        if value != self.current_target:
            self.current_target = value
            self.target_changed.emit()

    def delete_points(self, indices) -> None:
        indices = tuple(int(i) for i in indices)
        if indices:
            self._do(DeleteIndices(indices))

    def select(self, indices, points: Points | None = None) -> None:
        """Select the points ``indices`` (the others not; not an undoable edit). ``points``:
        the point set a view took the indices from; once the points have changed since
        (an edit before the view caught up), the indices are stale and nothing changes."""
        if points is not None and points is not self.points:
            return
        selected = self.selection
        self._history.select(indices)
        if self.selection != selected:
            self.selection_changed.emit()

    def delete_selection(self) -> None:
        """Delete the points selected (undoable: Undo brings them back, selected)."""
        self.delete_points(self.selection)

    def move_points(self, indices, dx: float, dy: float, merge: bool = False) -> None:
        indices = tuple(int(i) for i in indices)
        if indices:  # a drag stops at the edge of the coordinates svmviz takes
            X = self.points.X[list(indices)]
            lo, hi = -EDIT_REACH - X.min(axis=0), EDIT_REACH - X.max(axis=0)
            dx, dy = np.minimum(np.maximum([dx, dy], np.minimum(lo, 0)), np.maximum(hi, 0))
        self._do(Move(indices, (float(dx), float(dy))), merge)

    def replace_points(self, X, y, target=None) -> None:
        self._do(Replace(Points.of(X, y, target=target)))

    def clear(self) -> None:
        if len(self.points):
            self._do(Replace(Points.empty(targets=self.has_targets)))

    def set_class(self, k: int, name: str | None = None, color: str | None = None) -> None:
        """Rename and/or recolour class ``k`` (undoable)."""
        name = self.classes[k] if name is None else name.strip()
        color = self.colors[k] if color is None else color
        if not name:
            return
        check_text(name, MAX_NAME, "the class name")  # (as a file's are bounded)
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
        matrix = np.array(matrix, dtype=float)
        before = self.cost[np.ix_(present, present)]
        if not np.array_equal(before, matrix):
            self._do(SetCost(tuple(present.tolist()), matrix, before))

    def undo(self) -> None:
        if self.can_undo:
            before, selected = self.points, self.selection
            self._history.undo()
            self._emit(before, selected)

    def redo(self) -> None:
        if self.can_redo:
            before, selected = self.points, self.selection
            self._history.redo()
            self._emit(before, selected)

    def set_current_class(self, k: int) -> None:
        if 0 <= k < MAX_CLASSES and k != self.current_class:
            if k >= self.class_count:
                self.class_count = k + 1
                self.classes_changed.emit()
            self.current_class = k
            self.current_class_changed.emit(k)

    def set_config(self, config: SolverConfig, merge: bool = False) -> None:
        """The settings in force, as an undoable edit: a change of the problem with the
        change of the points it implies (see ``switch_points``); with ``merge``, a change
        that continues the last one (a drag of the λ slider: one Undo for the drag)."""
        config = config.replace(cost=None)
        if config.problem != self.config.problem:
            points = switch_points(self.points, self.config, config)
            self._do(SwitchProblem(config, self.config, points))
        elif config != self.config:
            self._do(SetSettings(config, self.config), merge)

    def nearest_point(self, x: float, y: float, radius_x: float, radius_y: float) -> int | None:
        """The point nearest to (x, y) within an ellipse of the given radii (data units)."""
        p = self.points
        if not len(p):
            return None
        d = ((p.X[:, 0] - x) / radius_x) ** 2 + ((p.X[:, 1] - y) / radius_y) ** 2
        i = int(np.argmin(d))
        return i if d[i] <= 1.0 else None
