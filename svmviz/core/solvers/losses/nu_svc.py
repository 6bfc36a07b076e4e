"""ν-support vector classification (libsvm's ν-SVC): the margin ρ is a variable.

Objective ½‖w‖² − νρ + (1/m) Σ max(0, ρ − y_i f(x_i)), f = ⟨w, φ(x)⟩ + b, ρ free. For the
current w, ρ and a free bias b are exact: ρ − b is the νm/2-th smallest score of the
positives and ρ + b that of the negated scores of the negatives (without a free bias, ρ is
the νm-th smallest y_i⟨w, φ(x_i)⟩), so ν bounds the share of margin errors from above
and of support vectors from below (:mod:`._common`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "nu-svc"
KIND = "binary"
TITLE = "ν-support vector classification (ν-SVC)"
FORMULA = "−νρ + max(0, ρ − y f(x))"
STEP = "y f(x) < ρ: the example is inside the margin ρ or wrong, so w moves toward y x; ρ follows w"
LEVELS = (0.0,)


class NuSVC(NamedTuple):
    nu: float


def params(config, cost) -> NuSVC:
    return NuSVC(float(config.nu))


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    return max_norm


def losses(model, F, y, target) -> np.ndarray:
    return np.maximum(0.0, model.rho - _signs(y) * F)


def errors(model, F, y, target) -> float:
    return float(np.mean((F > 0).astype(np.int64) != y))


def offset_value(model) -> float:
    return -model.nu * model.rho


def _signs(y):
    return np.where(y == 1, 1.0, -1.0)


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)


# --- exact reference
def reference(config, data):
    """(Model, lower): min ½‖w‖² − νρ + (1/m) Σ ξ_i over ξ_i ≥ 0, ξ_i ≥ ρ − y_i f(x_i),
    ρ free, a QP. Its dual has 0 ≤ α_i ≤ 1/m and Σ α_i = ν, and with a free bias also
    Σ y_i α_i = 0: feasible (the objective bounded) only when ν ≤ 2·min(m₊, m₋)/m.
    Checked by libsvm (NuSVC, the same ν): it returns the solution divided by ρ (the
    margin made 1), dual_coef y_i α_i/ρ, so ours is ρ times its w and intercept, with
    ρ = ν / Σ_i |dual_coef_i|."""
    from svmviz.core.errors import InputError
    from svmviz.core.solvers.losses._exact import Program, binary_signs

    s = binary_signs(data, "ν-SVC")
    nu = float(config.nu)
    m = s.size
    if config.bias == "free":
        top = 2.0 * min(np.sum(s > 0), np.sum(s < 0)) / m
        if nu > top * (1 + 1e-12):
            raise InputError(
                f"ν = {nu:g} is infeasible for ν-SVC on these data: it must be at most "
                f"2·min(m₊, m₋)/m = {top:.4g}"
            )
    p = Program(config, data.X, lam=1.0)
    xi = p.var(m, cost=1.0 / m)
    rho = p.var(1, cost=-nu)
    margin = p.scores().multiply(s[:, None]).tocsr()
    p.ge(p.pick(xi) + margin - p.pick(np.repeat(rho, m)))
    p.ge(p.pick(xi))
    x, lower = p.solve()
    r = float(x[rho[0]])
    return p.model(x, config, data.classes, loss=config.loss, nu=nu, rho=r), lower
