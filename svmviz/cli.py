"""Command line: `svmviz [DATA]` (the window), `svmviz train DATA`, `svmviz bench`."""

from __future__ import annotations

import argparse
import sys

from svmviz.core.command_line import Parser, add_solver_options, config_from_args, window_parser
from svmviz.core.errors import InputError


def cmd_train(args) -> int:
    """Train headless; every option and output path is checked before the training, and
    the outputs are written together after it, all or none."""
    from svmviz.core.config import SolverConfig
    from svmviz.core.file_io import atomic_write_all, check_writable
    from svmviz.core.files.session_file import read_data
    from svmviz.core.fit import summary, train, went_wrong
    from svmviz.core.model_io import model_file_bytes
    from svmviz.core.solvers.losses import offset_columns
    from svmviz.core.telemetry import held, history_csv

    outputs = {"--out": args.out, "--history": args.history, "--plot": args.plot}
    paths = {
        option: check_writable(path, option) for option, path in outputs.items() if path is not None
    }
    twice = [p for p in set(paths.values()) if list(paths.values()).count(p) > 1]
    if twice:
        raise InputError(f"{twice[0]} is given to two of --out, --history and --plot")
    # the file is read as the problem has it: labels, a target, or unlabelled points
    kind = SolverConfig(problem=args.problem).kind
    data = read_data(args.data, kind)
    if data.note:  # (how a CSV's first row was read, when it could be either)
        print(f"svmviz: note: {data.note}", file=sys.stderr)
    if data.target is not None and kind != "regression":  # (an svm-toy regression file)
        raise InputError(
            f"{args.data}: holds a regression (svm-toy's `target 1:x` lines), not classes; "
            "train it with --problem epsilon-svr or nu-svr"
        )
    config = config_from_args(args, data)
    if args.plot is not None:  # what the picture needs is said before the training
        from svmviz.ui.notebook.headless import check_plot

        check_plot(data, args.data, args.plot, *args.plot_size, args.plot_scale)
    result = train(config, data, every=args.history_every == "1")
    print(summary(result, data, args.data))
    if result.solver.notice():  # (numba's cache or compiler failed: said, not raised)
        print(f"svmviz: note: {result.solver.notice()}", file=sys.stderr)
    wrong = went_wrong(result)
    if wrong:
        print(f"svmviz: error: {wrong}; no output written", file=sys.stderr)
        return 1
    files = {}
    if "--out" in paths:
        files[paths["--out"]] = model_file_bytes(paths["--out"], result.model)
    if "--history" in paths:
        rows = held(result.solver.history_.copy())
        text = history_csv(rows, offsets=offset_columns(config.problem))
        files[paths["--history"]] = text.encode("utf-8")
    if "--plot" in paths:
        from svmviz.ui.notebook.headless import training_plot_bytes

        width, height = args.plot_size
        files[paths["--plot"]] = training_plot_bytes(
            result, data, args.plot, width, height, args.plot_scale
        )
    atomic_write_all(files)
    return 0


def plot_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 800x600") from None
    return w, h


def cmd_bench(args) -> int:
    from svmviz.bench import main as bench_main

    return bench_main(args)


def cmd_window(args) -> int:
    from svmviz.ui.window.launch import run

    return run(args)


USAGE = """
  svmviz [FILE] [options] [--play]    open the window
  svmviz train DATA.csv [options]     train headless and print a summary
  svmviz bench [--json] [--quick]     print the engine's speed figures"""

FILE_HELP = (
    "FILE is a CSV data set (a header row, the coordinates, then the label, or the target of "
    "epsilon-svr and nu-svr, or nothing for one-class) or a file of libsvm's svm-toy "
    "(`class 1:x 2:y` or `target 1:x` per line), a session saved "
    "by the window (.json) or a scenario (.json, as in File ▸ Scenarios); without FILE a demo "
    "data set opens. --play starts training at once; the solver options are those of `svmviz "
    "train` (for a CSV data set; a session or a scenario brings its own). `svmviz FILE --help` "
    "lists the window's options, `svmviz train --help` the solver's."
)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="svmviz",
        usage=USAGE,
        description="Watch support vector machines learn.",
        epilog=FILE_HELP,
    )
    # prog: a command's usage starts "svmviz train" (argparse would prefix the whole USAGE)
    sub = p.add_subparsers(dest="command", prog="svmviz", parser_class=Parser)
    p.commands = sub.choices  # (name → its parser, which says its own errors)
    t = sub.add_parser("train", help="train headless and print a summary")
    t.add_argument(
        "data",
        help="CSV: a header row, coordinates, then the label (svc, nu-svc), the target "
        "(epsilon-svr, nu-svr) or, for one-class, an optional label (ignored); or a file "
        "of libsvm's svm-toy (`class 1:x 2:y` or, for epsilon-svr and nu-svr, `target 1:x` "
        "per line)",
    )
    add_solver_options(t)
    t.add_argument("--out", metavar="MODEL.json", help="write the trained model")
    t.add_argument(
        "--history",
        metavar="HISTORY.csv",
        help="write the objective, loss, error and ‖w‖ by iteration (see --history-every)",
    )
    t.add_argument(
        "--history-every",
        choices=("log", "1"),
        default="log",
        help="the history's rows: log-spaced iterations, the stopping rule's checks and the "
        "last (log, the default), or every iteration (1: an O(m) pass each for a loss "
        "without a screen, such as the logistic)",
    )
    t.add_argument(
        "--plot",
        metavar="PLOT.png",
        help="draw the decision plot of the trained model (.png or .svg; 2-D data)",
    )
    t.add_argument(
        "--plot-size",
        type=plot_size,
        default=(800, 600),
        metavar="WxH",
        help="the plot's size in pixels (default 800x600)",
    )
    t.add_argument(
        "--plot-scale",
        type=float,
        default=1.0,
        metavar="K",
        help="PNG at K times the pixels, lines and text grown with them (2 for slides)",
    )
    t.set_defaults(func=cmd_train)
    b = sub.add_parser("bench", help="print the engine's speed figures")
    b.add_argument("--json", action="store_true", help="machine-readable output")
    b.add_argument("--quick", action="store_true", help="shorter runs (noisier figures)")
    b.set_defaults(func=cmd_bench)
    return p


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] not in ("train", "bench", "-h", "--help"):
        args = window_parser().parse_args(argv)
        args.func = cmd_window
    else:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        if extra:  # said by the command's parser: "svmviz train: error: …"
            command = parser.commands.get(args.command, parser)
            command.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return args.func(args)
    except InputError as exc:
        print(f"svmviz: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
