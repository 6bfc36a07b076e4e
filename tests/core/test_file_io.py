"""Writing files: the JSON layout, the temporaries a killed write leaves, stamps."""

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from svmviz.core.errors import InputError
from svmviz.core.file_io import (
    MAX_NESTING,
    STALE_TEMPORARY_SECONDS,
    Stamp,
    atomic_write_bytes,
    json_bytes,
    parse_json,
    python_rows,
    remove_temporaries,
)
from svmviz.core.files.session_file import SessionFile, read_session, write_session


def test_json_reads_back_as_written_a_row_a_line():
    rows = [[0.1 * k, -1e-300 * k, k % 3] for k in range(2500)]
    d = {
        "format": "x",
        "points": rows,
        "targets": [0.5 * k for k in range(2100)],
        "classes": [{"name": 'ü "quoted" ], [', "color": "#000000"}],
        "cost": [[0, 1], [1, 0]],
        "empty": [],
        "nothing": {},
        "mixed": [1, [2, "], ["], {"a": [[1]]}],
        "none": None,
    }
    text = json_bytes(d).decode("utf-8")
    assert json.loads(text) == d
    lines = text.splitlines()
    assert "  [0.1, -1e-300, 1]," in lines  # a point a line
    assert len(lines) > 2500


def test_a_value_nested_deeper_than_written_back_is_refused_by_name():
    """A reader keeps unknown fields to write them back: one nested as deep as the parser
    takes (600 levels) would overflow the writer's recursion, so it is refused on reading."""
    deep = '{"iterations": ' + "[" * 600 + "1" + "]" * 600 + "}"
    with pytest.raises(InputError, match=f"more than {MAX_NESTING} levels"):
        parse_json(deep, "model.json")
    kept = {"iterations": [[[[1]]]] * 3, "x": {"y": [[1, 2]]}}
    text = json_bytes(parse_json(json.dumps(kept), "model.json")).decode()
    assert json.loads(text) == kept


def test_python_rows_are_the_rows_of_the_columns():
    X = np.random.default_rng(0).normal(size=(2345, 2))
    y = np.arange(2345) % 4
    rows = python_rows(X, y)
    assert rows == [[a, b, k] for (a, b), k in zip(X.tolist(), y.tolist(), strict=True)]
    assert type(rows[0][0]) is float and type(rows[0][2]) is int


def test_a_large_session_reads_back_bit_for_bit(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50_000, 2)) * 10.0 ** rng.integers(-8, 8, (50_000, 1))
    y = rng.integers(0, 3, 50_000)
    base = read_session_of(tmp_path)
    session = SessionFile(X, y, base.names, base.colors, target=rng.normal(size=50_000))
    write_session(tmp_path / "big.json", session)
    again = read_session(tmp_path / "big.json")
    np.testing.assert_array_equal(again.X, X)
    np.testing.assert_array_equal(again.y, y)
    np.testing.assert_array_equal(again.target, session.target)


def read_session_of(tmp_path):
    from svmviz.core.edits import DEFAULT_NAMES
    from svmviz.core.palette import CLASS_COLORS

    return SessionFile(np.zeros((0, 2)), np.zeros(0, dtype=np.int64), DEFAULT_NAMES, CLASS_COLORS)


def dead_pid() -> int:
    """The pid of a process that has ended."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout)


def test_the_temporaries_of_a_killed_write_are_removed(tmp_path):
    doc = tmp_path / "lesson.json"
    doc.write_text("{}")
    gone = dead_pid()
    old = time.time() - STALE_TEMPORARY_SECONDS - 60
    leftovers = [
        tmp_path / f".lesson.json.svmviz-{gone}-abcd_123.tmp",  # its writer is gone
        tmp_path / ".lesson.json.k2j4h5g6.tmp",  # named as before, and old
    ]
    kept = [
        tmp_path / f".lesson.json.svmviz-{os.getpid()}-abcdefgh.tmp",  # a write under way
        tmp_path / ".lesson.json.zzzzzzzz.tmp",  # named as before, but fresh: may be under way
        tmp_path / ".lesson.json.notes.tmp",  # not one of ours
        tmp_path / ".other.json.k2j4h5g6.tmp",  # another document's
    ]
    for p in leftovers + kept:
        p.write_text("half a file")
    os.utime(leftovers[1], (old, old))
    os.utime(kept[2], (old, old))
    assert sorted(remove_temporaries(doc)) == sorted(leftovers)
    assert all(p.exists() for p in kept)
    assert doc.exists()
    # a writer that is known to be gone: its temporaries go, whatever their age
    assert remove_temporaries(doc, pid=os.getpid()) == [kept[0]]


KILLED_WRITER = """
import os, sys, time
from svmviz.core.file_io import atomic_write_bytes

def stuck(src, dst):  # killed between the write and the rename
    print("written", flush=True)
    time.sleep(60)

os.replace = stuck
atomic_write_bytes(sys.argv[1], b"{}")
"""


def test_a_write_killed_before_its_rename_leaves_what_is_then_removed(tmp_path):
    doc = tmp_path / "lesson.json"
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(doc)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "written"
        proc.kill()  # SIGKILL: no clean-up runs
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    (left,) = tmp_path.iterdir()
    assert left.name.startswith(f".lesson.json.svmviz-{proc.pid}-")
    assert remove_temporaries(doc) == [left]  # its writer is gone
    assert not any(tmp_path.iterdir())


def test_a_stamp_sees_another_writer_and_not_a_touch(tmp_path):
    path = tmp_path / "s.json"
    stamp = Stamp.of(atomic_write_bytes(path, b"mine"), b"mine")
    assert not stamp.changed(path)
    assert Stamp.read(path) == stamp
    os.utime(path, (time.time() + 5, time.time() + 5))  # touched: the same bytes
    assert not stamp.changed(path)
    atomic_write_bytes(path, b"theirs")
    assert stamp.changed(path)
    path.unlink()
    assert stamp.changed(path)  # gone: what this window wrote is not on the disk
