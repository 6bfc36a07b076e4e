"""A race: two to four configurations trained on the same points, stepped together, and
where they sample, on the same sequence of samples (the same seed, sampling and batch),
so that what differs between their curves is what differs between their settings.

One runner drives N solvers (no thread each); each run equals its run alone, bit for bit.
For the weight-space view each run keeps the path of its iterate w_t and of its output
w̄_t (linear models), thinned beyond MAX_PATH points as the history is. Plain numpy.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.solvers import Solver

MIN_RUNS, MAX_RUNS = 2, 4
MAX_PATH = 4096  # points of a run's path kept (beyond: every other one dropped)
# the settings that say how a run samples: runs equal in these see the same samples
SAMPLING = ("seed", "sampling", "batch")


@dataclass
class Path:
    """A run's path in weight space: the iteration t and the weights (K×p, linear models)
    of the iterate and of the output at each recorded step."""

    t: list[int] = field(default_factory=list)
    iterate: list[np.ndarray] = field(default_factory=list)
    output: list[np.ndarray] = field(default_factory=list)

    def add(self, t: int, iterate: np.ndarray, output: np.ndarray) -> None:
        self.t.append(t)
        self.iterate.append(iterate)
        self.output.append(output)
        if len(self.t) > MAX_PATH:  # thin the older half, keep the newest
            keep = list(range(0, len(self.t) - 1, 2)) + [len(self.t) - 1]
            self.t = [self.t[i] for i in keep]
            self.iterate = [self.iterate[i] for i in keep]
            self.output = [self.output[i] for i in keep]


class Race:
    """The runs of ``configs`` on ``data``, from w = 0 (exact optimum: the caller's);
    ``solvers``: those runs already set up (a runner's own run among them)."""

    def __init__(
        self, configs: list[SolverConfig], data: Dataset, solvers: list[Solver] | None = None
    ):
        if not MIN_RUNS <= len(configs) <= MAX_RUNS:
            raise InputError(f"a race has {MIN_RUNS} to {MAX_RUNS} runs, not {len(configs)}")
        kinds = {c.kind for c in configs}
        if len(kinds) > 1:
            raise InputError(
                "the runs of a race solve problems of one kind on the same points, not "
                + " and ".join(sorted(kinds))
            )
        self.configs = list(configs)
        self.data = data
        if solvers is None:
            solvers = [Solver(c).reset(data) for c in configs]
        self.solvers = list(solvers)
        self.paths = [Path() for _ in configs]
        self._record()

    @property
    def done(self) -> bool:
        return all(s.done for s in self.solvers)

    def step(self, n: int) -> None:
        """Advance every run by ``n`` iterations (a run at its budget stays there)."""
        for solver in self.solvers:
            solver.step(n)
        self._record()

    def _record(self) -> None:
        for solver, path in zip(self.solvers, self.paths, strict=True):
            if not solver.linear_:
                continue
            if path.t and path.t[-1] == solver.t_:
                continue
            params, _ = solver.iterate()
            path.add(int(solver.t_), params, solver.model().coef.copy())

    def sample_groups(self) -> list[list[int]]:
        """The runs that see the same samples: equal seed, sampling and batch (full-batch GD
        samples nothing and is in no group)."""
        groups: dict[tuple, list[int]] = {}
        for i, c in enumerate(self.configs):
            if c.algorithm != "gd":
                groups.setdefault(tuple(getattr(c, name) for name in SAMPLING), []).append(i)
        return [g for g in groups.values() if len(g) > 1]

    def same_samples(self) -> bool:
        """Whether the runs of each group sampled the same examples at every iteration so
        far (the check a race's comparison rests on)."""
        for group in self.sample_groups():
            first = self.solvers[group[0]].history_["sampled"]
            for i in group[1:]:
                other = self.solvers[i].history_["sampled"]
                n = min(len(first), len(other))
                if not np.array_equal(first[:n], other[:n]):
                    return False
        return True

    def labels(self) -> list[str]:
        """Each run named by the settings in which the runs differ ("algorithm sgd, lam
        0.1"), for the legend."""
        return differences(self.configs)


def differences(configs: list[SolverConfig]) -> list[str]:
    """For each configuration, its values of the settings that are not the same in all of
    them, as "name value" joined by commas (the kernel by its fields)."""
    rows = [_flat(c) for c in configs]
    names = [n for n in rows[0] if len({repr(r[n]) for r in rows}) > 1]
    if not names:
        return [f"run {i + 1}" for i in range(len(configs))]
    return [", ".join(f"{n} {_shown(r[n])}" for n in names) for r in rows]


def _flat(config: SolverConfig) -> dict:
    out = {}
    for f in fields(config):
        value = getattr(config, f.name)
        if f.name == "kernel":
            out["kernel"] = value.name
            out.update(gamma=value.gamma, degree=value.degree, coef0=value.coef0)
        else:
            out[f.name] = value
    return out


def _shown(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
