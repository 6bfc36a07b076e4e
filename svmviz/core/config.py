"""SolverConfig: every choice of the engine, validated with messages a user can act on."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields, replace

from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel

ALGORITHMS = ("gd", "sgd", "pegasos")
SCHEDULES = ("auto", "constant", "inv_t", "inv_sqrt_t", "pegasos")
SAMPLINGS = ("uniform", "shuffle")
AVERAGES = ("last", "uniform", "weighted")
BIASES = ("free", "regularized", "none")
MARGINS = ("soft", "hard")
# every iteration keeps a telemetry row (~60 bytes at batch 1): 2e7 rows are about 1.2 GB
MAX_ITERATIONS = 20_000_000


@dataclass(frozen=True)
class SolverConfig:
    """What to solve and how.

    Problem: ``margin``, ``lam`` (λ), ``bias`` mode, ``kernel``, ``cost`` (Δ, rows = true
    class, columns = predicted class; None for 0-1).
    Algorithm: ``algorithm`` (gd: full-batch subgradient descent, 001; sgd: stochastic
    subgradient, 004 and 000; pegasos: η_t = 1/(λ t), 002 and 003), ``schedule`` and
    ``eta`` (η₀), ``sampling``, ``batch`` (k), ``average`` (which iterate is the output),
    ``project`` and ``radius`` (projection onto the ball ‖w‖ ≤ B, 002).
    Run: ``iterations`` (budget), ``tol`` (004's stopping rule: stop when the objective or
    w changes by less than tol, relatively, over one check window; 0 turns it off), ``seed``.
    """

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
        def choose(name, value, options):
            if value not in options:
                raise InputError(f"{name} must be one of {', '.join(options)}, not {value!r}")

        choose("margin", self.margin, MARGINS)
        choose("bias", self.bias, BIASES)
        choose("algorithm", self.algorithm, ALGORITHMS)
        choose("schedule", self.schedule, SCHEDULES)
        choose("sampling", self.sampling, SAMPLINGS)
        choose("average", self.average, AVERAGES)
        if not isinstance(self.kernel, Kernel):
            raise InputError("kernel must be a Kernel")
        if not _finite(self.lam) or self.lam < 0:
            raise InputError(f"λ (lam) must be a number ≥ 0, not {self.lam}")
        if self.margin == "soft" and self.algorithm == "pegasos" and self.lam == 0:
            raise InputError("Pegasos needs λ > 0 (its step is 1/(λt)); use sgd or gd for λ = 0")
        if self.schedule == "pegasos" and self.lam == 0 and self.margin == "soft":
            raise InputError("the Pegasos step 1/(λt) needs λ > 0")
        if not _finite(self.eta) or self.eta <= 0:
            raise InputError(f"the step size η must be a number > 0, not {self.eta}")
        if int(self.batch) != self.batch or self.batch < 1:
            raise InputError(f"the batch size must be a whole number ≥ 1, not {self.batch}")
        if int(self.iterations) != self.iterations or self.iterations < 1:
            raise InputError(f"iterations must be a whole number ≥ 1, not {self.iterations}")
        if self.iterations > MAX_ITERATIONS:
            raise InputError(
                f"iterations must be at most {MAX_ITERATIONS:,} (each one keeps a row of "
                f"telemetry), not {self.iterations:,}"
            )
        if not _finite(self.tol) or self.tol < 0:
            raise InputError(f"the tolerance must be a number ≥ 0, not {self.tol}")
        if self.radius is not None and (not _finite(self.radius) or self.radius <= 0):
            raise InputError(f"the projection radius B must be > 0, not {self.radius}")
        if self.project and self.radius is None and self.lam == 0:
            raise InputError("projection needs a radius B when λ = 0 (the default is √(Δmax/λ))")

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
            raise InputError(f"{where}: config: unknown setting(s) {', '.join(sorted(unknown))}")
        d = dict(d)
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
        except (TypeError, ValueError):
            raise InputError(
                f"{where}: config: a setting has the wrong type (kernel: name, gamma, degree, "
                "coef0; cost: rows of numbers)"
            ) from None

    def to_dict(self) -> dict:
        d = asdict(self)
        d["kernel"] = self.kernel.to_dict()
        d["cost"] = None if self.cost is None else [list(r) for r in self.cost]
        return d


def _finite(x) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False
