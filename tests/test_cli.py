"""`svmviz train`: summaries, outputs, and one clear line for every bad input."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from svmviz.cli import main
from svmviz.core.solvers import rules

DATA = "x,y,label\n" + "".join(
    f"{x},{y},{'a' if x + 0.5 * y < 0 else 'b'}\n"
    for x, y in [(-2, 1), (-1.5, -1), (-1, 0.5), (-0.5, -2), (0.3, 2), (1, -0.5), (1.5, 1), (2, -1)]
)


@pytest.fixture
def data_csv(tmp_path):
    p = tmp_path / "data.csv"
    p.write_text(DATA)
    return p


def test_train_prints_summary_and_writes_outputs(tmp_path, data_csv, capsys):
    out, hist = tmp_path / "model.json", tmp_path / "history.csv"
    code = main(
        ["train", str(data_csv), "--iterations", "3000", "--out", str(out), "--history", str(hist)]
    )
    text = capsys.readouterr().out
    assert code == 0
    assert "exact optimum:" in text
    assert "gap:" in text
    assert "objective:" in text
    model = json.loads(out.read_text())
    assert model["format"] == "svmviz-model"
    assert model["classes"] == ["a", "b"]
    assert model["iterations"] == 3000
    lines = hist.read_text().splitlines()
    assert lines[0] == "iteration,objective,loss,error,norm,violations"
    assert len(lines) == 3001


def test_train_every_option(tmp_path, capsys):
    p = tmp_path / "three.csv"
    p.write_text("x,y,l\n0,0,a\n0.2,0.1,a\n3,0,b\n3.1,0.3,b\n0,3,c\n0.2,3.2,c\n")
    cost = tmp_path / "cost.csv"
    cost.write_text("0,1,2\n1,0,1\n2,1,0\n")
    code = main(
        [
            "train",
            str(p),
            "--solver",
            "sgd",
            "--kernel",
            "poly",
            "--gamma",
            "0.5",
            "--degree",
            "2",
            "--coef0",
            "1",
            "--lam",
            "0.05",
            "--margin",
            "soft",
            "--bias",
            "regularized",
            "--cost",
            str(cost),
            "--iterations",
            "2000",
            "--batch",
            "2",
            "--seed",
            "3",
            "--sampling",
            "shuffle",
            "--average",
            "last",
            "--schedule",
            "inv_sqrt_t",
            "--eta",
            "0.5",
        ]
    )
    assert code == 0
    assert "multiclass" in capsys.readouterr().out


def test_hard_margin_summary(tmp_path, capsys):
    p = tmp_path / "sep.csv"
    p.write_text("x,y,l\n-2,0,a\n-3,1,a\n2,0,b\n3,-1,b\n")
    assert main(["train", str(p), "--margin", "hard"]) == 0
    out = capsys.readouterr().out
    assert "margin min y_i f(x_i)/‖w‖" in out
    assert "(set from the data)" in out


def bad(tmp_path, content, name="bad.csv"):
    p = tmp_path / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content)
    return str(p)


@pytest.mark.parametrize(
    "make_args, message",
    [
        (lambda t, d: [str(t / "missing.csv")], "no such file"),
        (lambda t, d: [bad(t, "")], "is empty"),
        (lambda t, d: [bad(t, b"\x00\x01\x02")], "binary file"),
        (lambda t, d: [bad(t, "x,y,l\n1,q,a\n2,2,b\n")], "line 2, column 2"),
        (lambda t, d: [bad(t, "x,y,l\n1,nan,a\n2,2,b\n")], "not finite"),
        (lambda t, d: [bad(t, "x,y,l\n1,2,a\n2,b\n")], "line 3: 2 columns"),
        (lambda t, d: [bad(t, "x,y,l\n1,2,a\n2,3,a\n")], "at least two classes"),
        (lambda t, d: [bad(t, "1 1:0.1 2:0.2\n2 1:0.3\n", "toy.svm")], "line 2: the coordinate"),
        (lambda t, d: [bad(t, "1 1:0.1 2:0.2\n2 1:0.3 2:x\n", "toy")], "not an svm-toy point"),
        (lambda t, d: [d, "--lam", "-1"], "λ (lam) must be a number from 1e-50 to 1e+06, or 0"),
        (lambda t, d: [d, "--lam", "1e308"], "λ (lam) must be a number from 1e-50 to 1e+06"),
        (lambda t, d: [d, "--degree", "1000"], "degree must be a whole number from 1 to 100"),
        (lambda t, d: [d, "--lam", "0"], "Pegasos needs λ > 0"),
        (lambda t, d: [d, "--iterations", "0"], "iterations must be a whole number from 1 to"),
        (lambda t, d: [d, "--cost", bad(t, "0,1,1\n1,0,1\n", "c.csv")], "line 1: 3 columns"),
        (lambda t, d: [d, "--cost", bad(t, "0,1\n", "c.csv")], "has 1 row; the data has 2"),
        (
            lambda t, d: [d, "--cost", bad(t, "0,-1\n1,0\n", "c.csv")],
            "entry (1, 2) must be a number from 0 to 1e+150, not -1.0",
        ),
        (
            lambda t, d: [bad(t, "x,y,l\n0,0,a\n1,1,b\n0,0.1,b\n1,1.1,a\n"), "--margin", "hard"],
            "not separable",
        ),
        (
            lambda t, d: [d, "--gamma", "-1", "--kernel", "rbf"],
            "gamma must be a number in (0, 1e+150], not -1",
        ),
    ],
)
def test_bad_input_one_line_exit_2_no_output(tmp_path, data_csv, capsys, make_args, message):
    out = tmp_path / "model.json"
    hist = tmp_path / "history.csv"
    plot = tmp_path / "plot.png"
    args = make_args(tmp_path, str(data_csv))
    code = main(["train", *args, "--out", str(out), "--history", str(hist), "--plot", str(plot)])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert message in err
    assert len(err.splitlines()) == 1
    assert err.startswith("svmviz: error: ")
    assert not any(p.exists() for p in (out, hist, plot))
    assert not list(tmp_path.glob(".*.tmp"))  # (nor a temporary file)


REGRESSION_DATA = "x,y,target\n0,1,0.5\n1,0,1.5\n2,1,2.5\n3,0,3.5\n"
THREE_CLASSES = "x,y,l\n0,0,a\n0.2,0.1,a\n3,0,b\n3.1,0.3,b\n0,3,c\n0.2,3.2,c\n"


def regression(t):
    return bad(t, REGRESSION_DATA, "target.csv")


def three(t):
    return bad(t, THREE_CLASSES, "three.csv")


def costs(t, k):
    return bad(
        t, "\n".join(",".join("0" if i == j else "1" for j in range(k)) for i in range(k)), "c.csv"
    )


@pytest.mark.parametrize(
    "make_args, message",
    [
        (
            lambda t, d: [regression(t), "--problem", "epsilon-svr", "--lam", "0"],
            "Pegasos needs λ > 0",
        ),
        (
            lambda t, d: [d, "--problem", "nu-svc", "--nu", "0"],
            "ν (nu) must be a number in (0, 1], not 0",
        ),
        (
            lambda t, d: [d, "--problem", "one-class", "--nu", "1.5"],
            "ν (nu) must be a number in (0, 1]",
        ),
        (
            lambda t, d: [regression(t), "--problem", "epsilon-svr", "--epsilon", "-0.1"],
            "ε (epsilon) must be a number from 0 to 1e+15",
        ),
        (
            lambda t, d: [bad(t, "x,t\n0,1\n1,abc\n"), "--problem", "epsilon-svr"],
            "line 3, column 2: the target 'abc' is not a number",
        ),
        (
            lambda t, d: [bad(t, "x,t\n0,1\n1,inf\n"), "--problem", "nu-svr"],
            "line 3, column 2: the target is 'inf', not finite",
        ),
        (
            lambda t, d: [d, "--problem", "epsilon-svr"],
            "line 2, column 3: the target 'a' is not a number",
        ),
        (
            lambda t, d: [regression(t), "--problem", "epsilon-svr", "--loss", "logistic"],
            "--loss logistic applies to the svc problem, not epsilon-svr",
        ),
        (
            lambda t, d: [d, "--problem", "one-class", "--multiclass", "ovr"],
            "--multiclass ovr applies to the svc problem, not one-class",
        ),
        (
            lambda t, d: [three(t), "--multiclass", "softmax", "--cost", costs(t, 3)],
            "a cost matrix Δ applies to the crammer_singer and weston_watkins losses, not softmax",
        ),
        (
            lambda t, d: [d, "--loss", "squared_hinge", "--cost", costs(t, 2)],
            "a cost matrix Δ applies to the crammer_singer and weston_watkins losses, not "
            "squared_hinge",
        ),
        (
            lambda t, d: [regression(t), "--problem", "nu-svr", "--cost", costs(t, 2)],
            "a cost matrix Δ applies to the crammer_singer and weston_watkins losses, not nu-svr",
        ),
        (
            lambda t, d: [d, "--problem", "nu-svc", "--lam", "0.1"],
            "--lam does not apply to nu-svc: its objective has ½‖w‖² and no λ",
        ),
        (
            lambda t, d: [d, "--problem", "one-class", "--lam", "0.01"],
            "--lam does not apply to one-class: its objective has ½‖w‖² and no λ",
        ),
        (lambda t, d: [d, "--epsilon", "0.2"], "--epsilon applies to epsilon-svr, not svc"),
        (
            lambda t, d: [regression(t), "--problem", "nu-svr", "--epsilon", "0.2"],
            "--epsilon applies to epsilon-svr, not nu-svr; nu-svr learns ε",
        ),
        (lambda t, d: [d, "--nu", "0.3"], "--nu applies to nu-svc, one-class and nu-svr, not svc"),
        (
            lambda t, d: [regression(t), "--problem", "epsilon-svr", "--nu", "0.3"],
            "--nu applies to nu-svc, one-class and nu-svr, not epsilon-svr",
        ),
        (
            lambda t, d: [d, "--problem", "one-class", "--bias", "free"],
            "--bias does not apply to one-class: ρ is its offset",
        ),
        (
            lambda t, d: [d, "--margin", "hard", "--loss", "squared_hinge"],
            "a hard margin is a hinge-loss svc; the squared_hinge loss has a soft one only",
        ),
        (
            lambda t, d: [d, "--margin", "hard", "--problem", "nu-svc"],
            "a hard margin is a hinge-loss svc; nu-svc has a soft one only",
        ),
        (
            lambda t, d: [three(t), "--margin", "hard", "--multiclass", "weston_watkins"],
            "a hard margin is a crammer_singer svc; weston_watkins has a soft one only",
        ),
        (
            lambda t, d: [three(t), "--loss", "logistic"],
            "--loss logistic is a binary loss and these data have more than two classes",
        ),
        (
            lambda t, d: [d, "--multiclass", "softmax"],
            "--multiclass softmax is a multiclass loss and these data have two classes",
        ),
    ],
)
def test_a_problem_option_that_does_not_apply_is_refused(
    tmp_path, data_csv, capsys, make_args, message
):
    """Exit 2, the one line, and no --out, --history or --plot file."""
    outputs = [tmp_path / name for name in ("model.json", "history.csv", "plot.png")]
    args = [*make_args(tmp_path, str(data_csv))]
    for option, path in zip(("--out", "--history", "--plot"), outputs, strict=True):
        args += [option, str(path)]
    code = main(["train", *args])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.startswith("svmviz: error: ")
    assert message in err
    assert len(err.splitlines()) == 1
    assert not any(path.exists() for path in outputs)
    assert not list(tmp_path.glob(".*.tmp"))  # (nor a temporary file)


def test_problem_options_are_parsed_into_the_config(tmp_path, data_csv):
    """Left out, the options take the config's defaults (today's: svc, hinge,
    crammer_singer); given, they reach the SolverConfig."""
    from svmviz.cli import build_parser
    from svmviz.core.command_line import config_from_args
    from svmviz.core.data import read_csv

    def config(*options, path=data_csv, kind="svc"):
        args = build_parser().parse_args(["train", str(path), *options])
        return config_from_args(args, read_csv(path, kind))

    c = config()
    assert (c.problem, c.loss, c.multiclass, c.lam, c.bias) == (
        "svc",
        "hinge",
        "crammer_singer",
        0.01,
        "free",
    )
    c = config("--loss", "logistic", "--multiclass", "ovr", "--lam", "0.1")
    assert (c.loss, c.multiclass, c.lam) == ("logistic", "ovr", 0.1)
    assert config("--problem", "nu-svc", "--nu", "0.2").lam_used == 1.0
    assert config("--problem", "one-class", "--nu", "0.2", kind="one-class").nu == 0.2
    target = regression(tmp_path)
    c = config("--problem", "epsilon-svr", "--epsilon", "0.3", path=target, kind="regression")
    assert (c.kind, c.epsilon) == ("regression", 0.3)
    c = config("--problem", "nu-svr", "--nu", "0.4", "--lam", "0.5", path=target, kind="regression")
    assert (c.nu, c.lam) == (0.4, 0.5)


def test_unknown_kernel_and_no_traceback_in_a_real_process(tmp_path, data_csv):
    for args, message in (
        (["--kernel", "cubic"], "invalid choice: 'cubic'"),
        (["--lam", "0"], "Pegasos needs λ > 0"),
    ):
        r = subprocess.run(
            [sys.executable, "-m", "svmviz", "train", str(data_csv), *args],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert r.returncode == 2
        assert message in r.stderr
        assert "Traceback" not in r.stderr


def test_diverging_run_writes_nothing(tmp_path, data_csv, capsys):
    out = tmp_path / "m.json"
    code = main(
        [
            "train",
            str(data_csv),
            "--solver",
            "sgd",
            "--schedule",
            "constant",
            "--eta",
            "100",
            "--lam",
            "1",
            "--out",
            str(out),
        ]
    )
    assert code == 1
    assert "diverged" in capsys.readouterr().err
    assert not out.exists()


def test_train_plot_renders_headless(tmp_path, data_csv):
    """No display and no QT_QPA_PLATFORM: `--plot` draws offscreen by itself."""
    pytest.importorskip("PySide6.QtGui")
    from PySide6.QtGui import QImage

    png = tmp_path / "plot.png"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "QT_QPA_PLATFORM", "WAYLAND_DISPLAY")
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "svmviz",
            "train",
            str(data_csv),
            "--kernel",
            "rbf",
            "--iterations",
            "2000",
            "--plot",
            str(png),
            "--plot-size",
            "500x300",
            "--plot-scale",
            "2",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1000, 600)


def test_train_plot_svg_and_bad_plot_options(tmp_path, data_csv, capsys):
    pytest.importorskip("PySide6.QtGui")
    svg = tmp_path / "plot.svg"
    assert main(["train", str(data_csv), "--iterations", "500", "--plot", str(svg)]) == 0
    assert 'viewBox ="0 0 800 600"' in svg.read_text(encoding="utf-8")
    assert main(["train", str(data_csv), "--plot", str(tmp_path / "p.gif")]) == 2
    assert "choose a .png or .svg" in capsys.readouterr().err
    three = tmp_path / "three.csv"
    three.write_text("a,b,c,label\n1,2,3,x\n2,3,1,y\n3,1,2,x\n")
    assert main(["train", str(three), "--plot", str(tmp_path / "p.png")]) == 2
    assert "--plot draws 2-D data" in capsys.readouterr().err
    # a regression of 3 coordinates: refused before the training (its first two
    # coordinates passed the check, and the drawing failed with a traceback)
    args = ["train", str(three), "--problem", "epsilon-svr", "--plot", str(tmp_path / "p.png")]
    three.write_text("a,b,c,t\n1,2,3,0.5\n2,3,1,1.5\n3,1,2,2.5\n")
    assert main(args) == 2
    assert "--plot draws a regression of 1 or 2 coordinates" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train", str(data_csv), "--plot-size", "big"])


def test_a_bad_plot_name_or_size_is_refused_before_training_without_qt(data_csv):
    """`--plot`'s name and size are checked before the training, by the core: with PySide6
    and pyqtgraph absent the message is the same."""
    code = (
        "import sys\n"
        "sys.modules['PySide6'] = sys.modules['pyqtgraph'] = None  # absent\n"
        "from svmviz.cli import main\n"
        f"sys.exit(main(['train', {str(data_csv)!r}] + sys.argv[1:]))\n"
    )
    for args, message in (
        (["--plot", "p.gif"], "p.gif: choose a .png or .svg file name"),
        (["--plot", "p.png", "--plot-size", "50x300"], "the width must be 100–8000 pixels, not 50"),
        (
            ["--plot", "p.png", "--plot-scale", "3", "--plot-size", "4000x300"],
            "at most 8000 pixels a side",
        ),
    ):
        r = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300
        )
        assert r.returncode == 2, r.stderr
        assert r.stderr.startswith("svmviz: error: ") and message in r.stderr, r.stderr
        assert r.stdout == ""  # refused before the training (no summary)


def test_hard_margin_lambda_is_said_one_way_and_no_margin_above_the_maximum(
    tmp_path, capsys, separable
):
    """Issue 16: `train --margin hard` printed λ = 0.3125, wrote "lam": 0.3125 beside
    solver.lam 0.01, and called 1/‖w‖ of an iterate that breaks a constraint a margin above
    the maximum (1.76781 > 1.76777). 100,000 Pegasos steps on these data end just so."""
    import re

    from svmviz.core.data import write_csv

    data, out = tmp_path / "sep.csv", tmp_path / "model.json"
    write_csv(data, separable)
    assert (
        main(["train", str(data), "--margin", "hard", "--iterations", "100000", "--out", str(out)])
        == 0
    )
    text = capsys.readouterr().out
    lam = float(re.search(r"λ = (\S+) \(set from the data\)", text).group(1))
    model = json.loads(out.read_text())
    assert model["lam"] == pytest.approx(lam, rel=1e-5)
    assert model["solver"]["lam"] == model["lam"]
    assert model["solver"]["margin"] == "hard"
    found = re.search(r"margin min y_i f\(x_i\)/‖w‖: (\S+) \(maximum (\S+)\)", text)
    margin, maximum = float(found.group(1)), float(found.group(2))
    assert margin <= maximum
    # (issue 24: the last exact step makes the output feasible, and says so)
    assert "still breaks" not in text and "last exact step" in text


def test_missing_x_libraries_are_named_with_the_command_that_installs_them(monkeypatch, capsys):
    """Issue 16 (item 13): Qt aborted with "xcb-cursor0 or libxcb-cursor0 is needed" though
    it was installed; the missing ones were libxcb-icccm4 and libxcb-keysyms1."""
    from svmviz.ui.window import launch

    missing = {"libxcb-icccm.so.4", "libxcb-keysyms.so.1"}
    monkeypatch.setattr(launch, "_loadable", lambda name: name not in missing)
    monkeypatch.setattr(launch, "demo_data", lambda: pytest.fail("went on to open the window"))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("svmviz: error: ")
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in err
    assert "libxcb-cursor" not in err
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1 " in err


@pytest.mark.parametrize(
    "environ, platform, looked",
    [
        ({"DISPLAY": ":0"}, "linux", True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        (
            {"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"},
            "linux",
            False,
        ),
        ({}, "linux", False),
        ({"DISPLAY": ":0"}, "darwin", False),
    ],
)
def test_the_x_libraries_are_looked_for_only_where_qt_will_use_them(
    monkeypatch, environ, platform, looked
):
    from svmviz.core.errors import InputError
    from svmviz.ui.window import launch

    asked = []
    monkeypatch.setattr(launch, "_loadable", lambda name: asked.append(name) or False)
    if looked:
        with pytest.raises(InputError, match="libxkbcommon-x11-0"):
            launch.check_display_libraries(environ, platform)
        assert set(asked) == set(launch.XCB_LIBRARIES)
    else:
        launch.check_display_libraries(environ, platform)
        assert asked == []


def test_a_library_is_found_by_its_soname():
    from svmviz.ui.window.launch import _loadable

    assert _loadable("libc.so.6")
    assert not _loadable("libsvmviz-none.so.0")


def test_help_says_how_to_open_the_window_and_what_file_can_be(capsys):
    """Issue 16 (item 14): `svmviz --help` listed only train and bench."""
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # (argparse wraps the lines)
    assert "svmviz [FILE] [options] [--play] open the window" in text
    assert "svmviz train DATA.csv" in text
    assert "svmviz bench" in text
    for what in ("a CSV data set", "a session", "a scenario", "demo data set"):
        assert what in text
    with pytest.raises(SystemExit):  # and the window's own options, as it says
        main(["lesson.json", "--help"])
    text = capsys.readouterr().out
    assert "--play" in text
    assert "--reset-preferences" in text
    assert "a scenario" in text


@pytest.mark.parametrize(
    "config, fields, words",
    [
        (
            {},
            {"classes": ("a", "b")},
            "svc, soft margin, binary, hinge loss, kernel linear, λ = 0.01, bias free",
        ),
        (
            {"multiclass": "weston_watkins"},
            {"classes": ("a", "b", "c"), "K": 3, "loss": "weston_watkins"},
            "svc, soft margin, multiclass, weston_watkins loss, kernel linear, λ = 0.01",
        ),
        (
            {"problem": "nu-svc", "nu": 0.3},
            {"classes": ("a", "b"), "problem": "nu-svc", "nu": 0.3, "rho": 0.75},
            "nu-svc, binary, hinge loss, kernel linear, ν = 0.3, ρ = 0.75, bias free",
        ),
        (
            {"problem": "one-class", "nu": 0.2},
            {"problem": "one-class", "loss": None, "nu": 0.2, "rho": 0.5},
            "one-class, kernel linear, ν = 0.2, ρ = 0.5",
        ),
        (
            {"problem": "epsilon-svr", "epsilon": 0.25},
            {"problem": "epsilon-svr", "loss": "epsilon_insensitive", "epsilon": 0.25},
            "epsilon-svr, epsilon_insensitive loss, kernel linear, λ = 0.01, ε = 0.25, bias free",
        ),
        (
            {"problem": "nu-svr", "nu": 0.4},
            {"problem": "nu-svr", "loss": "epsilon_insensitive", "nu": 0.4, "epsilon": 0.125},
            "nu-svr, epsilon_insensitive loss, kernel linear, λ = 0.01, ν = 0.4, ε = 0.125 "
            "(learned), bias free",
        ),
    ],
)
def test_the_summary_names_the_problem_and_its_numbers(config, fields, words):
    import numpy as np

    from svmviz.core.config import SolverConfig
    from svmviz.core.fit import problem_words
    from svmviz.core.kernels import Kernel
    from svmviz.core.model_io import Model

    K = fields.pop("K", 1)
    model = Model(
        kernel=Kernel(),
        lam=0.01,
        bias="free",
        intercept=np.zeros(K),
        coef=np.ones((K, 2)),
        **{"classes": (), **fields},
    )
    assert problem_words(SolverConfig(**config), model, 0.01).startswith(words)


def test_the_summary_says_what_the_data_are():
    import numpy as np

    from svmviz.core.data import Dataset
    from svmviz.core.fit import data_words

    X = np.zeros((3, 2))
    assert data_words(Dataset.regression(X, [1.5, -2, 0])) == "target in [-2, 1.5]"
    assert data_words(Dataset.points(X)) == "unlabelled"
    assert data_words(Dataset.from_labels(X, ["a", "b", "a"])) == "2 classes: a, b"


def test_nu_svc_writes_rho_in_the_summary_the_model_and_the_history(tmp_path, data_csv, capsys):
    out, hist = tmp_path / "model.json", tmp_path / "history.csv"
    args = ["train", str(data_csv), "--problem", "nu-svc", "--nu", "0.4", "--iterations", "300"]
    assert main([*args, "--out", str(out), "--history", str(hist), "--history-every", "1"]) == 0
    text = capsys.readouterr().out
    assert "problem: nu-svc, binary, hinge loss, kernel linear, ν = 0.4, ρ = " in text
    model = json.loads(out.read_text())
    assert (model["version"], model["problem"], model["loss"], model["nu"]) == (
        2,
        "nu-svc",
        "hinge",
        0.4,
    )
    assert f"ρ = {model['rho']:.6g}" in text
    lines = hist.read_text().splitlines()
    assert lines[0] == "iteration,objective,loss,error,norm,violations,rho"
    assert len(lines) == 301


@pytest.mark.parametrize(
    ("argv", "code"), [(["train", "--help"], 0), (["train", "data.csv", "--gamma", "abc"], 2)]
)
def test_the_train_usage_line_is_its_own(capsys, argv, code):
    """The usage of `svmviz train` (its help, an argparse error) starts "usage: svmviz
    train", not with the tour of every command that `svmviz --help` opens with."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == code
    out = capsys.readouterr()
    text = out.out if code == 0 else out.err
    assert "open the window" not in text
    assert "speed figures" not in text
    if code:  # one line (tests/test_cli_refusals.py)
        assert text.startswith("svmviz train: error: argument --gamma: invalid float value")
    else:
        assert text.startswith("usage: svmviz train [-h] ")


def test_one_is_said_in_the_singular(tmp_path, capsys):
    data = tmp_path / "line.csv"
    data.write_text("x,t\n1,2\n2,4.1\n3,5.9\n4,8.2\n")
    assert main(["train", str(data), "--problem", "epsilon-svr", "--iterations", "1"]) == 0
    text = capsys.readouterr().out
    assert "(4 points, 1 dimension, target" in text
    assert "pegasos, 1 iteration in" in text
    data.write_text("x,y,label\n1,2,a\n3\n")
    assert main(["train", str(data)]) == 2
    assert "line 3: 1 column, the header has 3" in capsys.readouterr().err


def test_a_relative_gap_only_to_an_optimum_with_a_scale(tmp_path, data_csv, capsys):
    """A linear one-class on centred data has its optimum at w = 0, ρ = 0, F* = 0 up to the
    solver's accuracy: the gap is said as it is, not as a share of F* (4.5e+09%)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    X -= X.mean(axis=0)
    data = tmp_path / "cloud.csv"
    data.write_text("x,y\n" + "".join(f"{a},{b}\n" for a, b in X))
    assert main(["train", str(data), "--problem", "one-class", "--iterations", "3000"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    optimum = float(re.search(r"exact optimum: (\S+)", last).group(1))
    assert abs(optimum) < 1e-9
    assert re.search(r"gap: [-0-9.e+]+$", last), last  # the gap, and no percentage
    assert main(["train", str(data_csv), "--iterations", "3000"]) == 0  # (an svc: it has one)
    assert re.search(r"gap: \S+ \([0-9.e+-]+%\)$", capsys.readouterr().out.splitlines()[-1])


# libsvm's svm-toy files: "%d 1:%f 2:%f" per point (y down the screen), or "%f 1:%f"
# (target, x) as its Save writes them with -s 3 or -s 4
SVMTOY_CLASSES = "".join(
    f"{k} 1:{x:f} 2:{y:f}\n"
    for k, (cx, cy) in enumerate([(0.2, 0.2), (0.8, 0.3), (0.5, 0.8)], start=1)
    for x, y in [(cx, cy), (cx + 0.05, cy), (cx, cy + 0.05), (cx - 0.03, cy - 0.04)]
)
SVMTOY_REGRESSION = "".join(f"{0.5 - 0.3 * x:f} 1:{x:f}\n" for x in np.linspace(0.1, 0.9, 9))


def test_train_reads_an_svm_toy_file(tmp_path, capsys):
    path = tmp_path / "toy.txt"
    path.write_text(SVMTOY_CLASSES)
    out = tmp_path / "model.json"
    assert main(["train", str(path), "--iterations", "3000", "--out", str(out)]) == 0
    assert "gap:" in capsys.readouterr().out
    model = json.loads(out.read_text())
    assert model["classes"] == ["1", "2", "3"]  # svm-toy's class buttons


def test_train_an_svm_toy_regression_file_takes_its_problem(tmp_path, capsys):
    path = tmp_path / "sine"  # (svm-toy's files often have no suffix)
    path.write_text(SVMTOY_REGRESSION)
    assert main(["train", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"svmviz: error: {path}: holds a regression (svm-toy's `target 1:x` lines), not "
        "classes; train it with --problem epsilon-svr or nu-svr"
    )
    out = tmp_path / "model.json"
    code = main(["train", str(path), "--problem", "epsilon-svr", "--out", str(out)])
    assert code == 0
    model = json.loads(out.read_text())
    assert model["problem"] == "epsilon-svr"
    # the target is 1 − the file's y: 0.5 + 0.3 x, so f rises with x
    assert len(model["coef"][0]) == 1 and model["coef"][0][0] > 0


def test_the_history_holds_exact_objectives_at_log_spaced_iterations(tmp_path, data_csv, capsys):
    """A loss without a screen: by default the rows of the checkpoints and the last
    iteration, each the exact objective of that iteration (as every-step telemetry has it);
    with --history-every 1 every iteration."""
    args = ["train", str(data_csv), "--loss", "logistic", "--iterations", "3000", "--seed", "3"]
    rows = {}
    for every in ("log", "1"):
        hist = tmp_path / f"history-{every}.csv"
        assert main([*args, "--history", str(hist), "--history-every", every]) == 0
        lines = hist.read_text().splitlines()[1:]
        rows[every] = {int(r.split(",")[0]): r for r in lines}
    assert len(rows["1"]) == 3000
    marks = [t for t in range(1, 3001) if rules.python().is_checkpoint(t)]
    assert sorted(rows["log"]) == sorted({*marks, 3000})  # (3000 is none: the last row)
    assert rules.CHECKPOINT_DENSE < len(rows["log"]) < 3000 // 10
    for t in marks:
        assert rows["log"][t] == rows["1"][t]  # the same numbers, to the last digit
    last, every_last = (np.array(r[3000].split(","), float) for r in (rows["log"], rows["1"]))
    np.testing.assert_allclose(last, every_last, rtol=1e-12)  # (evaluated at the end)
    summary = capsys.readouterr().out
    assert summary.count("objective:") == 2


def test_train_says_how_a_csv_s_first_row_was_read(tmp_path, capsys):
    """A headerless CSV keeps its first row; when that row could be a header, the note says
    which it was taken for (the window says the same in its status line)."""
    rng = np.random.default_rng(0)
    rows = [f"{x:.3f},{y:.3f},{'a' if x < 0 else 'b'}" for x, y in rng.normal(0, 1, (60, 2))]
    p = tmp_path / "headerless.csv"
    p.write_text("\n".join(rows) + "\n")
    assert main(["train", str(p), "--iterations", "200"]) == 0
    captured = capsys.readouterr()
    assert "(60 points," in captured.out
    assert "was read as a point" in captured.err
