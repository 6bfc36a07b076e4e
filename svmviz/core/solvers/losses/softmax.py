"""The softmax (multinomial logistic) loss: ℓ_i = log Σ_y′ e^(f_y′(x_i)) − f_{y_i}(x_i).

Objective λ/2 Σ_k‖w_k‖² + (1/m) Σ_i ℓ_i (CS231n's softmax classifier). Smooth: every
example moves each w_k by (1[k = y] − p_k) φ(x), p the softmax of the scores.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from svmviz.core._jit import jit, jit_elementwise, plain
from svmviz.core.problems import DECLARED
from svmviz.core.solvers.losses import _common, _dispatch

NAME = "softmax"
KIND = DECLARED[NAME].kind
TITLE = "softmax cross-entropy"
FORMULA = "log Σ_y′ e^(f_y′(x)) − f_y(x)"
STEP = "each w_k moves by (1[k = y] − p_k) φ(x), p_k the predicted probability of class k"
LEVELS = (0.0,)
KINK = False  # every example has a term: no margin, no point line in weight space


class Softmax(NamedTuple):
    scale: float = 1.0


def params(config, cost) -> Softmax:
    return Softmax()


def probability(F) -> np.ndarray:
    """P(class k | x) for the decision values F (m, K): softmax(f)."""
    E = np.exp(F - F.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def log_probability(F) -> np.ndarray:
    return F - np.logaddexp.reduce(F, axis=1, keepdims=True)


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
# A Newton step d whose every entry is at most NEWTON_SAFE is taken without evaluating the
# loss: shifting the scores by d scales each p_k by e^(±2‖d‖∞) at most, so the Hessian on
# the segment stays within e^(±2‖d‖∞) of H, and the loss falls by at least
# (1 − (e^c − 1 − c)/c²) gᵀH⁻¹g, c = 2‖d‖∞ (over a tenth of the decrement at 0.75). A
# longer step is cut to NEWTON_REACH and halved while it raises the loss.
NEWTON_SAFE = 0.75
NEWTON_REACH = 4.0
# the same bound makes the next decrement at most (‖d‖∞ e^(3‖d‖∞))² gᵀH⁻¹g: the search ends
# at the first point where that is below NEWTON_LAST (the loss then within about half of
# it of its least: exact to rounding)
NEWTON_LAST = 1e-16
# where every p_i is nearly one-hot (early, w large) the Hessian all but vanishes: it is
# damped by this
NEWTON_DAMPING = 1e-12
# the exponentials are taken once at an origin o, and a shift s from it costs products
# only (e^(f + o + s) = e^(f + o) e^s); past this shift they are taken anew at o + s
REBASE = 30.0


@plain
def totals(loss, y, t, F, scale, b, off):
    K, m = F.shape
    E = np.empty((K, m))
    top = np.empty(m)
    _exponents(F, scale, b, E, top)
    value = 0.0
    wrong = 0.0
    for i in range(m):
        yi = y[i]
        value += top[i] - E[yi, i]
        right = E[yi, i] == top[i]  # and no earlier class ties it (the first argmax)
        for k in range(yi):
            right = right and E[k, i] < top[i]
        wrong += 0.0 if right else 1.0
    _exponentiate(E, top, np.empty((K, m)))
    total = np.empty(m)
    _sums(E, total)
    for i in range(m):
        value += np.log(total[i])
    return value, wrong


@jit
def _exponents(F, scale, x, E, top):
    """E = scale·F + x and top the largest of each example's, a class at a time over
    contiguous rows, so that the compiler vectorizes the passes (an example at a time costs
    twice as long)."""
    K, m = F.shape
    for k in range(K):
        for i in range(m):
            E[k, i] = scale * F[k, i] + x[k]
    for i in range(m):
        top[i] = E[0, i]
    for k in range(1, K):
        for i in range(m):
            top[i] = max(top[i], E[k, i])


def _exponentiate_numpy(E, top, scratch):
    np.subtract(E, top, out=E)
    np.exp(E, out=E)


# e^x = 2^n e^r, n the integer nearest x/ln 2 and r = x − n ln 2 (in two parts, ln 2's
# leading bits exact in a product with n: Cody and Waite), |r| ≤ ln 2 / 2, where e^r's
# Taylor series to degree 13 is within 2⁻⁵⁷ of it: within an ulp of libm's exp
EXP_TAYLOR = tuple(1.0 / math.factorial(j) for j in range(14))
LOG2E = 1.4426950408889634
LN2_HIGH = 6.93147180369123816490e-01
LN2_LOW = 1.90821492927058770002e-10
# below this e^x is at most 3.3e-308, next to at least 1 (each example's top): taken as 0
EXP_LOWEST = -708.0


@jit_elementwise(_exponentiate_numpy)
def _exponentiate(E, top, scratch):
    """E = e^(E − top): at most 1, and 1 at each example's top. By the polynomial of
    EXP_TAYLOR, which the compiler vectorizes (libm's exp, a call per element, costs five
    times as long), with 2^n put together in scratch's bits."""
    K, m = E.shape
    bits = scratch.view(np.int64)
    for k in range(K):
        for i in range(m):
            x = E[k, i] - top[i]
            y = max(x, EXP_LOWEST)
            n = np.floor(y * LOG2E + 0.5)
            r = (y - n * LN2_HIGH) - n * LN2_LOW
            p = EXP_TAYLOR[13]
            for j in range(12, -1, -1):
                p = p * r + EXP_TAYLOR[j]
            E[k, i] = p if x >= EXP_LOWEST else (0.0 if x < EXP_LOWEST else x)  # (NaN kept)
            bits[k, i] = (np.int64(n) + 1023) << 52  # 2^n
    for k in range(K):
        for i in range(m):
            E[k, i] *= scratch[k, i]


@jit
def _exponentials(F, scale, x, E, top, scratch):
    """E = e^(scale·F + x − top), top (scratch after) the largest exponent of each example
    (scratch: of E's shape)."""
    _exponents(F, scale, x, E, top)
    _exponentiate(E, top, scratch)


@jit
def _sums(P, total):
    """total_i = Σ_k P_ki, a class at a time."""
    K, m = P.shape
    for i in range(m):
        total[i] = P[0, i]
    for k in range(1, K):
        for i in range(m):
            total[i] += P[k, i]


@jit
def _moments(n, E, s, P, total, inverse, g, H):
    """The sums over the examples of p_i − e_{y_i} into g and of diag p_i − p_i p_iᵀ into
    H (its upper triangle), p_i the softmax of the exponentials E shifted by s (n the class
    counts), and into total the Σ_k of E_ki e^(s_k) (P and inverse: scratch)."""
    K, m = E.shape
    for k in range(K):
        c = np.exp(s[k])
        for i in range(m):
            P[k, i] = E[k, i] * c
    _sums(P, total)
    for i in range(m):
        inverse[i] = 1.0 / total[i]  # (then products: a division each costs twice as long)
    for k in range(K):
        row = 0.0
        for i in range(m):
            P[k, i] *= inverse[i]
            row += P[k, i]
        g[k] = row - n[k]
        H[k, k] = row
    for k in range(K):
        for q in range(k, K):
            cross = 0.0
            for i in range(m):
                cross += P[k, i] * P[q, i]
            H[k, q] = (H[k, k] if q == k else 0.0) - cross


@jit
def _shifted_loss(total, n, s):
    """The summed loss at the shift s, less a constant of the exponentials (Σ_i log total_i
    − Σ_k n_k s_k, n the class counts), and the size of its rounding error."""
    value = 0.0
    size = 0.0
    for i in range(total.shape[0]):
        v = np.log(total[i])
        value += v
        size += abs(v)
    for k in range(s.shape[0]):
        value -= n[k] * s[k]
        size += abs(n[k] * s[k])
    return value, 1e-13 * size


@jit
def profile_bias(y, F, scale, b):
    """The free bias b minimizing the mean softmax loss for the scores scale·F: profiled
    out as a binary loss's is. Newton's method in K dimensions from the previous b (the mean
    loss is convex and smooth in b; a step is safe by NEWTON_SAFE, or checked). Its gradient
    is (1/m) Σ_i (p_i − e_{y_i}) and its Hessian (1/m) Σ_i (diag p_i − p_i p_iᵀ); a shift of
    every b_k changes nothing, so Σ_k b_k stays as it is by solving with the Hessian plus
    11ᵀ/K (whose step has Σ_k δ_k = 0)."""
    K, m = F.shape
    g = np.empty(K)
    H = np.empty((K, K))
    E = np.empty((K, m))
    P = np.empty((K, m))
    total = np.empty(m)
    inverse = np.empty(m)
    origin = b.copy()
    s = np.zeros(K)
    trial = np.empty(K)
    n = np.zeros(K)
    for k in range(K):  # (a class at a time, branch-free: it vectorizes, unlike n[y[i]] += 1)
        count = 0.0
        for i in range(m):
            count += y[i] == k
        n[k] = count
    _exponentials(F, scale, origin, E, total, P)
    fresh = False  # g, H and total hold the moments at s
    for _ in range(NEWTON_ITERATIONS):
        far = 0.0
        for k in range(K):
            far = max(far, abs(s[k]))
        if far > REBASE:
            for k in range(K):
                origin[k] += s[k]
                s[k] = 0.0
            _exponentials(F, scale, origin, E, total, P)
            fresh = False
        if not fresh:
            _moments(n, E, s, P, total, inverse, g, H)
        fresh = False
        for k in range(K):
            g[k] /= m
            for q in range(k, K):
                H[k, q] = H[k, q] / m + 1.0 / K
                H[q, k] = H[k, q]  # (the moments fill the upper triangle)
            H[k, k] += NEWTON_DAMPING
        check = 0.0
        for k in range(K):
            check += g[k]
            for q in range(K):
                check += H[k, q]
        # scores beyond floating point (numba's solve raises on them): b stays, and the
        # loop's check says the run diverged. (Not np.isfinite: numba's is x − x == x − x,
        # which 'reassoc' cancels to true for a sum such as this one)
        if not abs(check) < np.inf:
            break
        d = np.linalg.solve(H, -g)
        decrement = 0.0
        longest = 0.0
        for k in range(K):
            decrement -= g[k] * d[k]
            longest = max(longest, abs(d[k]))
        if longest <= NEWTON_SAFE:
            for k in range(K):
                s[k] += d[k]
            bound = longest * np.exp(3.0 * longest)
            if decrement * bound * bound <= NEWTON_LAST:
                break
            continue
        before, rounding = _shifted_loss(total, n, s)
        length = min(1.0, NEWTON_REACH / longest)
        for k in range(K):
            d[k] *= length
        length = 1.0
        while length >= 1e-10:
            for k in range(K):
                trial[k] = s[k] + length * d[k]
            _moments(n, E, trial, P, total, inverse, g, H)
            if _shifted_loss(total, n, trial)[0] <= before + rounding:
                fresh = True
                break
            length *= 0.5
        if not fresh:  # no step lowers the loss: b is where rounding leaves it
            break
        for k in range(K):
            s[k] = trial[k]
    for k in range(K):
        b[k] = origin[k] + s[k]


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
