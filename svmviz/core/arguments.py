"""The command line's solver options, and the arguments of the window (`svmviz [FILE]
[options] [--play]`), parsed into a SolverConfig. Pure argparse: the window starts from
them (svmviz.ui.app) and the benchmarks start the window with them, without importing the
command line (svmviz.cli), which sits above both."""

from __future__ import annotations

import argparse

from svmviz.core.config import (
    ALGORITHMS,
    AVERAGES,
    BIASES,
    MARGINS,
    SAMPLINGS,
    SCHEDULES,
    SolverConfig,
)
from svmviz.core.data import Dataset, read_cost_matrix
from svmviz.core.errors import InputError
from svmviz.core.kernels import KERNELS, Kernel


def add_solver_options(p: argparse.ArgumentParser) -> None:
    """The options that make a SolverConfig (shared by `train` and the window)."""
    g = p.add_argument_group("problem")
    g.add_argument("--margin", choices=MARGINS, default="soft")
    g.add_argument("--lam", type=float, default=0.01, help="λ ≥ 0 (C = 1/(λm))")
    g.add_argument("--bias", choices=BIASES, default="free")
    g.add_argument("--kernel", choices=KERNELS, default="linear")
    g.add_argument("--gamma", type=float, default=1.0)
    g.add_argument("--degree", type=int, default=3)
    g.add_argument("--coef0", type=float, default=1.0)
    g.add_argument(
        "--cost",
        metavar="FILE",
        help="cost matrix Δ: K rows of K numbers (row = true class, column = predicted, "
        "in the order of the classes), zero diagonal",
    )
    g = p.add_argument_group("algorithm")
    g.add_argument("--solver", choices=ALGORITHMS, default="pegasos")
    g.add_argument("--schedule", choices=SCHEDULES, default="auto")
    g.add_argument("--eta", type=float, default=0.1, help="η₀ for the sgd and gd schedules")
    g.add_argument("--sampling", choices=SAMPLINGS, default="uniform")
    g.add_argument("--batch", type=int, default=1)
    g.add_argument("--average", choices=AVERAGES, default="weighted")
    g.add_argument("--project", action="store_true", help="project onto the ball ‖w‖ ≤ B")
    g.add_argument("--radius", type=float, default=None, help="B (default √(Δmax/λ))")
    g.add_argument("--iterations", type=int, default=50000)
    g.add_argument("--tol", type=float, default=0.0, help="stop when F or w changes less")
    g.add_argument("--seed", type=int, default=0)


def config_from_args(args: argparse.Namespace, data: Dataset | None = None) -> SolverConfig:
    """The SolverConfig of parsed solver options; ``--cost`` is read for ``data``'s classes."""
    cost = None
    if args.cost is not None:
        if data is None:
            raise InputError("--cost needs a data set")
        cost = tuple(map(tuple, read_cost_matrix(args.cost, data.n_classes)))
    return SolverConfig(
        margin=args.margin,
        lam=args.lam,
        bias=args.bias,
        kernel=Kernel(args.kernel, args.gamma, args.degree, args.coef0),
        cost=cost,
        algorithm=args.solver,
        schedule=args.schedule,
        eta=args.eta,
        sampling=args.sampling,
        batch=args.batch,
        average=args.average,
        project=args.project,
        radius=args.radius,
        iterations=args.iterations,
        tol=args.tol,
        seed=args.seed,
    )


def window_parser() -> argparse.ArgumentParser:
    """The parser of `svmviz [FILE] [options] [--play]` (the window)."""
    w = argparse.ArgumentParser(prog="svmviz", description="Open the svmviz window.")
    w.add_argument(
        "data",
        nargs="?",
        metavar="FILE",
        help="a CSV data set, a session (.json) or a scenario (.json) to open; none: a demo "
        "data set",
    )
    add_solver_options(w)
    w.add_argument("--play", action="store_true", help="start training at once")
    w.add_argument(
        "--reset-preferences",
        action="store_true",
        help="forget the remembered layout, view options, sizes and recent files "
        "first (as File ▸ Preferences ▸ Reset)",
    )
    return w
