"""SolverConfig: every choice of the engine, validated with messages a user can act on."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace

from svmviz.core.errors import InputError, counted, shown
from svmviz.core.kernels import Kernel
from svmviz.core.limits import BOUNDS, MAX_ITERATIONS, MAX_WHOLE  # noqa: F401  (re-exported)

# the problems and losses (their registry: svmviz.core.problems), under the names the
# rest of the program imports from here; NU_SCALED: the problems whose objective fixes the
# scale of w (½‖w‖², no λ): ν takes λ's place
from svmviz.core.problems import (  # noqa: F401  (re-exported)
    BINARY_LOSSES,
    COST_LOSSES,
    HARD_MARGIN_LOSSES,
    MULTICLASS_LOSSES,
    NU_SCALED,
    PROBLEMS,
    REGRESSION,
)

ALGORITHMS = ("gd", "sgd", "pegasos")
SCHEDULES = ("auto", "constant", "inv_t", "inv_sqrt_t", "pegasos")
SAMPLINGS = ("uniform", "shuffle")
AVERAGES = ("last", "uniform", "weighted")
BIASES = ("free", "regularized", "none")
MARGINS = ("soft", "hard")

# A hard margin has no λ of its own: it is solved as the soft problem with the λ that has the
# same solution. Any C = 1/(λm) ≥ max α (α the exact hard dual, svmviz.core.training.reference) has
# it (exact penalty); C is taken a little above max α, for rounding: λ =
# HARD_MARGIN_LAM_FACTOR/(m·max α). The λ setting waits for a soft margin. The panel, the
# step inspector, `svmviz train` and the model file show that λ and say so in the words
# HARD_MARGIN_LAM; HARD_MARGIN_LAM_RULE is the rule in words (for a tooltip).
HARD_MARGIN_LAM_FACTOR = 0.9
HARD_MARGIN_LAM = "set from the data"
HARD_MARGIN_LAM_RULE = (
    f"λ = {HARD_MARGIN_LAM_FACTOR:g}/(m·max α), α the exact hard-margin dual: "
    "C = 1/(λm) just above max α, where the soft margin's solution is the hard one"
)


@dataclass(frozen=True)
class SolverConfig:
    """What to solve and how.

    Problem: ``problem`` (svc, nu-svc, one-class, epsilon-svr, nu-svr), ``loss`` (the
    binary svc loss), ``multiclass`` (the multiclass svc loss), ``epsilon`` (ε of ε-SVR),
    ``nu`` (ν of the ν problems), ``margin``, ``lam`` (λ; ν-SVC and one-class have ½‖w‖²
    and ignore it), ``bias`` mode (one-class ignores it: ρ is its offset), ``kernel``,
    ``cost`` (Δ of the crammer_singer and weston_watkins losses, rows = true class,
    columns = predicted class; None for 0-1).
    Algorithm: ``algorithm`` (gd: full-batch subgradient descent, 001; sgd: stochastic
    subgradient, 004 and 000; pegasos: η_t = 1/(λ t), 002 and 003), ``schedule`` and
    ``eta`` (η₀), ``sampling``, ``batch`` (k), ``average`` (which iterate is the output),
    ``project`` and ``radius`` (projection onto the ball ‖w‖ ≤ B, 002).
    Run: ``iterations`` (budget), ``tol`` (004's stopping rule: stop when the objective or
    w changes by less than tol, relatively, over one check window; 0 turns it off), ``seed``.
    """

    problem: str = "svc"
    loss: str = "hinge"
    multiclass: str = "crammer_singer"
    epsilon: float = 0.1
    nu: float = 0.5
    margin: str = "soft"
    lam: float = 0.01
    bias: str = "free"
    kernel: Kernel = field(default_factory=Kernel)
    cost: tuple | None = None
    algorithm: str = "pegasos"
    schedule: str = "auto"
    eta: float = 0.1
    sampling: str = "uniform"
    batch: int = 1
    average: str = "weighted"
    project: bool = False
    radius: float | None = None
    iterations: int = 50000
    tol: float = 0.0
    seed: int = 0

    def __post_init__(self):
        for name in ("epsilon", "nu", "lam", "eta", "tol"):  # −0 given is 0 (said, stored)
            if isinstance(getattr(self, name), float) and getattr(self, name) == 0:
                object.__setattr__(self, name, 0.0)

        def choose(name, value, options):
            if value not in options:
                raise InputError(f"{name} must be one of {', '.join(options)}, not {shown(value)}")

        choose("problem", self.problem, PROBLEMS)
        choose("loss", self.loss, BINARY_LOSSES)
        choose("multiclass", self.multiclass, MULTICLASS_LOSSES)
        choose("margin", self.margin, MARGINS)
        choose("bias", self.bias, BIASES)
        choose("algorithm", self.algorithm, ALGORITHMS)
        choose("schedule", self.schedule, SCHEDULES)
        choose("sampling", self.sampling, SAMPLINGS)
        choose("average", self.average, AVERAGES)
        if not isinstance(self.kernel, Kernel):
            raise InputError("kernel must be a Kernel")
        BOUNDS["lam"].check(self.lam)
        self._check_problem()
        if self.margin == "soft" and self.algorithm == "pegasos" and self.lam_used == 0:
            raise InputError("Pegasos needs λ > 0 (its step is 1/(λt)); use sgd or gd for λ = 0")
        if self.schedule == "pegasos" and self.lam_used == 0 and self.margin == "soft":
            raise InputError("the Pegasos step 1/(λt) needs λ > 0")
        for name in ("eta", "batch", "iterations", "tol"):
            BOUNDS[name].check(getattr(self, name))
        if self.radius is not None:
            BOUNDS["radius"].check(self.radius)
        BOUNDS["seed"].check(self.seed)
        if self.project and self.radius is None and self.lam_used == 0:
            raise InputError("projection needs a radius B when λ = 0 (the default is √(Δmax/λ))")

    def _check_problem(self) -> None:
        """The combinations of problem, losses, ε, ν, margin and Δ that make a problem."""
        BOUNDS["epsilon"].check(self.epsilon)
        BOUNDS["nu"].check(self.nu)
        if self.problem != "svc":
            for name, value, default in (
                ("loss", self.loss, "hinge"),
                ("multiclass loss", self.multiclass, "crammer_singer"),
            ):
                if value != default:
                    raise InputError(
                        f"the {name} {value} applies to the svc problem, not {self.problem}"
                    )
        hard = HARD_MARGIN_LOSSES
        if self.margin == "hard" and (self.problem != "svc" or self.loss not in hard):
            what = self.problem if self.problem != "svc" else f"the {self.loss} loss"
            binary = " or ".join(n for n in BINARY_LOSSES if n in hard)
            raise InputError(f"a hard margin is a {binary}-loss svc; {what} has a soft one only")
        if self.margin == "hard" and self.multiclass not in hard:
            multiclass = " or ".join(n for n in MULTICLASS_LOSSES if n in hard)
            raise InputError(
                f"a hard margin is a {multiclass} svc; {self.multiclass} has a soft one only"
            )
        costs = COST_LOSSES
        if self.cost is not None and not (self.problem == "svc" and self.multiclass in costs):
            what = self.multiclass if self.problem == "svc" else self.problem
            raise InputError(
                f"a cost matrix Δ applies to the {' and '.join(costs)} losses, not {what}"
            )

    @property
    def lam_used(self) -> float:
        """λ of the objective: 1 for ν-SVC and one-class (½‖w‖², ν in λ's place)."""
        return 1.0 if self.nu_scaled else self.lam

    @property
    def nu_scaled(self) -> bool:
        """The objective has ½‖w‖² and ν in λ's place (ν-SVC, one-class: NU_SCALED)."""
        return self.problem in NU_SCALED

    @property
    def kind(self) -> str:
        """binary-or-multiclass svc ("svc"), "regression" or "one-class"."""
        if self.problem in REGRESSION:
            return "regression"
        return "one-class" if self.problem == "one-class" else "svc"

    def replace(self, **changes) -> SolverConfig:
        return replace(self, **changes)

    @classmethod
    def from_dict(cls, d, where: str) -> SolverConfig:
        """A configuration from ``to_dict``'s form (any subset of the fields; the others
        keep their defaults); an InputError names ``where`` and the setting."""
        if not isinstance(d, dict):
            raise InputError(f"{where}: 'config' must be an object")
        unknown = set(d) - {f.name for f in fields(cls)}
        if unknown:
            names = ", ".join(shown(k) for k in sorted(unknown)[:5])
            raise InputError(f"{where}: config: unknown setting(s) {names}")
        d = dict(d)
        # what the solver dock shows in a check box (its numbers: the ranges of BOUNDS)
        if not isinstance(d.get("project", False), bool):
            raise InputError(f"{where}: config: project must be true or false")
        try:
            if "kernel" in d:
                if not isinstance(d["kernel"], dict):
                    raise TypeError
                d["kernel"] = Kernel(**d["kernel"])
            if d.get("cost") is not None:
                d["cost"] = tuple(tuple(float(v) for v in row) for row in d["cost"])
            return cls(**d)
        except InputError as exc:
            raise InputError(f"{where}: config: {exc}") from None
        except (TypeError, ValueError, OverflowError):
            raise InputError(
                f"{where}: config: a setting has the wrong type (kernel: name, gamma, degree, "
                "coef0; cost: rows of numbers)"
            ) from None

    def to_dict(self) -> dict:
        d = asdict(self)
        d["kernel"] = self.kernel.to_dict()
        d["cost"] = None if self.cost is None else [list(r) for r in self.cost]
        return d


def nu_notice(nu: float, m: int) -> str:
    """What to say of a ν too small for m points to give a meaningful problem (νm < 1: ν
    then bounds no share of them, and one-class's steps grow as 1/(νm)); "" otherwise."""
    if nu * m >= 1:
        return ""
    return (
        f"ν = {nu:g} is too small for {counted(m, 'point')}: νm < 1, so ν bounds no share of them "
        f"(choose ν ≥ 1/m = {1 / m:.3g})"
    )
