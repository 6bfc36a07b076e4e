"""A race in the training runner: the companion runs (2–4) of a job follow its own run
(run 1, the solver panel's), stepped by the same runner in the same thread (no thread
each): after every chunk of play and before every frame each companion is brought to run
1's iteration t: forward by stepping, backward (a step back, a seek, a restart) by a
replay from w = 0 with its seed, which gives the same iterates, so each run equals its run
alone. A single step comes explained for every run (its inspector line).

Each frame carries a :class:`RaceFrame`: per companion its model, boundary and margin
lines over the plane, history, exact optimum (shared with run 1 when the problem is the
same, else computed one at a time beside the training) and its path in weight space.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields, replace
from math import nan

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.lesson.explain import StepRecord, step_and_explain
from svmviz.core.model_io import Model
from svmviz.core.palette import RACE_COLORS, RACE_DASHES
from svmviz.core.pictures.frame import make_frame
from svmviz.core.pictures.lines import level_line
from svmviz.core.pictures.margins import margin_lines
from svmviz.core.pictures.weight_path import frozen
from svmviz.core.solvers import Solver
from svmviz.core.telemetry import held, history_csv
from svmviz.core.training.race import Path, Race
from svmviz.core.training.race_setup import legend_label, short_label
from svmviz.core.training.setup import problem_key
from svmviz.core.training.start import Start, apply_start

# the window's telemetry (every run of it): the exact objective at the checkpoints
# (log-spaced) and at each frame (Solver.shared_history), not at every step, where it is
# an O(m) pass (every loss but the screened linear hinge)
RECORD = "checkpoints"

RACE_GRID = 64  # cells a side of a companion's frame (kernel models: its f = 0 contour)
# kernel runs' lines cost a grid of f each: while frames come closer than SETTLE_SECONDS
# (playing), one run's lines are drawn again every LINES_SECONDS, in turn; frames farther
# apart (stepping, paused) draw every run's
SETTLE_SECONDS = 0.1
LINES_SECONDS = 0.1


@dataclass(frozen=True, kw_only=True)
class RaceRun:
    """One run of a race at a frame."""

    label: str  # what differs (core.race_setup.legend_label)
    short: str  # the same in a narrow column's words (core.race_setup.short_label)
    color: str
    dash: str  # "solid", "dash", "dot", "dashdot"
    config: SolverConfig
    t: int
    status: str
    model: Model
    contours: dict  # "boundary", "margin": (n, 2) polylines over the frame's extent
    history: dict  # as Snapshot.history
    objective: float | None  # the exact optimum F* of its problem, when known
    path: Path | None  # its iterates and outputs in weight space (linear 2-D models)
    step: StepRecord | None = None  # the step it took, when this frame follows one step


@dataclass(frozen=True, kw_only=True)
class RaceFrame:
    """A race at a frame: run 1's legend entry and path, and the companions (runs 2…)."""

    label: str  # run 1's
    color: str
    dash: str
    path: Path | None  # run 1's path in weight space
    runs: tuple[RaceRun, ...]
    same_samples: bool  # the runs that sample saw the same examples so far (checked)
    common: bool  # every run solves run 1's problem: one optimum F* for all

    @property
    def labels(self) -> list[str]:
        return [self.label, *(r.label for r in self.runs)]

    @property
    def colors(self) -> list[str]:
        return [self.color, *(r.color for r in self.runs)]

    @property
    def paths(self) -> list[Path | None]:
        """Every run's path in weight space (None: a kernel run), run 1's first: with
        ``colors`` and ``labels``, what a weight-space view draws of the race."""
        return [self.path, *(r.path for r in self.runs)]


class Companions:
    """The companion runs of a job (``configs``) on ``data``, following run 1."""

    def __init__(self, main: Solver, configs: list[SolverConfig], data: Dataset, grams=None):
        """``grams``: run 1's GramCache, shared with the runs of its kernel (the same
        points: the same matrix, unchanged)."""
        base = main.config
        self._grams, self._kernel, self.data = grams, base.kernel, data
        self._start: Start | None = None  # run 1's start w₀, when it has one (set_start)
        solvers = [main, *(self._solver(c) for c in configs)]
        self.race = Race([base, *configs], data, solvers)  # (checks the runs)
        self.configs = configs
        self.labels = labels(base, configs)
        self.shorts = [short_label(base, c) for c in configs]
        self.solvers = self.race.solvers[1:]
        self.paths = self.race.paths[1:]
        self.base_path = Path()
        self.records: list[StepRecord | None] = [None] * len(configs)
        self._key = problem_key(base, data)
        self._keys = [problem_key(c, data) for c in configs]
        self.objectives: list[float | None] = [None] * len(configs)
        self._asked: int | None = None  # the companion whose optimum is being computed
        # (key, contours, model) drawn; a new job's first frame may take an earlier job's
        # lines of the same model (carry_lines)
        self._lines: list[tuple | None] = [None] * len(configs)
        self._kept: list[tuple | None] = [None] * len(configs)
        self._last_frame = -float("inf")  # when the last frame was made (perf_counter)
        self._turn = 0  # the kernel run whose lines a frame close to the last one redraws
        self._turned_at = -float("inf")  # when that run's lines were last drawn (playing)
        self._warmed = [False] * len(configs)  # the runs that went on from an earlier job's

    def _solver(self, config: SolverConfig) -> Solver:
        same = self._grams is not None and config.kernel == self._kernel
        solver = Solver(config, record=RECORD).reset(self.data, grams=self._grams if same else None)
        if self._start is not None and solver.linear_:
            apply_start(solver, self._start)
        return solver

    def set_start(self, start: Start) -> None:
        """Every linear run begins at run 1's start w₀ (and t₀) too, and replays from it; a
        kernel run, which has no w to start from, begins at w = 0."""
        self._start = start
        for i, s in enumerate(self.solvers):
            if s.linear_ and s.t_ == 0:
                self.solvers[i] = self._solver(self.configs[i])
        self.race.solvers = [self.race.solvers[0], *self.solvers]

    def carry_lines(self, earlier: Companions) -> None:
        """Keep ``earlier``'s lines (the race of the job before an edit) over the same extent
        for the warm-started runs: the new job's first frame draws only the lines that
        changed (a new point's α = 0 leaves a model as it was), and while playing only the
        run whose turn it is, as the frames before the edit did (the others keep their
        earlier lines, stale as they were, until their turn)."""
        if len(earlier._lines) == len(self._kept):
            lines = zip(earlier._lines, self._warmed, strict=True)
            self._kept = [line if warm else None for line, warm in lines]
            self._last_frame, self._turn = earlier._last_frame, earlier._turn
            self._turned_at = earlier._turned_at

    def warm_states(self) -> list[dict]:
        """Each companion's state for a warm start (svmviz.core.solvers.Solver.warm_state)."""
        return [s.warm_state() for s in self.solvers]

    def warm_from(self, states: list[dict]) -> None:
        """Each companion goes on from its run's state before an edit, as run 1 does with
        warm start (a run whose problem changed shape stays at w = 0 and catches up)."""
        if len(states) == len(self.solvers):
            self._warmed = [s.warm_from(st) for s, st in zip(self.solvers, states, strict=True)]

    @property
    def stale(self) -> bool:
        """Whether some run's lines are of an older state than its model's (redrawn in
        turn while playing)."""
        return any(
            line is None or line[0][0] != s.t_
            for line, s in zip(self._lines, self.solvers, strict=True)
        )

    def settle(self, extent, iterate: bool) -> None:
        """Every run's lines of its current model over ``extent`` (before a last frame)."""
        self._last_frame = -float("inf")
        self._lines_of(set(range(len(self.solvers))), extent, iterate)

    def follow(self, main: Solver, explain: bool = False, record=lambda r: r) -> None:
        """Each companion to ``main``'s iteration t; with ``explain`` its last step taken
        and explained (run 1's frame follows one step), through ``record`` (the job's
        indices of its samples)."""
        t = main.t_
        for i, s in enumerate(self.solvers):
            if s.t_ > t:  # back: the same run replayed from w = 0 (its seed)
                s = self.solvers[i] = self._solver(self.configs[i])
            if explain and s.t_ == t and self.records[i] is not None:
                continue  # (the same frame again, the view moved: its step stays)
            target = t - 1 if explain and t >= 1 else t
            if s.t_ < target:
                s.step(target - s.t_)
            self.records[i] = record(step_and_explain(s)) if explain and s.t_ < t else None
        self.race.solvers = [main, *self.solvers]
        self._record(main)

    def _record(self, main: Solver) -> None:
        """Each linear run's path: its point at t added (after a step back, its points
        past t dropped first)."""
        self.base_path = _extended(self.base_path, main)
        for i, s in enumerate(self.solvers):
            self.paths[i] = _extended(self.paths[i], s)

    def take_references(self, references, generation: int, main_objective) -> None:
        """The companions' optima: run 1's where the problem is the same; the others asked
        of ``references`` one at a time (it serves the newest request only), after run 1's."""
        for i, key in enumerate(self._keys):
            if key == self._key:
                self.objectives[i] = main_objective
        if main_objective is None:
            return
        if self._asked is not None:
            found = references.lookup(self._keys[self._asked])
            if found is None:
                return
            reference, _ = found  # (no optimum: NaN, not asked again)
            self.objectives[self._asked] = nan if reference is None else reference.objective
            self._asked = None
        for i, key in enumerate(self._keys):
            if self.objectives[i] is None and key != self._key:
                _, found = references.request(generation, self.configs[i], self.data)
                if found is None:
                    self._asked = i
                    return
                reference, _ = found
                self.objectives[i] = nan if reference is None else reference.objective

    @property
    def pending(self) -> bool:
        return self._asked is not None

    def frame(self, extent, iterate: bool, cancelled=lambda: False) -> RaceFrame | None:
        """The race at this moment, for a Snapshot; None once ``cancelled()`` (a newer job
        waits: the frame would be dropped)."""
        now = time.perf_counter()
        playing, self._last_frame = now - self._last_frame < SETTLE_SECONDS, now
        kernel = [i for i, s in enumerate(self.solvers) if not s.linear_]
        redraw = set(range(len(self.solvers)))
        if playing and kernel:  # one kernel run's lines at a time, in turn (the oldest first)
            redraw -= set(kernel)
            if now - self._turned_at >= LINES_SECONDS:
                self._turn, self._turned_at = (self._turn + 1) % len(kernel), now
                redraw.add(kernel[self._turn])
        lines = self._lines_of(redraw, extent, iterate, cancelled)
        if lines is None:
            return None
        runs = []
        for i, s in enumerate(self.solvers):
            history = s.shared_history()
            model = s.model(iterate)
            objective = self.objectives[i]
            runs.append(
                RaceRun(
                    label=self.labels[i + 1],
                    short=self.shorts[i],
                    color=RACE_COLORS[i + 1],
                    dash=RACE_DASHES[i + 1],
                    config=self.configs[i],
                    t=int(s.t_),
                    status=s.status_,
                    model=model,
                    contours=lines[i],
                    history=history,
                    objective=None if objective is None or np.isnan(objective) else objective,
                    path=frozen(self.paths[i]) if s.linear_ else None,
                    step=self.records[i],
                )
            )
        return RaceFrame(
            label=self.labels[0],
            color=RACE_COLORS[0],
            dash=RACE_DASHES[0],
            path=frozen(self.base_path) if self.base_path.t else None,
            runs=tuple(runs),
            same_samples=self.race.same_samples(),
            common=all(k == self._key for k in self._keys),
        )

    def _lines_of(self, redraw: set, extent, iterate: bool, cancelled=lambda: False):
        """Each run's lines: drawn again for the runs in ``redraw`` whose model changed,
        and for every run after a change of the extent or of what is drawn (None once
        ``cancelled()``)."""
        out = []
        for i, s in enumerate(self.solvers):
            key = (int(s.t_), tuple(extent), iterate)
            line = self._lines[i]
            if line is None or (line[0] != key and (i in redraw or line[0][1:] != key[1:])):
                if cancelled():
                    return None
                model, kept = s.model(iterate, objective=False), self._kept[i]
                if kept is not None and kept[0][1:] == key[1:] and same_model(kept[2], model):
                    line = (key, kept[1], model)
                elif kept is not None and kept[0][1:] == key[1:] and i not in redraw:
                    line = kept  # (playing, not its turn: its earlier lines, stale as before)
                else:
                    values = None if s.linear_ else s.training_values(iterate)
                    line = (key, contours(model, extent, self.data, values), model)
                self._lines[i] = line
            self._kept[i] = None  # (an earlier job's lines serve its first frame only)
            out.append(line[1])
        return out


def contours(model: Model, extent, data: Dataset, values=None) -> dict:
    """The boundary and margin lines of ``model`` over ``extent``: exact segments for a
    linear binary model, else the contours of a coarse frame on ``data`` (``values``: f at
    its points, when the solver has them)."""
    if model.coef is not None and model.coef.shape == (1, 2) and model.kind == "svc":
        w, b = model.coef[0], float(model.intercept[0])
        return {
            "boundary": level_line(w, b, 0.0, extent),
            "margin": [seg for c in margin_lines(model) for seg in level_line(w, b, c, extent)],
        }
    frame = make_frame(model, data, extent, RACE_GRID, train_values=values)
    return {k: frame.contours.get(k, []) for k in ("boundary", "margin")}


def same_model(a: Model, b: Model) -> bool:
    """Whether ``a`` and ``b`` have the same f and lines: every field equal (arrays bit for
    bit) but ``extra`` (the objective); never for a model whose f is another library's."""
    if a.decision is not None or b.decision is not None:
        return False
    for field in fields(Model):
        if field.name in ("extra", "decision"):
            continue
        x, y = getattr(a, field.name), getattr(b, field.name)
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)):
                return False
            if x.shape != y.shape or not np.array_equal(x, y):
                return False
        elif x != y:
            return False
    return True


def race_over(race: RaceFrame, extent, data: Dataset) -> RaceFrame:
    """``race`` with its runs' lines over another ``extent`` (a picture's)."""
    runs = tuple(replace(r, contours=contours(r.model, extent, data)) for r in race.runs)
    return replace(race, runs=runs)


RUN_1 = "solver panel"


def labels(base: SolverConfig, configs: list[SolverConfig]) -> list[str]:
    """The runs' legend labels: run 1 is the solver panel's; each other run is named by the
    settings in which it differs from run 1, in words (core.race_setup.legend_label), which
    a reader compares with the panel."""
    return [RUN_1, *(legend_label(base, c) for c in configs)]


def _extended(path: Path, solver: Solver) -> Path:
    """``path`` with ``solver``'s point at its t (linear models; a path past t first cut
    back to t)."""
    t = int(solver.t_)
    if not solver.linear_ or (path.t and path.t[-1] == t):
        return path
    if path.t and path.t[-1] > t:
        keep = sum(1 for u in path.t if u <= t)
        path = Path(path.t[:keep], path.iterate[:keep], path.output[:keep])
        if path.t and path.t[-1] == t:
            return path
    params, _ = solver.iterate()
    # (no objective: between checkpoints it is an O(m) pass, after every chunk of play)
    path.add(t, params, solver.model(objective=False).coef.copy())
    return path


def race_history_csv(race: RaceFrame, history: dict, start: int = 1) -> str:
    """Every run's history in one CSV: run 1's ``history`` (its rows from iteration
    ``start``, as the window's export numbers them) and each companion's, one row per row,
    after the columns ``run`` (1, 2, …) and ``label`` (what differs, quoted); the columns
    of offsets (ρ, ε) that every run has."""
    histories = [held(h) for h in (history, *(r.history for r in race.runs))]
    starts = [start, *(1 for _ in race.runs)]
    offsets = tuple(c for c in ("rho", "epsilon") if all(c in h for h in histories))
    lines: list[str] = []
    for k, (label, h, first) in enumerate(zip(race.labels, histories, starts, strict=True)):
        head, *rows = history_csv(h, start=first, offsets=offsets).splitlines()
        if not lines:
            lines.append("run,label," + head)
        quoted = '"' + label.replace('"', '""') + '"'
        lines += [f"{k + 1},{quoted},{row}" for row in rows]
    return "\n".join(lines) + "\n"
