"""Support vectors in numbers and words, by the one definition of
:func:`svmviz.core.pictures.margins.support_mask` (the points whose margin or tube condition
is active or violated at the model shown): the rule in words for the legend, the status line,
the exports and `svmviz train`, the count of a model on its points, and the count of nonzero α
that may stand beside it, named as such (an averaged SGD output gives almost every point a
small α: that count is not the lesson's support vectors).
"""

from __future__ import annotations

import numpy as np

from svmviz.core.data import Dataset
from svmviz.core.lesson.generalization import TRAIN
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import Frame, frame_kind
from svmviz.core.pictures.margins import (
    MARGIN_TOLERANCE,
    margin_level,
    margin_unit,
    point_margins,
    support_mask,
)

NONE_WORDS = "none (no margin: every point has a gradient weight)"


def rule(
    kind: str, level: float, multiclass: bool = False, unit: str = "1", html: bool = False
) -> str:
    """The definition in a few plain words for a frame of ``kind`` at margin ``level``
    (``unit``: how the level is named, "1" or "ρ"; ``html``: subscripts as HTML, for
    the legend); NONE_WORDS for a loss without margin lines."""
    if kind in ("regression", "regression2d"):
        return "|y − f| ≥ ε"
    if kind == "one-class":
        return "f ≤ 0"
    if level <= 0.0:
        return NONE_WORDS
    if not multiclass:
        return f"y·f ≤ {unit}"
    y, ky, k = (f"<sub>{t}</sub>" if html else f"_{t}" for t in ("y", "k≠y", "k"))
    return f"f{y} − max{ky} f{k} ≤ {unit}"


def has_support(frame: Frame) -> bool:
    """Whether the problem of ``frame`` has support vectors at all (not a loss without
    margin lines: logistic, softmax)."""
    return frame.kind != "svc" or frame.level > 0.0


def training_count(parts: np.ndarray | None, frame: Frame) -> int:
    """m, the number of training points of ``frame`` (``parts``: the split, None: all)."""
    m = len(frame.margins)
    if parts is None or len(parts) != m:
        return m
    return int(np.count_nonzero(parts == TRAIN))


def model_rule(model: Model, data: Dataset) -> str:
    """:func:`rule` for ``model`` on ``data``, with the tolerance the count allows."""
    kind, level = frame_kind(model, data), margin_level(model)
    unit = "ρ" if model.problem == "nu-svc" else "1"
    words = rule(kind, level, len(model.classes) > 2, unit)
    if kind == "svc" and level <= 0.0:
        return words
    scale = {"one-class": " of ρ", "regression": " of max(ε, 1)", "regression2d": " of max(ε, 1)"}
    return f"{words} (within {MARGIN_TOLERANCE:.0%}{scale.get(kind, '')})"


def support_of(model: Model, data: Dataset, F: np.ndarray | None = None) -> np.ndarray:
    """Indices of the support vectors of ``model`` among the points of ``data`` (``F``:
    f at them, when known)."""
    F = model.decision_function(data.X) if F is None else F
    kind, level = frame_kind(model, data), margin_level(model)
    margins, _ = point_margins(F, data, kind, level)
    return np.flatnonzero(support_mask(margins, kind, level, margin_unit(model)))


def nonzero_alpha(model: Model) -> int | None:
    """How many points carry a nonzero α in a kernel ``model`` (scikit-learn's
    ``support_``); None for a linear model, which keeps w and no α."""
    if model.coef is not None or model.dual_coef is None:
        return None
    return int(np.count_nonzero(np.abs(model.dual_coef).sum(axis=0)))


def support_record(model: Model, data: Dataset, count: int, m: int) -> dict:
    """What an exported model file says of its support vectors: ``count`` of the ``m``
    training points by the rule, and the nonzero α beside it (kernel models)."""
    record: dict = {"count": int(count), "of": int(m), "rule": model_rule(model, data)}
    alpha = nonzero_alpha(model)
    if alpha is not None:
        record["nonzero_alpha"] = alpha
    return record


def support_words(model: Model, data: Dataset, count: int, m: int) -> str:
    """`svmviz train`'s line: the count by the rule, and the nonzero α beside it."""
    text = f"support vectors: {count} of {m} ({model_rule(model, data)})"
    alpha = nonzero_alpha(model)
    return text if alpha is None else f"{text}   nonzero α: {alpha} of {m}"
