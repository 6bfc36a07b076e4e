"""The telemetry of a model on the training set: objective, mean loss and 0-1 error.

Scores are kept without the bias and times one scale σ (see :mod:`._loop`); these functions
evaluate the hinge (binary) or Crammer–Singer (multiclass) loss of such scores exactly, in
one O(mK) pass, and, for linear binary models, add the screened evaluations of
:mod:`._screen` recorded during a run.
"""

from __future__ import annotations

from svmviz.core._jit import jit, jit_inline
from svmviz.core.solvers import _screen


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


@jit_inline
def _hinge_and_error(y, f):
    """max(0, 1 − y f) and 1.0 if f predicts wrongly (positive iff f > 0), else 0.0."""
    z = y * f
    h = 1.0 - z
    # wrong iff y f < 0, or f = 0 (predicted negative) for a positive example
    return (h if h > 0.0 else 0.0), (z < 0.0) + (f == 0.0) * (y > 0.0)


@jit_inline
def dot_at(PhiT, a, j):
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
def binary_stats_linear(y_sign, PhiT, a, b):
    """:func:`binary_stats` for f = a·φ_j + b, computed on the fly (no score array)."""
    loss = 0.0
    errors = 0.0
    for j in range(y_sign.shape[0]):
        h, e = _hinge_and_error(y_sign[j], dot_at(PhiT, a, j) + b)
        loss += h
        errors += e
    return loss, errors


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


@jit_inline
def norm2_of(linear, W, A, S):
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
def score(linear, PhiT, W, S, i, k):
    """f_k(x_i) without bias, unscaled."""
    if linear:
        acc = 0.0
        for q in range(PhiT.shape[0]):
            acc += PhiT[q, i] * W[k, q]
        return acc
    return S[k, i]


@jit_inline
def set_u(U, row, W, scale, b):
    """U[row] = (scale·W[0], b), a point a screen evaluates at (no slices: a view made in
    the loop costs reference-count operations)."""
    p = W.shape[1]
    for c in range(p):
        U[row, c] = scale * W[0, c]
    U[row, p] = b


@jit
def finish_screened(pb, wk, done, out):
    """Add the loss and errors of the output models recorded in U[:done] (screen 0) to the
    telemetry ``out``, as means (bundles of :mod:`._state`)."""
    m = pb.y_sign.shape[0]
    out_obj, out_loss, out_err = out.objective, out.loss, out.error
    _screen.evaluate_many(
        pb.Z,
        pb.zn,
        pb.y_sign,
        wk.U[:done],
        wk.sc_P[0],
        wk.sc_S[0],
        wk.sc_st[0],
        wk.buckets,
        out_loss,
        out_err,
    )
    for it in range(done):
        lo = out_loss[it] / m
        out_obj[it] += lo
        out_loss[it] = lo
        out_err[it] /= m
