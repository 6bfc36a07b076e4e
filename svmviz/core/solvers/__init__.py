"""Solvers: one steppable solver family (GD, SGD, Pegasos) over every problem of the texts."""

from svmviz.core.solvers._status import STATUS_TEXT
from svmviz.core.solvers.iterative import Solver

__all__ = ["Solver", "STATUS_TEXT"]
