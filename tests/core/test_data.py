import re

import numpy as np
import pytest

from svmviz.core.data import Dataset, read_cost_matrix, read_csv, write_csv
from svmviz.core.errors import InputError


def write(tmp_path, text, name="d.csv", mode="w"):
    p = tmp_path / name
    if mode == "wb":
        p.write_bytes(text)
    else:
        p.write_text(text)
    return p


def test_reads_coordinates_and_string_labels(tmp_path):
    p = write(tmp_path, "x,y,label\n0,1,cat\n2,3.5,dog\n-1,0,cat\n")
    d = read_csv(p)
    assert d.X.tolist() == [[0, 1], [2, 3.5], [-1, 0]]
    assert d.classes == ("cat", "dog")
    assert d.y.tolist() == [0, 1, 0]


def test_integer_labels_are_ordered_numerically(tmp_path):
    d = read_csv(write(tmp_path, "a,b,c\n0,0,10\n1,1,-1\n2,2,2\n"))
    assert d.classes == ("-1", "2", "10")
    assert d.y.tolist() == [2, 0, 1]


def test_more_than_two_coordinates_and_semicolons(tmp_path):
    d = read_csv(write(tmp_path, "a;b;c;l\n1;2;3;x\n4;5;6;y\n"))
    assert d.X.shape == (2, 3)


def test_round_trip(tmp_path, blobs3):
    p = tmp_path / "out.csv"
    write_csv(p, blobs3)
    d = read_csv(p)
    np.testing.assert_array_equal(d.X, blobs3.X)
    assert [d.classes[k] for k in d.y] == [blobs3.classes[k] for k in blobs3.y]


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "is empty"),
        ("   \n\n", "is empty"),
        ("x,y,label\n", "no data rows"),
        ("x,y,label\n1,2,a\n3,oops,b\n", "line 3, column 2: coordinate 'oops' is not a number"),
        ("x,y,label\n1,2,a\nnan,1,b\n", "line 3, column 1: coordinate is 'nan', not finite"),
        ("x,y,label\n1,2,a\n1,inf,b\n", "line 3, column 2: coordinate is 'inf', not finite"),
        ("x,y,label\n1,2,a\n3,b\n", "line 3: 2 columns, the header has 3"),
        ("x,y,label\n1,2,a\n3,4,\n", "line 3, column 3: the label is empty"),
        ("x,y,label\n1,2,a\n3,4,a\n", "an SVM needs at least two classes"),
        ("label\n1\n", "the header has 1 column"),
        ("x,y,label\n1,2,a\n3,4," + "b" * 101 + "\n", "line 3, column 3: the label has 101"),
        ("x,y,label\n1,2,a\n3,4," + "b" * 200_000 + "\n", "a cell has more than 131,072"),
    ],
)
def test_bad_csv_messages(tmp_path, content, message):
    p = write(tmp_path, content)
    with pytest.raises(InputError) as e:
        read_csv(p)
    assert message in str(e.value)
    assert str(p) in str(e.value)


def test_missing_binary_and_folder(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_csv(tmp_path / "nope.csv")
    with pytest.raises(InputError, match="binary file"):
        read_csv(write(tmp_path, b"\x89PNG\x00\x00\x01", mode="wb"))
    with pytest.raises(InputError, match="folder"):
        read_csv(tmp_path)
    with pytest.raises(InputError, match="not UTF-8"):
        read_csv(write(tmp_path, b"x,y,l\n1,2,\xff\xfe\n", mode="wb"))


def test_cost_matrix(tmp_path):
    c = read_cost_matrix(write(tmp_path, "0,1,2\n1,0,1\n2,1,0\n"), 3)
    assert c.tolist() == [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    with pytest.raises(InputError, match="2 rows; the data has 3 classes"):
        read_cost_matrix(write(tmp_path, "0,1,2\n1,0,1\n"), 3)
    with pytest.raises(InputError, match=r"entry \(1, 2\) must be a number from 0 to 1e\+150"):
        read_cost_matrix(write(tmp_path, "0,-1\n1,0\n"), 2)
    with pytest.raises(InputError, match=r"entry \(2, 1\) must be .*, not 1e\+151"):
        read_cost_matrix(write(tmp_path, "0,1\n1e151,0\n"), 2)
    with pytest.raises(InputError, match="diagonal"):
        read_cost_matrix(write(tmp_path, "1,1\n1,0\n"), 2)
    with pytest.raises(InputError, match="line 2, column 2"):
        read_cost_matrix(write(tmp_path, "0,1\n1,x\n"), 2)


def test_from_labels_keeps_appearance_order_for_strings():
    d = Dataset.from_labels(np.zeros((3, 2)), ["b", "a", "b"])
    assert d.classes == ("b", "a")


def test_a_regression_file_has_a_real_target_last(tmp_path):
    d = read_csv(write(tmp_path, "x,y,price\n0,1,2.5\n2,3,-1e3\n"), "regression")
    assert d.X.tolist() == [[0, 1], [2, 3]]
    assert d.target.tolist() == [2.5, -1000.0]
    assert d.classes == ()
    again = tmp_path / "again.csv"
    write_csv(again, d)
    assert read_csv(again, "regression").target.tolist() == d.target.tolist()


@pytest.mark.parametrize(
    "content, message",
    [
        ("x,t\n0,1\n1,cat\n", "line 3, column 2: the target 'cat' is not a number"),
        ("x,y,t\n0,1,2\n1,2,\n", "line 3, column 3: the target '' is not a number"),
        ("x,t\n0,nan\n", "line 2, column 2: the target is 'nan', not finite"),
        ("t\n1\n", "line 1: the header has 1 column; expected coordinates then a target"),
    ],
)
def test_bad_targets(tmp_path, content, message):
    with pytest.raises(InputError, match=re.escape(message)):
        read_csv(write(tmp_path, content), "regression")


@pytest.mark.parametrize(
    "content, coordinates",
    [
        ("x,y,label\n0,1,a\n2,3,b\n", [[0, 1], [2, 3]]),  # a label that is not a number
        ("x,y,kind\n0,1,1\n2,3,z\n", [[0, 1], [2, 3]]),  # one cell that is not a number
        ("x,y,label\n0,1,1\n2,3,-1\n", [[0, 1], [2, 3]]),  # numbers under "label"
        ("x,y,Class\n0,1,1\n2,3,-1\n", [[0, 1], [2, 3]]),
        ("x,y,z\n0,1,5\n2,3,6\n", [[0, 1, 5], [2, 3, 6]]),  # every column a coordinate
        ("x\n0\n2\n", [[0], [2]]),
    ],
)
def test_a_one_class_file_may_have_a_label_column(tmp_path, content, coordinates):
    d = read_csv(write(tmp_path, content), "one-class")
    assert d.X.tolist() == coordinates
    assert d.classes == () and d.target is None
    again = tmp_path / "again.csv"
    write_csv(again, d)
    assert read_csv(again, "one-class").X.tolist() == coordinates


def test_one_class_coordinates_are_still_checked(tmp_path):
    with pytest.raises(InputError, match=re.escape("line 3, column 1: coordinate 'q'")):
        read_csv(write(tmp_path, "x,y,label\n0,1,a\nq,3,b\n"), "one-class")


def test_bare_carriage_returns_end_lines(tmp_path):
    """An old Mac file: Python's csv said "new-line character seen in unquoted field"."""
    p = tmp_path / "cr.csv"
    p.write_bytes(b"x,y,label\r1,2,a\r3,4,b\r5,6,a\r")
    d = read_csv(p)
    np.testing.assert_array_equal(d.X, [[1, 2], [3, 4], [5, 6]])
    assert d.classes == ("a", "b")


def test_a_csv_without_a_header_keeps_its_first_row(tmp_path):
    rows = "".join(f"{0.1 * k},{-0.2 * k},{k % 2}\n" for k in range(60))
    d = read_csv(write(tmp_path, rows))
    assert len(d.y) == 60
    assert d.X[0].tolist() == [0.0, 0.0]
    assert d.note is None  # numbers throughout: no guess to report
    assert len(read_csv(write(tmp_path, rows), "regression").target) == 60
    assert len(read_csv(write(tmp_path, rows), "one-class").X) == 60


@pytest.mark.parametrize(
    "content",
    ["x,y,label\n0,1,a\n2,3,b\n", "1,y,label\n0,1,a\n2,3,b\n", "x1,x2,class\n0,1,0\n2,3,1\n"],
)
def test_a_header_row_is_still_a_header(tmp_path, content):
    d = read_csv(write(tmp_path, content))
    assert d.X.tolist() == [[0, 1], [2, 3]]
    assert d.note is None


@pytest.mark.parametrize(
    "content, points, said",
    [
        # numbers, then a label no other row has: a header (of numbered columns) or a point
        # alone in its class; read as the header, and said
        ("1.5,2,label\n0,1,0\n2,3,1\n", 2, "line 1 (1.5, 2, label) was read as the header"),
        ("1.5,2,odd\n0,1,a\n2,3,b\n", 2, "line 1 (1.5, 2, odd) was read as the header"),
        # numbers, then a label other rows have: a point, and said
        ("5.1,3.5,setosa\n4.9,3,setosa\n6.2,2.9,virginica\n", 3, "line 1 was read as a point"),
    ],
)
def test_a_first_row_that_could_be_a_header_or_a_point_is_said(tmp_path, content, points, said):
    d = read_csv(write(tmp_path, content))
    assert len(d.y) == points
    assert said in d.note
    assert "d.csv" in d.note


def test_a_first_row_of_numbers_with_a_label_no_other_row_has_is_said(tmp_path):
    """A header of numbered columns ("0,1,2": pandas' for a frame without column names) reads
    as a point, but its label is no other row's: the note says so, and how to have a header."""
    d = read_csv(write(tmp_path, "0,1,2\n0.5,1,a\n2,3,b\n"))
    assert len(d.y) == 3
    assert "line 1 (0, 1, 2) was read as a point" in d.note
    assert read_csv(write(tmp_path, "0,1,2\n0.5,1,1\n2,3,2\n")).note is None  # a class's
