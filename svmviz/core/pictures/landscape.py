"""The objective's landscape over the weights: F(w) on a grid of (w₁, w₂), for the weight
space view of a linear model of two weights (2-D data).

The landscape is a slice: every part of the model but the two weights it varies is held
at the model's value (the bias b, ρ and ε of the problems that learn them, and for
multiclass models every other class's row w_j). ``bias="none"`` evaluates f = ⟨w, x⟩
(b = 0), as a model without a bias has it. ``hold="profiled"`` puts at each w the b that
minimizes F there, as the free-bias solver's exact bias does (the binary hinge with a free
b, :func:`profilable`): the hinge terms' slope in b is #{i: r_i < b} − P with
r_i = y_i − ⟨w, x_i⟩ and P the positive examples, so that b is the P-th smallest r_i
(a partial sort per w, no search). Its values are the objective of the soft
problem as :func:`svmviz.core.objectives.model_objective` defines it, from the loss
modules' numpy losses: F(w) = λ/2 (‖w‖² + the held part of ‖·‖²) + (1/m) Σ ℓ_i + the offset
term. Plain numpy, no Qt; computed in blocks of grid points (BLOCK values at a time).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.model_io import Model
from svmviz.core.objectives import example_losses

HOLDS = ("slice", "none", "profiled")  # b at the model's value, b = 0, the best b per w
DEFAULT_GRID = 81  # points per side of the weight-space view's grid
# grid points × examples computed at once: each temporary 2 MiB, so that the block's dozen
# passes stay in a core's cache (blocks of 32 MiB took three times as long)
BLOCK = 1 << 18


@dataclass(frozen=True)
class Landscape:
    """F over the grid ``w1`` × ``w2``: ``values[j, i]`` is F at (w1[i], w2[j]) (row-major
    in w₂, as an image); ``k`` the class whose row varies (0 for one output), ``bias``
    the b held (None: f has no bias, or b is profiled), ``hold`` what is held (HOLDS);
    ``profile[j, i]``: the b at each grid point when it is profiled (else None)."""

    w1: np.ndarray
    w2: np.ndarray
    values: np.ndarray
    k: int
    bias: float | None
    hold: str
    profile: np.ndarray | None = None

    def at(self, i: int, j: int) -> float:
        return float(self.values[j, i])


def weights(model: Model, k: int = 0) -> np.ndarray:
    """The two weights the landscape varies: row ``k`` of a linear model of 2-D inputs."""
    if model.coef is None or model.coef.shape[1] != 2:
        raise InputError(
            "the weight space is drawn for linear models of two weights (2-D data); "
            + ("this model has a kernel" if model.coef is None else "this one has "
               f"{model.coef.shape[1]}")
        )  # fmt: skip
    if not 0 <= k < model.coef.shape[0]:
        raise InputError(f"class {k + 1} is not one of the model's {model.coef.shape[0]} rows")
    return model.coef[k].copy()


def profilable(model: Model) -> bool:
    """Whether b can be profiled out (exactly, per w): a binary hinge problem with a free
    bias, the problem whose solver takes the exact bias."""
    return (
        model.problem == "svc"
        and model.loss in (None, "hinge")
        and model.bias == "free"
        and model.binary
    )


def landscape(
    model: Model, data: Dataset, w1: np.ndarray, w2: np.ndarray, k: int = 0, hold: str = "slice"
) -> Landscape:
    """F(w) of ``model``'s problem on ``data`` over the grid ``w1`` × ``w2`` of row ``k``'s
    weights, every other part held (see the module)."""
    if hold not in HOLDS:
        raise InputError(f"hold must be one of {', '.join(HOLDS)}, not {hold!r}")
    if hold == "profiled" and not profilable(model):
        raise InputError(
            "b is profiled out for the binary hinge with a free bias (its exact bias); "
            "hold it at its value (a slice) or at 0"
        )
    w = weights(model, k)
    coef = model.coef if model.coef is not None else w[None, :]  # (checked by weights)
    if hold == "none" and model.bias != "none":  # (one-class's intercept is −ρ: kept)
        model = replace(model, intercept=np.zeros_like(model.intercept), bias="none")
    X = np.asarray(data.X, dtype=float)
    W1, W2 = np.meshgrid(np.asarray(w1, dtype=float), np.asarray(w2, dtype=float))
    grid = np.column_stack([W1.ravel(), W2.ravel()])  # (G, 2)
    F0 = model.decision_function(X)  # the held rows' values, and b
    held = F0.reshape(len(X), -1).copy()
    held[:, k] -= X @ w + model.intercept[k]  # row k's part, to be replaced
    norm_held = float(np.sum(coef**2) - np.sum(w**2))
    if model.bias == "regularized":
        norm_held += float(np.sum(model.intercept**2))
    m, K = held.shape
    rows = max(1, BLOCK // max(1, m * K))
    out = np.empty(len(grid))
    profile = np.empty(len(grid)) if hold == "profiled" else None
    sign = np.where(data.y == 1, 1.0, -1.0)  # (binary: the positive class is the second)
    P = int(np.count_nonzero(sign > 0))
    for start in range(0, len(grid), rows):
        g = grid[start : start + rows]
        F = np.repeat(held[None, :, :], len(g), axis=0)  # (g, m, K)
        S = g @ X.T
        if profile is not None:  # the P-th smallest r_i = y_i − ⟨w, x_i⟩ (see the module)
            r = sign[None, :] - S
            b = np.partition(r, P - 1, axis=1)[:, P - 1] if P > 0 else r.min(axis=1)
            profile[start : start + rows] = b
            F[:, :, k] += S + b[:, None]
        else:
            F[:, :, k] += S + model.intercept[k]
        F = F.reshape(len(g) * m, K)
        y = np.tile(data.y, len(g))
        target = None if data.target is None else np.tile(data.target, len(g))
        ell, offset = example_losses(model, F[:, 0] if K == 1 else F, y, target)
        mean = np.asarray(ell, dtype=float).reshape(len(g), m).mean(axis=1)
        n2 = norm_held + np.einsum("ij,ij->i", g, g)
        out[start : start + rows] = 0.5 * model.lam * n2 + mean + offset
    bias = None if model.bias == "none" or profile is not None else float(model.intercept[k])
    shaped = None if profile is None else profile.reshape(W1.shape)
    return Landscape(W1[0].copy(), W2[:, 0].copy(), out.reshape(W1.shape), k, bias, hold, shaped)


def grid_around(
    model: Model,
    k: int = 0,
    optimum: Model | None = None,
    n: int = DEFAULT_GRID,
    path: np.ndarray | None = None,
    aspect: float = 1.0,
):
    """A grid of ``n`` × ``n`` weights around the origin, w and the optimum's w* (and the
    points of ``path``, N×2 weights of row k, when given): the box that holds them all with
    a margin of a quarter of its side, widened to ``aspect`` (its w₁ side over its w₂ side:
    the view's, whose axes have equal scales, so the landscape fills it)."""
    points = [np.zeros(2), weights(model, k)]
    if optimum is not None:
        points.append(weights(optimum, k))
    if path is not None and len(path):
        points.extend(np.asarray(path, dtype=float).reshape(-1, 2))
    P = np.array(points)
    P = P[np.all(np.isfinite(P), axis=1)]
    centre = 0.5 * (P.min(axis=0) + P.max(axis=0))
    half = 0.5 * float(np.max(P.max(axis=0) - P.min(axis=0)))
    half = 1.5 * max(half, 1e-3)
    axis = np.linspace(-half, half, n)
    aspect = float(aspect) if np.isfinite(aspect) and aspect > 0 else 1.0
    return centre[0] + max(aspect, 1.0) * axis, centre[1] + max(1.0 / aspect, 1.0) * axis
