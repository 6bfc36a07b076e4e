"""Solvers: one steppable solver family (GD, SGD, Pegasos) over every problem of the texts."""

from svmviz.core.solvers.iterative import STATUS_TEXT, Solver

__all__ = ["Solver", "STATUS_TEXT"]
