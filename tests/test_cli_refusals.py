"""`svmviz train` refused: every option and output is checked before the training, and a
refusal leaves no file behind (nor a temporary one); a run that went wrong says so and
writes nothing; the messages are one line in the project's words."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from svmviz.cli import main
from svmviz.core.errors import InputError
from svmviz.core.file_io import atomic_write_all
from svmviz.core.fit import far_off
from svmviz.core.model_io import read_model, read_model_npz

TWO = "x,y,label\n" + "".join(
    f"{x},{y},{'a' if x + 0.5 * y < 0 else 'b'}\n"
    for x, y in [(-2, 1), (-1.5, -1), (-1, 0.5), (-0.5, -2), (0.3, 2), (1, -0.5), (1.5, 1), (2, -1)]
)
READ_ONLY = "/sys"  # (a folder that takes no file, even for root: permissions do not tell)


def csv(tmp_path, name, text):
    path = tmp_path / "in" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return str(path)


def ten_classes(t):
    rows = "".join(f"{i},{i % 3},{i % 10}\n" for i in range(20))
    return csv(t, "ten.csv", "x,y,label\n" + rows)


def three_d(t):
    rows = "".join(f"{i},{i % 3},{i % 5},{i % 2}\n" for i in range(20))
    return csv(t, "three.csv", "x,y,z,label\n" + rows)


def two(t):
    return csv(t, "two.csv", TWO)


def out_files(tmp_path) -> list[str]:
    """Every file under tmp_path but the inputs (temporary ones included)."""
    return sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if "in" not in p.parts)


@pytest.mark.parametrize(
    "make_args, message",
    [
        (lambda t: [ten_classes(t), "--plot", str(t / "p.png")], "--plot draws at most 9 classes"),
        (lambda t: [three_d(t), "--plot", str(t / "p.png")], "--plot draws 2-D data"),
        (lambda t: [two(t), "--plot", str(t / "no" / "p.png")], "the folder"),
        (lambda t: [two(t), "--plot", READ_ONLY + "/p.png"], "cannot write in the folder"),
        (lambda t: [two(t), "--history", str(t / "no" / "h.csv")], "does not exist"),
        (lambda t: [two(t), "--history", READ_ONLY + "/h.csv"], "cannot write in the folder"),
        (lambda t: [two(t), "--out", READ_ONLY + "/m.json"], "cannot write in the folder"),
        (lambda t: [two(t), "--out", ""], "--out needs a file name"),
        (lambda t: [two(t), "--history", " "], "--history needs a file name"),
        (lambda t: [two(t), "--out", str(t)], "is a folder"),
        (lambda t: [two(t), "--plot", str(t / "p.gif")], "choose a .png or .svg"),
        (
            lambda t: [two(t), "--plot", str(t / "p.png"), "--plot-size", "0x10"],
            "the width must be",
        ),
        (
            lambda t: [two(t), "--out", str(t / "a.json"), "--history", str(t / "a.json")],
            "is given to two of --out, --history and --plot",
        ),
    ],
)
def test_a_refused_output_leaves_no_file(tmp_path, capsys, make_args, message):
    """Each refusal comes before the training: the outputs that could be written are not
    (nor is any temporary file), and the message is one line."""
    args = make_args(tmp_path)
    given = {a for a in args if a.startswith("--")}
    outputs = {
        "--out": str(tmp_path / "model.json"),
        "--history": str(tmp_path / "history.csv"),
        "--plot": str(tmp_path / "plot.png"),
    }
    extra = [x for option, path in outputs.items() if option not in given for x in (option, path)]
    code = main(["train", *args, *extra, "--iterations", "50"])
    out = capsys.readouterr()
    err = out.err.strip()
    assert code == 2
    assert message in err, err
    assert len(err.splitlines()) == 1
    assert err.startswith("svmviz: error: ")
    assert "use `svmviz train`" not in err  # (the user is running it)
    assert out.out == ""  # refused before the training: no summary
    assert out_files(tmp_path) == []


def test_the_outputs_are_written_together_after_the_training(tmp_path, capsys):
    args = ["train", two(tmp_path), "--iterations", "200"]
    files = {"--out": "m.npz", "--history": "h.csv", "--plot": "p.svg"}
    for option, name in files.items():
        args += [option, str(tmp_path / name)]
    assert main(args) == 0
    assert out_files(tmp_path) == sorted(files.values())
    model = read_model_npz(tmp_path / "m.npz")  # --out .npz writes an .npz svmviz reads
    assert (
        main(["train", two(tmp_path), "--iterations", "200", "--out", str(tmp_path / "m.json")])
        == 0
    )
    again = read_model(tmp_path / "m.json")
    np.testing.assert_array_equal(model.coef, again.coef)
    assert model.classes == again.classes == ("a", "b")


def test_a_write_that_fails_leaves_none_of_the_files(tmp_path):
    files = {tmp_path / "a.json": b"{}", Path(READ_ONLY) / "b.json": b"{}"}
    with pytest.raises(InputError, match="b.json: cannot write"):
        atomic_write_all(files)
    assert out_files(tmp_path) == []


def test_one_class_with_nu_below_one_over_m_is_flagged_and_writes_nothing(tmp_path, capsys):
    """ν = 1e-12 on 50 points: νm < 1, the steps grow as 1/(νm) (the objective ended at
    6e16 against an optimum of 5e-12, with exit status 0): flagged as a divergence is."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 2))
    data = csv(tmp_path, "oc.csv", "x1,x2\n" + "".join(f"{a},{b}\n" for a, b in X))
    out = tmp_path / "m.json"
    args = ["train", data, "--problem", "one-class", "--nu", "1e-12", "--iterations", "300"]
    assert main([*args, "--out", str(out)]) == 1
    text = capsys.readouterr()
    assert "notice: ν = 1e-12 is too small for 50 points: νm < 1" in text.out
    assert text.err.strip() == (
        "svmviz: error: ν = 1e-12 is too small for 50 points: νm < 1, so ν bounds no share "
        "of them (choose ν ≥ 1/m = 0.02); no output written"
    )
    assert out_files(tmp_path) == []
    assert (
        main(["train", data, "--problem", "one-class", "--nu", "0.02", "--iterations", "300"]) == 0
    )


def test_an_objective_that_grew_orders_of_magnitude_is_far_off():
    down = np.array([5.0, 2.0, 1.2, 1.01])  # an early iterate far away, on its way down
    assert far_off(down, 1.0) == ""
    assert far_off(np.array([1e9, 1e8]), 1.0) == ""  # far, but never closer: no growth
    grew = np.array([2.0, 1.1, 50.0, 4e4])
    words = far_off(grew, 1.0)
    assert words.startswith("the objective ended 4e+04 above the exact optimum 1, orders of")
    assert "(0.1): the run went wrong" in words
    assert far_off(np.array([1.5, np.inf]), 1.0) != ""
    assert far_off(np.array([1e-12, 2e-12]), 0.0) == ""  # twice the closest: not far


def test_a_relative_gap_only_where_it_means_something(tmp_path, capsys):
    """ν-SVR on one point (F* = 2e-16) printed "(nan%)" and a constant target
    "(2.79e+38%)": the gap is said alone."""
    one = csv(tmp_path, "one.csv", "x,t\n0.5,1.0\n")
    const = csv(tmp_path, "const.csv", "x,t\n0,3\n1,3\n2,3\n3,3\n")
    for data, problem in ((one, ["nu-svr", "--nu", "1"]), (const, ["epsilon-svr"])):
        assert main(["train", data, "--problem", *problem, "--iterations", "200"]) == 0
        last = capsys.readouterr().out.splitlines()[-1]
        assert re.search(r"gap: [-0-9.e+]+$", last), last


def test_minus_zero_is_zero(tmp_path, capsys):
    const = csv(tmp_path, "const.csv", "x,t\n0,3\n1,3.5\n2,3\n3,3.2\n")
    out = tmp_path / "m.json"
    args = ["train", const, "--problem", "epsilon-svr", "--epsilon", "-0", "--iterations", "20"]
    assert main([*args, "--out", str(out)]) == 0
    assert "ε = 0," in capsys.readouterr().out
    assert '"epsilon": 0.0' in out.read_text()
    assert json.loads(out.read_text())["epsilon"] == 0.0


@pytest.mark.parametrize(
    "argv, start",
    [
        (["train", "d.csv", "--nu", "abc"], "svmviz train: error: argument --nu: invalid float"),
        (["train"], "svmviz train: error: the following arguments are required: data"),
        (["train", "d.csv", "--bogus"], "svmviz train: error: unrecognized arguments: --bogus"),
        (["bench", "--x"], "svmviz bench: error: unrecognized arguments: --x"),
        (["d.csv", "--nu", "abc"], "svmviz: error: argument --nu: invalid float value: 'abc'"),
    ],
)
def test_a_bad_argument_is_one_line_naming_the_option(capsys, argv, start):
    """argparse printed 18 lines of usage first, its last "…speed figures train: error:"."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(start), err
    assert "--help` lists the options" in err
