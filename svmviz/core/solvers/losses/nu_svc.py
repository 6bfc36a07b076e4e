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
from svmviz.core.errors import InputError
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "nu-svc"
KIND = DECLARED[NAME].kind
TITLE = "ν-support vector classification (ν-SVC)"
FORMULA = "−νρ + max(0, ρ − y f(x))"
STEP = "y f(x) < ρ: the example is inside the margin ρ or wrong, so w moves toward y x; ρ follows w"
WEIGHT = "y_i if y_i f ≤ ρ"  # g_i = −∂ℓ_i/∂f in the step w += (η/k) Σ g_i x_i
MODEL_LOSS = "hinge"  # the file's loss: the hinge at the margin ρ
LEVELS = (-1.0, 0.0, 1.0)  # f = 0 and the margins f = ±ρ (in units of ρ: OFFSETS)
OFFSETS = ("rho",)  # the variables beside w (history columns)


class NuSVC(NamedTuple):
    nu: float


def params(config, cost) -> NuSVC:
    return NuSVC(float(config.nu))


def check(config, data) -> None:
    """Refuse data that are not binary, and, with a free bias, a ν that makes the objective
    unbounded below: ρ ± b need νm/2 scores on each side, so ν ≤ 2·min(m₊, m₋)/m
    (without a free bias ρ takes the νm-th of all m, and every ν ≤ 1 is feasible)."""
    nu = float(config.nu)
    if data.n_classes != 2:
        raise InputError(f"ν-SVC is binary and these data have {data.n_classes} classes")
    if config.bias != "free":
        return
    m = len(data.y)
    top = 2.0 * min(int(np.sum(data.y == 1)), int(np.sum(data.y != 1))) / m
    if nu > top * (1 + 1e-12):
        raise InputError(
            f"ν = {nu:g} is infeasible for ν-SVC on these data: it must be at most "
            f"2·min(m₊, m₋)/m = {top:.4g}"
        )


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
totals = _common.single_totals


@plain
def terms(loss, f, yi, ti, off, g):
    g[0] = ti if ti * f[0] <= off[0] else 0.0  # (ties count, as one-class's do)
    return 1 if g[0] != 0.0 else 0


@plain
def value(loss, f, yi, ti, off):
    return max(0.0, off[0] - ti * f[0]), _common.binary_wrong(ti, f[0])


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    """ρ (off[0]) and a free b: ρ − b is the νm/2-th smallest score of the positives, ρ + b
    the νm/2-th smallest negated score of the negatives; without a free b, ρ is the νm-th
    smallest y_j f(x_j) (r[:m] values, r[m:3m] scratch)."""
    m = t.shape[0]
    q = loss.nu * m
    if free:
        n = 0
        for j in range(m):
            if t[j] > 0.0:
                r[n] = scale * F[0, j]
                n += 1
        u = _common.lower_quantile(r[:n], n, 0.5 * q, r[m : 3 * m], win[2:5])
        n = 0
        for j in range(m):
            if t[j] < 0.0:
                r[n] = -scale * F[0, j]
                n += 1
        v = _common.lower_quantile(r[:n], n, 0.5 * q, r[m : 3 * m], win[5:8])
        off[0] = 0.5 * (u + v)
        b[0] = 0.5 * (v - u)
    else:
        for j in range(m):
            r[j] = t[j] * (scale * F[0, j] + b[0])
        off[0] = _common.lower_quantile(r[:m], m, q, r[m : 3 * m], win[2:5])


@plain
def offset_term(loss, off):
    return -loss.nu * off[0]


_dispatch.register(NuSVC, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): min ½‖w‖² − νρ + (1/m) Σ ξ_i over ξ_i ≥ 0, ξ_i ≥ ρ − y_i f(x_i),
    ρ free, a QP. Its dual has 0 ≤ α_i ≤ 1/m and Σ α_i = ν, and with a free bias also
    Σ y_i α_i = 0: feasible (the objective bounded) only when ν ≤ 2·min(m₊, m₋)/m.
    Checked by libsvm (NuSVC, the same ν): it returns the solution divided by ρ (the
    margin made 1), dual_coef y_i α_i/ρ, so ours is ρ times its w and intercept, with
    ρ = (ν − mean max(0, 1 − y f))/‖w‖² for its f and w, the minimizer of this objective
    along its direction (its own ρ, ν/Σ|dual_coef|, averages free support vectors)."""
    from svmviz.core.solvers.losses._exact import Program, binary_signs

    check(config, data)
    s = binary_signs(data, "ν-SVC")
    nu = float(config.nu)
    m = s.size
    p = Program(config, data.X, lam=1.0)
    xi = p.var(m, cost=1.0 / m)
    rho = p.var(1, cost=-nu)
    margin = p.scores().multiply(s[:, None]).tocsr()
    p.ge(p.pick(xi) + margin - p.pick(np.repeat(rho, m)))
    p.ge(p.pick(xi))
    x, lower = p.solve()
    r = float(x[rho[0]])
    return p.model(x, config, data.classes, loss=config.loss, nu=nu, rho=r), lower, "clarabel"
