"""The decision function as a surface: z = f(x) over a grid of the plane, for the 3-D view.

Pure numpy; the grid values come from :func:`svmviz.core.pictures.frame.grid_values` (the plane's
own evaluation, with its factored RBF), so the surface and the plane's regions are one f.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.errors import InputError
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import grid_values, input_dim
from svmviz.core.pictures.margins import margin_level, margin_lines

MAX = "max"  # the multiclass height: max_k f_k(x), the winning class's value


@dataclass(frozen=True)
class Surface:
    """z = f(x) over the grid ``xs`` × ``ys`` and what to draw with it.

    ``heights`` (len(ys), len(xs)), row-major in y as the plane's grid; ``point_heights``
    the shown f at each point; ``planes`` the flat reference planes z = c (classification:
    0 and the margin lines ±1, ±ρ for ν-SVC, none but 0 for a loss without margin or for
    multiclass, whose margin is between two classes' values, not a level of one; one-class
    0); ``tube`` regression's ε: the tube is the two sheets z = f(x) ± ε around the surface
    (``heights`` ± tube), and the points stand at their targets ``point_targets`` (given as
    ``target``), so a point outside the tube shows above or below both sheets; ``shown``
    says which f the heights are ("f", "max_k f_k" or "f_k of class …"); ``winner`` a
    multiclass model's predicted class index per grid cell (the regions' colours), shaped
    as ``heights``.
    """

    xs: np.ndarray
    ys: np.ndarray
    heights: np.ndarray
    point_heights: np.ndarray
    planes: tuple[float, ...]
    tube: float | None = None
    point_targets: np.ndarray | None = None
    shown: str = "f"
    winner: np.ndarray | None = None


def surface(
    model: Model,
    X: np.ndarray,
    extent,
    n: int = 60,
    cls: int | str = MAX,
    target: np.ndarray | None = None,
    train_values: np.ndarray | None = None,
) -> Surface:
    """The surface of ``model`` over ``extent`` (x0, x1, y0, y1) at ``n`` cells a side, with
    the points ``X`` at their heights.

    ``cls`` chooses a multiclass model's height: MAX (max_k f_k) or a class index k (f_k);
    ``target`` regression's targets (the points' heights in the tube's picture);
    ``train_values`` f at X when known (as :func:`svmviz.core.pictures.frame.make_frame` takes it).
    A model of 1-D inputs has a curve, not a surface: InputError (the plane draws it).
    """
    if input_dim(model) != 2:
        raise InputError(
            f"the 3-D surface needs points of two coordinates; this model's have "
            f"{input_dim(model)} (the plane draws a model of one input as a curve)"
        )
    x0, x1, y0, y1 = extent
    xs, ys = np.linspace(x0, x1, n), np.linspace(y0, y1, n)
    F = grid_values(model, xs, ys)
    Fx = model.decision_function(X) if train_values is None else np.asarray(train_values)
    pick, shown = _picker(model, cls)
    heights = pick(F).reshape(len(ys), len(xs)).astype(float)
    kind = model.kind
    tube = None
    targets = None
    if kind == "regression":
        planes: tuple[float, ...] = ()
        tube = margin_level(model)
        if target is not None:
            targets = np.asarray(target, dtype=float)
    elif kind == "one-class" or not model.single_output:
        planes = (0.0,)
    else:
        planes = tuple(sorted({0.0, *margin_lines(model)}, reverse=True))
    winner = None if model.single_output else F.argmax(axis=1).reshape(heights.shape)
    return Surface(xs, ys, heights, pick(Fx).astype(float), planes, tube, targets, shown, winner)


def frame_values(frame, model: Model, y) -> np.ndarray | None:
    """f at the frame's points, read back from its margins where they hold it (binary y·f,
    one-class f, regression t − f) without evaluating the model again; None for a
    multiclass model (its margins are differences of two classes' f_k)."""
    margins = np.asarray(frame.margins, dtype=float)
    if not model.single_output:
        return None
    if frame.kind == "one-class":
        return margins
    if frame.kind in ("regression", "regression2d"):
        return None if frame.target is None else np.asarray(frame.target) - margins
    return np.where(np.asarray(y) == 1, margins, -margins)


def heights_at(model: Model, P: np.ndarray, cls: int | str = MAX) -> np.ndarray:
    """The surface's height at the points ``P`` (n × 2): f, or a multiclass model's choice
    ``cls`` of :func:`surface`."""
    pick, _ = _picker(model, cls)
    return np.asarray(pick(model.decision_function(np.atleast_2d(P))), dtype=float)


def _picker(model: Model, cls: int | str):
    """(F ↦ the shown height, its name) for ``model`` and the choice ``cls``."""
    if model.single_output:
        return (lambda F: F), "f"
    if isinstance(cls, str):
        if cls != MAX:
            raise InputError(f"the surface shows {MAX!r} or a class index, not {cls!r}")
        return (lambda F: F.max(axis=1)), "max_k f_k"
    k = int(cls)
    if not 0 <= k < len(model.intercept):
        raise InputError(f"class index {k} out of range: the model has {len(model.intercept)}")
    return (lambda F: F[:, k]), f"f_k of class {model.classes[k]}"
