"""The session file: everything a lesson needs to reopen exactly as it was left.

JSON (``format`` "svmviz-session", ``version`` 1)::

    {"format": "svmviz-session", "version": 1,
     "classes": [{"name": "class 1", "color": "#0072B2"}, …],   # every slot, 1–9
     "class_count": 2,                   # the slots shown in the class bar
     "points": [[x, y, k], …],           # k: the class slot (0-based)
     "targets": [t, …],                  # optional: each point's target (2-D regression)
     "cost": [[0, 1, …], …],             # Δ between the slots (rows: true class)
     "config": {…},                      # SolverConfig.to_dict() (its cost: null)
     "split": {"fraction": 0.3, "seed": 0, "size": null},
     "race": [{"algorithm": "sgd"}, …],  # optional: runs 2–4 of a race, each the settings
                                         # it changes of config (svmviz.core.training.race_setup)
     "caption": {"title": "…", "text": "…"} or null,
     "view": {"extent": [x0, x1, y0, y1], "optimum": false, "iterate": false,
              "suboptimality": false, "slack": false, "race": false, "speed": -1,
              "warm_start": false, "current_class": 0, "weight_class": 0,
              "views": ["curves", "points", …], "companion": "weight_space"}}

``view.views`` names the views on and ``view.companion`` the one beside the plane (names
of svmviz.ui.views.registry; a name this release does not know is kept and ignored, so a
newer release's session opens); ``view.weight_class`` is the class whose weights the weight space
varies.
Files without ``views`` keep the views that are on, but for a key holding true or false
(older files' ``"weight_space": true``, ``"surface": false``): that view on or off. Any
other key of ``view`` is ignored.
``race`` and ``view.race`` are absent in older files (no race): they open as before.

``targets`` is absent unless the points carry targets (a regression on 2-D inputs: then one
number per point); files without it open as before, so the version stays 1. So is
``start``, the w₀ training begins from (svmviz.core.training.start: ``{"W": [[…]], "b": […], "t0":
n, "classes": […]}``), absent when training begins at w = 0.

``view.speed`` is Play's speed (svmviz.core.training.pace): N ≥ 1 iterations per frame, 0 as fast as
possible, −1 the log-t pace (the default; files of older versions hold 0 or N and load as
they were saved).

Floats are written with ``repr`` (Python's JSON), so the points come back bit for bit. The
content (points, classes, Δ, settings, race, split, caption) is what "unsaved changes" compares;
the view is saved and restored but panning is not an edit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, check_cost_matrix, read_csv
from svmviz.core.errors import InputError, finite_number, shown
from svmviz.core.file_io import (
    Stamp,
    check_format,
    python_rows,
    read_bytes,
    read_json,
    write_json,
)
from svmviz.core.files.svmtoy import SUFFIXES as SVMTOY_SUFFIXES
from svmviz.core.files.svmtoy import looks_like_svmtoy, read_svmtoy
from svmviz.core.lesson.generalization import Split
from svmviz.core.limits import (
    BOUNDS,
    MAX_CAPTION,
    MAX_NAME,
    MAX_TITLE,
    check_coordinates,
    check_extent,
    check_points,
    check_text,
    view_names,
)
from svmviz.core.palette import CLASS_COLORS, MAX_CLASSES
from svmviz.core.training.pace import LOG_PACE
from svmviz.core.training.race_setup import race_configs
from svmviz.core.training.start import Start

FORMAT, VERSION = "svmviz-session", 1
VIEW_TOGGLES = ("optimum", "iterate", "suboptimality", "slack", "race")
_COLOR = re.compile(r"#[0-9A-Fa-f]{6}")


@dataclass(frozen=True, kw_only=True)
class View:
    """How the session was shown: the plane's extent, the View menu's toggles, the speed
    (svmviz.core.training.pace's code: N per frame, 0 as fast as possible, −1 the log-t pace), warm
    start, the current class, the class whose weights the weight space varies, and the
    views: their names are the ui's (core knows none), kept as they are."""

    extent: tuple | None = None
    toggles: tuple = ()  # the names in VIEW_TOGGLES switched on
    speed: int = LOG_PACE
    warm_start: bool = False
    current_class: int = 0
    weight_class: int = 0
    views: tuple | None = None  # the names of the views on (None: the file names none)
    flags: tuple = ()  # (name, on) of a view set on its own: an older file's "surface": true
    companion: str | None = None  # the view beside the plane


@dataclass(frozen=True)
class SessionFile:
    X: np.ndarray  # (n, 2)
    y: np.ndarray  # (n,) class slots
    names: tuple  # MAX_CLASSES names
    colors: tuple  # MAX_CLASSES "#RRGGBB"
    class_count: int = 2
    cost: np.ndarray = field(default_factory=lambda: 1.0 - np.eye(MAX_CLASSES))
    config: SolverConfig = field(default_factory=SolverConfig)
    split: Split = field(default_factory=Split)
    caption: tuple | None = None  # (title, text) of the scenario it came from
    view: View = field(default_factory=View)
    target: np.ndarray | None = None  # (n,) the points' targets (2-D regression), or None
    start: Start | None = None  # the w₀ training begins from (None: w = 0)
    # a race's runs 2–4: each the settings it changes of ``config``
    # (svmviz.core.training.race_setup)
    race: tuple = ()

    def same_content(self, other: SessionFile) -> bool:
        """Equal points, classes, Δ, settings, split and caption (the view aside)."""
        return (
            np.array_equal(self.X, other.X)
            and np.array_equal(self.y, other.y)
            and (self.target is None) == (other.target is None)
            and (
                self.target is None
                or other.target is None
                or np.array_equal(self.target, other.target)
            )
            and (self.names, self.colors, self.class_count)
            == (other.names, other.colors, other.class_count)
            and np.array_equal(self.cost, other.cost)
            and (self.config, self.split, self.caption, self.race)
            == (other.config, other.split, other.caption, other.race)
            and self.start == other.start
        )

    def to_dict(self) -> dict:
        v = self.view
        targets = {} if self.target is None else {"targets": self.target.astype(float).tolist()}
        start = {} if self.start is None else {"start": self.start.to_dict()}
        race = {"race": [dict(v) for v in self.race]} if self.race else {}
        return {
            "format": FORMAT,
            "version": VERSION,
            "classes": [
                {"name": n, "color": c} for n, c in zip(self.names, self.colors, strict=True)
            ],
            "class_count": self.class_count,
            "points": python_rows(self.X.astype(float), self.y.astype(int)),
            **targets,
            "cost": self.cost.tolist(),
            "config": self.config.replace(cost=None).to_dict(),
            **race,
            "split": {
                "fraction": self.split.fraction,
                "seed": self.split.seed,
                "size": self.split.size,
            },
            "caption": None
            if self.caption is None
            else {"title": self.caption[0], "text": self.caption[1]},
            "view": {
                "extent": None if v.extent is None else [float(e) for e in v.extent],
                **{k: k in v.toggles for k in VIEW_TOGGLES},
                "speed": v.speed,
                "warm_start": v.warm_start,
                "current_class": v.current_class,
                "weight_class": v.weight_class,
                **({} if v.views is None else {"views": list(v.views)}),
                "companion": v.companion,
            },
            **start,
        }

    @classmethod
    def from_dict(cls, d, where: str = "session") -> SessionFile:
        check_format(d, where, FORMAT, VERSION, "session")
        names, colors = _classes(d.get("classes"), where)
        count = d.get("class_count", 2)
        if not _integer(count) or not 2 <= count <= MAX_CLASSES:
            raise InputError(f"{where}: class_count must be a whole number from 2 to {MAX_CLASSES}")
        X, y = _points(d.get("points"), where)
        target = _targets(d.get("targets"), len(y), where)
        cost = _cost(d.get("cost"), where)
        config = SolverConfig.from_dict(d.get("config", {}), where).replace(cost=None)
        split = _split(d.get("split") or {}, where)
        start = d.get("start")
        start = None if start is None else Start.from_dict(start, where)
        if start is not None and len(y) and start.W.shape[1] != X.shape[1]:
            raise InputError(
                f"{where}: the start w₀ has {start.W.shape[1]} weights a row, but the points "
                f"have {X.shape[1]} coordinates"
            )
        caption = d.get("caption")
        if caption is not None:
            if not (
                isinstance(caption, dict)
                and isinstance(caption.get("title"), str)
                and isinstance(caption.get("text"), str)
            ):
                raise InputError(f"{where}: caption must be {{'title': text, 'text': text}}")
            caption = (
                check_text(caption["title"], MAX_TITLE, f"{where}: the caption's title"),
                check_text(caption["text"], MAX_CAPTION, f"{where}: the caption"),
            )
        return cls(
            X,
            y,
            names,
            colors,
            int(count),
            cost,
            config,
            split,
            caption,
            _view(d.get("view") or {}, where),
            target,
            start,
            read_race(d.get("race"), config, where),
        )


def read_race(value, config: SolverConfig, where: str) -> tuple:
    """A file's race (absent: none), checked against its configuration."""
    if value is None or value == []:
        return ()
    try:
        race_configs(config, value)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    return tuple(dict(v) for v in value)


def _integer(v) -> bool:
    """A JSON integer (not a bool; unlike errors.whole_number, 2.0 is not one)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _classes(value, where):
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_CLASSES:
        raise InputError(f"{where}: classes must be a list of 1 to {MAX_CLASSES} classes")
    names, colors = [], []
    for k, c in enumerate(value):
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) or not c["name"].strip():
            raise InputError(f"{where}: class {k + 1} needs a name (a non-empty text)")
        color = c.get("color", CLASS_COLORS[k])
        if not isinstance(color, str) or not _COLOR.fullmatch(color):
            raise InputError(f"{where}: class {k + 1}'s colour {shown(color)} is not #RRGGBB")
        names.append(check_text(c["name"].strip(), MAX_NAME, f"{where}: class {k + 1}'s name"))
        colors.append(color)
    if len(set(names)) != len(names):
        raise InputError(f"{where}: two classes have the same name")
    # slots the file leaves out get the default names (never one it uses) and colours
    for k in range(len(names), MAX_CLASSES):
        j, name = 2, f"class {k + 1}"
        while name in names:
            name, j = f"class {k + 1} ({j})", j + 1
        names.append(name)
        colors.append(CLASS_COLORS[k])
    return tuple(names), tuple(colors)


def _points(value, where):
    if not isinstance(value, list):
        raise InputError(f"{where}: points must be a list of [x, y, class] rows")
    X = np.empty((len(value), 2))
    y = np.empty(len(value), dtype=np.int64)
    for i, row in enumerate(value):
        ok = isinstance(row, list) and len(row) == 3
        ok = ok and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in row)
        if not ok or not _integer(row[2]):
            raise InputError(f"{where}: point {i + 1} is not [x, y, class slot]")
        if not (finite_number(row[0]) and finite_number(row[1])):
            raise InputError(f"{where}: point {i + 1} has a coordinate that is not finite")
        if not 0 <= row[2] < MAX_CLASSES:
            raise InputError(
                f"{where}: point {i + 1}'s class slot {shown(row[2])} is not 0–{MAX_CLASSES - 1}"
            )
        X[i] = row[0], row[1]
        y[i] = row[2]
    check_coordinates(X, lambda i: f"{where}: point {i + 1}")
    return X, y


def _targets(value, n: int, where):
    """The optional targets: one finite number per point, or None when absent."""
    if value is None:
        return None
    ok = isinstance(value, list) and len(value) == n
    if not ok or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise InputError(f"{where}: targets must be a list of one number per point ({n})")
    target = np.array(value, dtype=float)
    bad = np.flatnonzero(~np.isfinite(target))
    if bad.size:
        raise InputError(f"{where}: point {bad[0] + 1}'s target is not finite")
    bound = BOUNDS["target"]
    bad = np.flatnonzero(np.abs(target) > bound.high)
    if bad.size:
        bound.check(float(target[bad[0]]), where, f"point {bad[0] + 1}'s target")
    return target


def _cost(value, where):
    cost = 1.0 - np.eye(MAX_CLASSES)
    if value is None:
        return cost
    try:
        given = np.array(value, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{where}: cost must be rows of numbers") from None
    K = given.shape[0] if given.ndim == 2 else -1
    if not 1 <= K <= MAX_CLASSES:
        raise InputError(f"{where}: cost must be a square matrix of at most {MAX_CLASSES} rows")
    cost[:K, :K] = check_cost_matrix(given, K, f"{where}: cost")
    return cost


def _split(value, where):
    if not isinstance(value, dict) or set(value) - {"fraction", "seed", "size"}:
        raise InputError(f"{where}: split may hold fraction, seed and size")
    seed, size = value.get("seed", 0), value.get("size")
    if not _integer(seed) or (size is not None and not _integer(size)):
        raise InputError(f"{where}: the split's seed and size must be whole numbers")
    BOUNDS["split_seed"].check(seed, where)
    if size is not None:  # (the size's spin box is 32-bit)
        BOUNDS["split_size"].check(size, where)
    fraction = value.get("fraction", 0.0)
    if not finite_number(fraction):
        raise InputError(f"{where}: the split's fraction must be a number")
    try:
        return Split(float(fraction), seed, size)
    except InputError as exc:
        raise InputError(f"{where}: split: {exc}") from None


VIEW_KEYS = {"extent", "speed", "warm_start", "current_class", "weight_class"}
VIEW_KEYS |= {"views", "companion"} | set(VIEW_TOGGLES)


def _view(value, where):
    if not isinstance(value, dict):
        raise InputError(f"{where}: view must be an object of the view's settings")
    extent = value.get("extent")
    if extent is not None:
        extent = check_extent(extent, where)
    speed, current = value.get("speed", LOG_PACE), value.get("current_class", 0)
    BOUNDS["speed"].check(speed, where, "view.speed")
    if not _integer(current) or not 0 <= current < MAX_CLASSES:
        raise InputError(f"{where}: view.current_class must be a class slot")
    weight_class = value.get("weight_class", 0)
    if not _integer(weight_class) or not 0 <= weight_class < MAX_CLASSES:
        raise InputError(f"{where}: view.weight_class must be a class row (0–{MAX_CLASSES - 1})")
    toggles = tuple(k for k in VIEW_TOGGLES if value.get(k) is True)
    views = value.get("views")
    if views is not None:
        views = view_names(views, where, "view.views")
    companion = value.get("companion")
    if companion is not None:
        companion = view_names([companion], where, "view.companion")[0]
    # another key holding true or false: a view on its own (an older file's "weight_space");
    # any other key is a newer release's, ignored
    flags = tuple((k, v) for k, v in value.items() if k not in VIEW_KEYS and isinstance(v, bool))
    return View(
        extent=extent,
        toggles=toggles,
        speed=speed,
        warm_start=value.get("warm_start") is True,
        current_class=current,
        weight_class=weight_class,
        views=views,
        flags=tuple(sorted(flags)),
        companion=companion,
    )


def write_session(path, session: SessionFile) -> Stamp:
    """Write the session (atomically); the written file's stamp (to see another writer's
    change later: file_io.Stamp)."""
    return write_json(path, session.to_dict())


def read_session(path) -> SessionFile:
    return SessionFile.from_dict(read_json(path), str(path))


CSV_SUFFIXES = (".csv", ".tsv")


def read_data(path, kind: str = "svc") -> Dataset:
    """A data set file, read as the problem ``kind`` (SolverConfig.kind) reads it: a CSV
    file (.csv, .tsv: svmviz.core.data.read_csv) or a file of libsvm's svm-toy (.svmlight,
    .libsvm, .svm, .toy: svmviz.core.files.svmtoy.read_svmtoy); any other name (.txt, none) by
    its content: svm-toy's when its first point looks like one (``label 1:x …``), else
    CSV (so a .txt CSV reads as it did). What `svmviz train` reads, and Open's data sets."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in CSV_SUFFIXES:
        return read_csv(path, kind)
    if suffix in SVMTOY_SUFFIXES:
        return read_svmtoy(path, kind)
    raw = read_bytes(path)
    if looks_like_svmtoy(raw):
        return read_svmtoy(path, kind, raw)
    return read_csv(path, kind, raw)


def read_document(path, kind: str = "svc"):
    """What ``path`` holds, by its content: a SessionFile, a Scenario, or a Dataset (a CSV
    or svm-toy file: any name not ending in .json, read as the problem ``kind`` reads it:
    labels, a target or unlabelled points, :func:`read_data`). Anything else is an
    InputError saying what it is."""
    from svmviz.core.files.scenario import FORMAT as SCENARIO
    from svmviz.core.files.scenario import read_scenario

    path = Path(path)
    if path.suffix.lower() != ".json":
        data = read_data(path, kind)
        check_points(len(data.y), str(path))
        return data
    d = read_json(path)
    form = d.get("format") if isinstance(d, dict) else None
    if form == SCENARIO:
        return read_scenario(path)
    if form == "svmviz-model":
        raise InputError(
            f"{path}: is a trained model (MODEL.json); it holds no points to open. Open a "
            "session (.json) or a data set (.csv)"
        )
    doc = SessionFile.from_dict(d, str(path))
    check_points(len(doc.y), str(path))
    return doc
