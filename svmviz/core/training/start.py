"""A start w₀ that training begins from instead of w = 0 (linear models).

A :class:`Start` is a point in weight space: one row of weights per output (K = 1 for a
binary or single-output problem, the number of classes for a multiclass one), their
biases, and the iteration t0 the run pretends to be at. The step sizes go on from t0: a
Pegasos step η_t = 1/(λ(t + 1)) (svmviz.core.solvers.rules.step_size) at t = 0 shrinks w by
1 − ηλ = 0 and would wipe w₀ out, so a start sits at t0 ≥ 1 (:func:`start_t0`: one pass
over the points). It is applied after ``Solver.reset`` by
``Solver.warm_from`` (:func:`apply_start`), and kept in the session file (``to_dict``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError, finite_number, shown
from svmviz.core.limits import BOUNDS, MAX_COORDINATE, MAX_NAME
from svmviz.core.palette import MAX_CLASSES

MAX_DIMENSION = 1_000  # weights per row a file may hold


@dataclass(frozen=True, eq=False)
class Start:
    """w₀ = ``W`` (K, d) and b₀ = ``b`` (K,), training's steps sized as at iteration
    ``t0`` ≥ 1; ``classes``: the classes of the problem it was set for (() for one
    without classes), to tell when the problem changed under it."""

    W: np.ndarray
    b: np.ndarray
    t0: int
    classes: tuple = field(default=())

    def __post_init__(self):
        W = np.array(self.W, dtype=float, ndmin=2)
        b = np.array(self.b, dtype=float, ndmin=1)
        object.__setattr__(self, "W", W)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "classes", tuple(self.classes))
        check(W, b, self.t0, self.classes, "the start")
        W.flags.writeable = False
        b.flags.writeable = False

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Start)
            and np.array_equal(self.W, other.W)
            and np.array_equal(self.b, other.b)
            and (self.t0, self.classes) == (other.t0, other.classes)
        )

    __hash__ = None

    def to_dict(self) -> dict:
        return {
            "W": self.W.tolist(),
            "b": self.b.tolist(),
            "t0": int(self.t0),
            "classes": list(self.classes),
        }

    @classmethod
    def from_dict(cls, d, where: str = "start") -> Start:
        if not isinstance(d, dict) or set(d) - {"W", "b", "t0", "classes"}:
            raise InputError(f"{where}: the start must be {{'W': rows, 'b': numbers, 't0': n}}")
        W, b = d.get("W"), d.get("b")
        rows = isinstance(W, list) and all(isinstance(r, list) for r in W)
        if not rows or not all(finite_number(v) for r in W for v in r):
            raise InputError(f"{where}: the start's W must be rows of finite numbers")
        if len({len(r) for r in W}) > 1:
            raise InputError(f"{where}: the start's W rows must have the same length")
        if not isinstance(b, list) or not all(finite_number(v) for v in b):
            raise InputError(f"{where}: the start's b must be a list of finite numbers")
        classes = d.get("classes", [])
        if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes):
            raise InputError(f"{where}: the start's classes must be a list of names")
        t0 = d.get("t0")
        if not isinstance(t0, int) or isinstance(t0, bool):
            raise InputError(f"{where}: the start's t0 must be a whole number, not {shown(t0)}")
        try:
            return cls(np.array(W, dtype=float), np.array(b, dtype=float), t0, tuple(classes))
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None

    @property
    def outputs(self) -> int:
        return self.W.shape[0]

    def misfit(self, config: SolverConfig, data: Dataset) -> str | None:
        """Why this start cannot begin ``config``'s training on ``data`` (None: it can)."""
        if not config.kernel.is_linear:
            return f"the kernel is {config.kernel.name} (a start is a linear model's w)"
        K = data.n_classes if config.kind == "svc" else 1
        outputs = K if K > 2 else 1
        classes = data.classes if config.kind == "svc" else ()
        if tuple(classes) != self.classes or outputs != self.outputs:
            return "the classes changed"
        if data.X.shape[1] != self.W.shape[1]:
            return f"the points are {data.X.shape[1]}-D now (the start's w is {self.W.shape[1]}-D)"
        return None


def check(W: np.ndarray, b: np.ndarray, t0, classes: tuple, where: str) -> None:
    """Raise InputError saying what is wrong with a start's parts."""
    if W.ndim != 2 or not 1 <= W.shape[0] <= MAX_CLASSES:
        raise InputError(f"{where}: W must have 1 to {MAX_CLASSES} rows (one per output)")
    if not 1 <= W.shape[1] <= MAX_DIMENSION:
        raise InputError(f"{where}: W's rows must hold 1 to {MAX_DIMENSION} weights")
    if b.shape != (W.shape[0],):
        raise InputError(f"{where}: b must hold one number per row of W ({W.shape[0]})")
    if not (np.all(np.isfinite(W)) and np.all(np.isfinite(b))):
        raise InputError(f"{where}: W and b must be finite")
    if np.max(np.abs(W), initial=0.0) > MAX_COORDINATE or np.max(np.abs(b)) > MAX_COORDINATE:
        raise InputError(f"{where}: W and b must be at most {MAX_COORDINATE:g} in size")
    BOUNDS["t0"].check(t0, where)  # (the iteration its steps are sized at)
    if classes and (
        any(not isinstance(c, str) or len(c) > MAX_NAME for c in classes)
        or len(classes) != (W.shape[0] if W.shape[0] > 1 else 2)
    ):
        raise InputError(
            f"{where}: classes must name the problem's classes (two for one row of W, one "
            "per row otherwise)"
        )


def start_t0(m: int) -> int:
    """The iteration a start's steps are sized at: one pass over the ``m`` training points
    (at least 1, at most the largest t0 a file takes), whatever t the last run reached.
    Pegasos' η_t = 1/(λt) (002, "strongly convex case"; 003, "α⁽ᵗ⁾ = β⁽ᵗ⁾/(λt)") sized as at
    t = m moves w₀ about as a run from w = 0 moves its w after a pass, so a start reaches the
    gap of that run within the same budget; sized as at the end of a long run they would
    barely move w₀, and the average w̄ would keep it as the mean of t0 iterates."""
    return int(min(max(1, m), BOUNDS["t0"].high))


def apply_start(solver, start: Start) -> None:
    """Put ``solver`` (just reset) at ``start`` through ``Solver.warm_from``, its t at
    ``start.t0``; a start that does not fit the solver's problem is an InputError. With
    bias ``none`` the model has no b: b₀ is dropped."""
    if not solver.linear_:
        raise InputError("a start w₀ is for linear models (this one has a kernel)")
    if start.outputs != solver.n_out_ or start.W.shape[1] != solver.d_:
        raise InputError(
            f"the start w₀ ({start.outputs}×{start.W.shape[1]}) does not fit this problem "
            f"({solver.n_out_} outputs, {solver.d_}-D points)"
        )
    W, b = start.W, start.b
    params, bias = W, np.zeros_like(b)
    if solver.bias_ == "regularized":  # the bias is the weight of a constant feature 1
        params = np.hstack([W, b[:, None]])
    elif solver.bias_ == "free":
        bias = b
    state = dict(
        linear=True,
        p=params.shape[1],
        classes=solver.data_.classes,
        params=params.copy(),
        b=bias.copy(),
        problem=solver.config.problem,
        t=int(start.t0),
    )
    if not solver.warm_from(state):
        raise InputError("the start w₀ does not fit this problem (train from w = 0)")
