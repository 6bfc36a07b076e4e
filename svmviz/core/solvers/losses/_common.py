"""What several losses share: the full pass over the examples, the exact offsets of the
piecewise-linear losses (order statistics), Newton's step on the free bias of a smooth
binary loss, and the descent step on a multiclass free bias.

The offsets are profiled out as the free bias of the hinge is (:mod:`.._bias`): for the
current w, each is set to a minimizer of the objective in it, so the solver runs SGD on the
λ-strongly convex F̃(w) = min_offsets F(w, offsets), whose subgradient at w is the w-part of
the subgradient at the minimizing offsets (Danskin).
"""

from __future__ import annotations

import numpy as np

from svmviz.core._jit import jit, jit_inline, plain
from svmviz.core.solvers import _screen
from svmviz.core.solvers.losses import _dispatch

GATHER = 64  # the most values a quantile's window gathers (else it narrows)
SETTLED = 0.2  # an answer that moved less than this share of the window has settled


@jit
def lower_quantile(v, n, q, buf, near):
    """A minimizer u of −q·u + Σ_{j<n} max(0, u − v_j), 0 < q ≤ n: #{v < u} ≤ q ≤ #{v ≤ u},
    so the k = ⌈q⌉-th smallest v_j, or, for a whole q < n, the middle of the q-th and
    (q+1)-th smallest (every point between them is a minimizer). ``buf`` is scratch.

    ``near`` (kept between calls) holds the last answer c, a half-width h and how far the
    answer last moved (over h): when the window [c − h, c + h] holds the ranks sought, which
    one branch-free counting pass tells, its few values are gathered and the ranks selected
    among them, the same values as a selection of all n (which costs several passes, and is
    the fallback); the window moves and widens towards the ranks when it misses them, and
    narrows when it holds too many. The gathering branches on each value once the answer
    has settled (the values then stay on their sides of the window's ends from call to
    call, and the branch predictor learns the pattern); while it moves, a branch would
    mispredict on half of them, and the gathering is branch-free (buf has room for n).
    Either way the same values in the same order: the same bits."""
    k = int(np.ceil(q - 1e-12 * max(q, 1.0)))  # (q = νm/2 computed with rounding)
    k = min(max(k, 1), n)
    middle = not (abs(k - q) > 1e-9 or k == n)
    last = k + 1 if middle else k  # the highest rank sought
    c, h = near[0], near[1]
    for _ in range(6 if h > 0.0 else 0):
        low, high = c - h, c + h
        below = inside = 0.0
        for j in range(n):
            below += v[j] < low
            inside += (v[j] >= low) * (v[j] <= high)
        if below > k - 1 or below + inside < last:  # the ranks lie outside the window:
            # move it as far as the window's density says they are, and wide enough
            short = below - (k - 1) if below > k - 1 else last - (below + inside)
            reach = short * 2.0 * h / max(inside, 1.0)
            c = low - 0.5 * reach if below > k - 1 else high + 0.5 * reach
            h = max(h, 0.75 * reach)
            continue
        if inside > GATHER:
            h *= 0.5
            continue
        count = 0
        if near[2] < SETTLED:  # a branch, whose pattern repeats: the predictor learns it
            for j in range(n):
                if v[j] >= low and v[j] <= high:
                    buf[count] = v[j]
                    count += 1
        else:  # written always, kept when inside: a branch would mispredict
            for j in range(n):
                x = v[j]
                buf[count] = x
                count += (x >= low) & (x <= high)
        rank = k - 1 - int(below)
        value = _screen.select_in_place(buf[:count], rank)
        if middle:
            upper = buf[rank + 1]
            for j in range(rank + 2, count):
                upper = buf[j] if buf[j] < upper else upper
            value = 0.5 * (value + upper)
        near[2] = abs(value - near[0]) / h
        near[0] = value
        near[1] = h if inside <= GATHER // 2 else 0.5 * h
        return value
    for j in range(n):
        buf[j] = v[j]
    lo = _screen.select_in_place(buf[:n], k - 1)
    hi = lo
    if middle:
        hi = buf[k]
        for j in range(k + 1, n):
            hi = buf[j] if buf[j] < hi else hi
    spread = 0.0
    for j in range(n):
        spread = max(spread, abs(v[j] - lo))
    near[0] = 0.5 * (lo + hi) if middle else lo
    near[1] = max(4.0 * spread / n, 1e-300)
    near[2] = 1.0  # (moved: not settled)
    return near[0]


@jit
def upper_quantile(v, n, q, buf, near):
    """A minimizer u of q·u + Σ_{j<n} max(0, v_j − u): :func:`lower_quantile` mirrored
    (``near`` as there, of the mirrored values)."""
    for j in range(n):
        buf[n + j] = -v[j]
    return -lower_quantile(buf[n : 2 * n], n, q, buf, near)


@jit
def _bias_derivatives(loss, t, F, scale, c):
    """(Σ_i ∂ℓ_i/∂b, Σ_i ∂²ℓ_i/∂b²) at the bias c, for the scores scale·F + c (each score
    handed over as a 1-tuple, not through an array: the loop vectorizes)."""
    d = 0.0
    h = 0.0
    for i in range(F.shape[1]):
        d1, d2 = _dispatch.derivatives(loss, (scale * F[0, i] + c,), t[i])
        d += d1
        h += d2
    return d, h


@jit
def newton_bias(loss, t, F, scale, b):
    """The free bias of a smooth binary loss, from the previous b: a safeguarded Newton's
    method on the mean loss in b (convex, one-dimensional). The derivative is monotone in
    b, so a bracket [lo, hi] around its zero is kept: a Newton step that leaves it (or has
    no curvature, as the logistic loss where every |f| is large) is replaced by bisection,
    or, before the zero is bracketed, by a step that doubles each time, which also bounds
    a Newton step there (a nearly flat loss would send it out by 1e300)."""
    m = F.shape[1]
    lo, hi = -np.inf, np.inf
    x = b[0]
    span = 1.0
    for _ in range(200):
        d, h = _bias_derivatives(loss, t, F, scale, x)
        if abs(d) <= 1e-12 * m:
            break
        if d > 0.0:
            hi = x
        else:
            lo = x
        nx = x - d / h if h > 1e-300 else np.nan
        bracketed = lo > -np.inf and hi < np.inf
        if not (nx > lo and nx < hi):
            if bracketed:
                nx = 0.5 * (lo + hi)
            else:
                nx = x - span if d > 0.0 else x + span
                span *= 2.0
        elif not bracketed and abs(nx - x) > span:  # (a near-flat loss: a step to 1e300)
            nx = x - span if d > 0.0 else x + span
            span *= 2.0
        if abs(nx - x) <= 1e-13 * (1.0 + abs(x)):
            x = nx
            break
        x = nx
    b[0] = x


@jit
def descent_bias(loss, y, t, F, scale, b, off, step):
    """One full-batch subgradient step on a multiclass free bias b (scale·F: the scores
    without it): b += (1/√step) (1/m) Σ_i g_i with g_i = −∂ℓ_i/∂f (exact, all examples);
    the step decreases to 0 with an infinite sum, so b follows the minimizer b*(w)."""
    K, m = F.shape
    f = np.empty(K)
    g = np.empty(K)
    acc = np.zeros(K)
    for i in range(m):
        for k in range(K):
            f[k] = scale * F[k, i] + b[k]
        if _dispatch.terms(loss, f, y[i], t[i], off, g) > 0:
            for k in range(K):
                acc[k] += g[k]
    rate = 1.0 / (m * np.sqrt(step))
    for k in range(K):
        b[k] += rate * acc[k]


@jit_inline
def binary_wrong(t, f):
    """1.0 if f predicts the class of sign t wrongly (positive iff f > 0), else 0.0."""
    return 1.0 if t * f < 0.0 or (f == 0.0 and t > 0.0) else 0.0


@jit_inline
def multiclass_wrong(f, yi):
    """1.0 if argmax_k f_k (the first on ties) is not yi, else 0.0."""
    pred = 0
    for k in range(f.shape[0]):
        if f[k] > f[pred]:
            pred = k
    return 1.0 if pred != yi else 0.0


@jit_inline
def tube_side(residual, epsilon):
    """−∂/∂f of max(0, |y − f| − ε) for residual y − f: +1 above the tube, −1 below, else 0."""
    if residual > epsilon:
        return 1.0
    if residual < -epsilon:
        return -1.0
    return 0.0


@jit
def sum_single(loss, y, t, F, scale, b, off):
    """(Σ_i ℓ_i, Σ_i wrong_i) of the scores scale·F + b of a loss of one output, one
    example at a time: the score goes to the loss's ``value`` as a 1-tuple, not through an
    array (a store and a load per example), so the loop vectorizes. (A multiclass loss sums
    its own a class at a time, with :func:`true_scores` and :func:`first_so_far`.)"""
    m = F.shape[1]
    total = 0.0
    wrong = 0.0
    for i in range(m):
        v, e = _dispatch.value(loss, (scale * F[0, i] + b[0],), y[i], t[i], off)
        total += v
        wrong += e
    return total, wrong


@jit
def true_scores(y, F, scale, b):
    """fy_i = scale·F[y_i, i] + b[y_i], a class at a time: a select per class, which the
    compiler vectorizes, rather than the gather F[y_i, i]."""
    K, m = F.shape
    fy = np.zeros(m)
    for k in range(K):
        for i in range(m):
            f = scale * F[k, i] + b[k]
            fy[i] = f if y[i] == k else fy[i]
    return fy


@jit_inline
def first_so_far(f, fy, k, yi):
    """Whether y_i is still the first argmax (as :func:`multiclass_wrong`) after class k
    of score f, fy its own: f below fy, or equal to it from class y_i on. For a loss's
    telemetry summed a class at a time (the product over k is 1 when y_i is predicted)."""
    return (f < fy) | ((f == fy) & (k >= yi))


@jit_inline
def margin_cost(loss, yi, k):
    """Δ(y_i, k) of a multiclass hinge's parameters (``cost``, ``zero_one``): 1 − [k = y_i]
    when Δ is 0-1, a select, which the compiler vectorizes (the gather cost[y_i, k] it
    does not), else the matrix's."""
    return (1.0 if yi != k else 0.0) if loss.zero_one else loss.cost[yi, k]


# Parts that loss modules share (``totals = _common.single_totals`` for a loss of one
# output: the telemetry summed one example at a time) and no objective term in the offsets
# alone.
@plain
def single_totals(loss, y, t, F, scale, b, off):
    return sum_single(loss, y, t, F, scale, b, off)


@plain
def offset_term(loss, off):
    return 0.0
