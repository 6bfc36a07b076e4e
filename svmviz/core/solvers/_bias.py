"""The free bias b: exact for binary problems (profiled out), a subgradient step for
multiclass ones.

Binary: after every step b is a minimizer of Σ_j max(0, 1 − y_j(f_j + b)) for the current
w (see :mod:`.iterative`, bias modes), found from the previous one by counting, by the
screens of :mod:`._screen` (linear models) or by a selection.
"""

from __future__ import annotations

import numpy as np

from svmviz.core._jit import jit, jit_inline
from svmviz.core.solvers import _screen, _stats


@jit
def _count_below(y_sign, s, scale, c):
    """#{r < c} for r = y − scale·s; branch-free, so it vectorizes. When it is P, c lies in
    (r_(P), r_(P+1)] and minimizes the loss."""
    below = 0.0
    for j in range(y_sign.shape[0]):
        below += y_sign[j] - scale * s[j] < c
    return int(below)


@jit
def count_below_linear(y_sign, PhiT, a, c):
    """:func:`_count_below` for the scores a·φ_j (a's first p entries), computed on the fly
    (no score array)."""
    below = 0.0
    for j in range(y_sign.shape[0]):
        below += y_sign[j] - _stats.dot_at(PhiT, a, j) < c
    return int(below)


@jit
def profile_bias(y_sign, s, scale, n_pos, r, win):
    """An exact minimizer b of Σ_j max(0, 1 − y_j(s_j + b)) for scores scale·s (no bias).

    The derivative in b is #{j : r_j < b} − P with r_j = y_j − s_j and P positives, so the
    minimizers are the interval [r_(P), r_(P+1)] of the P-th and (P+1)-th smallest r_j.
    The previous answer ``win[0]`` is kept while it is still in that interval (one counting
    pass); otherwise the middle of the new interval is taken (:func:`profile_search`).
    Inside the interval no hinge is at its kink, so F is differentiable in b there and the
    w-part of its subgradient is a subgradient of min_b F (the profiled objective); the end
    r_(P+1) itself (kept only when a value of r lands exactly on b) is optimal too.
    """
    below = _count_below(y_sign, s, scale, win[0])
    if below == n_pos:
        return win[0]
    return profile_search(y_sign, s, scale, n_pos, below, r, win)


MAX_SHIFT = 256  # larger shifts (rare, early in a run): a full selection


@jit
def _nearest_ranks(y_sign, s, scale, c, shift, buf, win):
    """The interval [r_(P), r_(P+1)] for r = y − scale·s when #{r < c} = P + shift: the
    |shift| + 1 values of r nearest c on the side the interval moved to (below c when
    shift > 0, at or above it when shift < 0). The values in a window [c − w, c) (or
    [c, c + w)) are gathered, w = win[1] from the last search, widened 4× until it holds
    enough, and the two nearest selected. The gathering is branch-free (each value written,
    kept when inside): a branch would mispredict, half the values falling on each side of
    each end. Returns (found, lo, hi); not found when that side holds fewer values.
    """
    m = y_sign.shape[0]
    need = abs(shift) + 1
    w = win[1] if win[1] > 0.0 else 1e-3
    nb = 0
    for _ in range(64):
        lo_b, hi_b = (c - w, c) if shift > 0 else (c, c + w)
        nb = 0
        for j in range(m):
            v = y_sign[j] - scale * s[j]
            buf[nb] = v
            nb += (v >= lo_b) & (v < hi_b)
        if nb >= need or w > 1e300:
            break
        w *= 4.0
    if nb < need:
        return False, 0.0, 0.0
    win[1] = w if nb <= 8 * need else 0.5 * w  # the next search starts near enough
    near, far = _screen.two_nearest(buf, nb, need, shift)
    if shift > 0:  # r_(P+1) is the shift-th largest below c, r_(P) the (shift+1)-th
        return True, far, near
    return True, near, far  # r_(P) the |shift|-th smallest at or above c


@jit
def profile_search(y_sign, s, scale, n_pos, below, r, win):
    """The middle of [r_(P), r_(P+1)], given ``below`` = #{r < c} at the old answer c.

    For shifts up to MAX_SHIFT (most of them) the ends are the values nearest c, found in
    one pass (:func:`_nearest_ranks`); otherwise, or when the two ends tie, a full selection
    (r is scratch of at least m).
    """
    c = win[0]
    shift = below - n_pos
    found = False
    lo_v = hi_v = c
    if shift != 0 and abs(shift) <= MAX_SHIFT:
        found, lo_v, hi_v = _nearest_ranks(y_sign, s, scale, c, shift, r, win)
    if not found or not lo_v < hi_v:
        m = y_sign.shape[0]
        for j in range(m):
            r[j] = y_sign[j] - scale * s[j]
        hi_v = _screen.select_in_place(r[:m], n_pos)
        lo_v = r[0]
        for q in range(1, n_pos):
            lo_v = r[q] if r[q] > lo_v else lo_v
    b = 0.5 * (lo_v + hi_v)
    win[0] = b
    return b


@jit
def bias_descent(y, cost, F, scale, b, t):
    """One full-batch subgradient step on the free multiclass bias b (scale·F: the scores
    without bias).

    g(b) = (1/m) Σ_i max_y' [Δ(y', y_i) + f_y'(x_i) − f_{y_i}(x_i)] is piecewise linear in b;
    its subgradient (1/m) Σ_i (e_ŷ_i − e_y_i) is exact (all examples, no sampling noise), and
    the step 1/√t decreases to 0 with Σ = ∞, so b follows the minimizer b*(w) of the loss.
    The loss does not change when all b_k shift together, and Σ_k b_k stays 0.
    """
    K, m = F.shape
    g = np.zeros(K)
    for i in range(m):
        yi = y[i]
        fy = scale * F[yi, i] + b[yi]
        best = 0.0
        yhat = yi
        for k in range(K):
            if k != yi:
                v = cost[yi, k] + scale * F[k, i] + b[k] - fy
                if v > best:
                    best = v
                    yhat = k
        if yhat != yi:
            g[yhat] += 1.0
            g[yi] -= 1.0
    step = 1.0 / (m * np.sqrt(t))
    for k in range(K):
        b[k] -= step * g[k]


@jit_inline
def screen_one(pb, st, wk):
    """The arrays the bias of a linear binary iterate is found with (bundles of
    :mod:`._state`), taken out once per run: screen 1's state is a view."""
    P1, S1, st1 = wk.sc_P[1], wk.sc_S[1], wk.sc_st[1]
    return (
        pb.y_sign,
        pb.PhiT,
        pb.Z,
        pb.zn,
        st.W,
        st.win,
        wk.F,
        wk.r,
        wk.U,
        P1,
        S1,
        st1,
        wk.buckets,
    )


MAX_BUDGET = 8.0  # anchors' worth of full counts an anchor is put off at most


@jit_inline
def screened_bias(screen1, sigma, n_pos):
    """The exact free bias of the iterate σW, from screen 1 (:mod:`._screen`): the old b is
    kept when #{r < b} is still P; else the new interval from the screened points, checked
    by a screened count; else the full search. U's last row is the work row.

    When the screen asks for its first anchor, or for a new one after one that served fewer
    than ANCHOR_COST evaluations, #{r < b} is counted in full instead until those counts
    have cost a budget of anchors (ski rental; the budget doubles while anchors serve so
    few, and is none once one serves more): early in a run w moves so far a step that an
    anchor would be spent on nearly every step, at ANCHOR_COST counts each or more."""
    y_sign, PhiT, Z, zn, W, win, F, r, U, P1, S1, st1, buckets = screen1
    u1 = U[U.shape[0] - 1]
    _stats.set_u(U, U.shape[0] - 1, W, sigma, win[0])
    count = _screen.evaluate(u1, P1, S1, st1)[2]
    q = u1.shape[0]
    screened = True  # (else the screen's anchor is stale: its interval search would be too)
    if count >= 0.0:
        st1[q + _screen.SERVED] += 1.0
    else:
        m = y_sign.shape[0]
        budget = st1[q + _screen.BUDGET]
        if st1[q + _screen.WAITED] < _screen.ANCHOR_COST * m * budget:
            st1[q + _screen.WAITED] += m
            count = count_below_linear(y_sign, PhiT, u1, win[0])  # (u1 = (σW, b))
            screened = False
        else:
            short = st1[q + _screen.SERVED] < _screen.ANCHOR_COST
            st1[q + _screen.BUDGET] = min(max(2.0 * budget, 1.0), MAX_BUDGET) if short else 0.0
            st1[q + _screen.WAITED] = 0.0
            st1[q + _screen.SERVED] = 0.0
            count = _screen.anchor(Z, zn, y_sign, u1, P1, S1, st1, buckets)[2]
    below = int(count)
    if below == n_pos:
        return win[0]
    found = False
    lo_v = hi_v = 0.0
    if screened:
        found, lo_v, hi_v = _screen.bias_interval(u1, P1, S1, st1, below - n_pos, r)
    if found:
        u1[u1.shape[0] - 1] = 0.5 * (lo_v + hi_v)
        found = _screen.evaluate(u1, P1, S1, st1)[2] == n_pos
    if found:
        win[0] = u1[u1.shape[0] - 1]
        return win[0]
    _stats.scores_into(True, PhiT, W, W, sigma, F)
    return profile_search(y_sign, F[0], 1.0, n_pos, below, r, win)


@jit
def checked_bias(y_sign, PhiT, W, F, sigma, n_pos, r, win):
    """The exact free bias of a linear binary iterate σW without screens and without a
    score array: the old b, checked by counting, else a search (F receives the scores)."""
    below = count_below_linear(y_sign, PhiT, sigma * W[0], win[0])
    if below == n_pos:
        return win[0]
    _stats.scores_into(True, PhiT, W, W, sigma, F)
    return profile_search(y_sign, F[0], 1.0, n_pos, below, r, win)
