"""Exact hinge statistics of a linear binary model in far fewer than m operations an
iteration, by screening: only the points whose side of a threshold can have changed are
looked at.

For u = (w, b) and ζ_j = y_j(φ_j, 1), the margin of point j is g_j(u) = u·ζ_j, and
everything the telemetry needs is decided by the side of g_j relative to 1 and 0:

* hinge: Σ_j max(0, 1 − g_j) = Σ over active points (g_j < 1) of 1 − g_j
  = n_A − u·Σ_A ζ_j, so over a set of points whose activity is known it costs O(p);
* errors: #{g_j < 0} (and g_j = 0 with y_j > 0, the tie rule of the loop).

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
than a screened evaluation itself).

State of one screen, three arrays (so that the compiled loop can carry several):
``P`` (q+1, m): the ζ_j in bucket order, then their labels y_j; ``S`` (NB+1, 4+q): per
bucket and above, #active, #errors, where the bucket starts in P, then Σ_A ζ;
``st`` (q+4): the anchor u₀, then the work since the anchor, whether it is anchored, and
(for measuring) the anchors so far and the points computed one by one so far.
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
ACTIVE, ERRORS, START, SUMS = 0, 1, 2, 3
WORK, ANCHORED, ANCHORS, EXPLICIT = 0, 1, 2, 3


def allocate(q: int, m: int, copies: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The state (P, S, st) of ``copies`` screens over m points in q dimensions."""
    return (
        np.zeros((copies, q + 1, m)),
        np.zeros((copies, NB + 1, SUMS + q)),
        np.zeros((copies, q + 4)),
    )


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
    """Anchor the screen at u; return (Σ hinge, #errors) at u, computed in full."""
    q, m = Z.shape
    loss = 0.0
    errors = 0.0
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
    for b in range(NB):  # bucket b's points occupy [S[b, START], S[b + 1, START])
        S[b + 1, START] += S[b, START]
    fill = np.empty(NB, dtype=np.int64)
    for b in range(NB):
        fill[b] = int(S[b, START])
    for b in range(NB - 1, -1, -1):  # the counts and sums: over buckets b and above
        for c in (ACTIVE, ERRORS):
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
    return loss, errors


@jit_inline
def evaluate(u, P, S, st):
    """(Σ hinge, #errors) at u, exactly; (−1, −1) when the screen is to be
    anchored first (:func:`anchor`: not anchored yet, or the ski-rental rule says so)."""
    q = u.shape[0]
    m = P.shape[1]
    if st[q + ANCHORED] == 0.0 or st[q + WORK] > ANCHOR_COST * m:
        return -1.0, -1.0
    d2 = 0.0
    for c in range(q):
        d = u[c] - st[c]
        d2 += d * d
    k = _bucket(math.sqrt(d2) * (1.0 + SLACK))
    n = int(S[k + 1, START])  # buckets 0..k may hold ρ ≤ δ; the others are safe
    loss = 0.0
    errors = 0.0
    for pos in range(n):
        g = _dot_at(u, P, pos)
        h = 1.0 - g
        yj = P[q, pos]
        loss += h if h > 0.0 else 0.0
        errors += (g < 0.0) + (g == 0.0) * (yj > 0.0)
    k += 1
    dot = 0.0
    for c in range(q):
        dot += u[c] * S[k, SUMS + c]
    st[q + WORK] += n
    st[q + EXPLICIT] += n
    return loss + S[k, ACTIVE] - dot, errors + S[k, ERRORS]


@jit
def evaluate_many(Z, zn, y_sign, U, P, S, st, buckets, out_loss, out_err):
    """out_loss[t], out_err[t] = Σ hinge, #errors at each row u = U[t] (in order)."""
    for t in range(U.shape[0]):
        u = U[t]
        lo, er = evaluate(u, P, S, st)
        if lo < 0.0:
            lo, er = anchor(Z, zn, y_sign, u, P, S, st, buckets)
        out_loss[t] = lo
        out_err[t] = er


@jit_inline
def nearest_first(buf, n, need, shift):
    """Move the ``need`` values of buf[:n] nearest c to the front, nearest first: the
    largest first when shift > 0 (values below c), the smallest when shift < 0 (at or
    above c). A partial selection sort: need is small."""
    for a in range(need):
        best = a
        for j in range(a + 1, n):
            if (shift > 0 and buf[j] > buf[best]) or (shift < 0 and buf[j] < buf[best]):
                best = j
        buf[a], buf[best] = buf[best], buf[a]
