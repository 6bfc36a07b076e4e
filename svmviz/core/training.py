"""Setting a training up: the exact optimum of the problem, then a solver at w = 0.

One place for what `svmviz train` and the window's worker both do first.
"""

from __future__ import annotations

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.errors import InputError
from svmviz.core.reference import Reference, exact_optimum
from svmviz.core.solvers import Solver


def prepare(config: SolverConfig, data: Dataset) -> tuple[Solver, Reference | None, str | None]:
    """(solver reset at w = 0, exact reference or None, why there is none).

    A hard margin on data that are not separable raises NotSeparableError (the hard-margin
    solver needs the exact dual); a problem without an exact optimum (an indefinite sigmoid
    kernel) trains anyway, with the reason in the third element.
    """
    reference, reason = None, None
    try:
        reference = exact_optimum(config, data)
    except InputError as exc:
        if config.margin == "hard":
            raise
        reason = str(exc)
    solver = Solver(config).reset(data, reference.lam_hard if reference else None)
    return solver, reference, reason
