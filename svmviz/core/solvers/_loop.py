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
  β += y_i when y_i Σ_j α_j K(x_j, x_i) < 1 and α = β/(λt), i.e. the step η = 1/(λ(t+1))
  turns α⁽ᵗ⁾ into α⁽ᵗ⁺¹⁾.

The model is kept as coefficients on the training points (003's α; for linear kernels also as
an explicit w) and as the scores of every training point, all multiplied by one scale σ, so
that the shrink (1 − ηλ) costs O(1) and a violating example costs one column of the Gram
matrix (O(m)). The scores give the full-data objective at every iteration in one O(mK) pass.
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
def profile_bias(y_sign, scores, scale, n_pos, buf):
    """The b minimizing Σ_j max(0, 1 − y_j(s_j + b)) exactly.

    Its derivative is #{j : y_j − s_j < b} − P (P positives), so every b between the P-th
    and (P+1)-th smallest of r_j = y_j − s_j is optimal; the middle of that interval is taken.
    """
    m = y_sign.shape[0]
    for j in range(m):
        buf[j] = y_sign[j] - scale * scores[j, 0]
    part = np.partition(buf, n_pos)
    hi = part[n_pos]
    lo = part[0]
    for j in range(1, n_pos):
        if part[j] > lo:
            lo = part[j]
    return 0.5 * (lo + hi)


@jit
def evaluate(binary, y, y_sign, cost, scores, scale, b, lam, norm2):
    """Objective λ/2‖w‖² + (1/m) Σ loss, mean loss and 0-1 error of the model whose
    training scores (without bias) are ``scale * scores``."""
    m, K = scores.shape
    loss = 0.0
    errors = 0
    if binary:
        for j in range(m):
            f = scale * scores[j, 0] + b[0]
            z = y_sign[j] * f
            if z < 1.0:
                loss += 1.0 - z
            if (f > 0.0) != (y_sign[j] > 0.0):
                errors += 1
    else:
        for j in range(m):
            yj = y[j]
            fy = scale * scores[j, yj] + b[yj]
            worst = 0.0
            best = -np.inf
            pred = 0
            for k in range(K):
                f = scale * scores[j, k] + b[k]
                if f > best:
                    best = f
                    pred = k
                v = cost[yj, k] + f - fy
                if v > worst:
                    worst = v
            loss += worst
            if pred != yj:
                errors += 1
    loss /= m
    return 0.5 * lam * norm2 + loss, loss, errors / m


@jit
def _add_column(linear, Phi, G, i, scores, k, delta):
    """scores[:, k] += delta * k(x_i, x_j) for every j (the score change of w_k += delta φ_i)."""
    m = scores.shape[0]
    if linear:
        p = Phi.shape[1]
        for j in range(m):
            acc = 0.0
            for q in range(p):
                acc += Phi[j, q] * Phi[i, q]
            scores[j, k] += delta * acc
    else:
        for j in range(m):
            scores[j, k] += delta * G[j, i]


@jit
def _norm2(linear, W, A, scores):
    """‖w‖² of the (unscaled) model: Σ_k ‖W_k‖² (linear) or Σ_k a_kᵀ G a_k (kernel)."""
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
                total += A[k, j] * scores[j, k]
    return total


@jit
def run(
    t0,
    n,
    binary,
    linear,
    free_bias,
    lam,
    schedule,
    eta0,
    average,
    radius,
    idx,
    y,
    y_sign,
    cost,
    Phi,
    G,
    A,
    W,
    S,
    b,
    Abar,
    Wbar,
    Sbar,
    bbar,
    scal,
    buf,
    out_obj,
    out_loss,
    out_err,
    out_norm,
    out_viol,
    out_flags,
):
    """Advance ``n`` iterations from iteration ``t0``; record the output model's telemetry.

    State (updated in place): A (K×m) coefficients, W (K×p) linear weights, S (m×K) scores
    without bias, all times the scale ``scal[0]``; ``b`` (K) the free bias; the averaged model
    in Abar, Wbar, Sbar (unscaled), bbar; ``scal[1]`` ‖w‖² of the current iterate.
    ``idx`` (n×k) holds the sampled examples (k = 0 columns: the full batch, GD).
    Returns (iterations done, status).
    """
    m, K = S.shape
    full = idx.shape[1] == 0
    batch = m if full else idx.shape[1]
    n_pos = 0
    for j in range(m):
        if y_sign[j] > 0:
            n_pos += 1
    marg = np.empty(batch)
    upd = np.empty(batch, dtype=np.int64)
    members = np.empty(batch, dtype=np.int64)
    for it in range(n):
        t = t0 + it + 1
        eta = step_size(schedule, eta0, lam, t)
        sigma = scal[0]
        # --- averaging: fold the current iterate w^(t) into the output (000/003: w̄ = (1/T)Σ w^(t))
        if average != LAST:
            rho = 1.0 / t if average == UNIFORM else 2.0 / (t + 1.0)
            keep = 1.0 - rho
            for j in range(m):
                for k in range(K):
                    Sbar[j, k] = keep * Sbar[j, k] + rho * sigma * S[j, k]
                    Abar[k, j] = keep * Abar[k, j] + rho * sigma * A[k, j]
            for k in range(K):
                bbar[k] = keep * bbar[k] + rho * b[k]
                for q in range(W.shape[1]):
                    Wbar[k, q] = keep * Wbar[k, q] + rho * sigma * W[k, q]
            if free_bias and binary:
                bbar[0] = profile_bias(y_sign, Sbar, 1.0, n_pos, buf)
            nb = _norm2(linear, Wbar, Abar, Sbar)
            o, lo, er = evaluate(binary, y, y_sign, cost, Sbar, 1.0, bbar, lam, nb)
            out_obj[it] = o
            out_loss[it] = lo
            out_err[it] = er
            out_norm[it] = np.sqrt(max(nb, 0.0))
        # --- which batch members violate (004 Case II / 000's argmax), at w^(t)
        nviol = 0
        for r in range(batch):
            i = r if full else idx[it, r]
            members[r] = i
            if binary:
                z = y_sign[i] * (sigma * S[i, 0] + b[0])
                marg[r] = z
                upd[r] = 0 if z < 1.0 else -1
            else:
                yi = y[i]
                fy = sigma * S[i, yi] + b[yi]
                best = 0.0
                yhat = yi
                for k in range(K):
                    if k != yi:
                        v = cost[yi, k] + sigma * S[i, k] + b[k] - fy
                        if v > best:
                            best = v
                            yhat = k
                marg[r] = -best
                upd[r] = yhat if yhat != yi else -1
            if upd[r] >= 0:
                nviol += 1
                if not full:
                    out_flags[it, r] = True
        out_viol[it] = nviol
        # --- the update: shrink by (1 − ηλ), then add η/k times each subgradient term
        c = 1.0 - eta * lam
        sigma *= c
        if abs(sigma) < 1e-100:
            for j in range(m):
                for k in range(K):
                    S[j, k] *= sigma
                    A[k, j] *= sigma
            for k in range(K):
                for q in range(W.shape[1]):
                    W[k, q] *= sigma
            sigma = 1.0
        step = eta / batch
        for r in range(batch):
            if upd[r] < 0:
                continue
            i = members[r]
            if binary:
                ks = (0, 0)
                coefs = (y_sign[i], 0.0)
                nk = 1
            else:
                ks = (y[i], upd[r])
                coefs = (1.0, -1.0)
                nk = 2
            for u in range(nk):
                k = ks[u]
                delta = coefs[u] * step / sigma
                A[k, i] += delta
                for q in range(W.shape[1]):
                    W[k, q] += delta * Phi[i, q]
                _add_column(linear, Phi, G, i, S, k, delta)
                if free_bias and not binary:
                    b[k] += coefs[u] * step
        norm2 = sigma * sigma * _norm2(linear, W, A, S)
        # --- projection onto the ball ‖w‖ ≤ radius (002, projected gradient)
        if radius > 0.0 and norm2 > radius * radius:
            shrink = radius / np.sqrt(norm2)
            sigma *= shrink
            norm2 = radius * radius
        if free_bias and binary:
            b[0] = profile_bias(y_sign, S, sigma, n_pos, buf)
        scal[0] = sigma
        scal[1] = norm2
        if average == LAST:
            o, lo, er = evaluate(binary, y, y_sign, cost, S, sigma, b, lam, norm2)
            out_obj[it] = o
            out_loss[it] = lo
            out_err[it] = er
            out_norm[it] = np.sqrt(max(norm2, 0.0))
        if not (np.isfinite(out_obj[it]) and abs(norm2) < DIVERGENCE_LIMIT):
            return it + 1, DIVERGED
    return n, RUNNING
