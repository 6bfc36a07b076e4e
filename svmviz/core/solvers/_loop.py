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
The full-data objective of the output model is one O(mK) pass per iteration.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.solvers._jit import jit

# Schedules (η_t at step t = 1, 2, ...)
CONSTANT, INV_T, INV_SQRT_T, PEGASOS = 0, 1, 2, 3
# Averages (which iterate is the output)
LAST, UNIFORM, WEIGHTED = 0, 1, 2
# Status codes returned by the loop
RUNNING, DIVERGED = 0, 1
DIVERGENCE_LIMIT = 1e150


@jit
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
def _rank_window(r, lo, hi):
    """(#r < lo, #r < hi, max of r below lo, min of r at or above hi).

    Written with selects, not max()/min() or branches, so that it vectorizes."""
    below = 0.0
    upto = 0.0
    max_below = -np.inf
    min_above = np.inf
    for j in range(r.shape[0]):
        v = r[j]
        is_below = v < lo
        is_above = v >= hi
        below += is_below
        upto += v < hi
        mb = v if is_below else -np.inf
        ma = v if is_above else np.inf
        max_below = mb if mb > max_below else max_below
        min_above = ma if ma < min_above else min_above
    return int(below), int(upto), max_below, min_above


@jit
def _splits_at(y_sign, s, n_pos, c):
    """True when c lies strictly inside (r_(P), r_(P+1)) for r = y − s: exactly P values of r
    are below c and none equals it. Two branch-free counts, so it vectorizes."""
    below = 0.0
    upto = 0.0
    for j in range(y_sign.shape[0]):
        v = y_sign[j] - s[j]
        below += v < c
        upto += v <= c
    return int(below) == n_pos and int(upto) == n_pos


@jit
def profile_bias(y_sign, s, n_pos, r, cand, win):
    """An exact minimizer b of Σ_j max(0, 1 − y_j(s_j + b)) (s = scores without bias).

    The derivative in b is #{j : r_j < b} − P with r_j = y_j − s_j and P positives, so the
    minimizers are the interval [r_(P), r_(P+1)] of the P-th and (P+1)-th smallest r_j.
    The previous answer ``win[0]`` is kept while it is strictly inside that interval (one
    pass); otherwise the middle of the new interval is taken, its ends found in a window of
    half width ``win[1]`` around the previous answer, or by a full selection. Inside the
    interval no hinge is at its kink, so F is differentiable in b there and the w-part of
    its subgradient is a subgradient of min_b F (the profiled objective).
    """
    centre = win[0]
    if _splits_at(y_sign, s, n_pos, centre):
        return centre
    m = y_sign.shape[0]
    for j in range(m):
        r[j] = y_sign[j] - s[j]
    lo = centre - win[1]
    hi = centre + win[1]
    nb, upto, max_below, min_above = _rank_window(r, lo, hi)
    nc = upto - nb
    a = n_pos - 1  # 0-based ranks of the P-th and (P+1)-th smallest
    if nb - 1 <= a and n_pos <= nb + nc:
        c = 0
        for j in range(m):
            v = r[j]
            if lo <= v < hi:
                cand[c] = v
                c += 1
        cs = np.sort(cand[:nc])
        lo_v = max_below if a == nb - 1 else cs[a - nb]
        hi_v = min_above if n_pos == nb + nc else cs[n_pos - nb]
        if nc > 16:
            win[1] *= 0.5
    else:
        part = np.partition(r, n_pos)
        hi_v = part[n_pos]
        lo_v = part[:n_pos].max()
        win[1] = 2.0 * win[1] + 1e-9
    b = 0.5 * (lo_v + hi_v)
    win[0] = b
    return b


@jit
def binary_stats(y_sign, s, b):
    """(Σ hinge, #errors) of f = s + b; the prediction is positive iff f > 0."""
    loss = 0.0
    errors = 0.0
    for j in range(y_sign.shape[0]):
        f = s[j] + b
        z = y_sign[j] * f
        h = 1.0 - z
        loss += h if h > 0.0 else 0.0
        # wrong iff y f < 0, or f = 0 (predicted negative) for a positive example
        errors += (z < 0.0) + (f == 0.0) * (y_sign[j] > 0.0)
    return loss, errors


@jit
def multiclass_stats(y, cost, F, b):
    """(Σ generalized hinge, #errors) of the scores F + b (argmax prediction)."""
    K, m = F.shape
    loss = 0.0
    errors = 0
    for j in range(m):
        yj = y[j]
        fy = F[yj, j] + b[yj]
        worst = 0.0
        best = -np.inf
        pred = 0
        for k in range(K):
            f = F[k, j] + b[k]
            if f > best:
                best = f
                pred = k
            v = cost[yj, k] + f - fy
            worst = v if v > worst else worst
        loss += worst
        errors += pred != yj
    return loss, errors


@jit
def bias_descent(y, cost, F, b, t):
    """One full-batch subgradient step on the free multiclass bias b (F: scores without bias).

    g(b) = (1/m) Σ_i max_y' [Δ(y', y_i) + f_y'(x_i) − f_{y_i}(x_i)] is piecewise linear in b;
    its subgradient (1/m) Σ_i (e_ŷ_i − e_y_i) is exact (all examples, no sampling noise), and
    the step 1/√t decreases to 0 with Σ = ∞, so b follows the minimizer b*(w) of the loss.
    The loss does not change when all b_k shift together, and Σ_k b_k stays 0.
    """
    K, m = F.shape
    g = np.zeros(K)
    for i in range(m):
        yi = y[i]
        fy = F[yi, i] + b[yi]
        best = 0.0
        yhat = yi
        for k in range(K):
            if k != yi:
                v = cost[yi, k] + F[k, i] + b[k] - fy
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
def evaluate(binary, free_bias, y, y_sign, cost, F, b, n_pos, r, cand, win, lam, norm2):
    """Objective, mean loss and 0-1 error of the model with scores F (no bias) and bias b.
    For a free binary bias, b[0] is first set to its exact optimum for these scores."""
    m = F.shape[1]
    if binary:
        s = F[0]
        if free_bias:
            b[0] = profile_bias(y_sign, s, n_pos, r, cand, win)
        loss, errors = binary_stats(y_sign, s, b[0])
    else:
        loss, errors = multiclass_stats(y, cost, F, b)
    loss /= m
    return 0.5 * lam * norm2 + loss, loss, errors / m


@jit
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


@jit
def _score(linear, PhiT, W, S, i, k):
    """f_k(x_i) without bias, unscaled."""
    if linear:
        acc = 0.0
        for q in range(PhiT.shape[0]):
            acc += PhiT[q, i] * W[k, q]
        return acc
    return S[k, i]


@jit
def run(
    t0, n, binary, linear, free_bias, lam, schedule, eta0, average, radius,
    idx, y, y_sign, cost, PhiT, G,
    A, W, S, b, Abar, Wbar, Sbar, bbar, scal, F, r, win,
    out_obj, out_loss, out_err, out_norm, out_viol, out_flags,
):  # fmt: skip
    """Advance ``n`` iterations from iteration ``t0``; record the output model's telemetry.

    State (updated in place): W (K×p) linear weights or A (K×m) kernel coefficients and S (K×m)
    kernel training scores, all times the scale ``scal[0]``; ``b`` (K) the free bias; the
    averaged model in Wbar or Abar and Sbar (unscaled), and bbar; ``scal[1]`` ‖w‖² of the
    current iterate. ``idx`` (n×k) holds the sampled examples (k = 0: the full batch, GD).
    PhiT (p×m) holds the features, G (m×m) the Gram matrix; F (K×m), r (m) and
    win (2×2) are work buffers. Returns (iterations done, status).
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
    cand = np.empty(m)
    cur_win = win[0]
    out_win = win[1]
    for it in range(n):
        t = t0 + it + 1
        eta = step_size(schedule, eta0, lam, t)
        sigma = scal[0]
        # --- averaging: fold w^(t) into the output (003: ᾱ = (1/T) Σ_t α^(t); or t-weighted)
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
            scores_into(linear, PhiT, Wbar, Sbar, 1.0, F)
            o, lo, er = evaluate(
                binary, free_bias, y, y_sign, cost, F, bbar, n_pos, r, cand, out_win, lam, nb
            )
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
            sigma = 1.0
        step = eta / batch
        if linear:
            delta_w[:] = 0.0
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
                    gi = G[i]  # G is symmetric: row i is column i, contiguous
                    for j in range(m):
                        sk[j] += delta * gi[j]
        if linear:
            W += delta_w
        norm2 = sigma * sigma * _norm2(linear, W, A, S)
        # --- projection onto the ball ‖w‖ ≤ radius (002, projected gradient)
        if radius > 0.0 and norm2 > radius * radius:
            sigma *= radius / np.sqrt(norm2)
            norm2 = radius * radius
        scal[0] = sigma
        scal[1] = norm2
        current_needed = average == LAST or free_bias
        if current_needed:
            scores_into(linear, PhiT, W, S, sigma, F)
        if free_bias:
            if binary:
                b[0] = profile_bias(y_sign, F[0], n_pos, r, cand, cur_win)
            else:
                bias_descent(y, cost, F, b, t)
        if average == LAST:
            o, lo, er = evaluate(
                binary, False, y, y_sign, cost, F, b, n_pos, r, cand, cur_win, lam, norm2
            )
            out_obj[it] = o
            out_loss[it] = lo
            out_err[it] = er
            out_norm[it] = np.sqrt(max(norm2, 0.0))
        if not (np.isfinite(out_obj[it]) and abs(norm2) < DIVERGENCE_LIMIT):
            return it + 1, DIVERGED
    return n, RUNNING
