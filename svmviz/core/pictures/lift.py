"""The lift as the 3-D view draws it: the points at φ(x) in three coordinates, the plane
⟨w, φ⟩ + b = 0 there (cut to the view's box: svmviz.core.pictures.scene3d.plane_in_box), and a
line saying which coordinates these are.

Built on :mod:`svmviz.core.pictures.feature_map` (the maps and the source text they follow).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.errors import InputError
from svmviz.core.model_io import Model
from svmviz.core.pictures.feature_map import (
    constant_coordinate,
    coordinate_names,
    feature_map,
    formula,
    three_coordinates,
    weights_in_feature_space,
)


@dataclass(frozen=True)
class Lift:
    """``points`` (m × 3) the points in the three coordinates ``names``; the plane
    ⟨``w``, p⟩ + ``b`` = 0 among them; ``share`` of ‖w‖² it shows (1: exact); ``words``
    the line for the view's caption."""

    points: np.ndarray
    names: tuple[str, str, str]
    w: np.ndarray
    b: float
    share: float
    words: str

    def side(self) -> np.ndarray:
        """⟨w, p⟩ + b for each point: its side of the plane (the model's f when exact)."""
        return self.points @ self.w + self.b


def lift(model: Model, X: np.ndarray, cls: int = 0) -> Lift:
    """The lift of the points ``X`` for ``model`` (a multiclass model: class ``cls``'s
    plane, f_k = ⟨w_k, φ⟩ + b_k); an InputError saying why for a kernel without a small
    map (RBF: its feature space is infinite)."""
    kernel = model.kernel
    d = np.atleast_2d(X).shape[1]
    if d != 2:
        raise InputError(f"the lift draws points of two coordinates, not {d}")
    Phi = feature_map(kernel, X)
    W = weights_in_feature_space(model)
    w = W if W.ndim == 1 else W[int(cls)]
    b = float(model.intercept[0 if W.ndim == 1 else int(cls)])
    three = three_coordinates(Phi, w, b, constant_coordinate(kernel))
    all_names = coordinate_names(kernel, d)
    names = tuple(all_names[i] for i in three.index)
    if kernel.name == "linear":
        words = "linear kernel: φ(x) = x, the plane itself (third coordinate 0)"
    elif three.share == 1.0 and len(Phi[0]) <= 3:
        words = f"{formula(kernel)}: the lift, exact"
    else:
        free = len(all_names) - (constant_coordinate(kernel) is not None)
        words = (
            f"{formula(kernel)}; showing {', '.join(names)}: the 3 of {free} coordinates "
            f"that carry most of w ({100 * three.share:.1f}% of ‖w‖²); c₀'s constant "
            "coordinate is in b"
        )
    return Lift(three.points, names, three.w, three.b, three.share, words)
