"""ε-insensitive support vector regression (libsvm's ε-SVR).

Objective λ/2‖w‖² + (1/m) Σ max(0, |y_i − f(x_i)| − ε), ε fixed (C = 1/(λm) in libsvm's
form). An example outside the tube moves w toward sign(y − f) φ(x); a free bias is exact:
a median of the 2m values r_i ± ε, r_i = y_i − ⟨w, φ(x_i)⟩ (:mod:`._common`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "epsilon-svr"
KIND = DECLARED[NAME].kind
TITLE = "ε-insensitive regression (ε-SVR)"
FORMULA = "max(0, |y − f(x)| − ε)"
STEP = "|y − f(x)| > ε: the point is outside the tube, so f moves toward y"
WEIGHT = "sign(r_i) if |r_i| > ε"  # g_i = −∂ℓ_i/∂f in the step w += (η/k) Σ g_i x_i
MODEL_LOSS = "epsilon_insensitive"
LEVELS = (0.0,)


class EpsilonSVR(NamedTuple):
    epsilon: float


def params(config, cost) -> EpsilonSVR:
    return EpsilonSVR(float(config.epsilon))


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    return max_norm


def losses(model, F, y, target) -> np.ndarray:
    return np.maximum(0.0, np.abs(target - F) - model.epsilon)


def errors(model, F, y, target) -> float:
    """The share of points outside the ε-tube."""
    return float(np.mean(np.abs(target - F) > model.epsilon))


def offset_value(model) -> float:
    return 0.0


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)
totals = _common.single_totals
offset_term = _common.offset_term


@plain
def terms(loss, f, yi, ti, off, g):
    g[0] = _common.tube_side(ti - f[0], loss.epsilon)
    return 1 if g[0] != 0.0 else 0


@plain
def value(loss, f, yi, ti, off):
    a = abs(ti - f[0])
    return max(0.0, a - loss.epsilon), 1.0 if a > loss.epsilon else 0.0


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    """A free b: the minimizer of Σ max(0, r_j − ε − b) + max(0, b − r_j − ε), a median of
    the 2m values r_j ± ε (r[:2m]; r[2m:] scratch)."""
    if free:
        m = t.shape[0]
        for j in range(m):
            rj = t[j] - scale * F[0, j]
            r[j] = rj - loss.epsilon
            r[m + j] = rj + loss.epsilon
        b[0] = _common.lower_quantile(r[: 2 * m], 2 * m, m, r[2 * m :], win[2:5])


_dispatch.register(EpsilonSVR, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): min λ/2‖w‖² + (1/m) Σ ξ_i over ξ_i ≥ 0, ξ_i ≥ ±(y_i − f(x_i)) − ε,
    a QP. Checked by libsvm (SVR, C = 1/(λm), the same ε): ½‖w‖² + C Σ ξ_i is 1/λ
    times this objective, with the same w and intercept."""
    from svmviz.core.solvers.losses._exact import Program, target_scale, targets

    t = targets(data, "ε-SVR")
    c = target_scale(t)
    t, eps = t / c, float(config.epsilon) / c
    p = Program(config, data.X, lam=config.lam * c, scale=c)
    xi = p.var(p.m, cost=1.0 / p.m)
    f = p.scores()
    p.ge(p.pick(xi) + f, eps - t)  # ξ ≥ y − f − ε
    p.ge(p.pick(xi) - f, eps + t)  # ξ ≥ f − y − ε
    p.ge(p.pick(xi))
    x, lower = p.solve()
    model = p.model(x, config, (), loss="epsilon_insensitive", epsilon=float(config.epsilon))
    return replace(model, lam=float(config.lam)), lower, "clarabel"
