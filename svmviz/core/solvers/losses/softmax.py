"""The softmax (multinomial logistic) loss: ℓ_i = log Σ_y′ e^(f_y′(x_i)) − f_{y_i}(x_i).

Objective λ/2 Σ_k‖w_k‖² + (1/m) Σ_i ℓ_i (CS231n's softmax classifier). Smooth: every
example moves each w_k by (1[k = y] − p_k) φ(x), p the softmax of the scores.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.core._jit import jit, plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "softmax"
KIND = DECLARED[NAME].kind
TITLE = "softmax cross-entropy"
FORMULA = "log Σ_y′ e^(f_y′(x)) − f_y(x)"
STEP = "each w_k moves by (1[k = y] − p_k) φ(x), p_k the predicted probability of class k"
LEVELS = (0.0,)


class Softmax(NamedTuple):
    scale: float = 1.0


def params(config, cost) -> Softmax:
    return Softmax()


def subgradient_bound(max_norm: float, n_classes: int, config) -> float:
    """‖1_y − p‖ ≤ √2, so ‖v‖ ≤ √2 max ‖φ‖."""
    return float(np.sqrt(2.0)) * max_norm


def losses(model, F, y, target) -> np.ndarray:
    top = F.max(axis=1)
    lse = top + np.log(np.exp(F - top[:, None]).sum(axis=1))
    return lse - F[np.arange(F.shape[0]), y]


def errors(model, F, y, target) -> float:
    return float(np.mean(np.argmax(F, axis=1) != y))


def offset_value(model) -> float:
    return 0.0


# --- the compiled parts (the loop's interface, :mod:`._dispatch`)
offset_term = _common.offset_term


@plain
def terms(loss, f, yi, ti, off, g):
    top = f[0]
    for k in range(1, f.shape[0]):
        top = f[k] if f[k] > top else top
    for k in range(f.shape[0]):
        g[k] = np.exp(f[k] - top)
    # summed in a loop that stores nothing: a sum beside a store is vectorized or not by
    # where the arrays happen to lie (the compiler's overlap check), and rounds differently
    total = 0.0
    for k in range(f.shape[0]):
        total += g[k]
    for k in range(f.shape[0]):
        g[k] = (1.0 if k == yi else 0.0) - g[k] / total
    return f.shape[0]


@plain
def value(loss, f, yi, ti, off):
    top = f[0]
    for k in range(1, f.shape[0]):
        top = f[k] if f[k] > top else top
    total = 0.0
    for k in range(f.shape[0]):
        total += np.exp(f[k] - top)
    return top + np.log(total) - f[yi], _common.multiclass_wrong(f, yi)


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:
        profile_bias(y, F, scale, b)


NEWTON_ITERATIONS = 60
# a Newton step whose decrement gᵀH⁻¹g is below this ends the search: the next would be of
# its square (quadratic convergence), the objective then exact to rounding
NEWTON_LAST = 1e-10
# where every p_i is nearly one-hot (early, w large) the Hessian all but vanishes: it is
# damped by this, and a step moves no b_k by more than NEWTON_REACH
NEWTON_DAMPING = 1e-12
NEWTON_REACH = 4.0


@plain
def totals(loss, y, t, F, scale, b, off):
    m = F.shape[1]
    K = F.shape[0]
    return _log_sum_exp(y, F, scale, b, np.empty((K, m)), np.empty(m), np.empty(m))


@jit
def _log_sum_exp(y, F, scale, x, P, top, total):
    """(Σ_i ℓ_i, Σ_i wrong_i) of the scores scale·F + x, a class at a time over contiguous
    rows (P: K×m, top and total: m, scratch), so that the compiler vectorizes the passes
    (an example at a time costs twice as long); P is left e^(f − top), total Σ_k of it."""
    K, m = F.shape
    for k in range(K):
        for i in range(m):
            P[k, i] = scale * F[k, i] + x[k]
    for i in range(m):
        top[i] = P[0, i]
    for k in range(1, K):
        for i in range(m):
            top[i] = max(top[i], P[k, i])
    value = 0.0
    wrong = 0.0
    for i in range(m):
        yi = y[i]
        value += top[i] - P[yi, i]
        right = P[yi, i] == top[i]  # and no earlier class ties it (the first argmax)
        for k in range(yi):
            right = right and P[k, i] < top[i]
        wrong += 0.0 if right else 1.0
        total[i] = 0.0
    for k in range(K):
        for i in range(m):
            P[k, i] = np.exp(P[k, i] - top[i])
            total[i] += P[k, i]
    for i in range(m):
        value += np.log(total[i])
    return value, wrong


@jit
def _pass(y, F, scale, x, g, H, P, top, total):
    """The sum of the softmax losses at the bias x, and into g, H the sums of p_i − e_{y_i}
    and of diag p_i − p_i p_iᵀ (the upper triangle)."""
    K, m = F.shape
    value = _log_sum_exp(y, F, scale, x, P, top, total)[0]
    for i in range(m):
        total[i] = 1.0 / total[i]
    for k in range(K):
        row = 0.0
        for i in range(m):
            P[k, i] *= total[i]
            row += P[k, i]
        g[k] = row
    for k in range(K):
        for q in range(k, K):
            cross = 0.0
            for i in range(m):
                cross += P[k, i] * P[q, i]
            H[k, q] = (g[k] if q == k else 0.0) - cross
    for i in range(m):
        g[y[i]] -= 1.0
    return value


@jit
def profile_bias(y, F, scale, b):
    """The free bias b minimizing the mean softmax loss for the scores scale·F: profiled
    out as a binary loss's is. Newton's method in K dimensions from the previous b, halving
    a step that raises the loss (the mean loss is convex and smooth in b). Its gradient is
    (1/m) Σ_i (p_i − e_{y_i}) and its Hessian (1/m) Σ_i (diag p_i − p_i p_iᵀ); a shift of
    every b_k changes nothing, so Σ_k b_k stays as it is by solving with the Hessian plus
    11ᵀ/K (whose step has Σ_k δ_k = 0)."""
    K, m = F.shape
    g = np.empty(K)
    H = np.empty((K, K))
    P = np.empty((K, m))
    top = np.empty(m)
    total = np.empty(m)
    x = b.copy()
    base = b.copy()  # the last accepted point, and its Newton step d
    d = np.zeros(K)
    best = np.inf
    length = 1.0
    for _ in range(NEWTON_ITERATIONS):
        value = _pass(y, F, scale, x, g, H, P, top, total)
        if value > best + 1e-13 * abs(best):  # the step went too far (not rounding): half
            length *= 0.5
            if length < 1e-10:
                break
            for k in range(K):
                x[k] = base[k] + length * d[k]
            continue
        best, length = value, 1.0
        for k in range(K):
            base[k] = x[k]
            g[k] /= m
            for q in range(k, K):
                H[k, q] = H[k, q] / m + 1.0 / K
                H[q, k] = H[k, q]  # (the pass fills the upper triangle)
            H[k, k] += NEWTON_DAMPING
        d = np.linalg.solve(H, -g)
        decrement = 0.0
        longest = 0.0
        for k in range(K):
            decrement -= g[k] * d[k]
            longest = max(longest, abs(d[k]))
        shorten = min(1.0, NEWTON_REACH / longest) if longest > 0.0 else 1.0
        for k in range(K):
            d[k] *= shorten
            x[k] = base[k] + d[k]
        if decrement <= NEWTON_LAST and shorten == 1.0:
            for k in range(K):
                base[k] = x[k]
            break
    for k in range(K):
        b[k] = base[k]


_dispatch.register(Softmax, __name__)


# --- exact reference
def reference(config, data):
    """(Model, lower, method): min λ/2 Σ_k‖w_k‖² + (1/m) Σ t_i over
    log Σ_y′ e^(f_y′(x_i) − f_{y_i}(x_i)) ≤ t_i, K exponential cones per example
    (:meth:`._exact.Program.log_sum_exp`); a free bias is centred (Σ_k b_k = 0)."""
    from svmviz.core.solvers.losses._exact import Program

    K = data.n_classes
    p = Program(config, data.X, outputs=K)
    t = p.var(p.m, cost=1.0 / p.m)
    truth = p.true_scores(data.y)
    p.log_sum_exp([(p.scores(k) - truth, 0.0) for k in range(K)], t)
    if p.b is not None:
        p.eq(p.total(p.b))
    x, lower = p.solve()
    return p.model(x, config, data.classes, loss=NAME), lower, "clarabel"
