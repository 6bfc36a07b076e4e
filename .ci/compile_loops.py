"""Compile the solvers' loops into numba's cache, once, before the tests (.ci/run).

Each xdist worker would otherwise compile every loss's loop itself on a fresh clone (the
same functions in both, at the same time). Here the warm-up's loops are compiled first,
then each problem's and loss's, two at a time (one per core, beside the checks of
.ci/run): a two-iteration run, linear and with a kernel, with each algorithm and batch;
the workers then load them from the cache. A specialisation missed here, or lost when the
two processes write one function's cache index at the same moment, is compiled where it
is first used (the same code: only time is lost).
"""

import itertools
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

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


def losses():
    """(settings, data name) of every problem and loss: one compiled loop each."""
    for problem in PROBLEMS:
        if problem == "svc":
            yield from ((dict(loss=loss), "binary") for loss in BINARY_LOSSES)
            yield from ((dict(multiclass=m), "multiclass") for m in MULTICLASS_LOSSES)
        elif problem in REGRESSION:
            yield dict(problem=problem), "regression"
        else:
            yield dict(problem=problem), "points" if problem == "one-class" else "binary"


def compile_loss(loss) -> None:
    """A two-iteration run of the loss, linear and RBF, with each algorithm and batch."""
    settings, data = loss
    for kernel, algorithm, batch in itertools.product(
        (Kernel(), Kernel("rbf")), ("sgd", "gd"), (1, 4)
    ):
        if algorithm == "gd" and batch != 1:
            continue
        try:
            config = SolverConfig(
                **settings, kernel=kernel, algorithm=algorithm, batch=batch, iterations=2
            )
        except InputError:  # (a combination that makes no problem)
            continue
        Solver(config).reset(DATA[data]).step(2)


def main() -> None:
    Solver.warm_up()  # (the functions every loss's loop calls: compiled once, here)
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        list(pool.map(compile_loss, losses()))


if __name__ == "__main__":
    main()
