"""Exact hinge statistics of a linear binary model in far fewer than m operations an
iteration, by screening: only the points whose side of a threshold can have changed are
looked at.

For u = (w, b) and ζ_j = y_j(φ_j, 1), the margin of point j is g_j(u) = u·ζ_j, and
everything the telemetry needs is decided by the side of g_j relative to 1 and 0:

* hinge: Σ_j max(0, 1 − g_j) = Σ over active points (g_j < 1) of 1 − g_j
  = n_A − u·Σ_A ζ_j, so over a set of points whose activity is known it costs O(p);
* errors: #{g_j < 0} (and g_j = 0 with y_j > 0, the tie rule of the loop);
* for the exact free bias (:func:`svmviz.core.solvers._bias.profile_bias`), #{r_j < c} with
  r_j = y_j − w·φ_j: at u = (w, c), r_j < c ⇔ g_j > 1 for y_j > 0 and g_j < 1 for y_j < 0.

At an *anchor* u₀ every point's distance to the nearer threshold, in u-space, is
ρ_j = min(|g_j(u₀) − 1|, |g_j(u₀)|) / ‖ζ_j‖. Since |g_j(u) − g_j(u₀)| ≤ ‖u − u₀‖ ‖ζ_j‖
(Cauchy–Schwarz), a point with ρ_j > δ = ‖u − u₀‖ is on the same sides at u as at u₀. The
anchor sorts the points into buckets of ρ (powers of two, a counting sort: O(m)) and keeps,
per bucket and above, the counts and Σζ of the active points; an evaluation computes the
points of the buckets that can hold ρ_j ≤ δ one by one (they are first, contiguous), and
the rest from those sums. The result is the exact statistic, up to rounding (the sums are
the same numbers added in another order).

The anchor moves to the current u when the points computed one by one since the last anchor
add up to ANCHOR_COST anchors' worth (a ski-rental rule: never worse than twice the better of
"re-anchor every time" and "never re-anchor", and O(few) per iteration once the model
settles, since a converging u moves less and less).

The telemetry of the output model does not feed back into the algorithm, so the loop only
records u per iteration and :func:`evaluate_many` screens them all in one call afterwards
(a call of a compiled function with many arrays costs ~60 ns in reference counting, more
than a screened evaluation itself); the bias check does feed back and calls
:func:`evaluate` each iteration, with three arrays.

State of one screen, three arrays (so that the compiled loop can carry several):
``P`` (q+1, m): the ζ_j in bucket order, then their labels y_j; ``S`` (NB+1, 4+q): per
bucket and above, #active, #errors, #(r < c), where the bucket starts in P, then Σ_A ζ;
``st`` (q+7): the anchor u₀, then the work since the anchor, whether it is anchored,
(for measuring) the anchors so far and the points computed one by one so far; and, for
the bias check (:func:`svmviz.core.solvers._bias.screened_bias`), the points counted in
full while an anchor is put off, how many anchors' worth it may be put off, and the
evaluations the last anchor served.
"""

from __future__ import annotations

import math

import numpy as np

from svmviz.core._jit import jit, jit_inline

NB = 64  # buckets of ρ: 0 holds ρ < 2^LOW (and 0), b ≥ 1 holds [2^(b−1+LOW), 2^(b+LOW))
LOW = -48
ANCHOR_COST = 8.0  # an anchor costs about this many one-by-one evaluations per point
SLACK = 1e-9  # δ is enlarged by this relative amount against rounding
# columns of S, and entries of st after u₀
ACTIVE, ERRORS, BELOW, START, SUMS = 0, 1, 2, 3, 4
WORK, ANCHORED, ANCHORS, EXPLICIT, WAITED, BUDGET, SERVED = 0, 1, 2, 3, 4, 5, 6


def allocate(q: int, m: int, copies: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The state (P, S, st) of ``copies`` screens over m points in q dimensions."""
    st = np.zeros((copies, q + 7))
    st[:, q + BUDGET] = 1.0  # (the first anchor is put off: see _bias.screened_bias)
    return np.zeros((copies, q + 1, m)), np.zeros((copies, NB + 1, SUMS + q)), st


def features(PhiT, y_sign):
    """ζ_j = y_j(φ_j, 1) as a (p+1)×m array, and ‖ζ_j‖."""
    p, m = PhiT.shape
    Z = np.empty((p + 1, m))
    Z[:p] = PhiT * y_sign
    Z[p] = y_sign
    return Z, np.sqrt(np.sum(Z * Z, axis=0))


@jit_inline
def _dot_at(u, Z, j):
    """u·Z[:q, j] for q = len(u), unrolled for the usual widths (3: w and b; 4: with a
    constant feature) so that loops over j still vectorize."""
    q = u.shape[0]
    if q == 3:
        return u[0] * Z[0, j] + u[1] * Z[1, j] + u[2] * Z[2, j]
    if q == 4:
        return u[0] * Z[0, j] + u[1] * Z[1, j] + u[2] * Z[2, j] + u[3] * Z[3, j]
    acc = 0.0
    for c in range(q):
        acc += u[c] * Z[c, j]
    return acc


@jit_inline
def _bucket(rho):
    """The bucket of ρ ≥ 0, from its binary exponent (ρ = f·2^e with ½ ≤ f < 1: no log)."""
    if rho < 2.0**LOW:
        return 0
    b = math.frexp(rho)[1] - LOW
    return NB - 1 if b > NB - 1 else b


@jit
def anchor(Z, zn, y_sign, u, P, S, st, buckets):
    """Anchor the screen at u; return (Σ hinge, #errors, #(r < c)) at u, computed in full."""
    q, m = Z.shape
    loss = 0.0
    errors = 0.0
    below = 0.0
    S[:] = 0.0
    for j in range(m):
        g = _dot_at(u, Z, j)
        h = 1.0 - g
        d0 = g if g > 0.0 else -g
        d1 = h if h > 0.0 else -h
        b = _bucket((d0 if d0 < d1 else d1) / zn[j])
        buckets[j] = b
        S[b + 1, START] += 1.0
        yj = y_sign[j]
        if g < 1.0:
            loss += h
            S[b, ACTIVE] += 1.0
            for c in range(q):
                S[b, SUMS + c] += Z[c, j]
        if g < 0.0 or (g == 0.0 and yj > 0.0):
            errors += 1.0
            S[b, ERRORS] += 1.0
        if (yj > 0.0 and g > 1.0) or (yj < 0.0 and g < 1.0):
            below += 1.0
            S[b, BELOW] += 1.0
    for b in range(NB):  # bucket b's points occupy [S[b, START], S[b + 1, START])
        S[b + 1, START] += S[b, START]
    fill = np.empty(NB, dtype=np.int64)
    for b in range(NB):
        fill[b] = int(S[b, START])
    for b in range(NB - 1, -1, -1):  # the counts and sums: over buckets b and above
        for c in (ACTIVE, ERRORS, BELOW):
            S[b, c] += S[b + 1, c]
        for c in range(q):
            S[b, SUMS + c] += S[b + 1, SUMS + c]
    for j in range(m):
        pos = fill[buckets[j]]
        fill[buckets[j]] += 1
        for c in range(q):
            P[c, pos] = Z[c, j]
        P[q, pos] = y_sign[j]
    for c in range(q):
        st[c] = u[c]
    st[q + WORK] = 0.0
    st[q + ANCHORED] = 1.0
    st[q + ANCHORS] += 1.0
    return loss, errors, below


@jit_inline
def evaluate(u, P, S, st):
    """(Σ hinge, #errors, #(r < c)) at u, exactly; (−1, −1, −1) when the screen is to be
    anchored first (:func:`anchor`: not anchored yet, or the ski-rental rule says so)."""
    q = u.shape[0]
    m = P.shape[1]
    if st[q + ANCHORED] == 0.0 or st[q + WORK] > ANCHOR_COST * m:
        return -1.0, -1.0, -1.0
    d2 = 0.0
    for c in range(q):
        d = u[c] - st[c]
        d2 += d * d
    k = _bucket(math.sqrt(d2) * (1.0 + SLACK))
    n = int(S[k + 1, START])  # buckets 0..k may hold ρ ≤ δ; the others are safe
    loss = 0.0
    errors = 0.0
    below = 0.0
    for pos in range(n):
        g = _dot_at(u, P, pos)
        h = 1.0 - g
        yj = P[q, pos]
        loss += h if h > 0.0 else 0.0
        errors += (g < 0.0) + (g == 0.0) * (yj > 0.0)
        below += (yj > 0.0) * (g > 1.0) + (yj < 0.0) * (g < 1.0)
    k += 1
    dot = 0.0
    for c in range(q):
        dot += u[c] * S[k, SUMS + c]
    st[q + WORK] += n
    st[q + EXPLICIT] += n
    return loss + S[k, ACTIVE] - dot, errors + S[k, ERRORS], below + S[k, BELOW]


@jit
def evaluate_many(Z, zn, y_sign, U, P, S, st, buckets, out_loss, out_err):
    """out_loss[t], out_err[t] = Σ hinge, #errors at each row u = U[t] (in order)."""
    for t in range(U.shape[0]):
        u = U[t]
        lo, er, _ = evaluate(u, P, S, st)
        if lo < 0.0:
            lo, er, _ = anchor(Z, zn, y_sign, u, P, S, st, buckets)
        out_loss[t] = lo
        out_err[t] = er


@jit
def select_in_place(a, k):
    """Reorder ``a`` so that a[k] is its (k+1)-th smallest value, smaller or equal values
    before it (Hoare's quickselect; numba's np.partition does the same but compiles far
    longer)."""
    lo, hi = 0, a.shape[0] - 1
    while lo < hi:
        pivot = a[(lo + hi) // 2]
        i, j = lo, hi
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                a[i], a[j] = a[j], a[i]
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            break
    return a[k]


FEW_NEAREST = 16  # (need² n compares: beyond, a selection is faster)


@jit
def two_nearest(buf, n, need, shift):
    """The (need − 1)-th and need-th values of buf[:n] nearest c, need ≥ 2: the largest
    when shift > 0 (values below c), the smallest when shift < 0 (at or above c). Up to
    FEW_NEAREST, the need nearest kept in order in one pass (buf needs room for n + need);
    else a selection (O(n)), then the extreme of the part before or after it (buf
    reordered)."""
    a = buf[:n]
    if need <= FEW_NEAREST and n + need <= buf.shape[0]:
        # the need largest of ±a kept in order, in buf[n:n + need], each value passed down
        # by max and min: no branch, where a selection mispredicts
        sign = 1.0 if shift > 0 else -1.0
        top = buf[n : n + need]
        for i in range(need):
            top[i] = -np.inf
        for j in range(n):
            x = sign * a[j]
            for i in range(need):
                t = top[i]
                top[i] = max(t, x)
                x = min(t, x)
        return sign * top[need - 2], sign * top[need - 1]
    if shift > 0:
        k = n - need
        far = select_in_place(a, k)
        near = a[k + 1]
        for j in range(k + 2, n):
            near = a[j] if a[j] < near else near
        return near, far
    k = need - 1
    far = select_in_place(a, k)
    near = a[0]
    for j in range(1, k):
        near = a[j] if a[j] > near else near
    return near, far


@jit
def bias_interval(u, P, S, st, shift, cand):
    """The interval [r_(P), r_(P+1)] of the exact free bias (see
    :func:`svmviz.core.solvers._bias.profile_bias`) from the screened points, given that at
    u = (w, c) there are P + ``shift`` values r_j = y_j − w·φ_j below c. Returns (found, lo,
    hi); not found: it would take more than a quarter of the points, search them all.

    r_j − c = y_j(1 − g_j), and a point of a bucket above the ones computed is at least
    ``gap`` from c (|1 − g_j| ≥ (ρ_j − δ)‖ζ_j‖, and ‖ζ_j‖ ≥ 1). The buckets are computed
    in order, one more at a time, until the |shift| + 1 values nearest c on the side the
    interval moved to are all nearer than the gap: then they are the ranks sought.
    ``cand`` is scratch of length m.
    """
    q = u.shape[0]
    m = P.shape[1]
    if st[q + ANCHORED] == 0.0 or shift == 0:
        return False, 0.0, 0.0
    d2 = 0.0
    for c in range(q):
        d = u[c] - st[c]
        d2 += d * d
    delta = math.sqrt(d2) * (1.0 + SLACK)
    need = abs(shift) + 1
    nc = 0
    done = 0
    kk = _bucket(delta) + 1
    while True:
        if kk >= NB - 1:
            n, gap = m, np.inf
        else:
            n, gap = int(S[kk + 1, START]), 2.0 ** (kk + LOW) - delta
        for pos in range(done, n):
            v = P[q, pos] * (1.0 - _dot_at(u, P, pos))
            if (shift > 0 and v < 0.0) or (shift < 0 and v >= 0.0):
                cand[nc] = v
                nc += 1
        st[q + WORK] += n - done
        st[q + EXPLICIT] += n - done
        done = n
        if nc >= need:
            near, far = two_nearest(cand, nc, need, shift)
            if abs(far) < gap:
                c0 = u[q - 1]
                if shift > 0:
                    return True, c0 + far, c0 + near
                return True, c0 + near, c0 + far
        if n >= m or 4 * n > m:
            return False, 0.0, 0.0
        kk += 1
