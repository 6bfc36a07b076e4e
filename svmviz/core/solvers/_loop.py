"""The inner loop shared by every iterative solver: mini-batch stochastic subgradient steps.

One loop covers the update rules of the source texts (file names of ../shared/seeds):

* SGD on the hinge loss, 004 "Gradient for Hinge Loss": if y θ·x < 1 then θ += η y x, else
  no update; with λ > 0 the regularizer adds the shrink θ ← (1 − ηλ)θ.
* Full-batch subgradient descent, 001 "Subgradient Descent S-SVM Training": the batch is the
  whole training set, w ← w − η_t(λw + (1/m) Σ_n v^n).
* Multiclass SGD, 000 "SGD for Multiclass Learning" and 001 "Stochastic SbGD for the MC case":
  ŷ = argmax_y' Δ(y', y) + ⟨w, Ψ(x, y') − Ψ(x, y)⟩, v = Ψ(x, ŷ) − Ψ(x, y), w ← w − ηv
  (with Ψ stacking x into block y, v touches only the rows w_ŷ and w_y).
* Pegasos, 002, η_t = 1/(λt); in the form of 003 "SGD for Solving Soft-SVM with Kernels":
  β_i += y_i when y_i Σ_j α_j K(x_j, x_i) < 1 and α = β/(λt); the step η = 1/(λ(t+1))
  turns α⁽ᵗ⁾ into α⁽ᵗ⁺¹⁾ exactly.

Representation. Linear models keep w explicitly (K×p) and compute scores on the fly; kernel
models keep 003's coefficients α on the training points and the training scores Kα. Both are
stored multiplied by one scale σ, so the shrink (1 − ηλ) costs O(1); a violating example
costs O(p) (linear) or one Gram column, O(m) (kernel). The averaged output is kept in w-space
for linear models (O(p) a step) and as averaged coefficients and scores for kernel models.
The full-data objective of the output model is exact at every iteration: one O(mK) pass,
or, for linear binary models, a screened evaluation (:mod:`._screen`) that looks only at the
points whose side of the hinge can have changed, a few per iteration once the model settles.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.solvers import _screen
from svmviz.core.solvers._jit import jit, jit_inline

# Schedules (η_t at step t = 1, 2, ...)
CONSTANT, INV_T, INV_SQRT_T, PEGASOS = 0, 1, 2, 3
# Averages (which iterate is the output)
LAST, UNIFORM, WEIGHTED = 0, 1, 2
# Status codes returned by the loop
RUNNING, DIVERGED = 0, 1
DIVERGENCE_LIMIT = 1e150


@jit_inline
def step_size(schedule, eta0, lam, t):
    if schedule == PEGASOS:
        return 1.0 / (lam * (t + 1.0))
    if schedule == INV_T:
        return eta0 / t
    if schedule == INV_SQRT_T:
        return eta0 / np.sqrt(t)
    return eta0


@jit
def scores_into(linear, PhiT, W, S, scale, out):
    """out[k, j] = f_k(x_j) without bias: W_k·φ_j (linear, PhiT is p×m) or scale·S[k, j]."""
    K, m = out.shape
    for k in range(K):
        o = out[k]
        if linear:
            c = scale * W[k, 0]
            for j in range(m):
                o[j] = c * PhiT[0, j]
            for q in range(1, PhiT.shape[0]):
                c = scale * W[k, q]
                row = PhiT[q]
                for j in range(m):
                    o[j] += c * row[j]
        else:
            srow = S[k]
            for j in range(m):
                o[j] = scale * srow[j]


@jit
def _count_below(y_sign, s, scale, c):
    """#{r < c} for r = y − scale·s; branch-free, so it vectorizes. When it is P, c lies in
    (r_(P), r_(P+1)] and minimizes the loss."""
    below = 0.0
    for j in range(y_sign.shape[0]):
        below += y_sign[j] - scale * s[j] < c
    return int(below)


@jit_inline
def _hinge_and_error(y, f):
    """max(0, 1 − y f) and 1.0 if f predicts wrongly (positive iff f > 0), else 0.0."""
    z = y * f
    h = 1.0 - z
    # wrong iff y f < 0, or f = 0 (predicted negative) for a positive example
    return (h if h > 0.0 else 0.0), (z < 0.0) + (f == 0.0) * (y > 0.0)


@jit_inline
def _dot_at(PhiT, a, j):
    """a·φ_j with the usual widths (2, or 3 with a constant feature) unrolled, so that loops
    over j that call it still vectorize."""
    p = PhiT.shape[0]
    if p == 2:
        return a[0] * PhiT[0, j] + a[1] * PhiT[1, j]
    if p == 3:
        return a[0] * PhiT[0, j] + a[1] * PhiT[1, j] + a[2] * PhiT[2, j]
    acc = 0.0
    for q in range(p):
        acc += a[q] * PhiT[q, j]
    return acc


@jit
def _count_below_linear(y_sign, PhiT, a, c):
    """:func:`_count_below` for the scores a·φ_j, computed on the fly (no score array)."""
    below = 0.0
    for j in range(y_sign.shape[0]):
        below += y_sign[j] - _dot_at(PhiT, a, j) < c
    return int(below)


@jit
def _binary_stats_linear(y_sign, PhiT, a, b):
    """:func:`binary_stats` for f = a·φ_j + b, computed on the fly (no score array)."""
    loss = 0.0
    errors = 0.0
    for j in range(y_sign.shape[0]):
        h, e = _hinge_and_error(y_sign[j], _dot_at(PhiT, a, j) + b)
        loss += h
        errors += e
    return loss, errors


@jit
def profile_bias(y_sign, s, scale, n_pos, r, win):
    """An exact minimizer b of Σ_j max(0, 1 − y_j(s_j + b)) for scores scale·s (no bias).

    The derivative in b is #{j : r_j < b} − P with r_j = y_j − s_j and P positives, so the
    minimizers are the interval [r_(P), r_(P+1)] of the P-th and (P+1)-th smallest r_j.
    The previous answer ``win[0]`` is kept while it is still in that interval (one counting
    pass); otherwise the middle of the new interval is taken (:func:`_profile_search`).
    Inside the interval no hinge is at its kink, so F is differentiable in b there and the
    w-part of its subgradient is a subgradient of min_b F (the profiled objective); the end
    r_(P+1) itself (kept only when a value of r lands exactly on b) is optimal too.
    """
    below = _count_below(y_sign, s, scale, win[0])
    if below == n_pos:
        return win[0]
    return _profile_search(y_sign, s, scale, n_pos, below, r, win)


MAX_SHIFT = 64  # larger shifts (3% in the first epochs of an RBF run): a full selection


@jit
def _nearest_ranks(y_sign, s, scale, c, shift, buf, win):
    """The interval [r_(P), r_(P+1)] for r = y − scale·s when #{r < c} = P + shift: the
    |shift| + 1 values of r nearest c on the side the interval moved to (below c when
    shift > 0, at or above it when shift < 0). A window [c − w, c) (or [c, c + w)) that
    holds enough of them is found by counting (branch-free passes, which vectorize;
    w = win[1] from the last search, widened 4× until it holds enough), then its few values
    are gathered (a branch rarely taken) and the nearest picked. One branchy pass with an
    insertion buffer took 2.5× longer (half the values fall on each side of c: the branch
    is a coin toss). Returns (found, lo, hi); not found when that side holds fewer values.
    """
    m = y_sign.shape[0]
    need = abs(shift) + 1
    w = win[1] if win[1] > 0.0 else 1e-3
    lo_b = hi_b = c
    count = 0
    for _ in range(64):
        lo_b, hi_b = (c - w, c) if shift > 0 else (c, c + w)
        n = 0.0
        for j in range(m):
            v = y_sign[j] - scale * s[j]
            n += (v >= lo_b) * (v < hi_b)
        count = int(n)
        if count >= need or w > 1e300:
            break
        w *= 4.0
    if count < need:
        return False, 0.0, 0.0
    win[1] = w if count <= 8 * need else 0.5 * w  # the next search starts near enough
    nb = 0
    for j in range(m):
        v = y_sign[j] - scale * s[j]
        if v >= lo_b and v < hi_b:
            buf[nb] = v
            nb += 1
    _screen.nearest_first(buf, nb, need, shift)
    if shift > 0:  # r_(P+1) is the shift-th largest below c, r_(P) the (shift+1)-th
        return True, buf[need - 1], buf[need - 2]
    return True, buf[need - 2], buf[need - 1]  # r_(P) the |shift|-th smallest at or above c


@jit
def _select_in_place(a, k):
    """Reorder ``a`` so that a[k] is its (k+1)-th smallest value, smaller or equal values
    before it (Hoare's quickselect). numba's np.partition does the same but takes ~10 s to
    compile on a fresh install, against 0.3 s for this, and runs slower (measured)."""
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


@jit
def _profile_search(y_sign, s, scale, n_pos, below, r, win):
    """The middle of [r_(P), r_(P+1)], given ``below`` = #{r < c} at the old answer c.

    For shifts up to MAX_SHIFT (97% of them in the first epochs of an RBF run, measured) the
    ends are the values nearest c, found in one pass (:func:`_nearest_ranks`); otherwise, or
    when the two ends tie, a full selection (r is scratch).
    """
    c = win[0]
    shift = below - n_pos
    found = False
    lo_v = hi_v = c
    if shift != 0 and abs(shift) <= MAX_SHIFT:
        found, lo_v, hi_v = _nearest_ranks(y_sign, s, scale, c, shift, r, win)
    if not found or not lo_v < hi_v:
        for j in range(y_sign.shape[0]):
            r[j] = y_sign[j] - scale * s[j]
        hi_v = _select_in_place(r, n_pos)
        lo_v = r[0]
        for q in range(1, n_pos):
            lo_v = r[q] if r[q] > lo_v else lo_v
    b = 0.5 * (lo_v + hi_v)
    win[0] = b
    return b


@jit
def binary_stats(y_sign, s, scale, b):
    """(Σ hinge, #errors) of f = scale·s + b; the prediction is positive iff f > 0."""
    loss = 0.0
    errors = 0.0
    for j in range(y_sign.shape[0]):
        h, e = _hinge_and_error(y_sign[j], scale * s[j] + b)
        loss += h
        errors += e
    return loss, errors


@jit
def multiclass_stats(y, cost, F, scale, b):
    """(Σ generalized hinge, #errors) of the scores scale·F + b (argmax prediction)."""
    K, m = F.shape
    loss = 0.0
    errors = 0
    for j in range(m):
        yj = y[j]
        fy = scale * F[yj, j] + b[yj]
        worst = 0.0
        best = -np.inf
        pred = 0
        for k in range(K):
            f = scale * F[k, j] + b[k]
            if f > best:
                best = f
                pred = k
            v = cost[yj, k] + f - fy
            worst = v if v > worst else worst
        loss += worst
        errors += pred != yj
    return loss, errors


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


@jit
def evaluate(binary, y, y_sign, cost, F, scale, b, lam, norm2):
    """Objective, mean loss and 0-1 error of the model with scores scale·F (no bias) and
    bias b."""
    m = F.shape[1]
    if binary:
        loss, errors = binary_stats(y_sign, F[0], scale, b[0])
    else:
        loss, errors = multiclass_stats(y, cost, F, scale, b)
    loss /= m
    return 0.5 * lam * norm2 + loss, loss, errors / m


@jit_inline
def _norm2(linear, W, A, S):
    """‖w‖² of the stored (unscaled) model: Σ_k ‖W_k‖² or Σ_k a_kᵀ G a_k = Σ_k a_k·S_k."""
    total = 0.0
    if linear:
        K, p = W.shape
        for k in range(K):
            for q in range(p):
                total += W[k, q] * W[k, q]
    else:
        K, m = A.shape
        for k in range(K):
            for j in range(m):
                total += A[k, j] * S[k, j]
    return total


@jit_inline
def _score(linear, PhiT, W, S, i, k):
    """f_k(x_i) without bias, unscaled."""
    if linear:
        acc = 0.0
        for q in range(PhiT.shape[0]):
            acc += PhiT[q, i] * W[k, q]
        return acc
    return S[k, i]


@jit_inline
def _set_u(U, row, W, scale, b):
    """U[row] = (scale·W[0], b), a point a screen evaluates at (no slices: a view made in
    the loop costs reference-count operations)."""
    p = W.shape[1]
    for c in range(p):
        U[row, c] = scale * W[0, c]
    U[row, p] = b


@jit_inline
def _screened_bias(Z, zn, y_sign, PhiT, W, S, F, sigma, n_pos, r, win, U, P1, S1, st1, buckets):
    """The exact free bias of the iterate σW, from screen 1 (:mod:`._screen`): the old b is
    kept when #{r < b} is still P; else the new interval from the screened points, checked
    by a screened count; else the full search. U's last row is the work row."""
    u1 = U[U.shape[0] - 1]
    _set_u(U, U.shape[0] - 1, W, sigma, win[0])
    count = _screen.evaluate(u1, P1, S1, st1)[2]
    if count < 0.0:
        count = _screen.anchor(Z, zn, y_sign, u1, P1, S1, st1, buckets)[2]
    below = int(count)
    if below == n_pos:
        return win[0]
    found, lo_v, hi_v = _screen.bias_interval(u1, P1, S1, st1, below - n_pos, r)
    if found:
        u1[u1.shape[0] - 1] = 0.5 * (lo_v + hi_v)
        found = _screen.evaluate(u1, P1, S1, st1)[2] == n_pos
    if found:
        win[0] = u1[u1.shape[0] - 1]
        return win[0]
    scores_into(True, PhiT, W, S, sigma, F)
    return _profile_search(y_sign, F[0], 1.0, n_pos, below, r, win)


@jit
def _finish_screened(Z, zn, y_sign, U, done, sc_P, sc_S, sc_st, buckets, out_obj, out_loss,
                     out_err):  # fmt: skip
    """Add the loss and errors of the output models recorded in U[:done] (screen 0) to the
    telemetry, as means."""
    m = y_sign.shape[0]
    _screen.evaluate_many(Z, zn, y_sign, U[:done], sc_P[0], sc_S[0], sc_st[0], buckets,
                          out_loss, out_err)  # fmt: skip
    for it in range(done):
        lo = out_loss[it] / m
        out_obj[it] += lo
        out_loss[it] = lo
        out_err[it] /= m


@jit
def run_linear_binary(
    t0, n, free_bias, lam, schedule, eta0, average, radius, idx, y_sign, PhiT,
    A, W, b, Wbar, bbar, scal, F, r, win,
    out_obj, out_loss, out_err, out_norm, out_viol, out_flags,
    Z, zn, sc_P, sc_S, sc_st, buckets, U,
):  # fmt: skip
    """:func:`run` for one linear binary example a step (SGD, Pegasos): the same rule and
    the same numbers (operation for operation, tested equal), written for this case alone
    with the telemetry screened: 25 ns an iteration against 150 for the general loop, whose
    generality (batches, classes, kernels) costs more than the step itself (measured)."""
    m = y_sign.shape[0]
    p = W.shape[1]
    n_pos = 0
    for j in range(m):
        n_pos += y_sign[j] > 0
    P1, S1, st1 = sc_P[1], sc_S[1], sc_st[1]
    done, status = n, RUNNING
    sigma = scal[0]
    for it in range(n):
        t = t0 + it + 1
        eta = step_size(schedule, eta0, lam, t)
        if average != LAST:  # fold (w^(t), b^(t)) into the output, as run does
            rho = 1.0 / t if average == UNIFORM else 2.0 / (t + 1.0)
            keep = 1.0 - rho
            bbar[0] = keep * bbar[0] + rho * b[0]
            nb = 0.0
            for q in range(p):
                v = keep * Wbar[0, q] + rho * sigma * W[0, q]
                Wbar[0, q] = v
                nb += v * v
                U[it, q] = v
            U[it, p] = bbar[0]
            out_obj[it] = 0.5 * lam * nb
            out_norm[it] = np.sqrt(max(nb, 0.0))
        # does the example violate at w^(t) (004 Case II)
        i = idx[it, 0]
        acc = 0.0
        for q in range(p):
            acc += PhiT[q, i] * W[0, q]
        z = y_sign[i] * (sigma * acc + b[0])
        sigma *= 1.0 - eta * lam
        if abs(sigma) < 1e-100:  # fold the scale into the arrays before it underflows
            W *= sigma
            A *= sigma
            sigma = 1.0
        if z < 1.0:
            out_flags[it, 0] = True
            out_viol[it] = 1
            delta = y_sign[i] * eta / sigma
            A[0, i] += delta
            for q in range(p):
                W[0, q] += delta * PhiT[q, i]
        else:
            out_viol[it] = 0
        stored_norm2 = 0.0
        for q in range(p):
            stored_norm2 += W[0, q] * W[0, q]
        norm2 = sigma * sigma * stored_norm2
        if radius > 0.0 and norm2 > radius * radius:  # projection (002)
            sigma *= radius / np.sqrt(norm2)
            norm2 = radius * radius
        scal[0] = sigma
        if free_bias:
            b[0] = _screened_bias(Z, zn, y_sign, PhiT, W, W, F, sigma, n_pos, r, win,
                                  U, P1, S1, st1, buckets)  # fmt: skip
        if average == LAST:
            _set_u(U, it, W, sigma, b[0])
            out_obj[it] = 0.5 * lam * norm2
            out_norm[it] = np.sqrt(max(norm2, 0.0))
        if not (np.isfinite(out_obj[it]) and abs(norm2) < DIVERGENCE_LIMIT):
            done, status = it + 1, DIVERGED
            break
    _finish_screened(Z, zn, y_sign, U, done, sc_P, sc_S, sc_st, buckets, out_obj, out_loss,
                     out_err)  # fmt: skip
    return done, status


@jit
def run(
    t0, n, binary, linear, free_bias, lam, schedule, eta0, average, radius,
    idx, y, y_sign, cost, PhiT, G,
    A, W, S, b, Abar, Wbar, Sbar, bbar, scal, F, r, win,
    out_obj, out_loss, out_err, out_norm, out_viol, out_flags,
    screened, Z, zn, sc_P, sc_S, sc_st, buckets, U,
):  # fmt: skip
    """Advance ``n`` iterations from iteration ``t0``; record the output model's telemetry.

    State (updated in place): W (K×p) linear weights or A (K×m) kernel coefficients and S (K×m)
    kernel training scores, all times the scale ``scal[0]``; ``b`` (K) the free bias; the
    averaged model in Wbar or Abar and Sbar (unscaled), and bbar. ``idx`` (n×k) holds the
    sampled examples (k = 0: the full batch, GD).
    PhiT (p×m) holds the features, G (m×m) the Gram matrix; F (K×m) and r (m) are work
    buffers; win[0] is the previous exact b, win[1] the window of its last search.
    ``screened`` (linear binary problems): the output model's loss and errors, and the count
    that checks the exact b, come from two screens (:mod:`._screen`, state sc_P, sc_S, sc_st:
    screen 0 follows the output model, screen 1 the iterate with the previous b), over
    Z = y(φ, 1) with norms zn; U (n+1)×(p+1) records the output model of each iteration for
    screen 0, which evaluates them all after the loop; U[n] is a work row for screen 1.
    Returns (iterations done, status).
    """
    m = y.shape[0]
    K = b.shape[0]
    full = idx.shape[1] == 0
    batch = m if full else idx.shape[1]
    n_pos = 0
    for j in range(m):
        n_pos += y_sign[j] > 0
    upd = np.empty(batch, dtype=np.int64)
    members = np.empty(batch, dtype=np.int64)
    delta_w = np.zeros(W.shape)
    # kernel: αᵀKα of the stored (unscaled) coefficients, kept up to date as single α_i change
    # (‖w + δφ_i‖² = ‖w‖² + 2δ⟨w, φ_i⟩ + δ²K_ii, with ⟨w, φ_i⟩ the kept score); recomputed
    # exactly every m iterations so that rounding does not accumulate
    stored_norm2 = _norm2(linear, W, A, S)
    P1, S1, st1 = sc_P[1], sc_S[1], sc_st[1]  # screen 1's views, made once
    done, status = n, RUNNING
    Fc = F if linear else S  # the current iterate's scores (assigned once: no refcounting)
    for it in range(n):
        t = t0 + it + 1
        eta = step_size(schedule, eta0, lam, t)
        sigma = scal[0]
        # --- averaging: fold (w^(t), b^(t)) into the output (003: ᾱ = (1/T) Σ_t α^(t); or
        # t-weighted). The average of the exact biases goes with w̄: F is jointly convex, so
        # F(w̄, b̄) ≤ Σ_t ρ_t F(w^(t), b^(t)), the bound the averaging guarantees rely on.
        if average != LAST:
            rho = 1.0 / t if average == UNIFORM else 2.0 / (t + 1.0)
            keep = 1.0 - rho
            for k in range(K):
                bbar[k] = keep * bbar[k] + rho * b[k]
            if linear:
                for k in range(K):
                    for q in range(W.shape[1]):
                        Wbar[k, q] = keep * Wbar[k, q] + rho * sigma * W[k, q]
                nb = _norm2(True, Wbar, Abar, Sbar)
            else:
                nb = 0.0
                rs = rho * sigma
                for k in range(K):
                    sb = Sbar[k]
                    ab = Abar[k]
                    sk = S[k]
                    ak = A[k]
                    for j in range(m):
                        sb[j] = keep * sb[j] + rs * sk[j]
                        ab[j] = keep * ab[j] + rs * ak[j]
                        nb += ab[j] * sb[j]
            if screened:  # the loss and errors are added after the loop
                _set_u(U, it, Wbar, 1.0, bbar[0])
                lo = er = 0.0
                o = 0.5 * lam * nb
            elif linear and binary:
                lo, er = _binary_stats_linear(y_sign, PhiT, Wbar[0], bbar[0])
                lo /= m
                er /= m
                o = 0.5 * lam * nb + lo
            else:
                if linear:
                    scores_into(True, PhiT, Wbar, Sbar, 1.0, F)
                o, lo, er = evaluate(binary, y, y_sign, cost, F if linear else Sbar, 1.0, bbar,
                                     lam, nb)  # fmt: skip
            out_obj[it] = o
            out_loss[it] = lo
            out_err[it] = er
            out_norm[it] = np.sqrt(max(nb, 0.0))
        # --- which batch members violate, at w^(t) (004 Case II; 000's argmax ŷ)
        nviol = 0
        for rr in range(batch):
            i = rr if full else idx[it, rr]
            members[rr] = i
            upd[rr] = -1
            if binary:
                z = y_sign[i] * (sigma * _score(linear, PhiT, W, S, i, 0) + b[0])
                if z < 1.0:
                    upd[rr] = 0
            else:
                yi = y[i]
                fy = sigma * _score(linear, PhiT, W, S, i, yi) + b[yi]
                best = 0.0
                for k in range(K):
                    if k != yi:
                        v = cost[yi, k] + sigma * _score(linear, PhiT, W, S, i, k) + b[k] - fy
                        if v > best:
                            best = v
                            upd[rr] = k
            if upd[rr] >= 0:
                nviol += 1
                if not full:
                    out_flags[it, rr] = True
        out_viol[it] = nviol
        # --- the update: shrink by (1 − ηλ), then add η/k times each subgradient term
        sigma *= 1.0 - eta * lam
        if abs(sigma) < 1e-100:  # fold the scale into the arrays before it underflows
            W *= sigma
            A *= sigma
            S *= sigma
            stored_norm2 *= sigma * sigma
            sigma = 1.0
        step = eta / batch
        if linear:
            for k in range(K):
                for q in range(W.shape[1]):
                    delta_w[k, q] = 0.0
        for rr in range(batch):
            if upd[rr] < 0:
                continue
            i = members[rr]
            for u in range(1 if binary else 2):
                if binary:
                    k = 0
                    coef = y_sign[i]
                elif u == 0:
                    k = y[i]
                    coef = 1.0
                else:
                    k = upd[rr]
                    coef = -1.0
                delta = coef * step / sigma
                A[k, i] += delta
                if linear:
                    for q in range(W.shape[1]):
                        delta_w[k, q] += delta * PhiT[q, i]
                else:
                    sk = S[k]
                    stored_norm2 += delta * (2.0 * sk[i] + delta * G[i, i])
                    gi = G[i]  # G is symmetric: row i is column i, contiguous
                    for j in range(m):
                        sk[j] += delta * gi[j]
        if linear:
            for k in range(K):
                for q in range(W.shape[1]):
                    W[k, q] += delta_w[k, q]
            stored_norm2 = _norm2(True, W, A, S)  # O(Kp)
        elif t % m == 0:
            stored_norm2 = _norm2(False, W, A, S)
        norm2 = sigma * sigma * stored_norm2
        # --- projection onto the ball ‖w‖ ≤ radius (002, projected gradient)
        if radius > 0.0 and norm2 > radius * radius:
            sigma *= radius / np.sqrt(norm2)
            norm2 = radius * radius
        scal[0] = sigma
        # the current iterate's scores: F (linear, computed when needed) or σ·S (kernel, kept)
        cscale = 1.0 if linear else sigma
        fresh = False
        if linear and ((average == LAST and not screened) or (free_bias and not binary)):
            scores_into(True, PhiT, W, S, sigma, F)
            fresh = True
        if free_bias:
            if binary:
                if screened:
                    b[0] = _screened_bias(Z, zn, y_sign, PhiT, W, S, F, sigma, n_pos, r, win,
                                          U, P1, S1, st1, buckets)  # fmt: skip
                elif linear and not fresh:  # check the old b without a score array
                    below = _count_below_linear(y_sign, PhiT, sigma * W[0], win[0])
                    if below != n_pos:
                        scores_into(True, PhiT, W, S, sigma, F)
                        b[0] = _profile_search(y_sign, F[0], 1.0, n_pos, below, r, win)
                else:
                    b[0] = profile_bias(y_sign, Fc[0], cscale, n_pos, r, win)
            else:
                bias_descent(y, cost, Fc, cscale, b, t)
        if average == LAST and screened:  # the loss and errors are added after the loop
            _set_u(U, it, W, sigma, b[0])
            out_obj[it] = 0.5 * lam * norm2
            out_norm[it] = np.sqrt(max(norm2, 0.0))
        elif average == LAST:
            o, lo, er = evaluate(binary, y, y_sign, cost, Fc, cscale, b, lam, norm2)
            out_obj[it] = o
            out_loss[it] = lo
            out_err[it] = er
            out_norm[it] = np.sqrt(max(norm2, 0.0))
        if not (np.isfinite(out_obj[it]) and abs(norm2) < DIVERGENCE_LIMIT):
            done, status = it + 1, DIVERGED
            break
    if screened:
        _finish_screened(Z, zn, y_sign, U, done, sc_P, sc_S, sc_st, buckets, out_obj, out_loss,
                         out_err)  # fmt: skip
    return done, status
