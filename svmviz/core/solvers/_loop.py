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

Both loops take the bundles of :mod:`._state` and return (iterations done, status). They
take the arrays out of the bundles once, before the iterations, and share the step as the
rule functions of :mod:`.rules`, which take and return numbers: an array handed to a helper,
or taken out of a bundle, inside the loop costs reference counting at each iteration, more
than a step of the fast loop.
:func:`run_linear_binary` is :func:`run` for linear binary models, the case that runs
longest; it is kept apart because the general loop's classes, kernels and losses cost more
than the step itself (one example a step, or a batch's m dot products), and it calls the
same rules in the same order.
"""

from __future__ import annotations

import numpy as np

from svmviz.core._jit import jit, jit_inline, jit_per_loss
from svmviz.core.solvers import _bias, _stats, rules
from svmviz.core.solvers.losses import _dispatch

# Status codes returned by the loop
RUNNING, DIVERGED = 0, 1
# ‖w‖² beyond this, or an objective not below inf (a comparison, which NaN fails: numba's
# np.isfinite is x − x == x − x, which fastmath's 'reassoc' may cancel to true), diverged
DIVERGENCE_LIMIT = 1e150
UNDERFLOW = 1e-100  # σ below this is folded into the arrays


@jit
def run_linear_binary(t0, n, idx, cfg, pb, st, wk, out):
    """:func:`run` for a linear binary model (SGD, Pegasos, a mini-batch or GD's full batch),
    screened telemetry: the same rules in the same order, so the same numbers but for the
    order in which fastmath lets the compiler add the batch's terms."""
    y_sign, PhiT = pb.y_sign, pb.PhiT
    A, W, b, Wbar, bbar, scal = st.A, st.W, st.b, st.Wbar, st.bbar, st.scal
    U, out_obj, out_norm, out_viol, flags = wk.U, out.objective, out.norm, out.violations, out.flags
    lam, schedule, eta0, average, radius = cfg.lam, cfg.schedule, cfg.eta0, cfg.average, cfg.radius
    m, p = y_sign.shape[0], W.shape[1]
    full = idx.shape[1] == 0
    batch = m if full else idx.shape[1]
    single = batch == 1 and not full
    members = np.empty(batch, dtype=np.int64)
    hit = np.empty(batch)  # 1.0 where the member violates its margin at w^(t), else 0.0
    f = np.empty(batch)  # the members' scores w·φ_i, then their coefficients in the step
    n_pos = int(np.sum(y_sign > 0))
    screen1 = _bias.screen_one(pb, st, wk)
    done, status = n, RUNNING
    sigma = scal[0]
    for it in range(n):
        t = t0 + it + 1
        eta = rules.step_size(schedule, eta0, lam, t)
        if average != rules.LAST:  # fold (w^(t), b^(t)) into the output, as run does
            rho = rules.average_weight(average, t)
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
        if single:  # one example a step (SGD, Pegasos): the case that runs longest, inline
            i = idx[it, 0]
            acc = 0.0
            for q in range(p):
                acc += PhiT[q, i] * W[0, q]
            violated = rules.hinge_violated(y_sign[i], sigma * acc + b[0])
            out_viol[it] = violated
            flags[it, 0] = violated
        else:  # the batch's hinge terms at w^(t), a coordinate at a time along the batch
            violated = _batch_terms(idx, it, full, PhiT, W, y_sign, sigma, b[0], members, f, hit)
            out_viol[it] = violated
            if not full:
                for rr in range(batch):
                    flags[it, rr] = hit[rr] != 0.0
        sigma *= rules.shrink_factor(eta, lam)
        if abs(sigma) < UNDERFLOW:  # fold the scale into the arrays before it underflows
            W *= sigma
            A *= sigma
            sigma = 1.0
        # --- the update: η/k times each violating member's y_i φ_i (004, 001)
        if single and violated:
            _, _, sign, _, _ = rules.subgradient_terms(True, 0, y_sign[i], 0)
            delta = sign * eta / sigma
            A[0, i] += delta
            for q in range(p):
                W[0, q] += delta * PhiT[q, i]
        elif violated:
            step = eta / batch
            for rr in range(batch):
                i = members[rr]
                _, _, sign, _, _ = rules.subgradient_terms(True, 0, y_sign[i], 0)
                f[rr] = hit[rr] * (sign * step / sigma)  # (0 for the others: no branch)
                A[0, i] += f[rr]
            for q in range(p):
                row = PhiT[q]
                acc = 0.0
                for rr in range(batch):
                    acc += f[rr] * row[members[rr]]
                W[0, q] += acc
        stored_norm2 = 0.0
        for q in range(p):
            stored_norm2 += W[0, q] * W[0, q]
        norm2 = sigma * sigma * stored_norm2
        factor = rules.projection_factor(norm2, radius)
        if factor != 1.0:
            sigma *= factor
            norm2 = radius * radius
        scal[0] = sigma
        if cfg.free_bias and abs(norm2) < DIVERGENCE_LIMIT:  # (else diverged: see run)
            b[0] = _bias.screened_bias(screen1, sigma, n_pos)
        if average == rules.LAST:
            _stats.set_u(U, it, W, sigma, b[0])
            out_obj[it] = 0.5 * lam * norm2
            out_norm[it] = np.sqrt(max(norm2, 0.0))
        if not (abs(out_obj[it]) < np.inf and abs(norm2) < DIVERGENCE_LIMIT):
            done, status = it + 1, DIVERGED
            break
    _stats.finish_screened(pb, wk, done, out)
    return done, status


@jit_inline
def _batch_terms(idx, it, full, PhiT, W, y_sign, sigma, b, members, f, hit):
    """The batch's members (the rows of ``idx[it]``, or all m), their scores f = w·φ_i
    (unscaled) and ``hit`` 1.0 where the hinge is violated at σf + b, else 0.0; returns
    how many are. Branch-free, a coordinate at a time along the batch: it vectorizes."""
    batch = members.shape[0]
    for rr in range(batch):
        members[rr] = rr if full else idx[it, rr]
        f[rr] = 0.0
    for q in range(W.shape[1]):
        wq = W[0, q]
        row = PhiT[q]
        for rr in range(batch):
            f[rr] += row[members[rr]] * wq
    count = 0
    for rr in range(batch):
        violated = rules.hinge_violated(y_sign[members[rr]], sigma * f[rr] + b)
        hit[rr] = 1.0 if violated else 0.0
        count += violated
    return count


@jit_per_loss
def run(t0, n, idx, cfg, pb, st, wk, out):
    """Advance ``n`` iterations from iteration ``t0``; record the output model's telemetry.

    ``idx`` (n×k) holds the sampled examples (k = 0: the full batch, GD); ``cfg``, ``pb``,
    ``st``, ``wk`` and ``out`` are the bundles of :mod:`._state` (the state, the work
    buffers and the telemetry are written in place). The loss is ``cfg.loss``, whose class
    selects the loss module (:mod:`.losses`): numba compiles this loop once per loss.
    Returns (iterations done, status).
    """
    linear, screened, free_bias = cfg.linear, cfg.screened, cfg.free_bias
    loss = cfg.loss
    lam, schedule, eta0, average, radius = cfg.lam, cfg.schedule, cfg.eta0, cfg.average, cfg.radius
    y, y_sign, PhiT, G = pb.y, pb.y_sign, pb.PhiT, pb.G
    A, W, S, b, scal, off = st.A, st.W, st.S, st.b, st.scal, st.off
    Abar, Wbar, Sbar, bbar, offbar = st.Abar, st.Wbar, st.Sbar, st.bbar, st.offbar
    F, r, U, win = wk.F, wk.r, wk.U, st.win
    out_obj, out_loss, out_err = out.objective, out.loss, out.error
    out_norm, out_viol, flags = out.norm, out.violations, out.flags
    out_rho, out_eps = out.rho, out.epsilon  # (empty for a problem without ρ or ε)
    has_rho, has_eps = out_rho.shape[0] > 0, out_eps.shape[0] > 0
    m = y.shape[0]
    K, p = W.shape
    full = idx.shape[1] == 0
    batch = m if full else idx.shape[1]
    n_pos = int(np.sum(y_sign > 0))
    nterms = np.empty(batch, dtype=np.int64)
    members = np.empty(batch, dtype=np.int64)
    coef = np.zeros((batch, K))
    fbuf = np.empty(K)
    gbuf = np.empty(K)
    delta_w = np.zeros(W.shape)
    screen1 = _bias.screen_one(pb, st, wk)
    # kernel: αᵀKα of the stored (unscaled) coefficients, kept up to date as single α_i
    # change; recomputed exactly every m iterations so that rounding does not accumulate,
    # and kept in scal[1] between calls, so that where a run is cut into calls does not
    # change its bits (recomputing it at each call did)
    stored_norm2 = _stats.norm2_of(True, W, A, S) if linear else scal[1]
    Fc = F if linear else S  # the current iterate's scores (F, or σ·S kept)
    # the offsets (ρ, ε) and a free bias of a multiclass or smooth loss are set from F
    offsets_from_scores = loss_offsets(cfg)
    done, status = n, RUNNING
    for it in range(n):
        t = t0 + it + 1
        eta = rules.step_size(schedule, eta0, lam, t)
        sigma = scal[0]
        # --- averaging: fold (w^(t), b^(t), offsets^(t)) into the output (003: ᾱ = (1/T)
        # Σ_t α^(t); or t-weighted). The average of the exact offsets goes with w̄: F is
        # jointly convex, so F(w̄, b̄) ≤ Σ_t ρ_t F(w^(t), b^(t)), the bound the averaging
        # guarantees rely on.
        if average != rules.LAST:
            rho = rules.average_weight(average, t)
            keep = 1.0 - rho
            for k in range(K):
                bbar[k] = keep * bbar[k] + rho * b[k]
            for k in range(2):
                offbar[k] = keep * offbar[k] + rho * off[k]
            if linear:
                for k in range(K):
                    for q in range(p):
                        Wbar[k, q] = keep * Wbar[k, q] + rho * sigma * W[k, q]
                nb = _stats.norm2_of(True, Wbar, Abar, Sbar)
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
                _stats.set_u(U, it, Wbar, 1.0, bbar[0])
                lo = er = 0.0
                o = 0.5 * lam * nb
            elif not rules.recorded(cfg.record, t):
                o = lo = er = np.nan
            elif linear and cfg.exact_bias:  # the hinge, unscreened
                lo, er = _stats.binary_stats_linear(y_sign, PhiT, Wbar[0], bbar[0])
                lo /= m
                er /= m
                o = 0.5 * lam * nb + lo
            else:
                if linear:
                    _stats.scores_into(True, PhiT, Wbar, Sbar, 1.0, F)
                Fa = F if linear else Sbar
                o, lo, er = _evaluate(loss, y, y_sign, Fa, 1.0, bbar, offbar, lam, nb)
            out_obj[it] = o
            out_loss[it] = lo
            out_err[it] = er
            out_norm[it] = np.sqrt(max(nb, 0.0))
            if has_rho:
                out_rho[it] = offbar[0]
            if has_eps:
                out_eps[it] = offbar[1]
        # --- the loss's terms of each batch member at w^(t): coef[r] = −∂ℓ/∂f
        nviol = 0
        for rr in range(batch):
            i = rr if full else idx[it, rr]
            members[rr] = i
            for k in range(K):
                fbuf[k] = sigma * _stats.score(linear, PhiT, W, S, i, k) + b[k]
            # (into gbuf, then copied: a view coef[rr] made per sample costs reference counts)
            nterms[rr] = _dispatch.terms(loss, fbuf, y[i], y_sign[i], off, gbuf)
            for k in range(K):
                coef[rr, k] = gbuf[k]
            if nterms[rr] > 0:
                nviol += 1
                if not full:
                    flags[it, rr] = True
        out_viol[it] = nviol
        # --- the update: shrink by (1 − ηλ), then add η/k times each subgradient term
        sigma *= rules.shrink_factor(eta, lam)
        if abs(sigma) < UNDERFLOW:  # fold the scale into the arrays before it underflows
            W *= sigma
            A *= sigma
            S *= sigma
            stored_norm2 *= sigma * sigma
            sigma = 1.0
        step = eta / batch
        if linear:
            for k in range(K):
                for q in range(p):
                    delta_w[k, q] = 0.0
        for rr in range(batch):
            if nterms[rr] == 0:
                continue
            i = members[rr]
            for k in range(K):
                c = coef[rr, k]
                if c == 0.0:
                    continue
                delta = c * step / sigma
                A[k, i] += delta
                if linear:
                    for q in range(p):
                        delta_w[k, q] += delta * PhiT[q, i]
                else:  # ‖w + δφ_i‖² = ‖w‖² + 2δ⟨w, φ_i⟩ + δ²K_ii, with ⟨w, φ_i⟩ the kept score
                    sk = S[k]
                    stored_norm2 += delta * (2.0 * sk[i] + delta * G[i, i])
                    gi = G[i]  # G is symmetric: row i is column i, contiguous
                    for j in range(m):
                        sk[j] += delta * gi[j]
        if linear:
            for k in range(K):
                for q in range(p):
                    W[k, q] += delta_w[k, q]
            stored_norm2 = _stats.norm2_of(True, W, A, S)  # O(Kp)
        elif t % m == 0:
            stored_norm2 = _stats.norm2_of(False, W, A, S)
        # --- projection onto the ball ‖w‖ ≤ radius (002, projected gradient)
        norm2 = sigma * sigma * stored_norm2
        factor = rules.projection_factor(norm2, radius)
        if factor != 1.0:
            sigma *= factor
            norm2 = radius * radius
        scal[0] = sigma
        scal[1] = stored_norm2
        # the current iterate's scores: F (linear, computed when needed) or σ·S (kernel, kept)
        last = average == rules.LAST
        fresh = linear and ((last and not screened) or offsets_from_scores)
        if fresh:
            _stats.scores_into(True, PhiT, W, S, sigma, F)
        cscale = 1.0 if linear else sigma
        if not abs(norm2) < DIVERGENCE_LIMIT:
            # diverged (the check below): its scores, maybe inf or NaN, reach no search of
            # the offsets (numba's linear algebra raises on them)
            pass
        elif offsets_from_scores and cfg.fused_bias and free_bias:  # the loss's fused step
            _bias.bias_descent(y, pb.cost, Fc, cscale, b, t)  # (a call through the loss costs 5%)
        elif offsets_from_scores:
            _dispatch.offsets(loss, free_bias, y, y_sign, Fc, cscale, b, off, n_pos, r, win, t)
        elif free_bias and screened:
            b[0] = _bias.screened_bias(screen1, sigma, n_pos)
        elif free_bias and linear and not fresh:  # check the old b without a score array
            b[0] = _bias.checked_bias(y_sign, PhiT, W, F, sigma, n_pos, r, win)
        elif free_bias:
            _dispatch.offsets(loss, True, y, y_sign, Fc, cscale, b, off, n_pos, r, win, t)
        if last and screened:  # the loss and errors are added after the loop
            _stats.set_u(U, it, W, sigma, b[0])
            out_obj[it] = 0.5 * lam * norm2
            out_norm[it] = np.sqrt(max(norm2, 0.0))
        elif last:
            if rules.recorded(cfg.record, t):
                o, lo, er = _evaluate(loss, y, y_sign, Fc, cscale, b, off, lam, norm2)
            else:
                o = lo = er = np.nan
            out_obj[it] = o
            out_loss[it] = lo
            out_err[it] = er
            out_norm[it] = np.sqrt(max(norm2, 0.0))
        if last and has_rho:
            out_rho[it] = off[0]
        if last and has_eps:
            out_eps[it] = off[1]
        # (else the objective is NaN: the norm says it)
        recorded = screened or rules.recorded(cfg.record, t)
        if not ((abs(out_obj[it]) < np.inf or not recorded) and abs(norm2) < DIVERGENCE_LIMIT):
            done, status = it + 1, DIVERGED
            break
    if screened:
        _stats.finish_screened(pb, wk, done, out)
    return done, status


@jit_inline
def loss_offsets(cfg):
    """Whether the loss sets its offsets from the scores after each step: any loss with
    ρ or ε, and a free bias that is not the binary hinge's (EXACT_BIAS: its own searches)."""
    return cfg.offsets or (cfg.free_bias and not cfg.exact_bias)


@jit
def _evaluate(loss, y, t, F, scale, b, off, lam, norm2):
    """Objective, mean loss and error rate of the scores scale·F + b with offsets ``off``."""
    m = F.shape[1]
    total, wrong = _dispatch.totals(loss, y, t, F, scale, b, off)
    lo = total / m
    return 0.5 * lam * norm2 + lo + _dispatch.offset_term(loss, off), lo, wrong / m
