"""Compile the solvers' loops into numba's cache, once, before the tests (.ci/run).

Each xdist worker would otherwise compile every loss's loop itself on a fresh clone (the
same functions in both, at the same time). Here one process compiles a two-iteration run
of every problem and loss, linear and with a kernel, binary and multiclass, plain and
with every option that changes the loop's types; the workers then load it from the cache.
A specialisation missed here is still compiled where it is first used.
"""

import itertools

import numpy as np

from svmviz.core.config import (
    BINARY_LOSSES,
    MULTICLASS_LOSSES,
    PROBLEMS,
    REGRESSION,
    SolverConfig,
)
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver

rng = np.random.default_rng(0)
X = rng.normal(size=(12, 2))
DATA = {
    "binary": Dataset.from_labels(X, [0, 1] * 6),
    "multiclass": Dataset.from_labels(X, [0, 1, 2] * 4),
    "regression": Dataset.regression(X, X[:, 0]),
    "points": Dataset.points(X),
}


def runs():
    """(config, data) of every problem and loss, linear and RBF, with and without options."""
    for problem, kernel, algorithm, batch in itertools.product(
        PROBLEMS, (Kernel(), Kernel("rbf")), ("sgd", "gd"), (1, 4)
    ):
        base = dict(problem=problem, kernel=kernel, algorithm=algorithm, iterations=2)
        if algorithm == "sgd":
            base["batch"] = batch
        elif batch != 1:
            continue
        if problem == "svc":
            for loss in BINARY_LOSSES:
                yield dict(base, loss=loss), DATA["binary"]
            for multiclass in MULTICLASS_LOSSES:
                yield dict(base, multiclass=multiclass), DATA["multiclass"]
        elif problem in REGRESSION:
            yield base, DATA["regression"]
        elif problem == "one-class":
            yield base, DATA["points"]
        else:
            yield base, DATA["binary"]


def main() -> None:
    Solver.warm_up()
    for settings, data in runs():
        try:
            config = SolverConfig(**settings)
        except InputError:  # (a combination that makes no problem)
            continue
        Solver(config).reset(data).step(2)


if __name__ == "__main__":
    main()
