"""libsvm's svm-toy files: read as svm-toy drew them (y flipped), written back as its Save
writes them, recognised among CSV files, and every bad file a one-line named message."""

import re

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, check_window_data
from svmviz.core.errors import InputError
from svmviz.core.files.session_file import read_data, read_document
from svmviz.core.files.svmtoy import (
    looks_like_svmtoy,
    opened_config,
    read_svmtoy,
    svmtoy_text,
    write_svmtoy,
)

# as svm-toy's Save writes them: fprintf(fp, "%d 1:%f 2:%f\n", value, x, y), y down
THREE_CLASSES = (
    "1 1:0.100000 2:0.100000\n"
    "1 1:0.150000 2:0.200000\n"
    "2 1:0.500000 2:0.900000\n"
    "2 1:0.550000 2:0.850000\n"
    "3 1:0.900000 2:0.500000\n"
    "3 1:0.880000 2:0.420000\n"
)
# and with -s 3 (ε-SVR) in its options line: fprintf(fp, "%f 1:%f\n", y, x)
REGRESSION = "0.316000 1:0.218000\n0.500000 1:0.400000\n0.702000 1:0.604000\n"


def write(tmp_path, text, name="toy.txt"):
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return p


def test_a_three_class_file_is_read_as_svm_toy_drew_it(tmp_path):
    data = read_svmtoy(write(tmp_path, THREE_CLASSES))
    assert data.classes == ("1", "2", "3")
    assert data.y.tolist() == [0, 0, 1, 1, 2, 2]
    assert data.target is None
    np.testing.assert_allclose(data.X[:, 0], [0.1, 0.15, 0.5, 0.55, 0.9, 0.88])
    np.testing.assert_allclose(data.X[:, 1], 1 - np.array([0.1, 0.2, 0.9, 0.85, 0.5, 0.42]))


def test_y_points_down_in_svm_toy_and_up_in_svmviz(tmp_path):
    data = read_svmtoy(write(tmp_path, "1 1:0.3 2:0.1\n2 1:0.3 2:0.8\n"))
    assert data.X[0, 1] == pytest.approx(0.9)  # near svm-toy's top: high in the plane
    assert data.X[1, 1] == pytest.approx(0.2)
    reg = read_svmtoy(write(tmp_path, "0.1 1:0.3\n0.8 1:0.6\n"), "regression")
    np.testing.assert_allclose(reg.target, [0.9, 0.2])


def test_a_three_class_file_round_trips(tmp_path):
    first = read_svmtoy(write(tmp_path, THREE_CLASSES))
    again_path = tmp_path / "again.txt"
    write_svmtoy(again_path, first)
    text = again_path.read_text()
    assert text.splitlines()[:3] == ["1 1:0.1 2:0.1", "1 1:0.15 2:0.2", "2 1:0.5 2:0.9"]
    again = read_svmtoy(again_path)
    np.testing.assert_array_equal(again.X, first.X)
    np.testing.assert_array_equal(again.y, first.y)
    assert again.classes == first.classes


def test_points_of_the_plane_round_trip_within_the_format_s_precision(tmp_path):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(30, 2)), [[-3.5, 2e6], [1e-9, -7.25]]])
    data = Dataset.from_labels(X, ["b", "a", "c", "d"] * 8)
    path = tmp_path / "plane.txt"
    write_svmtoy(path, data)
    again = read_svmtoy(path)
    np.testing.assert_allclose(again.X, data.X, rtol=1e-14, atol=1e-14)  # (y: of 1 − y)
    np.testing.assert_array_equal(again.y, data.y)  # each class k is written as k + 1
    assert again.classes == ("1", "2", "3", "4")
    assert set(path.read_text().split()[::3]) == {"1", "2", "3", "4"}


def test_points_outside_the_unit_square_are_kept(tmp_path):
    data = read_svmtoy(write(tmp_path, "1 1:-0.5 2:1.5\n2 1:3 2:-2\n"))
    np.testing.assert_allclose(data.X, [[-0.5, -0.5], [3, 3]])
    path = tmp_path / "out.txt"
    write_svmtoy(path, data)
    assert path.read_text() == "1 1:-0.5 2:1.5\n2 1:3 2:-2\n"


def test_a_regression_file_reads_x_and_the_flipped_target(tmp_path):
    path = write(tmp_path, REGRESSION)
    for kind in ("regression", "svc"):  # (it has no classes: a regression whatever asked)
        data = read_svmtoy(path, kind)
        assert data.X.shape == (3, 1)
        np.testing.assert_allclose(data.X[:, 0], [0.218, 0.4, 0.604])
        np.testing.assert_allclose(data.target, [0.684, 0.5, 0.298])
        assert data.classes == ()
    out = tmp_path / "again"
    write_svmtoy(out, read_svmtoy(path, "regression"))
    assert out.read_text() == "0.316 1:0.218\n0.5 1:0.4\n0.702 1:0.604\n"


def test_the_problem_reads_a_file_as_svm_toy_s_modes_do(tmp_path):
    """ε-SVR in svm-toy trains on x with y as the target, one-class on (x, y): a classified
    file is read so for those problems; a regression file's points are (x, y) too."""
    classified = write(tmp_path, THREE_CLASSES)
    reg = read_svmtoy(classified, "regression")
    np.testing.assert_allclose(reg.X[:, 0], [0.1, 0.15, 0.5, 0.55, 0.9, 0.88])
    np.testing.assert_allclose(reg.target, 1 - np.array([0.1, 0.2, 0.9, 0.85, 0.5, 0.42]))
    points = read_svmtoy(classified, "one-class")
    assert points.classes == () and points.target is None
    np.testing.assert_allclose(points.X, read_svmtoy(classified).X)
    unlabelled = read_svmtoy(write(tmp_path, REGRESSION, "r.txt"), "one-class")
    np.testing.assert_allclose(unlabelled.X, [[0.218, 0.684], [0.4, 0.5], [0.604, 0.298]])
    out = tmp_path / "points.txt"
    write_svmtoy(out, unlabelled)  # unlabelled points: class 1, as svm-toy's first button
    assert out.read_text().splitlines()[0] == "1 1:0.218 2:0.316"


def test_comments_blank_lines_and_line_ends(tmp_path):
    text = "# svm-toy points\n\n1 1:0.1 2:0.2  # a comment\r\n2 1:0.3 2:0.4\r3 1:0.5 2:0.6"
    data = read_svmtoy(write(tmp_path, "\ufeff" + text))
    assert data.classes == ("1", "2", "3")
    np.testing.assert_allclose(data.X, [[0.1, 0.8], [0.3, 0.6], [0.5, 0.4]])
    with pytest.raises(InputError, match=re.escape("toy.txt, line 6: the coordinate 2:y is")):
        read_svmtoy(write(tmp_path, "# a\n\n1 1:0.1 2:0.2\r\n\r\n# b\r2 1:0.3\n"))


def test_data_svm_toy_cannot_hold_are_refused_on_writing(tmp_path):
    with pytest.raises(InputError, match="2 inputs"):
        svmtoy_text(Dataset.regression(np.zeros((3, 2)), [0, 1, 2]))
    with pytest.raises(InputError, match="3 coordinates"):
        svmtoy_text(Dataset.from_labels(np.zeros((2, 3)), ["a", "b"]))


def test_files_are_recognised_by_suffix_then_by_content(tmp_path):
    csv = "x,y,label\n0,0,a\n1,1,b\n"
    for name in ("toy.txt", "toy", "toy.dat", "toy.svm", "toy.toy", "toy.libsvm", "t.svmlight"):
        assert read_data(write(tmp_path, THREE_CLASSES, name)).classes == ("1", "2", "3")
    for name in ("data.txt", "data", "data.csv"):  # a .txt CSV reads as it did
        assert read_data(write(tmp_path, csv, name)).classes == ("a", "b")
    # a CSV named as an svm-toy file is refused in svm-toy's words
    with pytest.raises(InputError, match="is not an svm-toy point"):
        read_data(write(tmp_path, csv, "data.svm"))
    assert isinstance(read_document(write(tmp_path, THREE_CLASSES, "doc")), Dataset)
    assert looks_like_svmtoy(b"# svm-toy\n\n-1 qid:3 1:0.5 2:0.5\n")
    assert not looks_like_svmtoy(b"x y label\n0 0 1\n")
    assert not looks_like_svmtoy(b"")


def test_a_regression_file_opens_for_epsilon_svr_unless_one_is_in_force(tmp_path):
    reg = read_svmtoy(write(tmp_path, REGRESSION))
    assert opened_config(reg, SolverConfig(lam=0.2)) == SolverConfig(problem="epsilon-svr", lam=0.2)
    nu = SolverConfig(problem="nu-svr")
    assert opened_config(reg, nu) is nu
    classified = read_svmtoy(write(tmp_path, THREE_CLASSES))
    assert opened_config(classified, SolverConfig()) == SolverConfig()


BAD = [
    (b"", "toy.txt: is empty"),
    (b"\x00\x01\x02", "toy.txt: is a binary file"),
    (b"\xff\xfe1 1:0", "toy.txt: is not UTF-8 text (byte 0)"),
    (b"# only\n# comments\n", "toy.txt: has no points, only comments"),
    (
        b"1 1:0.1 2:0.2\n\n2 1:0.3 2:abc\n",
        "toy.txt, line 3: '2 1:0.3 2:abc' is not an svm-toy point `class 1:x 2:y` or "
        "`target 1:x` (a label or value is not a number)",
    ),
    (b"one 1:0.1 2:0.2\n", "line 1: 'one 1:0.1 2:0.2' is not an svm-toy point"),
    (b"1 1:0.1 2:0.2 3\n", "(a coordinate is not index:value)"),
    (b"1 1:0.1 2:0.2\n2 1:0.3 3:0.4\n", "line 2: has the index 3; an svm-toy point has 1:x"),
    (b"1 0:0.1 2:0.2\n", "(an index is 0 or negative; svm-toy's are 1 (x) and 2 (y))"),
    (b"1 2:0.1 1:0.2\n", "(the indices must be 1 then 2, each once)"),
    (b"1 1:0 99999999999:0\n", "(an index is too large)"),
    (b"1 1:0.1 2:0.2\n2 1:0.3\n", "line 2: the coordinate 2:y is missing"),
    (b"0.5 1:0.3\n2 1:0.3 2:0.1\n", "line 2: has 1:x and 2:y, and the first point, line 1"),
    (b"1 2:0.5\n", "line 1: the coordinate 1:x is missing"),
    (b"1 1:0.1 2:0.2\n2\n", "line 2: has no coordinates"),
    (b"1 1:0.1 2:0.2\n2 1:0.3 2:nan\n", "line 2: the coordinate 2:y is nan, not finite"),
    (b"1 1:inf 2:0.2\n", "line 1: the coordinate 1:x is inf, not finite"),
    (b"0.5 1:0.1\n-inf 1:0.2\n", "line 2: the target is -inf, not finite"),
    (b"1 1:0.1 2:0.2\n1.5 1:0.3 2:0.4\n", "line 2: the class 1.5 is not a whole number"),
    (b"1 1:0.1 2:0.2\n1e12 1:0.3 2:0.4\n", "line 2: the class 1e+12 is not a whole number"),
    (b"1 1:0.1 2:0.2\n2 1:0.3 2:-2e15\n", "line 2 has the coordinate 2e+15, beyond ±1e15"),
    (b"1 1:0.1 2:0.2\n1 1:0.3 2:0.4\n", "every point has the class 1; an SVM needs at least"),
]


@pytest.mark.parametrize("raw, message", BAD)
def test_a_bad_file_is_one_line_naming_the_problem(tmp_path, raw, message):
    path = write(tmp_path, raw)
    with pytest.raises(InputError) as info:
        read_svmtoy(path)
    text = str(info.value)
    assert message in text
    assert text.startswith(str(path))
    assert "\n" not in text and len(text) < 400


def test_a_long_line_is_cut_in_the_message(tmp_path):
    path = write(tmp_path, "1 1:0.1 2:" + "x" * 100_000 + "\n")
    with pytest.raises(InputError, match="is not an svm-toy point") as info:
        read_svmtoy(path)
    assert len(str(info.value)) < 400


def test_too_many_classes_for_the_window_and_a_file_over_the_size_limit(tmp_path, monkeypatch):
    import svmviz.core.file_io as files

    ten = "".join(f"{k} 1:0.{k} 2:0.5\n" for k in range(1, 11))
    data = read_svmtoy(write(tmp_path, ten))  # (`svmviz train` takes them)
    assert data.n_classes == 10
    with pytest.raises(InputError, match="toy.txt: the window draws at most 9 classes"):
        check_window_data(data, str(tmp_path / "toy.txt"))
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 10)
    with pytest.raises(InputError, match="svmviz reads files of at most 0 MiB"):
        read_data(write(tmp_path, THREE_CLASSES, "big.svm"))
    with pytest.raises(InputError, match="svmviz reads files of at most 0 MiB"):
        read_data(write(tmp_path, THREE_CLASSES, "big.txt"))
