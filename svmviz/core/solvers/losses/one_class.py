"""The one-class SVM (Schölkopf; libsvm's one-class): the smallest region holding a share
1 − ν of the points.

Objective ½‖w‖² − ρ + (1/(νm)) Σ max(0, ρ − ⟨w, φ(x_i)⟩), f(x) = ⟨w, φ(x)⟩ − ρ; a point is an
outlier when f < 0. Labels are ignored and there is no bias (ρ is the offset). For the
current w, ρ is exact: the νm-th smallest score (:mod:`._common`), so at most a share ν
of the points are outliers.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "one-class"
KIND = DECLARED[NAME].kind
TITLE = "one-class SVM"
FORMULA = "−ρ + (1/ν) max(0, ρ − ⟨w, φ(x)⟩)"
STEP = "⟨w, φ(x)⟩ < ρ: the point is outside the region, so w moves toward φ(x) (by 1/ν)"
WEIGHT = "1/ν if ⟨w, φ(x_i)⟩ ≤ ρ"  # g_i = −∂ℓ_i/∂f in the step w += (η/k) Σ g_i x_i
MODEL_LOSS = None  # no loss in the file: f ≥ 0 is an inlier
LEVELS = (0.0,)
OFFSETS = ("rho",)  # the variables beside w (history columns)


class OneClass(NamedTuple):
    nu: float


def params(config, cost) -> OneClass:
    return OneClass(float(config.nu))


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    return max_norm / config.nu


def losses(model, F, y, target) -> np.ndarray:
    """F = ⟨w, φ(x)⟩ − ρ, so ρ − ⟨w, φ(x)⟩ = −F."""
    return np.maximum(0.0, -F) / model.nu


def errors(model, F, y, target) -> float:
    """The share of outliers (at most ν at the optimum)."""
    return float(np.mean(F < 0))


def offset_value(model) -> float:
    return -model.rho


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)
totals = _common.single_totals


@plain
def terms(loss, f, yi, ti, off, g):
    # ⟨w, φ⟩ = ρ counts: at w = 0 every score ties with ρ = 0, and a strict test would
    # leave w at 0 for good
    g[0] = 1.0 / loss.nu if f[0] <= off[0] else 0.0
    return 1 if g[0] != 0.0 else 0


@plain
def value(loss, f, yi, ti, off):
    return max(0.0, off[0] - f[0]) / loss.nu, 1.0 if f[0] < off[0] else 0.0


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    """ρ (off[0]): the νm-th smallest score ⟨w, φ(x_j)⟩ (r[:m]; r[m:3m] scratch)."""
    m = t.shape[0]
    for j in range(m):
        r[j] = scale * F[0, j]
    off[0] = _common.lower_quantile(r[:m], m, loss.nu * m, r[m : 3 * m], win[2:5])


@plain
def offset_term(loss, off):
    return -off[0]


_dispatch.register(OneClass, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): min ½‖w‖² − ρ + (1/(νm)) Σ ξ_i over ξ_i ≥ 0, ξ_i ≥ ρ − ⟨w, φ(x_i)⟩,
    ρ free, no bias, a QP; the model's intercept is −ρ. Checked by libsvm (OneClassSVM,
    the same ν): it solves this problem scaled by νm (α ∈ [0, 1], Σ α = νm instead of
    [0, 1/(νm)] and 1), so its dual_coef and offset ρ are νm times ours."""
    from svmviz.core.solvers.losses._exact import Program

    nu = float(config.nu)
    p = Program(config, data.X, lam=1.0, bias="none")
    xi = p.var(p.m, cost=1.0 / (nu * p.m))
    rho = p.var(1, cost=-1.0)
    p.ge(p.pick(xi) + p.scores() - p.pick(np.repeat(rho, p.m)))
    p.ge(p.pick(xi))
    x, lower = p.solve()
    r = float(x[rho[0]])
    return p.model(x, config, (), intercept=[-r], loss=None, nu=nu, rho=r), lower, "clarabel"
