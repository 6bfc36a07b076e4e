"""Scenarios: ready demos for a class, one JSON file each (svmviz/scenarios/*.json).

A scenario holds a data set (generated from a seed, or the points themselves), the solver's
settings, the speed to play at, the view options and a one-line caption of what to look for::

    {"format": "svmviz-scenario", "version": 1,
     "title": "…", "caption": "…",
     "data": {"generate": {"kind": "blobs", "n": 80, "noise": 0.3, "seed": 1}}
             or {"points": [[x, y, "label"], …]},
     "config": {"margin": "hard", "kernel": {"name": "rbf", "gamma": 1.0}, …},
     "speed": 10,                          # iterations per frame; 0: as fast as possible;
                                           # −1 (or absent): the log-t pace
                                           # (svmviz.core.training.pace)
     "view": {"optimum": false, "suboptimality": false, "surface": true,
              "companion": "surface"},       # a view's name true: that view on; companion:
                                             # the view beside the plane (svmviz.ui.views.registry)
     "race": [{"algorithm": "sgd"}, …]}   # optional: runs 2–4 raced beside the config's
                                          # (svmviz.core.training.race_setup); View ▸ Race is on
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, check_cost_matrix
from svmviz.core.errors import InputError, shown
from svmviz.core.file_io import check_format, read_json
from svmviz.core.generate import generate
from svmviz.core.limits import (
    BOUNDS,
    MAX_CAPTION,
    MAX_NAME,
    MAX_TITLE,
    check_coordinates,
    check_points,
    check_text,
    view_names,
)
from svmviz.core.palette import MAX_CLASSES
from svmviz.core.training.pace import LOG_PACE
from svmviz.core.training.race_setup import race_configs

FORMAT, VERSION = "svmviz-scenario", 1
VIEW_OPTIONS = ("optimum", "suboptimality", "iterate")  # View toggles a scenario may set


@dataclass(frozen=True)
class Scenario:
    title: str
    caption: str
    data: Dataset
    config: SolverConfig
    speed: int = LOG_PACE
    view: tuple = ()  # the view options switched on
    views: tuple = ()  # the views (svmviz.ui.views.registry' names) it turns on
    companion: str | None = None  # the view beside the plane
    race: tuple = ()  # a race's runs 2–4: the settings each changes of ``config``


def folder() -> Path:
    """Where the scenarios that come with svmviz are (package data, so that an installed
    svmviz has them too)."""
    return Path(__file__).resolve().parents[2] / "scenarios"


def list_scenarios(where: Path | None = None) -> list[Path]:
    return sorted((where or folder()).glob("*.json"))


def read_scenario(path) -> Scenario:
    """Read a scenario file; every problem is an InputError naming the file and the field."""
    path = Path(path)
    d = read_json(path)
    check_format(d, path, FORMAT, VERSION, "scenario")
    for key, limit in (("title", MAX_TITLE), ("caption", MAX_CAPTION)):
        if not isinstance(d.get(key), str):
            raise InputError(f"{path}: {key!r} must be a text")
        check_text(d[key], limit, f"{path}: {key!r}")
    data = _data(d.get("data"), path)
    config = SolverConfig.from_dict(d.get("config", {}), str(path))
    if config.cost is not None:  # Δ over the data's classes
        K = data.n_classes
        try:
            cost = np.array(config.cost, dtype=float)
        except ValueError:  # (rows of different lengths)
            raise InputError(f"{path}: config: cost must be {K} rows of {K} numbers") from None
        check_cost_matrix(cost, K, f"{path}: config: cost")
    speed = d.get("speed", LOG_PACE)
    BOUNDS["speed"].check(speed, str(path), "'speed'")
    view = d.get("view", {})
    others = {} if not isinstance(view, dict) else {
        k: v for k, v in view.items() if k not in VIEW_OPTIONS and k != "companion"
    }  # fmt: skip
    if not isinstance(view, dict) or not all(isinstance(v, bool) for v in others.values()):
        raise InputError(
            f"{path}: 'view' may hold {', '.join(VIEW_OPTIONS)}, a view's name set true or "
            "false, and 'companion': a view's name"
        )
    on = tuple(k for k in VIEW_OPTIONS if view.get(k))
    views = view_names([k for k, v in others.items() if v], str(path), "'view'")
    companion = view.get("companion")
    if companion is not None:
        companion = view_names([companion], str(path), "'view': companion")[0]
    race = d.get("race", [])
    if not isinstance(race, list):
        raise InputError(f"{path}: 'race' must be a list of runs' settings, not {shown(race)}")
    if race:
        try:
            race_configs(config, race)
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        on += ("race",)
    return Scenario(
        d["title"], d["caption"], data, config, speed, on, views, companion, tuple(race)
    )


def _data(d, path) -> Dataset:
    if isinstance(d, dict) and isinstance(d.get("generate"), dict):
        try:
            X, y = generate(**d["generate"])
        except TypeError:  # (a parameter missing or unknown)
            raise InputError(
                f"{path}: data.generate takes kind, and maybe n, noise, classes, seed, margin"
            ) from None
        except InputError as exc:
            raise InputError(f"{path}: data.generate: {exc}") from None
        K = int(y.max()) + 1
        names = d.get("classes") or [f"class {k + 1}" for k in range(K)]
        if not isinstance(names, list) or not K <= len(names) <= MAX_CLASSES:
            raise InputError(f"{path}: data.classes must be a list of {K} to {MAX_CLASSES} names")
        names = [n.strip() if isinstance(n, str) else "" for n in names]
        if not all(names) or len(set(names)) != len(names):
            raise InputError(f"{path}: data.classes must be different, non-empty texts")
        for k, name in enumerate(names):
            check_text(name, MAX_NAME, f"{path}: data.classes, name {k + 1},")
        return Dataset(X, y, tuple(names))
    if isinstance(d, dict) and isinstance(d.get("points"), list):
        try:
            rows = [(float(x), float(y), str(label).strip()) for x, y, label in d["points"]]
        except (TypeError, ValueError, OverflowError):
            raise InputError(f"{path}: data.points must be [x, y, label] rows") from None
        if not rows:
            raise InputError(f"{path}: data.points is empty")
        X = np.array([r[:2] for r in rows])
        if not np.isfinite(X).all():
            raise InputError(f"{path}: data.points has a coordinate that is not finite")
        check_coordinates(X, lambda i: f"{path}: data.points row {i + 1}")
        if not all(r[2] for r in rows):
            raise InputError(f"{path}: data.points has a point with an empty label")
        for i, r in enumerate(rows):
            check_text(r[2], MAX_NAME, f"{path}: data.points row {i + 1}'s label")
        check_points(len(rows), str(path))
        data = Dataset.from_labels(X, [r[2] for r in rows])
        if data.n_classes > MAX_CLASSES:
            raise InputError(
                f"{path}: data.points has {data.n_classes} labels; the window "
                f"draws at most {MAX_CLASSES} classes"
            )
        return data
    raise InputError(f"{path}: 'data' needs 'generate' or 'points'")
