"""What the compiled loop works on, bundled: the settings, the problem, the model's state,
the work buffers and the telemetry it writes. NamedTuples, which numba passes as structs,
so that a loop call takes a handful of arguments instead of forty positional ones.

Arrays are updated in place (a tuple's fields cannot be reassigned): the scale σ and the
exact bias's search state live in small arrays for that reason (``scal``, ``win``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Settings(NamedTuple):
    """The fixed numbers of a run (codes of :mod:`.rules`) and the loss's parameters, whose
    class selects the loss module (:mod:`.losses`)."""

    loss: tuple  # a loss module's parameters (a NamedTuple)
    exact_bias: bool  # the loss's EXACT_BIAS: the binary hinge's exact bias searches apply
    fused_bias: bool  # the loss's FUSED_BIAS: a multiclass free bias by _bias.bias_descent
    offsets: bool  # the loss has offsets ρ or ε, set from the scores after every step
    binary: bool
    linear: bool
    free_bias: bool  # b not regularized (exact for binary problems, see :mod:`._bias`)
    screened: bool  # linear binary: telemetry and bias check by screening (:mod:`._screen`)
    lam: float
    schedule: int
    eta0: float
    average: int
    radius: float  # of the projection ball, 0: none
    # the output model's loss, error and objective: at every step, at none (NaN in their
    # rows) or at the checkpoints (rules.EVERY, NONE, CHECKPOINTS), where they cost an
    # O(mK) pass; the screened linear binary telemetry is always kept
    record: int = 1


class Problem(NamedTuple):
    """The training set in the solver's features; fixed after :meth:`Solver.reset`."""

    y: np.ndarray  # (m,) class indices
    y_sign: np.ndarray  # (m,) ±1 for binary problems, the target for regression, else 0
    cost: np.ndarray  # (K, K) Δ(y, y')
    PhiT: np.ndarray  # (p, m) features of linear models, (0, m) for kernel ones
    G: np.ndarray  # (m, m) Gram matrix of kernel models, (0, 0) for linear ones
    Z: np.ndarray  # (p+1, m) ζ_j = y_j(φ_j, 1) of the screens, (p+1, 0) when not screened
    zn: np.ndarray  # ‖ζ_j‖


class State(NamedTuple):
    """The model (K outputs: 1 for binary problems). The iterate is W (linear) or the
    coefficients A with the training scores S = A G (kernel), all times ``scal[0]`` (so the
    shrink (1 − ηλ) is O(1)); ``b`` its bias. The averaged output is Wbar or Abar and Sbar
    (unscaled), with bbar. ``win``: the exact bias and the window of its last search."""

    A: np.ndarray  # (K, m)
    W: np.ndarray  # (K, p)
    S: np.ndarray  # (K, m)
    b: np.ndarray  # (K,)
    Abar: np.ndarray
    Wbar: np.ndarray
    Sbar: np.ndarray
    bbar: np.ndarray
    off: np.ndarray  # (2,) the offsets ρ and ε where the problem has them
    offbar: np.ndarray
    scal: np.ndarray  # (2,): σ, and the kernel's αᵀKα of the stored A (the loop keeps it)
    # (8,): the hinge's exact bias and its search's width (_bias), then the last answer,
    # window and move of two quantiles of the offsets (losses._common.lower_quantile)
    win: np.ndarray


class Work(NamedTuple):
    """Scratch buffers and the screens' state (:mod:`._screen`: screen 0 follows the output
    model, screen 1 the iterate with the previous b). U (n+1)×(p+1) records the output model
    of each iteration for screen 0, which evaluates them all after the loop; its last row is
    screen 1's work row."""

    F: np.ndarray  # (K, m) scores
    r: np.ndarray  # (4m,) for the bias and offset searches
    sc_P: np.ndarray
    sc_S: np.ndarray
    sc_st: np.ndarray
    buckets: np.ndarray
    U: np.ndarray


class Record(NamedTuple):
    """The telemetry of a run, one row per iteration (views into the History)."""

    objective: np.ndarray
    loss: np.ndarray
    error: np.ndarray
    norm: np.ndarray
    violations: np.ndarray
    rho: np.ndarray  # the offsets of the output model
    epsilon: np.ndarray
    flags: np.ndarray  # (n, batch): which sampled examples had a hinge term


def new_state(K: int, m: int, p: int) -> State:
    """w = 0, σ = 1."""
    return State(
        A=np.zeros((K, m)),
        W=np.zeros((K, p)),
        S=np.zeros((K, m)),
        b=np.zeros(K),
        Abar=np.zeros((K, m)),
        Wbar=np.zeros((K, p)),
        Sbar=np.zeros((K, m)),
        bbar=np.zeros(K),
        off=np.zeros(2),
        offbar=np.zeros(2),
        scal=np.array([1.0, 0.0]),
        win=np.zeros(8),
    )


def carry_over(A, params, old_X, old_y, X, y) -> None:
    """A[:, j] = the coefficients α of point j of (X, y) in ``params``, a kernel model on
    (old_X, old_y), for the points still present unchanged (same coordinates and class);
    moved or new points keep A's value."""

    def keys(X, y):
        return [(*x, c) for x, c in zip(X.tolist(), y.tolist(), strict=True)]

    old = {key: i for i, key in enumerate(keys(old_X, old_y))}
    for j, key in enumerate(keys(X, y)):
        i = old.get(key)
        if i is not None:
            A[:, j] = params[:, i]
