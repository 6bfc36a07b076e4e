"""libsvm's svm-toy files: the points svm-toy's Save writes and its Load reads.

svm-toy (libsvm 3.37, ``svm-toy/qt/svm-toy.cpp``) saves a point a line: ``"%d 1:%f 2:%f"``,
the class button's value (1, 2, 3) and x, y in [0, 1) with y pointing *down* the screen;
with ``-s 3`` or ``-s 4`` in its options (ε-SVR, ν-SVR) ``"%f 1:%f"``, the point's y as the
target and x as the input. Its Load tells the two kinds apart by how many coordinates a
line has.

Here the text is parsed by scikit-learn's ``load_svmlight_file``. A file whose every point
has 1:x and 2:y is classified, one whose every point has 1:x alone a regression; a point is
drawn at (x, 1 − y) and a target is 1 − y, so that the file looks as it did in svm-toy. A
problem's ``kind`` reads a classified file as classes (named "1", "2", …), as a regression
(x → 1 − y, svm-toy's ε-SVR) or as unlabelled points (one-class). Unlike svm-toy, a line
that is not a point, a mix of the kinds, an index other than 1 and 2, a class that is not a
whole number and a value that is not finite are refused with their line. Writing is the
inverse (class k as k + 1, 15 significant digits).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, read_text
from svmviz.core.errors import InputError, shown
from svmviz.core.file_io import atomic_write_text, read_bytes
from svmviz.core.limits import check_coordinates

# names that are always read as svm-toy files; any other name but .csv, .tsv and .json
# (.txt, none) is one when its first point looks like one (see looks_like_svmtoy)
SUFFIXES = (".svmlight", ".libsvm", ".svm", ".toy")
FORMS = "`class 1:x 2:y` (a classified point) or `target 1:x` (a regression's)"
MAX_LABEL = 2**31 - 1  # svm-toy reads a class with %d: a C int

# the first point of an svm-toy file: a label, then index:value (svmlight's "qid:" allowed)
_POINT = re.compile(rb"[^\s:,;#]+[ \t]+(qid:\S+[ \t]+)?\d+:")


def looks_like_svmtoy(raw: bytes) -> bool:
    """Whether ``raw``'s first line with something on it (after a ``#`` comment is cut)
    starts as a point of svm-toy's does: a label, a space, then ``index:``. A CSV's header
    (``x,y,label``) or first row does not."""
    for line in _lines(raw[:65536].removeprefix(b"\xef\xbb\xbf")):
        line = line.split(b"#", 1)[0].strip()
        if line:
            return _POINT.match(line) is not None
    return False


def _lines(raw: bytes) -> list[bytes]:
    """The lines of ``raw``, which may end in \\n, \\r\\n or a bare \\r (old Mac files)."""
    return raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")


class _CountedLines(io.BytesIO):
    """The bytes to parse, counting the lines scikit-learn's parser has taken (it reads a
    file object line by line), so that a refusal names the line it stopped at."""

    def __init__(self, raw: bytes):
        super().__init__(raw)
        self.line = 0

    def __next__(self) -> bytes:
        line = super().__next__()
        self.line += 1
        return line


def read_svmtoy(path, kind: str = "svc", raw: bytes | None = None) -> Dataset:
    """Read an svm-toy file (``raw``: its bytes, when the caller has read them) as the
    problem ``kind`` (SolverConfig.kind) reads it; see the module's docstring. Every
    refusal is an InputError naming the file and, where there is one, the line."""
    from sklearn.datasets import load_svmlight_file

    path = Path(path)
    if raw is None:
        raw = read_bytes(path)
    body = read_text(path, raw, "an svm-toy").encode("utf-8")
    lines = _lines(body)
    # the lines the parser makes a point of: something left once a "#" comment is cut
    numbers = [n for n, line in enumerate(lines, 1) if line.split(b"#", 1)[0].split()]
    if not numbers:
        raise InputError(f"{path}: has no points, only comments")
    source = _CountedLines(b"\n".join(lines))
    try:
        X, labels = load_svmlight_file(source, zero_based=False)
    except (ValueError, OverflowError) as exc:
        n = source.line
        line = lines[n - 1] if 0 < n <= len(lines) else None
        raise InputError(_not_a_point(path, n, line, exc)) from None
    lined = len(labels) == len(numbers)  # (the parser skips the lines skipped above)

    def place(i: int) -> str:  # point i (from 0): by its line, else by its number
        return f"line {numbers[i]}" if lined else f"point {i + 1}"

    def where(i: int) -> str:
        return f"{path}, {place(i)}"

    indptr, index, values = X.indptr, X.indices, X.data  # (index from 0: 1:x is 0)
    row = np.repeat(np.arange(len(labels)), np.diff(indptr))
    beyond = np.flatnonzero(index > 1)
    if beyond.size:
        k = int(beyond[0])
        raise InputError(
            f"{where(int(row[k]))}: has the index {int(index[k]) + 1}; an svm-toy point has "
            "1:x and 2:y, or 1:x alone (a regression's)"
        )
    count = np.diff(indptr)
    _check_shapes(where, count, index, indptr, place(0))
    first = indptr[:-1]
    x = values[first]
    regression = bool(count[0] == 1)
    y = labels if regression else values[first + 1]
    for what, column in (
        ("the coordinate 1:x", x),
        ("the target" if regression else "the coordinate 2:y", y),
    ):
        bad = np.flatnonzero(~np.isfinite(column))
        if bad.size:
            i = int(bad[0])
            raise InputError(f"{where(i)}: {what} is {column[i]}, not finite")
    if not regression:
        whole = np.isfinite(labels) & (labels == np.round(labels)) & (np.abs(labels) <= MAX_LABEL)
        if not whole.all():
            i = int(np.flatnonzero(~whole)[0])
            raise InputError(
                f"{where(i)}: the class {labels[i]:g} is not a whole number of at most "
                f"{len(str(MAX_LABEL))} digits (svm-toy's classes are 1, 2, 3)"
            )
    plane = np.column_stack([x, 1.0 - y])  # (y up in svmviz, down in svm-toy)
    check_coordinates(plane, where)
    if kind == "one-class":
        return Dataset.points(plane)
    if kind == "regression" or regression:
        return Dataset.regression(plane[:, :1], plane[:, 1])
    data = Dataset.from_labels(plane, [str(int(v)) for v in labels])
    if data.n_classes < 2:
        raise InputError(
            f"{path}: every point has the class {data.classes[0]}; an SVM needs at least "
            "two classes"
        )
    return data


def _check_shapes(where, count, index, indptr, first: str) -> None:
    """Every point has 1:x and 2:y, or every point 1:x alone; else the first line that
    breaks the rule is named. ``count``: the coordinates of each point; ``index``,
    ``indptr``: the parsed indices (from 0) and where each point's start; ``first``: where
    the first point is ("line 1")."""
    has_x = np.zeros(len(count), dtype=bool)
    if len(index):
        starts = np.minimum(indptr[:-1], len(index) - 1)
        has_x = (count > 0) & (index[starts] == 0)
    bad = np.flatnonzero(~has_x | (count != count[0]))
    if not bad.size:
        return
    i = int(bad[0])
    if count[i] == 0:
        problem = f"has no coordinates; an svm-toy point is {FORMS}"
    elif not has_x[i]:
        problem = "the coordinate 1:x is missing (it has 2:y alone)"
    elif count[0] == 2:
        problem = (
            f"the coordinate 2:y is missing (the first point, {first}, has 1:x and 2:y, "
            "as svm-toy's classified points do)"
        )
    else:
        problem = (
            f"has 1:x and 2:y, and the first point, {first}, is a regression's `target 1:x`; "
            "an svm-toy file holds one kind of point"
        )
    raise InputError(f"{where(i)}: {problem}")


def _not_a_point(path: Path, n: int, line: bytes | None, exc: Exception) -> str:
    """The message for a line scikit-learn's parser refused (``n``: its number, 0 when
    not known), in one line of our words."""
    words = " ".join(str(exc).split())
    if isinstance(exc, OverflowError):
        reason = "an index is too large"
    elif words.startswith("Invalid index"):
        reason = "an index is 0 or negative; svm-toy's are 1 (x) and 2 (y)"
    elif "sorted and unique" in words:
        reason = "the indices must be 1 then 2, each once"
    elif words.startswith("could not convert"):
        reason = "a label or value is not a number"
    elif words.startswith("invalid literal for int"):
        reason = "an index is not a whole number"
    elif "to unpack" in words:  # (Python's "not enough values", Cython's "need more")
        reason = "a coordinate is not index:value"
    else:
        reason = shown(words, 80)
    at = f"{path}, line {n}" if line is not None else str(path)
    text = f"{shown(line.decode('utf-8', 'replace').strip(), 60)} " if line is not None else ""
    return f"{at}: {text}is not an svm-toy point `class 1:x 2:y` or `target 1:x` ({reason})"


def svmtoy_text(data: Dataset) -> str:
    """``data`` as svm-toy's Save writes its points (see the module's docstring): classes
    as ``k+1 1:x 2:1−y``, a 1-D regression as ``1−target 1:x``, unlabelled points as
    class 1. Data svm-toy cannot hold (a regression on 2-D inputs, classes in other than
    two dimensions) are refused with a message."""
    X = np.asarray(data.X, dtype=float)
    d = X.shape[1]
    if data.target is not None:
        if d != 1:
            raise InputError(
                f"svm-toy holds a regression of one input x and a target, and these data "
                f"have {d} inputs; save them as CSV"
            )
        rows = [
            f"{_number(1.0 - t)} 1:{_number(x)}" for x, t in zip(X[:, 0], data.target, strict=True)
        ]
    else:
        if d != 2:
            raise InputError(f"svm-toy holds 2-D points and these have {d} coordinates")
        labels = data.y + 1 if data.classes else np.ones(len(X), dtype=np.int64)
        rows = [
            f"{int(k)} 1:{_number(x)} 2:{_number(1.0 - y)}"
            for k, (x, y) in zip(labels, X, strict=True)
        ]
    return "".join(f"{row}\n" for row in rows)


def _number(v: float) -> str:
    """15 significant digits: 1 − 0.9 is written 0.1, not 0.09999999999999998."""
    return f"{float(v):.15g}"


def write_svmtoy(path, data: Dataset) -> None:
    """Write ``data`` as an svm-toy file (:func:`svmtoy_text`), atomically."""
    atomic_write_text(path, svmtoy_text(data))


def opened_config(data: Dataset, config: SolverConfig) -> SolverConfig:
    """The settings the window opens ``data`` with: ``config``, but epsilon-svr in place
    of a problem of classes when ``data`` is a regression (an svm-toy regression file,
    which has no classes; svm-toy draws it as ε-SVR does, the curve f(x) and its tube)."""
    if data.target is not None and config.kind != "regression":
        return config.replace(problem="epsilon-svr")
    return config
