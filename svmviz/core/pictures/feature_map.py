"""Explicit feature maps φ for the kernels that have a small one: the lift of the 3-D view.

A kernel is an inner product in a feature space, K(x, x') = ⟨ψ(x), ψ(x')⟩, and a kernel
SVM is a halfspace there: w̄ = Σ_j ᾱ_j ψ(x_j) (003, UML §16.3 "SGD for Solving Soft-SVM
with Kernels", its Output line; Lemma 16.3's proof: y_i⟨w, ψ(x_i)⟩ = y_i Σ_j α_j K(x_j, x_i);
§16.4 Summary: "mappings from the given domain to some higher dimensional space, on which
a halfspace predictor is used"; the representer theorem: 002, "Kernel version of
PEGASOS"). For svmviz's parameters (core/kernels.py):

* linear, k = ⟨x, z⟩: φ(x) = x (a third coordinate 0 for the picture);
* poly of degree 2, k = (γ⟨x, z⟩ + c₀)², expanded:
  γ²⟨x, z⟩² + 2γc₀⟨x, z⟩ + c₀², so φ(x) = (γx₁², √2·γx₁x₂, γx₂²) for c₀ = 0 and, for
  c₀ > 0, with (√(2γc₀)·x₁, √(2γc₀)·x₂, c₀) after it: six coordinates;
* poly of degree 1, k = γ⟨x, z⟩ + c₀: φ(x) = (√γ·x₁, √γ·x₂, √c₀).

RBF's feature space is infinite-dimensional, a higher degree's too large to draw, and the
sigmoid kernel is no inner product in general: for those, an InputError says why.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import Model

SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _x(i: int) -> str:
    return f"x{str(i + 1).translate(SUB)}"


def _pairs(d: int) -> list[tuple[int, int]]:
    """The degree-2 monomials x_i x_j (i ≤ j) in φ's order: x₁², x₁x₂, x₂² for d = 2."""
    return [(i, j) for i in range(d) for j in range(i, d)]


def coordinate_names(kernel: Kernel, d: int = 2) -> list[str]:
    """The names of φ's coordinates, in the order :func:`feature_map` gives them (its
    constant factors left out: "x₁²", "x₁x₂", "x₁", "1")."""
    check_mappable(kernel)
    if kernel.name == "linear":
        return [_x(i) for i in range(d)] + ["0"]
    if int(kernel.degree) == 1:
        return [_x(i) for i in range(d)] + ["1"]
    names = [f"{_x(i)}²" if i == j else _x(i) + _x(j) for i, j in _pairs(d)]
    if kernel.coef0 > 0:
        names += [_x(i) for i in range(d)] + ["1"]
    return names


def formula(kernel: Kernel) -> str:
    """φ written out with its factors, as :func:`feature_map` computes it (for d = 2):
    "φ(x) = γ·(x₁², √2·x₁x₂, x₂²)" for the homogeneous polynomial of degree 2."""
    check_mappable(kernel)
    if kernel.name == "linear":
        return "φ(x) = x"
    g, c = f"{kernel.gamma:.3g}", f"{kernel.coef0:.3g}"
    if int(kernel.degree) == 1:
        return f"φ(x) = (√{g}·x₁, √{g}·x₂, √{c})"
    square = f"{g}·(x₁², √2·x₁x₂, x₂²)" if kernel.gamma != 1 else "(x₁², √2·x₁x₂, x₂²)"
    if kernel.coef0 <= 0:
        return f"φ(x) = {square}"
    return f"φ(x) = ({square}, √(2·{g}·{c})·(x₁, x₂), {c})"


def check_mappable(kernel: Kernel) -> None:
    """An InputError naming why ``kernel`` has no small explicit feature map, else None."""
    if kernel.name == "rbf":
        raise InputError(
            "the rbf kernel's feature space is infinite-dimensional: no lift to draw; "
            "the 3-D view shows the decision surface instead"
        )
    if kernel.name == "sigmoid":
        raise InputError(
            "the sigmoid kernel is not an inner product of feature vectors in general: "
            "no lift to draw; the 3-D view shows the decision surface instead"
        )
    if kernel.name == "poly":
        degree = int(kernel.degree)
        if degree > 2:
            raise InputError(
                f"the polynomial kernel of degree {degree} has a feature space of too many "
                "coordinates to draw (the lift is for degree 2); the 3-D view shows the "
                "decision surface instead"
            )
        if kernel.coef0 < 0:
            raise InputError(
                f"with coef0 = {kernel.coef0:g} < 0 the polynomial kernel is no inner product "
                "of real feature vectors: no lift to draw"
            )


def feature_map(kernel: Kernel, X: np.ndarray) -> np.ndarray:
    """Φ (m × p): φ(x_i) in each row, with ⟨φ(x), φ(z)⟩ = k(x, z) exactly (module
    docstring); an InputError when ``kernel`` has none (:func:`check_mappable`)."""
    check_mappable(kernel)
    X = np.atleast_2d(np.asarray(X, dtype=float))
    m, d = X.shape
    if kernel.name == "linear":
        return np.column_stack([X, np.zeros(m)])
    g, c = float(kernel.gamma), float(kernel.coef0)
    if int(kernel.degree) == 1:
        return np.column_stack([np.sqrt(g) * X, np.full(m, np.sqrt(c))])
    cols = [(1.0 if i == j else np.sqrt(2.0)) * g * X[:, i] * X[:, j] for i, j in _pairs(d)]
    if c > 0:
        cols += [np.sqrt(2.0 * g * c) * X[:, i] for i in range(d)] + [np.full(m, c)]
    return np.column_stack(cols)


def weights_in_feature_space(model: Model, Phi_support: np.ndarray | None = None) -> np.ndarray:
    """w = Σ_j α_j φ(x_j) over ``model``'s support vectors (their φ: ``Phi_support``,
    computed when not given), so that ⟨w, φ(x)⟩ + b = f(x) with b = model.intercept:
    shape (p,) for a model of one output, (K, p) for a multiclass one. A linear model's w
    is its coef (with the picture's third coordinate 0)."""
    if model.decision is not None:
        raise InputError("this model computes f by its own function: no weights to lift")
    if model.coef is not None:
        if not model.kernel.is_linear:
            raise InputError("a model with explicit weights and a nonlinear kernel: no lift")
        W = np.column_stack([model.coef, np.zeros(len(model.coef))])
    else:
        if Phi_support is None:
            Phi_support = feature_map(model.kernel, model.support_vectors)
        W = model.dual_coef @ np.asarray(Phi_support, dtype=float)
    return W[0] if model.single_output else W


@dataclass(frozen=True)
class Three:
    """Three coordinates of a lift for the picture: ``points`` (m × 3) the points' values
    there, ``w`` and ``b`` the plane ⟨w, φ⟩ + b = 0 in them (b takes a constant
    coordinate's part), ``index`` which coordinates of Φ they are, ``share`` the part of
    ‖w‖² (constant coordinate left out) they carry: 1 when the picture is exact."""

    points: np.ndarray
    w: np.ndarray
    b: float
    index: tuple[int, int, int]
    share: float


def constant_coordinate(kernel: Kernel) -> int | None:
    """The index of φ's constant coordinate (c₀'s, last) for ``kernel``, or None."""
    check_mappable(kernel)
    if kernel.name == "poly" and kernel.coef0 > 0:
        return -1
    return None


def three_coordinates(
    Phi: np.ndarray, w: np.ndarray, b: float = 0.0, constant: int | None = None
) -> Three:
    """The three coordinates of Φ that carry most of ``w`` (by |w_j|), in Φ's order.

    Φ of three coordinates or fewer is drawn whole (the plane exact, share 1). With more
    (the six-coordinate map), the ``constant`` coordinate (:func:`constant_coordinate`) is
    no direction: its part w_j·c₀ joins b; of the others, the three of largest |w_j| are
    taken, and ``share`` says how much of w the picture shows."""
    Phi = np.atleast_2d(np.asarray(Phi, dtype=float))
    w = np.asarray(w, dtype=float)
    p = Phi.shape[1]
    if p <= 3:
        pad = 3 - p
        points = np.column_stack([Phi, np.zeros((len(Phi), pad))])
        wt = np.concatenate([w, np.zeros(pad)])
        return Three(points, wt, float(b), (0, 1, 2), 1.0)
    free = np.arange(p)
    if constant is not None:
        c = constant % p
        b = float(b) + float(w[c] * Phi[0, c])
        free = np.delete(free, c)
    order = free[np.argsort(-np.abs(w[free]), kind="stable")]
    index = np.sort(order[:3])
    total = float(w[free] @ w[free])
    share = float(w[index] @ w[index]) / total if total > 0 else 1.0
    i, j, k = (int(v) for v in index)
    return Three(Phi[:, index], w[index], float(b), (i, j, k), share)
