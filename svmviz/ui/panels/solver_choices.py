"""The solver panel's choices: the tables of its drop-downs (field, label, options,
tooltip), each option's objective read from its loss module, and which choices make a
problem (a cost matrix Δ, a hard margin). Apart from the panel because the race table
offers the same choices with the same labels and tooltips."""

from __future__ import annotations

from svmviz.core.config import (
    ALGORITHMS,
    AVERAGES,
    BIASES,
    BINARY_LOSSES,
    MARGINS,
    MULTICLASS_LOSSES,
    PROBLEMS,
    SAMPLINGS,
    SCHEDULES,
    SolverConfig,
)
from svmviz.core.errors import InputError
from svmviz.core.solvers import losses
from svmviz.core.sources import cite

# the svc's losses (the other problems' module is the problem's own)
SVC_TIP = "C-SVC: λ/2‖w‖² + the mean of the binary or multiclass loss below"


def objective_tip(name: str) -> str:
    """The words and the per-example term of the loss or problem ``name``, from its module."""
    if name not in losses.MODULES:
        return SVC_TIP
    module = losses.MODULES[name]
    return f"{module.TITLE}: {module.FORMULA}"


def takes_cost(config: SolverConfig) -> bool:
    """Whether the loss in force on three classes or more takes a cost matrix Δ (the
    configuration says which do)."""
    if config.problem != "svc":
        return False
    try:
        config.replace(cost=((0.0, 1.0, 1.0), (1.0, 0.0, 1.0), (1.0, 1.0, 0.0)))
    except InputError:
        return False
    return True


def hard_allowed(config: SolverConfig) -> bool:
    """Whether a hard margin makes a problem with ``config``'s problem and losses."""
    try:
        config.replace(margin="hard")
    except InputError as exc:
        return "hard margin" not in str(exc)
    return True


# the choices of the problem: (field, label, options, tooltip)
PROBLEM_CHOICES = [
    ("problem", "Problem", PROBLEMS, "what to learn; each option's tooltip gives its objective"),
    ("loss", "Loss", BINARY_LOSSES, "the loss of two classes (binary)"),
    ("multiclass", "Multiclass", MULTICLASS_LOSSES, "the loss of three classes or more"),
]

# (field, label, options, tooltip) for the choice controls
CHOICES = [
    ("margin", "Margin", MARGINS, "soft: λ/2‖w‖² + mean hinge; hard: ½‖w‖² s.t. y f(x) ≥ 1"),
    (
        "algorithm",
        "Algorithm",
        ALGORITHMS,
        "gd: full-batch subgradient descent; sgd: one example a step; pegasos: SGD with "
        "η_t = 1/(λt) and an optional projection onto ‖w‖ ≤ 1/√λ",
    ),
    (
        "schedule",
        "Step η_t",
        SCHEDULES,
        "auto: 1/(λt) when λ > 0 (Pegasos' step), else η₀; constant η₀; η₀/t; η₀/√t; "
        "pegasos 1/(λt); the line below says the step in force",
    ),
    ("sampling", "Sampling", SAMPLINGS, "uniform: i at random each step; shuffle: passes"),
    (
        "average",
        "Output w̄",
        AVERAGES,
        f"last iterate; uniform average {cite('003')}; t-weighted average (fastest, measured)",
    ),
    (
        "bias",
        "Bias b",
        BIASES,
        "free: b not regularized (libsvm); regularized: b² in ‖w‖²; none: f = ⟨w, x⟩",
    ),
]


def problem_words(cfg: SolverConfig, n_classes: int, custom_cost: bool, targets: bool) -> str:
    """What the points make of the problem ``cfg`` (``n_classes``: the classes with points;
    ``targets``: the points carry targets), in words: the panel's line under Problem."""
    if cfg.kind == "one-class":
        text = f"{objective_tip(cfg.problem)} (the classes are ignored)"
    elif cfg.kind == "regression":
        inputs = "2-D inputs and their targets" if targets else "1-D: x is the input, y the target"
        text = f"{losses.MODULES[cfg.problem].TITLE}, {inputs}"
    elif n_classes < 2:
        text = "– (points of two classes needed)"
    elif n_classes == 2:
        module = losses.module_for(cfg, 2)
        text = f"binary (2 classes), {module.TITLE}"
    else:
        module = losses.module_for(cfg, n_classes)
        cost = ""
        if takes_cost(cfg):
            cost = ", custom Δ" if custom_cost else ", 0-1 cost"
        text = f"multiclass, {module.TITLE} ({n_classes} classes{cost})"
    return text
