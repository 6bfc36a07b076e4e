"""The update rules of the source texts, each stated once (the texts: docs/references.md).

The compiled loop (:mod:`._loop`), the step explainer (:mod:`svmviz.core.lesson.explain`) and the
step view (:mod:`svmviz.ui.views.step_view`) all call these functions, so what the inspector
shows is the rule the solver ran. The scalar rules are compiled and inlined into the loop;
the explainer calls their plain-Python twins (:func:`._jit.python_version`), which also
take numpy arrays where a rule is elementwise.
"""

from __future__ import annotations

import sys

import numpy as np

from svmviz.core._jit import jit_inline, python_version

# Schedules (η_t at step t = 1, 2, ...)
CONSTANT, INV_T, INV_SQRT_T, PEGASOS = 0, 1, 2, 3
SCHEDULES = {"constant": CONSTANT, "inv_t": INV_T, "inv_sqrt_t": INV_SQRT_T, "pegasos": PEGASOS}
SCHEDULE_NAMES = {code: name for name, code in SCHEDULES.items()}
# Averages (which iterate is the output)
LAST, UNIFORM, WEIGHTED = 0, 1, 2
AVERAGES = {"last": LAST, "uniform": UNIFORM, "weighted": WEIGHTED}
# Telemetry: the output's exact objective, loss and error at every step, at none (NaN), or
# at the checkpoints (every step up to CHECKPOINT_DENSE, then CHECKPOINTS_PER_OCTAVE per
# doubling of t: log-spaced, as the curves' log axis draws them)
NONE, EVERY, CHECKPOINTS = 0, 1, 2
CHECKPOINT_DENSE = 16
CHECKPOINTS_PER_OCTAVE = 8


@jit_inline
def log_spaced(t, dense, per_octave):
    """Whether iteration t ≥ 1 is one of a log-spaced set: t ≤ ``dense``, or t a multiple
    of 2^(⌊log₂ t⌋ − log₂ per_octave), so ``per_octave`` evenly spaced ones in each
    [2^k, 2^(k+1))."""
    if t <= dense:
        return True
    spacing = 1
    while spacing * per_octave * 2 <= t:
        spacing *= 2
    return t % spacing == 0


@jit_inline
def is_checkpoint(t):
    """Whether iteration t ≥ 1 is a checkpoint: every step to CHECKPOINT_DENSE, then
    CHECKPOINTS_PER_OCTAVE a doubling."""
    return log_spaced(t, CHECKPOINT_DENSE, CHECKPOINTS_PER_OCTAVE)


@jit_inline
def recorded(mode, t):
    """Whether the telemetry of ``mode`` (NONE, EVERY, CHECKPOINTS) holds iteration t."""
    if mode == EVERY:
        return True
    if mode == CHECKPOINTS:
        return is_checkpoint(t)
    return False


@jit_inline
def step_size(schedule, eta0, lam, t):
    """η_t of step t = 1, 2, ...: Pegasos' 1/(λt) (002, "strongly convex case"), written as
    1/(λ(t+1)) because in 003's indexing ("α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt)") step t turns α⁽ᵗ⁾ into α⁽ᵗ⁺¹⁾;
    or η₀/t, η₀/√t, η₀ (004, "learning rate choices": the Robbins–Monro conditions hold for
    the first)."""
    if schedule == PEGASOS:
        return 1.0 / (lam * (t + 1.0))
    if schedule == INV_T:
        return eta0 / t
    if schedule == INV_SQRT_T:
        return eta0 / np.sqrt(t)
    return eta0


def choose_schedule(algorithm, schedule, lam, eta, radius, iterations, rho):
    """(schedule code, η₀) of a configuration. Pegasos always takes 1/(λt) (002). ``auto``:
    1/(λt) when λ > 0; for λ = 0 the constant step of UML Corollary 17.2 (000),
    η = √(B²/(ρ²T)) = B/(ρ√T) with T the budget and ρ bounding the subgradients, when a
    radius B is given and the loss's subgradients are bounded (ρ not None), else the
    constant η₀ (004)."""
    if algorithm == "pegasos":
        return PEGASOS, 0.0
    if schedule == "auto":
        schedule = "pegasos" if lam > 0 else "constant"
        if lam == 0 and radius is not None and rho is not None:
            return CONSTANT, float(radius) / (max(rho, 1e-300) * np.sqrt(iterations))
    return SCHEDULES[schedule], float(eta)


@jit_inline
def average_weight(average, t):
    """ρ_t of the averaged output w̄_t = (1 − ρ_t) w̄_{t−1} + ρ_t w_t: 1/t for the uniform
    average (003: "output ᾱ = (1/T) Σ_t α⁽ᵗ⁾"; 002, PEGASOS with the averaged iterate),
    2/(t+1) for the t-weighted one."""
    return 1.0 / t if average == UNIFORM else 2.0 / (t + 1.0)


@jit_inline
def shrink_factor(eta, lam):
    """The regularizer's part of the step, w ← (1 − ηλ) w: the gradient λw of (λ/2)‖w‖²
    (004, SGD with the regularizer; 001, "Subgradient Descent S-SVM Training")."""
    return 1.0 - eta * lam


@jit_inline
def hinge_violated(y, f):
    """Whether example (x, y) with score f has a hinge term in the subgradient (004,
    "Gradient for Hinge Loss": z = y f; z ≥ 1: no update; z < 1: θ += η y x). Elementwise
    on arrays too."""
    return y * f < 1.0


@jit_inline
def crammer_singer(cost, f, yi):
    """ŷ = argmax_y' Δ(y', y) + f_y' − f_y over y' ≠ y when that maximum is > 0, else −1 (no
    hinge term): 000 "SGD for Multiclass Learning", 001 "Stochastic SbGD for the MC case".
    ``cost`` is the matrix Δ, ``f`` the K scores of the example, ``yi`` its class y."""
    fy = f[yi]
    best = 0.0
    yhat = -1
    for k in range(f.shape[0]):
        if k != yi:
            v = cost[yi, k] + f[k] - fy
            if v > best:
                best = v
                yhat = k
    return yhat


@jit_inline
def subgradient_terms(binary, yi, y_sign_i, yhat):
    """The rows the step moves for one violating example and their signs, as
    (count, row₀, sign₀, row₁, sign₁): w_row += sign·(η/k)·φ(x). Binary hinge (004): w += η
    y x. Multiclass (000): v = Ψ(x, ŷ) − Ψ(x, y) and w ← w − ηv touch only w_y (+) and w_ŷ
    (−)."""
    if binary:
        return 1, 0, y_sign_i, 0, 0.0
    return 2, yi, 1.0, yhat, -1.0


@jit_inline
def projection_factor(norm2, radius):
    """The factor that projects w onto the ball ‖w‖ ≤ B (002, projected gradient; Pegasos'
    B = 1/√λ, in which w* lies): B/‖w‖ outside the ball, else 1. ``radius`` 0: no ball."""
    if radius > 0.0 and norm2 > radius * radius:
        return radius / np.sqrt(norm2)
    return 1.0


def pegasos_beta(alpha, lam, t):
    """β⁽ᵗ⁾ = λ t α⁽ᵗ⁾, the count of kernel Pegasos (003: α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt), β_i += y_i for a
    violating sample): α⁽ᵗ⁾ is the iterate before step t, α⁽ᵗ⁺¹⁾ the one after it."""
    return alpha * lam * t


def projection_radius(radius, project, algorithm, lam, cost):
    """B of the ball ‖w‖ ≤ B the steps are projected onto (0: none): a given B for SGD or
    with ``project``; else, projecting, ‖w*‖ ≤ √(Δmax/λ), 1/√λ for the binary hinge (002,
    Pegasos), with Δ the ``cost`` matrix."""
    if radius is not None:
        return float(radius) if (project or algorithm == "sgd") else 0.0
    if project:
        return float(np.sqrt(cost.max() / lam))
    return 0.0


def python():
    """These rules as plain Python functions (no compiler, so no wait for one; the
    elementwise ones take numpy arrays): what the explainer and the step view call."""
    return python_version(sys.modules[__name__])
