"""The exact optimum of the same problem the iterative solvers minimize.

Every problem is solved by its loss module's ``reference``
(:mod:`svmviz.core.solvers.losses`): the binary hinge by libsvm for kernels with a free
bias (polished in double precision on its own active set, since libsvm caches its kernel
in single precision), else, like the Crammer–Singer loss, by an interior-point QP
(Clarabel); every other problem by a conic program (:mod:`.losses._exact`: QPs, and
exponential cones for the logistic and softmax losses). The kernel is factored once,
K = F Fᵀ, so every problem is a linear one in the r columns of F.

Every answer is certified: ``lower`` is a lower bound on the optimum from a feasible dual
point (weak duality), so the optimum lies in [lower, objective]. The returned objective is
evaluated by :mod:`svmviz.core.objectives` at the returned model, the same definition the
solvers use; a hard margin's is ½‖w‖² + C Σ ξ with the λ its model carries.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.limits import check_coordinates
from svmviz.core.model_io import Model
from svmviz.core.objectives import model_objective
from svmviz.core.solvers import losses
from svmviz.core.training.nu_bounds import NuShares, nu_shares


@dataclass(frozen=True)
class Reference:
    objective: float
    model: Model
    method: str
    seconds: float
    lam_hard: float | None = None  # hard margin: λ with the same soft solution
    margin: float | None = None  # hard margin: 1/‖w‖ (geometric margin)
    lower: float = -np.inf  # a certified lower bound on the optimum (weak duality)
    nu_shares: NuShares | None = None  # a ν problem: the shares that ν bounds


def exact_optimum(config: SolverConfig, data: Dataset) -> Reference:
    """Solve the problem of ``config`` on ``data`` exactly: its loss module's ``reference``.

    Raises :class:`NotSeparableError` for a hard margin on data that are not separable,
    and :class:`InputError` when the problem has no optimum (an indefinite sigmoid kernel).
    """
    start = time.perf_counter()
    X = np.asarray(data.X, dtype=float)
    check_coordinates(X, lambda i: f"point {i + 1}")
    module = losses.module_for(config, data.n_classes)
    model, lower, method = module.reference(config, data)
    obj = model_objective(model, X, data.y, data.target)
    lam_hard = margin = None
    if config.margin == "hard":
        lam_hard = model.lam  # the λ whose soft problem has the hard solution
        n2 = model.norm2()
        # the exact penalty form the solver reports: ½‖w‖² + C Σ ξ = soft objective / λ
        objective = 0.5 * n2 + obj["loss"] / lam_hard
        margin = 1.0 / np.sqrt(n2) if n2 > 0 else np.inf
    else:
        objective = obj["objective"]
    seconds = time.perf_counter() - start
    lower = min(lower, objective)
    return Reference(
        objective, model, method, seconds, lam_hard, margin, lower, nu_shares(model, data)
    )
