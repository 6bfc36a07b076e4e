"""Data sets and the CSV readers, with messages that name the file, line and column."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from svmviz.core.errors import InputError, counted, shown
from svmviz.core.file_io import atomic_write_text, read_bytes
from svmviz.core.limits import BOUNDS, MAX_NAME, check_coordinates, check_text
from svmviz.core.palette import MAX_CLASSES


@dataclass(frozen=True)
class Dataset:
    """Points ``X`` (m×d), integer labels ``y`` (indices into ``classes``) and class names.

    Classes keep the order in which they appear unless they are all integers, in which
    case they are sorted numerically (so ``-1, 1`` and ``0, 1, 2`` come out as expected).
    """

    X: np.ndarray
    y: np.ndarray
    classes: tuple[str, ...]
    # regression: the real targets (then y is all 0 and classes is empty, as for the
    # unlabelled points of the one-class problem)
    target: np.ndarray | None = None
    # how a file was read where its reader had to guess (read_csv: a first row that may be
    # a header or a point), for the window to say; None when nothing was guessed
    note: str | None = None

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @classmethod
    def regression(cls, X, target) -> Dataset:
        """A regression data set: points and real targets."""
        X = np.ascontiguousarray(X, dtype=float)
        target = np.ascontiguousarray(target, dtype=float)
        return cls(X, np.zeros(len(X), dtype=np.int64), (), target)

    @classmethod
    def points(cls, X) -> Dataset:
        """Unlabelled points (the one-class problem): no classes, y all 0."""
        X = np.ascontiguousarray(X, dtype=float)
        return cls(X, np.zeros(len(X), dtype=np.int64), ())

    @classmethod
    def from_labels(cls, X, labels) -> Dataset:
        X = np.ascontiguousarray(X, dtype=float)
        labels = [str(v) for v in labels]
        classes = order_classes(labels)
        index = {c: k for k, c in enumerate(classes)}
        y = np.array([index[v] for v in labels], dtype=np.int64)
        return cls(X, y, tuple(classes))


def check_window_data(
    data: Dataset, name: str, drawer: str = "the window", remedy: str = "", subject: str = ""
) -> None:
    """The window draws 2-D data of at most MAX_CLASSES classes, or a regression's 1-D
    inputs (the plane: x against the target) or 2-D inputs; anything else is refused with a
    message (never silently cut). ``drawer`` and ``remedy``: who draws, and what to do
    instead (by default: the window, and `svmviz train`); ``subject``: what holds the data
    (by default "this file")."""
    d = data.X.shape[1]
    subject = subject or "this file"
    if data.target is not None and d not in (1, 2):
        raise InputError(
            f"{name}: {drawer} draws a regression of 1 or 2 coordinates and a target, and "
            f"{subject} has {counted(d, 'coordinate')}; "
            + (remedy or "use `svmviz train` for other dimensions")
        )
    if data.target is None and d != 2:
        raise InputError(
            f"{name}: {drawer} draws 2-D data and {subject} has "
            f"{counted(d, 'coordinate')}; " + (remedy or "use `svmviz train` for other dimensions")
        )
    if data.n_classes > MAX_CLASSES:
        raise InputError(
            f"{name}: {drawer} draws at most {MAX_CLASSES} classes and {subject} has "
            f"{data.n_classes}; " + (remedy or "use `svmviz train` for more")
        )


def order_classes(labels) -> list[str]:
    """Distinct labels: numeric order if all are integers, else order of appearance."""
    seen = list(dict.fromkeys(labels))
    try:
        return sorted(seen, key=lambda s: int(s))
    except ValueError:
        return seen


def read_text(path: Path, raw: bytes | None = None, what: str = "a CSV") -> str:
    """The text of a text file of the format ``what`` (``raw``: its bytes, when they have
    been read): refused when it is binary, not UTF-8 or empty."""
    if raw is None:
        raw = read_bytes(path)
    if b"\x00" in raw:
        raise InputError(f"{path}: is a binary file, not {what} text file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: is not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        raise InputError(f"{path}: is empty")
    return text


def _rows(path: Path, text: str):
    """Non-blank CSV rows with their 1-based line numbers."""
    try:
        sniffed = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
        delimiter = sniffed.delimiter
    except csv.Error:
        delimiter = ","
    # newline=None: lines may end in \n, \r\n or a bare \r (old Mac files)
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=delimiter)
    try:
        for row in reader:
            if row and any(cell.strip() for cell in row):
                yield reader.line_num, [cell.strip() for cell in row]
    except csv.Error as exc:
        words = str(exc)
        if "field limit" in words:  # (the csv module's own words are about "fields")
            words = f"a cell has more than {csv.field_size_limit():,} characters"
        raise InputError(f"{path}, line {reader.line_num}: {words}") from None


def _number(path: Path, line: int, col: int, cell: str, what: str) -> float:
    try:
        value = float(cell)
    except ValueError:
        raise InputError(
            f"{path}, line {line}, column {col}: {what} {shown(cell)} is not a number"
        ) from None
    if not math.isfinite(value):
        raise InputError(f"{path}, line {line}, column {col}: {what} is {shown(cell)}, not finite")
    return value


# the header of a one-class file's last column when it holds labels even if they are numbers
LABEL_HEADERS = ("label", "class")


def read_csv(path, kind: str = "svc", raw: bytes | None = None) -> Dataset:
    """Read a data set: an optional header row (:func:`_split_header`), then coordinates in
    the first columns and, by ``kind`` (SolverConfig.kind), the label last ("svc"), the real
    target last ("regression"), or ("one-class") no label: the last column is a label, and
    dropped, when its header is ``label`` or ``class`` or a cell of it is not a number;
    otherwise every column is a coordinate.

    Every coordinate column is used (the window draws the first two). ``raw``: the file's
    bytes, when the caller has read them. The Dataset's ``note`` says how a first row that
    could be a header or a point was read.
    """
    path = Path(path)
    rows = list(_rows(path, read_text(path, raw)))
    if not rows:
        raise InputError(f"{path}: has no header and no data, only empty cells")
    header, body, note = _split_header(path, rows, kind)
    first_line, first = rows[0]
    width = len(first)
    first_row = "the header" if header is not None else "the first row"
    if width < (1 if kind == "one-class" else 2):
        last = "a target" if kind == "regression" else "a label"
        raise InputError(
            f"{path}, line {first_line}: {first_row} has {width} column; "
            f"expected coordinates then {last}"
        )
    if not body:
        raise InputError(f"{path}: has a header but no data rows")
    for line, row in body:
        if len(row) != width:
            raise InputError(
                f"{path}, line {line}: {counted(len(row), 'column')}, {first_row} has {width}"
            )
    if kind == "one-class":
        named = header is not None and header[-1].lower() in LABEL_HEADERS
        labelled = named or not all(_is_number(row[-1]) for _, row in body)
        n_coords = width - 1 if labelled else width
    else:
        n_coords = width - 1
    X = np.empty((len(body), n_coords))
    for r, (line, row) in enumerate(body):
        for c in range(n_coords):
            X[r, c] = _number(path, line, c + 1, row[c], "coordinate")
    check_coordinates(X, lambda i: f"{path}, line {body[i][0]}")
    if kind == "one-class":
        data = Dataset.points(X)
    elif kind == "regression":
        target = [_number(path, line, width, row[-1], "the target") for line, row in body]
        data = Dataset.regression(X, target)
    else:
        labels = []
        for line, row in body:
            if row[-1] == "":
                raise InputError(f"{path}, line {line}, column {width}: the label is empty")
            check_text(row[-1], MAX_NAME, f"{path}, line {line}, column {width}: the label")
            labels.append(row[-1])
        data = Dataset.from_labels(X, labels)
        if data.n_classes < 2:
            raise InputError(
                f"{path}: every row has the label {shown(data.classes[0])}; "
                "an SVM needs at least two classes"
            )
    return data if note is None else replace(data, note=note)


def _split_header(path: Path, rows: list, kind: str):
    """``(header or None, data rows, note or None)``: the first row is a header unless its
    content says it is a point. Every cell a number: a point (a file without a header; when
    its label is no other row's, as in a header of numbered columns, the note says so).
    A coordinate that is not a number: a header. Numbers, then a last cell that is not one
    (where a label may be text): a point when another row has that label (the classes of a
    headerless file), else the header (a header of numbered columns, or one point alone in
    its class: the note says which was chosen and how to have the other)."""
    (line, first), rest = rows[0], rows[1:]
    cells = ", ".join(first)
    cells = cells if len(cells) <= 60 else f"{cells[:59]}…"  # (a cell may be huge)
    others = {row[-1] for _, row in rest if len(row) == len(first)}
    if all(_is_number(cell) for cell in first):
        if kind != "svc" or len(first) < 2 or first[-1] in others or not others:
            return None, rows, None
        note = (
            f"{path.name}: line {line} ({cells}) was read as a point, though its label is "
            "no other row's; if it is a header, give its columns names (such as x1,x2,label)"
        )
        return None, rows, note
    if len(first) < 2 or not all(_is_number(cell) for cell in first[:-1]) or kind == "regression":
        return first, rest, None
    label = first[-1]
    if label in others:
        note = (
            f"{path.name}: line {line} was read as a point of class {shown(label)} (its "
            "label is that of other rows), not as a header"
        )
        return None, rows, note
    note = (
        f"{path.name}: line {line} ({cells}) was read as the "
        "header; if it is a point, add a header line above it (such as x1,x2,label)"
    )
    return first, rest, note


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def read_cost_matrix(path, n_classes: int) -> np.ndarray:
    """Read Δ: K rows of K non-negative numbers (no header), zero diagonal."""
    path = Path(path)
    rows = list(_rows(path, read_text(path)))
    if len(rows) != n_classes:
        raise InputError(
            f"{path}: the cost matrix has {counted(len(rows), 'row')}; the data has "
            f"{n_classes} classes"
        )
    cost = np.empty((n_classes, n_classes))
    for r, (line, row) in enumerate(rows):
        if len(row) != n_classes:
            raise InputError(
                f"{path}, line {line}: {counted(len(row), 'column')}; the data has "
                f"{n_classes} classes"
            )
        for c, cell in enumerate(row):
            cost[r, c] = _number(path, line, c + 1, cell, "cost")
    check_cost_matrix(cost, n_classes, str(path))
    return cost


def check_cost_matrix(cost, n_classes: int, where: str = "cost matrix") -> np.ndarray:
    """Validate Δ (K×K, finite, non-negative, zero diagonal); return it as floats."""
    cost = np.asarray(cost, dtype=float)
    if cost.shape != (n_classes, n_classes):
        raise InputError(f"{where}: shape {cost.shape}, expected {n_classes}×{n_classes}")
    if not np.all(np.isfinite(cost)):
        raise InputError(f"{where}: has a value that is not finite")
    bound = BOUNDS["cost"]
    beyond = (cost < bound.low) | (cost > bound.high)
    if np.any(beyond):
        r, c = np.argwhere(beyond)[0]
        bound.check(float(cost[r, c]), where, f"entry ({r + 1}, {c + 1})")
    if np.any(np.diag(cost) != 0):
        k = int(np.flatnonzero(np.diag(cost))[0])
        raise InputError(f"{where}: diagonal entry {k + 1} is {cost[k, k]:g}; must be 0")
    return cost


def write_csv(path, data: Dataset) -> None:
    """Write a data set in the format :func:`read_csv` reads: the label last, the target
    last (regression) or no last column (unlabelled points)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    d = data.X.shape[1]
    coords = [f"x{k + 1}" for k in range(d)]
    if data.target is not None:
        writer.writerow([*coords, "target"])
        last = [repr(float(v)) for v in data.target]
    elif data.classes:
        writer.writerow([*coords, "label"])
        last = [data.classes[k] for k in data.y]
    else:
        writer.writerow(coords)
        last = None
    for i, x in enumerate(data.X):
        writer.writerow([repr(float(v)) for v in x] + ([] if last is None else [last[i]]))
    atomic_write_text(path, out.getvalue())
