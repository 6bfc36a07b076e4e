"""Which settings a configuration's training ignores, and the step size it takes, in words.

What the solver does with them is in svmviz.core.solvers.rules (``choose_schedule``,
``projection_radius``) and the solver's sampler: Pegasos always steps 1/(λt); ``auto`` is
1/(λt) as well when λ > 0, so SGD on ``auto`` is Pegasos without its projection; full-batch
GD samples nothing. The solver panel disables what is ignored and says the step in force.
"""

from __future__ import annotations

from svmviz.core.config import SolverConfig
from svmviz.core.sources import cite

PEGASOS_WORDS = (
    "Pegasos is SGD with η_t = 1/(λt) plus an optional projection onto the ball "
    "‖w‖ ≤ 1/√λ " + cite("002: Pegasos")
)


def _regularized(config: SolverConfig) -> bool:
    """λ > 0 in the objective (a hard margin's λ, set from the data, always is)."""
    return config.margin == "hard" or config.lam_used > 0


def steps_as_pegasos(config: SolverConfig) -> bool:
    """Whether ``config``'s training steps η_t = 1/(λt), Pegasos' step: Pegasos always,
    the schedules ``pegasos``, and ``auto`` when λ > 0."""
    rule = "pegasos" if config.algorithm == "pegasos" else config.schedule
    return rule == "pegasos" or (rule == "auto" and _regularized(config))


def ignored(config: SolverConfig) -> dict[str, str]:
    """The training settings ``config``'s run does not read, each with why: changing one
    changes nothing that is trained."""
    out = {}
    if config.algorithm == "pegasos":
        out["schedule"] = "Pegasos always steps 1/(λt)"
    if config.algorithm == "gd":
        why = "full-batch GD takes every point each step: nothing is sampled"
        out.update(sampling=why, batch=why, seed=why)
    if steps_as_pegasos(config):
        out["eta"] = "the step is 1/(λt), without η₀"
    rule = "pegasos" if config.algorithm == "pegasos" else config.schedule
    corollary = rule == "auto" and not _regularized(config)  # B/(ρ√T) with a radius B
    if not (config.project or config.algorithm == "sgd" or corollary):
        out["radius"] = "B is read only when projecting"
    return out


def step_rule(config: SolverConfig) -> str:
    """The step size η_t ``config``'s training takes, in words."""
    if config.algorithm == "pegasos":
        return "η_t = 1/(λt), Pegasos' step"
    if config.schedule == "auto":
        if _regularized(config):
            return "auto = 1/(λt), Pegasos' step (sgd: Pegasos without its projection)"
        return "auto = η₀ constant (λ = 0; with a radius B: B/(ρ√T), UML Corollary 17.2)"
    return {
        "constant": "η_t = η₀",
        "inv_t": "η_t = η₀/t",
        "inv_sqrt_t": "η_t = η₀/√t",
        "pegasos": "η_t = 1/(λt), Pegasos' step",
    }[config.schedule]
