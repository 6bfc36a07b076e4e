"""ν-support vector regression (libsvm's ν-SVR): the tube's width ε is a variable.

Objective λ/2‖w‖² + νε + (1/m) Σ max(0, |y_i − f(x_i)| − ε), ε ≥ 0 (libsvm's
½‖w‖² + C(νmε + Σ ξ) with C = 1/(λm)). For the current w, ε and a free bias b are exact:
with r_i = y_i − ⟨w, φ(x_i)⟩, b + ε and b − ε are the order statistics that leave νm/2
values of r above and below the tube (without a free bias, ε leaves νm values of |r|
outside), so at most a share ν of the points lies outside the tube (:mod:`._common`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "nu-svr"
KIND = DECLARED[NAME].kind
TITLE = "ν-support vector regression (ν-SVR)"
FORMULA = "νε + max(0, |y − f(x)| − ε)"
STEP = "|y − f(x)| > ε: the point is outside the tube, so f moves toward y; ε follows w"
WEIGHT = "sign(r_i) if |r_i| > ε"  # g_i = −∂ℓ_i/∂f in the step w += (η/k) Σ g_i x_i
MODEL_LOSS = "epsilon_insensitive"
LEVELS = (0.0,)
OFFSETS = ("epsilon",)  # the variables beside w (history columns)


class NuSVR(NamedTuple):
    nu: float


def params(config, cost) -> NuSVR:
    return NuSVR(float(config.nu))


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    return max_norm


def losses(model, F, y, target) -> np.ndarray:
    return np.maximum(0.0, np.abs(target - F) - model.epsilon)


def errors(model, F, y, target) -> float:
    """The share of points outside the ε-tube (at most ν at the optimum)."""
    return float(np.mean(np.abs(target - F) > model.epsilon))


def offset_value(model) -> float:
    return model.nu * model.epsilon


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)
totals = _common.single_totals


@plain
def terms(loss, f, yi, ti, off, g):
    g[0] = _common.tube_side(ti - f[0], off[1])
    return 1 if g[0] != 0.0 else 0


@plain
def value(loss, f, yi, ti, off):
    a = abs(ti - f[0])
    return max(0.0, a - off[1]), 1.0 if a > off[1] else 0.0


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    """ε (off[1]) and a free b for the residuals r_j = y_j − scale·F_j (r[:m]; r[m:3m]
    scratch): b ± ε leave νm/2 residuals above and below the tube; without a free b, ε
    leaves νm of the |r_j| outside."""
    m = t.shape[0]
    q = loss.nu * m
    for j in range(m):
        r[j] = t[j] - scale * F[0, j] - b[0]
    if free:
        upper = _common.upper_quantile(r[:m], m, 0.5 * q, r[m : 3 * m], win[2:5])
        lower = _common.lower_quantile(r[:m], m, 0.5 * q, r[m : 3 * m], win[5:8])
        b[0] += 0.5 * (upper + lower)
        off[1] = 0.5 * (upper - lower)
    else:
        for j in range(m):
            r[j] = abs(r[j])
        off[1] = _common.upper_quantile(r[:m], m, q, r[m : 3 * m], win[2:5])


@plain
def offset_term(loss, off):
    return loss.nu * off[1]


_dispatch.register(NuSVR, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): min λ/2‖w‖² + νε + (1/m) Σ ξ_i over ε ≥ 0, ξ_i ≥ 0,
    ξ_i ≥ ±(y_i − f(x_i)) − ε, a QP. Checked by libsvm (NuSVR, C = 1/(λm), the same ν):
    its ½‖w‖² + C(νmε + Σ ξ_i) is 1/λ times this objective, with the same w and
    intercept, and ε = |y_i − f(x_i)| on its free support vectors (0 < |α_i| < C)."""
    from svmviz.core.solvers.losses._exact import Program, target_scale, targets

    t = targets(data, "ν-SVR")
    c = target_scale(t)
    t = t / c
    nu = float(config.nu)
    p = Program(config, data.X, lam=config.lam * c, scale=c)
    xi = p.var(p.m, cost=1.0 / p.m)
    e = p.var(1, cost=nu)
    f = p.scores()
    tube = p.pick(np.repeat(e, p.m))
    p.ge(p.pick(xi) + f + tube, -t)  # ξ ≥ y − f − ε
    p.ge(p.pick(xi) - f + tube, t)  # ξ ≥ f − y − ε
    p.ge(p.pick(xi))
    p.ge(p.pick(e))
    x, lower = p.solve()
    eps = max(0.0, float(x[e[0]]))
    model = p.model(x, config, (), loss="epsilon_insensitive", epsilon=eps, nu=nu)
    model = replace(model, lam=float(config.lam))
    return model, lower, "clarabel"
