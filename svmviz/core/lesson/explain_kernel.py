"""Words for the inspector: why ⟨φ(x), φ(z)⟩ = k(x, z), with one pair's numbers.

The kernel trick: the SVM needs only inner products of feature vectors, and K gives them
without the vectors (003, UML §16.3 "SGD for Solving Soft-SVM with Kernels": the
algorithm runs on K(x_j, x_i) alone, and Lemma 16.3's proof, y_i⟨w, ψ(x_i)⟩ =
y_i Σ_j α_j K(x_j, x_i), makes it the same w̄ = Σ_j ᾱ_j ψ(x_j) as SGD in the feature
space). The maps are :mod:`svmviz.core.pictures.feature_map`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.feature_map import SUB, feature_map
from svmviz.core.sources import cite


def point_name(i: int) -> str:
    """The inspector's name of point ``i``: x with its index in the data as a subscript, the
    same i as the step panel's "sample i", its α_i and the point table's column i (x₀ for
    the first)."""
    return f"x{str(i).translate(SUB)}"


def partner(kernel: Kernel, X, i: int, alpha=None, train=None) -> tuple[int, bool] | None:
    """The point x_j to pair with x_i in the inspector, and whether it was chosen by α: the
    largest term |α_j K(x_j, x_i)| of f(x_i) = Σ_j α_j K(x_j, x_i) other than i's own
    (003), else (no α, or none but α_i nonzero) the nearest other training point. ``alpha``:
    |α| of every point of ``X`` (0 outside training), ``train``: which points train (None:
    all). None when x_i has no other training point."""
    X = np.asarray(X, dtype=float)
    others = np.ones(len(X), dtype=bool) if train is None else np.asarray(train, bool).copy()
    others[i] = False
    if not others.any():
        return None
    if alpha is not None and len(alpha) == len(X):
        terms = np.abs(np.asarray(alpha, float) * kernel.gram(X, X[i : i + 1])[:, 0])
        terms[~others] = 0.0
        if terms.max() > 0:
            return int(np.argmax(terms)), True
    distance = np.where(others, np.sum((X - X[i]) ** 2, axis=1), np.inf)
    return int(np.argmin(distance)), False


@dataclass(frozen=True)
class KernelPair:
    """One pair's numbers: ``products`` φ_j(x)·φ_j(z) per coordinate, their sum
    ``feature_inner``, ``inner`` ⟨x, z⟩ and ``kernel`` k(x, z) by the kernel's formula."""

    products: np.ndarray
    feature_inner: float
    inner: float
    kernel: float


def kernel_pair(kernel: Kernel, x, z) -> KernelPair:
    """The numbers of :func:`why_kernel` for the points ``x`` and ``z`` (InputError for a
    kernel without a small map: :func:`svmviz.core.pictures.feature_map.check_mappable`)."""
    x = np.asarray(x, dtype=float).reshape(1, -1)
    z = np.asarray(z, dtype=float).reshape(1, -1)
    products = feature_map(kernel, x)[0] * feature_map(kernel, z)[0]
    value = float(kernel.gram(x, z)[0, 0])
    return KernelPair(products, float(products.sum()), float(x[0] @ z[0]), value)


def _n(v: float) -> str:
    """v to three digits, a minus sign as typeset."""
    return f"{v:.3g}".replace("-", "−")


def _f(v: float) -> str:
    """v as a factor of a product: in parentheses when negative."""
    return f"({_n(v)})" if v < 0 else _n(v)


def why_kernel(kernel: Kernel, x, z, names: tuple[str, str] = ("x", "z")) -> str:
    """Why ⟨φ(x), φ(z)⟩ = k(x, z), with this pair's numbers, e.g.
    "φ(x₁₂)·φ(x₄₀) = 0.25·1.1 + … = 3.02 = (γ x·z + c₀)² = (0.5·2.46 + 0)² = 3.02"; for a
    kernel without a small map (RBF: infinite), a sentence saying so and that the 3-D view
    shows the decision surface instead."""
    a, b = names
    try:
        pair = kernel_pair(kernel, x, z)
    except InputError as error:
        value = float(kernel.gram(np.atleast_2d(x), np.atleast_2d(z))[0, 0])
        return f"k({a}, {b}) = {_n(value)}: {error}."
    fx = feature_map(kernel, np.atleast_2d(x))[0]
    fz = feature_map(kernel, np.atleast_2d(z))[0]
    terms = " + ".join(f"{_f(p)}·{_f(q)}" for p, q in zip(fx, fz, strict=True))
    left = f"φ({a})·φ({b}) = {terms} = {_n(pair.feature_inner)}"
    if kernel.name == "linear":
        lead = "The linear kernel's feature map is the point itself (a third coordinate 0): "
        return f"{lead}{left} = {a}·{b} = k({a}, {b})."
    g, c, d = kernel.gamma, kernel.coef0, int(kernel.degree)
    power = "" if d == 1 else "²"
    right = f"(γ {a}·{b} + c₀){power} = ({_n(g)}·{_f(pair.inner)} + {_n(c)}){power}"
    lead = (
        "The kernel is an inner product in feature space: k gives ⟨φ(x), φ(z)⟩ without "
        f"computing φ, so the SVM is a flat plane there {cite('003: Lemma 16.3')}. "
    )
    return f"{lead}{left} = {right} = {_n(pair.kernel)} = k({a}, {b})."
