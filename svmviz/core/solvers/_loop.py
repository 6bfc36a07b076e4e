"""The inner loop shared by every iterative solver: mini-batch stochastic subgradient steps.

One loop covers the update rules of the source texts, each stated once in :mod:`.rules`:

* SGD on the hinge loss, 004 "Gradient for Hinge Loss": if y θ·x < 1 then θ += η y x, else
  no update; with λ > 0 the regularizer adds the shrink θ ← (1 − ηλ)θ.
* Full-batch subgradient descent, 001 "Subgradient Descent S-SVM Training": the batch is the
  whole training set, w ← w − η_t(λw + (1/m) Σ_n v^n).
* Multiclass SGD, 000 "SGD for Multiclass Learning" and 001 "Stochastic SbGD for the MC case":
  ŷ = argmax_y' Δ(y', y) + ⟨w, Ψ(x, y') − Ψ(x, y)⟩, v = Ψ(x, ŷ) − Ψ(x, y), w ← w − ηv
  (with Ψ stacking x into block y, v touches only the rows w_ŷ and w_y).
* Pegasos, 002, η_t = 1/(λt); in the form of 003 "SGD for Solving Soft-SVM with Kernels":
  β_i += y_i when y_i Σ_j α_j K(x_j, x_i) < 1 and α = β/(λt).

Representation. Linear models keep w explicitly (K×p) and compute scores on the fly; kernel
models keep 003's coefficients α on the training points and the training scores Kα. Both are
stored multiplied by one scale σ, so the shrink (1 − ηλ) costs O(1); a violating example
costs O(p) (linear) or one Gram column, O(m) (kernel). The averaged output is kept in w-space
for linear models (O(p) a step) and as averaged coefficients and scores for kernel models.
The full-data objective of the output model is exact at every iteration: one O(mK) pass
(:mod:`._stats`), or, for linear binary models, a screened evaluation (:mod:`._screen`) that
looks only at the points whose side of the hinge can have changed.

Both loops take the bundles of :mod:`._state` and return (iterations done, status).
:func:`run_linear_binary` is :func:`run` for one linear binary example a step, the case
that runs longest; it is kept apart because the general loop's batches, classes and kernels
cost more than the step itself, and it is built from the same step functions below.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.solvers import _bias, _stats, rules
from svmviz.core.solvers._jit import jit, jit_inline

# Status codes returned by the loop
RUNNING, DIVERGED = 0, 1
DIVERGENCE_LIMIT = 1e150
UNDERFLOW = 1e-100  # σ below this is folded into the arrays


@jit_inline
def _count_positive(y_sign):
    n_pos = 0
    for j in range(y_sign.shape[0]):
        n_pos += y_sign[j] > 0
    return n_pos


@jit_inline
def _fold_linear(Wbar, W, bbar, b, rho, sigma):
    """(w̄, b̄) ← (1 − ρ)(w̄, b̄) + ρ(σW, b) (:func:`rules.average_weight`); returns ‖w̄‖²."""
    keep = 1.0 - rho
    for k in range(bbar.shape[0]):
        bbar[k] = keep * bbar[k] + rho * b[k]
    for k in range(W.shape[0]):
        for q in range(W.shape[1]):
            Wbar[k, q] = keep * Wbar[k, q] + rho * sigma * W[k, q]
    return _stats.norm2_of(True, Wbar, Wbar, Wbar)


@jit_inline
def _shrink(sigma, eta, lam, st, stored_norm2):
    """The shrink (1 − ηλ) of the scale σ (:func:`rules.shrink_factor`); σ is folded into
    the arrays before it underflows. Returns (σ, the stored model's ‖w‖²)."""
    sigma *= rules.shrink_factor(eta, lam)
    if abs(sigma) < UNDERFLOW:
        W, A, S = st.W, st.A, st.S
        W *= sigma
        A *= sigma
        S *= sigma
        stored_norm2 *= sigma * sigma
        sigma = 1.0
    return sigma, stored_norm2


@jit_inline
def _add_term(linear, k, i, delta, pb, st, target, stored_norm2):
    """One subgradient term: α_{k,i} += δ and w_k += δ φ_i, into ``target`` (W, or a sum of
    the batch's terms), or the kernel scores S_k += δ G_i with ‖w‖² kept up to date
    (‖w + δφ_i‖² = ‖w‖² + 2δ⟨w, φ_i⟩ + δ²K_ii, ⟨w, φ_i⟩ the kept score)."""
    st.A[k, i] += delta
    if linear:
        PhiT = pb.PhiT
        for q in range(PhiT.shape[0]):
            target[k, q] += delta * PhiT[q, i]
    else:
        sk = st.S[k]
        stored_norm2 += delta * (2.0 * sk[i] + delta * pb.G[i, i])
        gi = pb.G[i]  # G is symmetric: row i is column i, contiguous
        for j in range(sk.shape[0]):
            sk[j] += delta * gi[j]
    return stored_norm2


@jit_inline
def _project(sigma, norm2, radius):
    """Projection onto ‖w‖ ≤ radius (:func:`rules.projection_factor`); returns (σ, ‖w‖²)."""
    factor = rules.projection_factor(norm2, radius)
    if factor != 1.0:
        return sigma * factor, radius * radius
    return sigma, norm2


@jit_inline
def _record_screened(it, U, W, scale, b0, lam, norm2, out):
    """The output model's regularizer and norm now; its loss and errors are added after the
    loop from the model recorded in U[it] (:func:`_stats.finish_screened`)."""
    _stats.set_u(U, it, W, scale, b0)
    out.objective[it] = 0.5 * lam * norm2
    out.norm[it] = np.sqrt(max(norm2, 0.0))


@jit_inline
def _diverged(objective, norm2):
    return not (np.isfinite(objective) and abs(norm2) < DIVERGENCE_LIMIT)


@jit
def run_linear_binary(t0, n, idx, cfg, pb, st, wk, out):
    """:func:`run` for one linear binary example a step (SGD, Pegasos), screened telemetry:
    the same step functions, so the same numbers."""
    y_sign, PhiT = pb.y_sign, pb.PhiT
    W, b, Wbar, bbar = st.W, st.b, st.Wbar, st.bbar
    n_pos = _count_positive(y_sign)
    P1, S1, st1 = wk.sc_P[1], wk.sc_S[1], wk.sc_st[1]
    done, status = n, RUNNING
    sigma = st.scal[0]
    for it in range(n):
        t = t0 + it + 1
        eta = rules.step_size(cfg.schedule, cfg.eta0, cfg.lam, t)
        if cfg.average != rules.LAST:  # fold (w^(t), b^(t)) into the output, as run does
            nb = _fold_linear(Wbar, W, bbar, b, rules.average_weight(cfg.average, t), sigma)
            _record_screened(it, wk.U, Wbar, 1.0, bbar[0], cfg.lam, nb, out)
        i = idx[it, 0]
        f = sigma * _stats.score(True, PhiT, W, W, i, 0) + b[0]
        violated = rules.hinge_violated(y_sign[i], f)
        sigma, _ = _shrink(sigma, eta, cfg.lam, st, 0.0)
        out.violations[it] = violated
        if violated:
            out.flags[it, 0] = True
            _add_term(True, 0, i, y_sign[i] * eta / sigma, pb, st, W, 0.0)
        sigma, norm2 = _project(sigma, sigma * sigma * _stats.norm2_of(True, W, W, W), cfg.radius)
        st.scal[0] = sigma
        if cfg.free_bias:
            b[0] = _bias.screened_bias(pb, st, wk, sigma, n_pos, P1, S1, st1)
        if cfg.average == rules.LAST:
            _record_screened(it, wk.U, W, sigma, b[0], cfg.lam, norm2, out)
        if _diverged(out.objective[it], norm2):
            done, status = it + 1, DIVERGED
            break
    _stats.finish_screened(pb, wk, done, out)
    return done, status


@jit_inline
def _average_and_record(it, t, sigma, cfg, pb, st, wk, out):
    """Fold (w^(t), b^(t)) into the output (003: ᾱ = (1/T) Σ_t α^(t); or t-weighted) and
    record its telemetry. The average of the exact biases goes with w̄: F is jointly convex,
    so F(w̄, b̄) ≤ Σ_t ρ_t F(w^(t), b^(t)), the bound the averaging guarantees rely on."""
    rho = rules.average_weight(cfg.average, t)
    lam = cfg.lam
    if cfg.linear:
        nb = _fold_linear(st.Wbar, st.W, st.bbar, st.b, rho, sigma)
    else:
        keep = 1.0 - rho
        for k in range(st.bbar.shape[0]):
            st.bbar[k] = keep * st.bbar[k] + rho * st.b[k]
        nb = 0.0
        rs = rho * sigma
        for k in range(st.S.shape[0]):
            sb = st.Sbar[k]
            ab = st.Abar[k]
            sk = st.S[k]
            ak = st.A[k]
            for j in range(sk.shape[0]):
                sb[j] = keep * sb[j] + rs * sk[j]
                ab[j] = keep * ab[j] + rs * ak[j]
                nb += ab[j] * sb[j]
    if cfg.screened:  # the loss and errors are added after the loop
        _record_screened(it, wk.U, st.Wbar, 1.0, st.bbar[0], lam, nb, out)
        return
    m = pb.y.shape[0]
    if cfg.linear and cfg.binary:
        lo, er = _stats.binary_stats_linear(pb.y_sign, pb.PhiT, st.Wbar[0], st.bbar[0])
        lo /= m
        er /= m
        o = 0.5 * lam * nb + lo
    else:
        if cfg.linear:
            _stats.scores_into(True, pb.PhiT, st.Wbar, st.Sbar, 1.0, wk.F)
        o, lo, er = _stats.evaluate(
            cfg.binary,
            pb.y,
            pb.y_sign,
            pb.cost,
            wk.F if cfg.linear else st.Sbar,
            1.0,
            st.bbar,
            lam,
            nb,
        )
    out.objective[it] = o
    out.loss[it] = lo
    out.error[it] = er
    out.norm[it] = np.sqrt(max(nb, 0.0))


@jit_inline
def _violators(it, full, sigma, cfg, pb, st, idx, members, upd, fbuf, out):
    """Which batch members violate at w^(t) (:func:`rules.hinge_violated`, 004 Case II;
    :func:`rules.crammer_singer`, 000's ŷ): upd[r] is the row ŷ (0 for binary problems) or
    −1. Returns how many."""
    nviol = 0
    for rr in range(members.shape[0]):
        i = rr if full else idx[it, rr]
        members[rr] = i
        upd[rr] = -1
        if cfg.binary:
            f = sigma * _stats.score(cfg.linear, pb.PhiT, st.W, st.S, i, 0) + st.b[0]
            if rules.hinge_violated(pb.y_sign[i], f):
                upd[rr] = 0
        else:
            for k in range(fbuf.shape[0]):
                fbuf[k] = sigma * _stats.score(cfg.linear, pb.PhiT, st.W, st.S, i, k) + st.b[k]
            upd[rr] = rules.crammer_singer(pb.cost, fbuf, pb.y[i])
        if upd[rr] >= 0:
            nviol += 1
            if not full:
                out.flags[it, rr] = True
    return nviol


@jit_inline
def _update_bias(t, sigma, fresh, cfg, pb, st, wk, n_pos, screen1):
    """The free bias for the new iterate (:mod:`._bias`); ``fresh``: F holds the linear
    iterate's scores; ``screen1``: the arrays of screen 1 (views made once per run)."""
    F = wk.F
    Fc = F if cfg.linear else st.S  # the current iterate's scores (F, or σ·S kept)
    cscale = 1.0 if cfg.linear else sigma
    if not cfg.binary:
        _bias.bias_descent(pb.y, pb.cost, Fc, cscale, st.b, t)
    elif cfg.screened:
        P1, S1, st1 = screen1
        st.b[0] = _bias.screened_bias(pb, st, wk, sigma, n_pos, P1, S1, st1)
    elif cfg.linear and not fresh:  # check the old b without a score array
        below = _bias.count_below_linear(pb.y_sign, pb.PhiT, sigma * st.W[0], st.win[0])
        if below != n_pos:
            _stats.scores_into(True, pb.PhiT, st.W, st.S, sigma, F)
            st.b[0] = _bias.profile_search(pb.y_sign, F[0], 1.0, n_pos, below, wk.r, st.win)
    else:
        st.b[0] = _bias.profile_bias(pb.y_sign, Fc[0], cscale, n_pos, wk.r, st.win)
    return fresh


@jit
def run(t0, n, idx, cfg, pb, st, wk, out):
    """Advance ``n`` iterations from iteration ``t0``; record the output model's telemetry.

    ``idx`` (n×k) holds the sampled examples (k = 0: the full batch, GD); ``cfg``, ``pb``,
    ``st``, ``wk`` and ``out`` are the bundles of :mod:`._state` (the state, the work
    buffers and the telemetry are written in place). Returns (iterations done, status).
    """
    m = pb.y.shape[0]
    linear = cfg.linear
    W, A, S = st.W, st.A, st.S
    K, p = W.shape
    full = idx.shape[1] == 0
    batch = m if full else idx.shape[1]
    n_pos = _count_positive(pb.y_sign)
    upd = np.empty(batch, dtype=np.int64)
    members = np.empty(batch, dtype=np.int64)
    fbuf = np.empty(st.b.shape[0])
    screen1 = (wk.sc_P[1], wk.sc_S[1], wk.sc_st[1])
    delta_w = np.zeros(W.shape)
    # kernel: αᵀKα of the stored (unscaled) coefficients, kept up to date as single α_i
    # change; recomputed exactly every m iterations so that rounding does not accumulate
    stored_norm2 = _stats.norm2_of(linear, W, A, S)
    done, status = n, RUNNING
    for it in range(n):
        t = t0 + it + 1
        eta = rules.step_size(cfg.schedule, cfg.eta0, cfg.lam, t)
        sigma = st.scal[0]
        if cfg.average != rules.LAST:
            _average_and_record(it, t, sigma, cfg, pb, st, wk, out)
        out.violations[it] = _violators(it, full, sigma, cfg, pb, st, idx, members, upd, fbuf, out)
        # the update: shrink by (1 − ηλ), then add η/k times each subgradient term
        sigma, stored_norm2 = _shrink(sigma, eta, cfg.lam, st, stored_norm2)
        step = eta / batch
        if linear:
            for k in range(K):
                for q in range(p):
                    delta_w[k, q] = 0.0
        for rr in range(batch):
            if upd[rr] < 0:
                continue
            i = members[rr]
            count, k0, c0, k1, c1 = rules.subgradient_terms(
                cfg.binary, pb.y[i], pb.y_sign[i], upd[rr]
            )
            stored_norm2 = _add_term(
                linear, k0, i, c0 * step / sigma, pb, st, delta_w, stored_norm2
            )
            if count == 2:
                stored_norm2 = _add_term(
                    linear, k1, i, c1 * step / sigma, pb, st, delta_w, stored_norm2
                )
        if linear:
            for k in range(K):
                for q in range(p):
                    W[k, q] += delta_w[k, q]
            stored_norm2 = _stats.norm2_of(True, W, A, S)  # O(Kp)
        elif t % m == 0:
            stored_norm2 = _stats.norm2_of(False, W, A, S)
        sigma, norm2 = _project(sigma, sigma * sigma * stored_norm2, cfg.radius)
        st.scal[0] = sigma
        # the current iterate's scores: F (linear, computed when needed) or σ·S (kernel, kept)
        last = cfg.average == rules.LAST
        fresh = linear and ((last and not cfg.screened) or (cfg.free_bias and not cfg.binary))
        if fresh:
            _stats.scores_into(True, pb.PhiT, W, S, sigma, wk.F)
        if cfg.free_bias:
            _update_bias(t, sigma, fresh, cfg, pb, st, wk, n_pos, screen1)
        if last and cfg.screened:
            _record_screened(it, wk.U, W, sigma, st.b[0], cfg.lam, norm2, out)
        elif last:
            o, lo, er = _stats.evaluate(
                cfg.binary,
                pb.y,
                pb.y_sign,
                pb.cost,
                wk.F if linear else S,
                1.0 if linear else sigma,
                st.b,
                cfg.lam,
                norm2,
            )
            out.objective[it] = o
            out.loss[it] = lo
            out.error[it] = er
            out.norm[it] = np.sqrt(max(norm2, 0.0))
        if _diverged(out.objective[it], norm2):
            done, status = it + 1, DIVERGED
            break
    if cfg.screened:
        _stats.finish_screened(pb, wk, done, out)
    return done, status
