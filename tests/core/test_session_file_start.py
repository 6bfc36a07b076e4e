"""The start w₀ in the session file: kept bit for bit, optional, and a bad one named."""

import json

import numpy as np
import pytest

from svmviz.core.errors import InputError
from svmviz.core.files.session_file import SessionFile, read_session, write_session
from svmviz.core.training.start import Start
from tests.core.test_session_file import a_session


def with_start(s: SessionFile, start) -> SessionFile:
    return SessionFile(**{**s.__dict__, "start": start})


def test_a_start_is_saved_and_read_back_bit_for_bit(tmp_path):
    start = Start(np.array([[0.1, 1 / 3], [-2.5, 1e-7], [3.0, 0.0]]), [0.5, -1 / 7, 0.0], 77)
    s = with_start(a_session(), start)
    path = tmp_path / "lesson.json"
    write_session(path, s)
    again = read_session(path)
    assert again.start == start
    np.testing.assert_array_equal(again.start.W, start.W)
    assert again.same_content(s)
    assert not again.same_content(a_session()), "a start is part of the content"


def test_a_file_without_a_start_loads_with_none(tmp_path):
    path = tmp_path / "old.json"
    d = a_session().to_dict()
    assert "start" not in d
    path.write_text(json.dumps(d))
    assert read_session(path).start is None


@pytest.mark.parametrize(
    "start, words",
    [
        ({"W": [[1.0, 2.0]], "b": [0.0]}, "t0 must be a whole number"),
        ({"W": [[1.0, None]], "b": [0.0], "t0": 4}, "W must be rows of finite numbers"),
        ({"W": [[1.0, 2.0]], "b": [0.0, 0.0], "t0": 4}, "one number per row of W"),
        ("w = 0", "the start must be"),
        ({"W": [[1.0, 2.0, 3.0]], "b": [0.0], "t0": 4}, "3 weights a row, but the points have 2"),
    ],
)
def test_a_bad_start_in_a_file_names_the_file_and_the_problem(tmp_path, start, words):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**a_session().to_dict(), "start": start}))
    with pytest.raises(InputError, match=words) as err:
        read_session(path)
    assert str(path) in str(err.value) and "start" in str(err.value)
