"""Results of the source texts, evaluated on the current data and model.

* Rademacher complexity of the ball ‖f‖ ≤ B in the RKHS of k (002, "Risk bounds for SVMs"):
  E[‖R_n‖ | X] ≤ (B/√n)·√(tr K/n), tr K = Σ_i k(x_i, x_i).
* UML Corollary 17.2 (000): with ‖w*‖ ≤ B and subgradients bounded by ρ, T ≥ B²ρ²/ε²
  iterations of SGD with η = √(B²/(ρ²T)) give an expected suboptimality ≤ ε (λ = 0).
* Pegasos (002): the averaged iterate's suboptimality is O(G² log T/(λT)); with the constant of
  the strongly convex regret bound for η_t = 1/(λt), G²(1 + ln T)/(2λT), G bounding the
  subgradients (here √(λ)·(1/√λ) + ρ = 1 + ρ on the ball ‖w‖ ≤ 1/√λ that holds w*, with ρ
  the loss's subgradient bound: R, the largest ‖x‖ in the features, for the hinge; a bound on
  the *expected* gap).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from svmviz.core.data import Dataset
from svmviz.core.kernels import Kernel


@dataclass(frozen=True)
class Bounds:
    n: int
    trace: float  # tr K
    R: float  # max_i √k(x_i, x_i): the largest feature norm
    # the subgradient bound of Corollary 17.2: the loss's (its module's subgradient_bound:
    # R for the hinge, 2R for Crammer–Singer, R/ν for one-class); None for a loss that has
    # none (the squared hinge), where the corollary does not apply
    rho: float | None
    B: float  # ‖w‖ used by the Rademacher bound (the current model's)
    rademacher: float  # (B/√n)·√(tr K/n)
    B_star: float | None  # ‖w*‖ of the exact optimum, for Corollary 17.2
    epsilon: float
    T_needed: int | None  # Corollary 17.2's T for ε
    eta: float | None  # and its step size
    lam: float
    T: int  # iterations done
    pegasos: float | None  # G²(1 + ln T)/(2λT), for λ > 0 and T ≥ 1


def feature_norms(data: Dataset, kernel: Kernel, bias: str) -> np.ndarray:
    """√k(x_i, x_i) (plus the constant feature of a regularized bias)."""
    diag = kernel.diag(data.X)
    if bias == "regularized":
        diag = diag + 1.0
    return np.sqrt(np.maximum(diag, 0.0))


def evaluate(
    data: Dataset,
    kernel: Kernel,
    bias: str,
    norm: float,
    optimum_norm: float | None,
    lam: float,
    T: int,
    epsilon: float,
    lipschitz: Callable[[float], float | None] | None = None,
) -> Bounds:
    """Every figure above for the data, the model's ‖w‖ = ``norm`` and ``optimum_norm``;
    ``lipschitz(R)``: the loss's subgradient bound for feature norms up to R (by default
    the hinge's: R binary, 2R multiclass)."""
    r = feature_norms(data, kernel, bias)
    n = len(r)
    trace = float(np.sum(r**2))
    R = float(r.max()) if n else 0.0
    rho: float | None
    if lipschitz is None:
        rho = R if data.n_classes == 2 else 2.0 * R
    else:
        rho = lipschitz(R)
    rademacher = norm / math.sqrt(n) * math.sqrt(trace / n) if n else math.nan
    T_needed = eta = None
    if optimum_norm is not None and epsilon > 0 and rho is not None and rho > 0:
        T_needed = max(1, math.ceil(optimum_norm**2 * rho**2 / epsilon**2))
        eta = math.sqrt(optimum_norm**2 / (rho**2 * T_needed))
    pegasos = None
    if lam > 0 and T >= 1 and rho is not None:
        G = 1.0 + rho
        pegasos = G**2 * (1.0 + math.log(T)) / (2.0 * lam * T)
    return Bounds(
        n, trace, R, rho, norm, rademacher, optimum_norm, epsilon, T_needed, eta, lam, T, pegasos
    )
