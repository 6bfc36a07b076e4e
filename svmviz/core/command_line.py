"""The command line's solver options, and the arguments of the window (`svmviz [FILE]
[options] [--play]`), parsed into a SolverConfig. Pure argparse: the window starts from
them (svmviz.ui.window.launch) and the benchmarks start the window with them, without importing the
command line (svmviz.cli), which sits above both."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import fields, replace
from typing import NoReturn

import numpy as np

from svmviz.core.config import (
    ALGORITHMS,
    AVERAGES,
    BIASES,
    BINARY_LOSSES,
    COST_LOSSES,
    MARGINS,
    MULTICLASS_LOSSES,
    NU_SCALED,
    PROBLEMS,
    SAMPLINGS,
    SCHEDULES,
    SolverConfig,
)
from svmviz.core.data import Dataset, check_cost_matrix, read_cost_matrix
from svmviz.core.errors import InputError, finite_number, shown
from svmviz.core.kernels import KERNELS, Kernel
from svmviz.core.limits import lam_of_C
from svmviz.core.solvers import losses


class Parser(argparse.ArgumentParser):
    """argparse's parser whose error is one line naming the option (argparse's own prints
    the whole usage first, 18 lines for `svmviz train`), exit status 2."""

    commands: dict = {}  # a command's own parser by its name (`svmviz train`, `bench`)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (`{self.prog} --help` lists the options)\n")


def add_solver_options(p: argparse.ArgumentParser) -> None:
    """The options that make a SolverConfig (shared by `train` and the window)."""
    g = p.add_argument_group("problem")
    g.add_argument("--problem", choices=PROBLEMS, default="svc")
    # (None: not given, so that an option the problem has no use for is refused)
    g.add_argument("--loss", choices=BINARY_LOSSES, help="the binary svc loss (default hinge)")
    g.add_argument(
        "--multiclass",
        choices=MULTICLASS_LOSSES,
        help="the multiclass svc loss (default crammer_singer)",
    )
    g.add_argument("--epsilon", type=float, metavar="E", help="ε ≥ 0 of epsilon-svr (default 0.1)")
    g.add_argument(
        "--nu",
        type=float,
        metavar="V",
        help="ν in (0, 1] of nu-svc, one-class and nu-svr (default 0.5)",
    )
    g.add_argument("--margin", choices=MARGINS, default="soft")
    g.add_argument("--lam", type=float, help="λ ≥ 0 (C = 1/(λm); default 0.01)")
    g.add_argument("--bias", choices=BIASES, help="default free")
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


def cli_option(name: str) -> str:
    """A setting as the command line names it (``lam`` → ``--lam``)."""
    return f"--{name}"


def check_given(
    args: argparse.Namespace, binary: bool | None = None, named: Callable[[str], str] = cli_option
) -> None:
    """Refuse an option given for a problem that has no use for it (SolverConfig cannot
    tell a default from a value given). ``binary``: whether the data have two classes;
    ``named``: a setting's name in the messages (``--lam``; ``lam`` for Python)."""
    problem = args.problem
    if args.lam is not None and problem in NU_SCALED:
        raise InputError(
            f"{named('lam')} does not apply to {problem}: its objective has ½‖w‖² and no λ "
            f"(ν, {named('nu')}, sets the trade-off)"
        )
    # the problems' own
    for option, field in ((named("epsilon"), "epsilon"), (named("nu"), "nu")):
        given = getattr(args, field)
        if given is not None and field not in losses.parameters_of(problem):
            having = [p for p in PROBLEMS if p != "svc" and field in losses.parameters_of(p)]
            names = " and ".join(
                [", ".join(having[:-1]), having[-1]] if len(having) > 1 else having
            )
            learns = (
                f"; {problem} learns ε (set ν with {named('nu')})"
                if field in losses.offset_columns(problem)
                else ""
            )
            raise InputError(f"{option} applies to {names}, not {problem}{learns}")
    if args.bias is not None and problem == "one-class":
        raise InputError(f"{named('bias')} does not apply to one-class: ρ is its offset")
    for name, value in ((named("loss"), args.loss), (named("multiclass"), args.multiclass)):
        if value is not None and problem != "svc":
            raise InputError(f"{name} {value} applies to the svc problem, not {problem}")
    # a loss for the other kind of data, alone (with both given, each applies to its kind)
    if problem == "svc" and binary is not None and (args.loss is None) != (args.multiclass is None):
        if args.loss is not None and not binary:
            raise InputError(
                f"{named('loss')} {args.loss} is a binary loss and these data have more than "
                f"two classes; choose a multiclass loss with {named('multiclass')}"
            )
        if args.multiclass is not None and binary:
            raise InputError(
                f"{named('multiclass')} {args.multiclass} is a multiclass loss and these data "
                f"have two classes; choose a binary loss with {named('loss')}"
            )
    if args.cost is not None:  # (before the file is read: its message would be beside the point)
        if problem != "svc":
            loss = problem
        elif binary:
            loss = args.loss or "hinge"
        else:
            loss = args.multiclass or "crammer_singer"
        # (two classes with the default losses: the hinge, with the multiclass loss's Δ
        # accepted as SolverConfig accepts it)
        if loss not in ("hinge", *COST_LOSSES):
            raise InputError(
                f"a cost matrix Δ applies to the {' and '.join(COST_LOSSES)} losses, not {loss}"
            )


def config_from_args(args: argparse.Namespace, data: Dataset | None = None) -> SolverConfig:
    """The SolverConfig of parsed solver options; ``--cost`` is read for ``data``'s classes.
    An option left out takes SolverConfig's default."""
    check_given(args, None if data is None else data.n_classes == 2)
    given = {
        name: value
        for name, value in (
            ("problem", args.problem),
            ("loss", args.loss),
            ("multiclass", args.multiclass),
            ("epsilon", args.epsilon),
            ("nu", args.nu),
            ("lam", args.lam),
            ("bias", args.bias),
        )
        if value is not None
    }
    cost = None
    if args.cost is not None:
        if data is None:
            raise InputError("--cost needs a data set")
        cost = tuple(map(tuple, read_cost_matrix(args.cost, data.n_classes)))
    return SolverConfig(
        **given,
        margin=args.margin,
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


# the settings a program gives by name (svmviz.show): SolverConfig's fields and `svmviz
# train`'s options (``solver`` is ``algorithm``; the kernel's parameters; C, libsvm's λ)
KERNEL_SETTINGS = ("gamma", "degree", "coef0")
SETTINGS = (*(f.name for f in fields(SolverConfig)), *KERNEL_SETTINGS, "solver", "C")
# what a problem has of its own: back to their defaults when the problem changes
PROBLEM_SETTINGS = ("loss", "multiclass", "epsilon", "nu", "margin", "cost")


def config_from_settings(
    settings: dict, data: Dataset | None = None, base: SolverConfig | None = None
) -> SolverConfig:
    """The SolverConfig of ``settings`` given by name over ``base`` (SolverConfig's
    defaults when None): SolverConfig's fields and `svmviz train`'s options (``solver`` or
    ``algorithm``; ``kernel`` a name or a Kernel, with ``gamma``, ``degree``, ``coef0``;
    ``cost`` a K×K matrix in the order of ``data``'s classes, or a cost file; ``C``, as
    libsvm's, sets λ = 1/(C·m) for the m points of ``data``). A setting the problem has no
    use for is refused as `svmviz train` refuses its option; a problem other than
    ``base``'s starts from its own defaults (with ``base``'s kernel and run)."""
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise InputError(
            f"unknown setting(s) {', '.join(str(k) for k in unknown[:5])}; "
            f"the settings are {', '.join(SETTINGS)}"
        )
    s = dict(settings)
    for one, other in (("solver", "algorithm"), ("C", "lam")):
        if one in s and other in s:
            raise InputError(f"give {one} or {other}, not both (they set the same)")
    if "solver" in s:
        s["algorithm"] = s.pop("solver")
    if "C" in s:
        C = s.pop("C")
        if not finite_number(C) or C <= 0:
            raise InputError(f"C must be a number > 0, not {shown(C)}")
        if data is None or not len(data.X):
            raise InputError("C needs the points (λ = 1/(C·m)); give lam instead")
        s["lam"] = lam_of_C(C, len(data.X))
    base = SolverConfig() if base is None else base
    problem = s.pop("problem", base.problem)
    if problem != base.problem:
        default = SolverConfig()
        base = base.replace(**{name: getattr(default, name) for name in PROBLEM_SETTINGS})
    given = {name: s.get(name) for name in ("lam", "epsilon", "nu", "bias", "loss", "multiclass")}
    check_given(
        argparse.Namespace(problem=problem, cost=s.get("cost"), **given),
        None if data is None else data.n_classes == 2,
        named=str,
    )
    kernel = s.pop("kernel", base.kernel)
    if isinstance(kernel, str):
        kernel = replace(base.kernel, name=kernel)
    elif not isinstance(kernel, Kernel):
        raise InputError(f"kernel must be one of {', '.join(KERNELS)}, not {shown(kernel)}")
    kernel = replace(kernel, **{name: s.pop(name) for name in KERNEL_SETTINGS if name in s})
    if "project" in s and not isinstance(s["project"], (bool, np.bool_)):
        raise InputError(f"project must be True or False, not {shown(s['project'])}")
    if s.get("cost") is not None:
        s["cost"] = _cost(s["cost"], data)
    return base.replace(problem=problem, kernel=kernel, **s)


def _cost(cost: object, data: Dataset | None) -> tuple:
    """Δ given as a K×K matrix or a cost file, for ``data``'s K classes, as SolverConfig
    keeps it."""
    if data is None:
        raise InputError("cost needs the points' classes")
    if isinstance(cost, (str, os.PathLike)):
        matrix = read_cost_matrix(cost, data.n_classes)
    else:
        try:
            matrix = check_cost_matrix(cost, data.n_classes, "cost")
        except InputError:
            raise
        except (TypeError, ValueError):
            K = data.n_classes
            raise InputError(f"cost must be a {K}×{K} matrix of numbers") from None
    return tuple(tuple(float(v) for v in row) for row in matrix)


def window_parser() -> argparse.ArgumentParser:
    """The parser of `svmviz [FILE] [options] [--play]` (the window)."""
    w = Parser(prog="svmviz", description="Open the svmviz window.")
    w.add_argument(
        "data",
        nargs="?",
        metavar="FILE",
        help="a session (.json), a scenario (.json) or a CSV data set to open (the CSV's last "
        "column: the label, the target of epsilon-svr and nu-svr, or none for one-class), or "
        "a file of libsvm's svm-toy (a regression one opens for epsilon-svr); none: a demo "
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
