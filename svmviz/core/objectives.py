"""Primal objectives, losses and the 0-1 error, vectorized (the reference for everything else).

Binary (y ∈ {−1, +1}): λ/2‖w‖² + (1/m) Σ max(0, 1 − y_i f(x_i)) (001 "Soft SVM", 004).
Multiclass (Crammer–Singer, 000 and 001): λ/2 Σ_k‖w_k‖² + (1/m) Σ_i max_y' [Δ(y', y_i) +
f_y'(x_i) − f_{y_i}(x_i)], Δ(y_i, y_i) = 0 so each term is ≥ 0.
Hard margin (001 "Hard SVM"): ½‖w‖², +∞ where a constraint y_i f(x_i) ≥ 1 fails.
Every other problem (the other svc losses, SVR, one-class, ν-SVC) is evaluated by
:func:`model_objective` through its loss module's numpy ``losses`` (the one definition),
found in :data:`LOSS_MODULES`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np


def zero_one_cost(n_classes: int) -> np.ndarray:
    return 1.0 - np.eye(n_classes)


def losses(F: np.ndarray, y: np.ndarray, cost: np.ndarray | None) -> np.ndarray:
    """Per-example hinge (binary, F of shape (m,)) or generalized hinge (F of shape (m, K))."""
    if F.ndim == 1:
        s = np.where(y == 1, 1.0, -1.0)
        return np.maximum(0.0, 1.0 - s * F)
    m, K = F.shape
    if cost is None:
        cost = zero_one_cost(K)
    rows = np.arange(m)
    return np.max(cost[y] + F - F[rows, y][:, None], axis=1)


def errors(F: np.ndarray, y: np.ndarray) -> float:
    """0-1 training error of the decision values F."""
    pred = (F > 0).astype(np.int64) if F.ndim == 1 else np.argmax(F, axis=1)
    return float(np.mean(pred != y))


def hard_margin(norm2: float, F: np.ndarray, y: np.ndarray, cost=None, slack: float = 1e-9):
    """½‖w‖² if every margin constraint holds (to ``slack``), else +∞."""
    feasible = np.all(losses(F, y, cost) <= slack)
    return 0.5 * norm2 if feasible else np.inf


# the loss modules by name (:data:`svmviz.core.solvers.losses.MODULES`, which fills this
# on import: the solvers depend on this module, so it cannot import them)
LOSS_MODULES: dict = {}


def loss_module(model):
    """The loss module of a model of another problem than the hinge and Crammer–Singer svc."""
    name = model.problem if model.problem != "svc" else model.loss
    if name not in LOSS_MODULES:  # (a model of these problems comes from code that loads them)
        raise RuntimeError(f"the loss module of {name} is not loaded (svmviz.core.solvers)")
    return LOSS_MODULES[name]


def model_objective(model, X, y, target=None, margin: str = "soft") -> dict:
    """Objective, mean loss, error and ‖w‖ of a :class:`~svmviz.core.model_io.Model` on (X, y)
    (``target``: the real targets of a regression model). The soft objective is
    lam/2·‖w‖² + mean loss + the offset term of the problem (−ρ, −νρ, νε): the hinge and
    Crammer–Singer losses are this module's, every other one its loss module's (lam is 1
    for ν-SVC and one-class)."""
    return scores_objective(model, model.decision_function(X), y, target, model.norm2(), margin)


def scores_objective(model, F, y, target, n2: float, margin: str = "soft") -> dict:
    """:func:`model_objective` from the model's values ``F`` on the points and its ‖w‖²
    ``n2`` (a solver keeps both: no kernel is evaluated)."""
    if margin == "hard" or _own(model):
        loss = float(np.mean(losses(F, y, model.cost)))
        error = errors(F, y)
        if margin == "hard":
            obj = hard_margin(n2, F, y, model.cost)
        else:
            obj = 0.5 * model.lam * n2 + loss
    else:
        module = loss_module(model)
        model = _with_cost(model, module, F)
        loss = float(np.mean(module.losses(model, F, y, target)))
        error = module.errors(model, F, y, target)
        obj = 0.5 * model.lam * n2 + loss + module.offset_value(model)
    return {"objective": obj, "loss": loss, "error": error, "norm": float(np.sqrt(max(n2, 0.0)))}


def example_losses(model, F, y, target=None) -> tuple[np.ndarray, float]:
    """(each example's loss ℓ_i, the objective's offset term −ρ, −νρ or νε) of the soft
    problem of ``model`` for its values ``F`` (m,) or (m, K): what :func:`scores_objective`
    averages, for callers that evaluate many models at once (rows of F stacked)."""
    if _own(model):
        return losses(F, y, model.cost), 0.0
    module = loss_module(model)
    model = _with_cost(model, module, F)
    return module.losses(model, F, y, target), float(module.offset_value(model))


def _own(model) -> bool:
    """The hinge and Crammer–Singer losses, which this module evaluates itself."""
    return model.problem == "svc" and model.loss in (None, "hinge", "crammer_singer")


def _with_cost(model, module, F):
    if module.KIND == "multiclass" and model.cost is None:
        return replace(model, cost=zero_one_cost(F.shape[1]))
    return model
