"""Fuzz tests (hypothesis) for every file reader: CSV data sets and cost matrices, libsvm's
svm-toy files, sessions, scenarios, models (JSON and .npz) and ``read_document``, which the
window's Open uses.

Whatever the bytes, a reader returns a sane object or raises an InputError whose message
names the file (and has no traceback in it); any other exception, a warning (pytest turns
them into errors) or a call that hangs (stopped by an alarm after TIME_LIMIT seconds) is a
bug. The inputs are raw bytes and text, valid files written by svmviz and then mutated
(JSON values replaced, dropped or added, bytes truncated or flipped, numbers replaced by
1e308, -0, NaN, …, CSV rows and columns added or dropped, svm-toy coordinates dropped,
added, swapped or given odd labels and values), random documents of the right
shape, deep nesting, huge numbers and long lines. The regression tests at the end hold the
inputs that found bugs.

SVMVIZ_EXAMPLES sets the number of examples per fuzz test (default 60, a few seconds in
all); e.g. ``SVMVIZ_EXAMPLES=3000 pytest tests/core/test_fuzz_files.py``. With
SVMVIZ_FUZZ_COUNTS=FILE the number of inputs tried per reader (accepted and refused) is
written to FILE as JSON when the module ends.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import math
import os
import re
import signal
import struct
import tempfile
import threading
import warnings
import zipfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmviz.core.config import (
    ALGORITHMS,
    AVERAGES,
    BIASES,
    BINARY_LOSSES,
    MARGINS,
    MULTICLASS_LOSSES,
    PROBLEMS,
    SAMPLINGS,
    SCHEDULES,
    SolverConfig,
)
from svmviz.core.data import Dataset, read_cost_matrix, read_csv, write_csv
from svmviz.core.errors import InputError
from svmviz.core.files.scenario import VIEW_OPTIONS, Scenario, list_scenarios, read_scenario
from svmviz.core.files.session_file import (
    VIEW_TOGGLES,
    SessionFile,
    View,
    read_document,
    read_session,
    write_session,
)
from svmviz.core.files.svmtoy import read_svmtoy, write_svmtoy
from svmviz.core.generate import KINDS
from svmviz.core.kernels import KERNELS, Kernel
from svmviz.core.lesson.generalization import Split
from svmviz.core.limits import (
    BOUNDS,
    COORDINATE_DIGITS,
    MAX_CAPTION,
    MAX_COORDINATE,
    MAX_NAME,
    MAX_POINTS,
    MAX_TITLE,
)
from svmviz.core.model_io import (
    Model,
    model_npz_bytes,
    read_model,
    read_model_npz,
    with_provenance,
    write_model,
    write_model_npz,
)
from svmviz.core.palette import CLASS_COLORS, MAX_CLASSES

EXAMPLES = int(os.environ.get("SVMVIZ_EXAMPLES", 60))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    # the autouse fixtures (conftest) are function-scoped: nothing here depends on them
    suppress_health_check=list(HealthCheck),
)
TIME_LIMIT = 10.0  # seconds for one call of a reader; any longer is a hang
WIDGET_INT = 2**31 - 1  # the window's spin boxes take 32-bit ints (more: OverflowError)
TRIED: Counter = Counter()  # (reader, "accepted" | "refused") -> inputs


@pytest.fixture(scope="module", autouse=True)
def count_inputs():
    yield
    target = os.environ.get("SVMVIZ_FUZZ_COUNTS")
    if target:
        counts = {f"{reader} {outcome}": n for (reader, outcome), n in sorted(TRIED.items())}
        counts["total"] = sum(TRIED.values())
        Path(target).write_text(json.dumps(counts, indent=1) + "\n", encoding="utf-8")


# ------------------------------------------------------------------------ the contract
class Hang(Exception):
    pass


def attempt(reader, path: Path, *args):
    """``reader(path, *args)``: its value, or None when it refused the file with a good
    InputError. Anything else propagates (and fails the test)."""
    name = reader.__name__
    alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if alarm:

        def hung(signum, frame):
            raise Hang(f"{name} took more than {TIME_LIMIT} s on {path}")

        previous = signal.signal(signal.SIGALRM, hung)
        signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            value = reader(path, *args)
    except InputError as exc:
        TRIED[name, "refused"] += 1
        check_message(exc, path)
        return None
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    TRIED[name, "accepted"] += 1
    return value


def check_message(exc: InputError, path: Path) -> None:
    assert len(exc.args) == 1 and isinstance(exc.args[0], str), exc.args
    message = str(exc)
    assert message.strip(), "an empty message"
    assert str(path) in message, f"the message does not name the file: {message!r}"
    assert "Traceback" not in message, message
    assert "\n" not in message and "\r" not in message, f"not one line: {message[:300]!r}"
    rest = message.replace(str(path), "")
    assert len(rest) <= 1000, f"a message of {len(rest)} characters: {message[:300]!r}…"


def write(folder, name: str, raw: bytes) -> Path:
    path = Path(folder) / name
    path.write_bytes(raw)
    return path


# ------------------------------------------------------------------ what "sane" means
def check_dataset(data, dims=None, max_classes=None) -> None:
    assert isinstance(data, Dataset)
    assert all(len(name) <= MAX_NAME for name in data.classes)  # (every text a file brings)
    X, y = data.X, data.y
    assert isinstance(X, np.ndarray)
    assert X.dtype == np.float64
    assert X.ndim == 2
    m, d = X.shape
    assert m >= 1 and d >= 1 and (dims is None or d == dims), X.shape
    assert np.isfinite(X).all()
    assert isinstance(y, np.ndarray)
    assert y.dtype == np.int64
    assert y.shape == (m,)
    assert isinstance(data.classes, tuple)
    assert data.n_classes >= 1
    assert max_classes is None or data.n_classes <= max_classes
    assert ((y >= 0) & (y < data.n_classes)).all()
    for c in data.classes:  # names a session keeps (stripped, non-empty, distinct)
        assert isinstance(c, str) and c and c == c.strip(), c
        c.encode("utf-8")  # (a lone surrogate could not be saved again)
    assert len(set(data.classes)) == data.n_classes


def check_csv_data(data) -> None:
    check_dataset(data)
    assert data.n_classes >= 2
    assert len(np.unique(data.y)) == data.n_classes
    with tempfile.TemporaryDirectory() as tmp:  # what the window exports, it reads back
        path = Path(tmp) / "again.csv"
        write_csv(path, data)
        again = read_csv(path)
    np.testing.assert_array_equal(again.X, data.X)
    assert again.classes == data.classes
    np.testing.assert_array_equal(again.y, data.y)


def check_svmtoy_data(data, kind: str) -> None:
    """An svm-toy file's data set, read for the problem ``kind``: classes named by whole
    numbers (svc), a regression on one input x, or unlabelled 2-D points; written as an
    svm-toy file, it reads back the same (within the 15 digits written)."""
    assert isinstance(data, Dataset)
    X = data.X
    assert X.dtype == np.float64 and X.ndim == 2 and len(X) >= 1
    assert np.isfinite(X).all() and (np.abs(X) <= MAX_COORDINATE).all()
    if data.target is not None:
        assert X.shape[1] == 1
        assert data.classes == () and (data.y == 0).all()
        assert data.target.shape == (len(X),) and np.isfinite(data.target).all()
        assert (np.abs(data.target) <= MAX_COORDINATE).all()
        again_kind = "regression"
    elif not data.classes:
        assert kind == "one-class" and X.shape[1] == 2
        again_kind = "one-class"
    else:
        assert kind == "svc"
        check_dataset(data, dims=2)
        assert data.n_classes >= 2
        assert all(c == str(int(c)) for c in data.classes)  # svm-toy's classes: whole numbers
        again_kind = "svc"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "again.txt"
        write_svmtoy(path, data)
        again = read_svmtoy(path, again_kind)
    np.testing.assert_allclose(again.X, X, rtol=1e-14, atol=1e-14)
    np.testing.assert_array_equal(again.y, data.y)
    if data.target is not None:
        np.testing.assert_allclose(again.target, data.target, rtol=1e-14, atol=1e-14)


def check_config(config) -> None:
    assert isinstance(config, SolverConfig)
    hash(config)  # (the training caches key on it)
    for name in ("margin", "bias", "algorithm", "schedule", "sampling", "average"):
        assert isinstance(getattr(config, name), str)
    # the solver dock shows these in spin boxes and a check box
    for v in (config.batch, config.iterations, config.seed, config.kernel.degree):
        assert isinstance(v, (int, np.integer)) and 0 <= v <= WIDGET_INT, v
    assert isinstance(config.project, bool)
    for v in (config.lam, config.eta, config.tol, config.kernel.gamma, config.kernel.coef0):
        assert math.isfinite(v), v
    again = SolverConfig.from_dict(json.loads(json.dumps(config.to_dict())), "again")
    assert again == config


def check_session(s) -> None:
    assert isinstance(s, SessionFile)
    assert isinstance(s.X, np.ndarray)
    assert s.X.dtype == np.float64
    assert s.X.ndim == 2
    assert s.X.shape[1] == 2
    assert np.isfinite(s.X).all()
    assert s.y.dtype == np.int64
    assert s.y.shape == (len(s.X),)
    assert ((s.y >= 0) & (s.y < MAX_CLASSES)).all()
    assert len(s.names) == len(s.colors) == MAX_CLASSES
    assert len(set(s.names)) == MAX_CLASSES
    assert all(isinstance(n, str) and n and n == n.strip() for n in s.names), s.names
    assert all(re.fullmatch(r"#[0-9A-Fa-f]{6}", c) for c in s.colors)
    assert isinstance(s.class_count, int)
    assert 2 <= s.class_count <= MAX_CLASSES
    assert s.cost.shape == (MAX_CLASSES, MAX_CLASSES)
    assert np.isfinite(s.cost).all()
    assert (s.cost >= 0).all()
    assert (np.diag(s.cost) == 0).all()
    check_config(s.config)
    assert s.config.cost is None
    assert isinstance(s.split, Split)
    assert s.split.size is None or s.split.size <= WIDGET_INT
    assert s.caption is None or all(isinstance(t, str) for t in s.caption)
    assert s.caption is None or (
        len(s.caption[0]) <= MAX_TITLE and len(s.caption[1]) <= MAX_CAPTION
    )
    assert all(len(n) <= MAX_NAME for n in s.names)
    v = s.view
    if v.extent is not None:
        x0, x1, y0, y1 = v.extent
        assert all(math.isfinite(e) for e in v.extent)
        assert x0 < x1
        assert y0 < y1
    assert set(v.toggles) <= set(VIEW_TOGGLES)
    assert isinstance(v.warm_start, bool)
    assert isinstance(v.speed, int)
    assert v.speed >= -1  # −1: the log-t pace
    assert isinstance(v.current_class, int)
    assert 0 <= v.current_class < MAX_CLASSES
    with tempfile.TemporaryDirectory() as tmp:  # saved again, it reads back the same
        path = Path(tmp) / "again.json"
        write_session(path, s)
        again = read_session(path)
    assert again.same_content(s)
    assert again.view == s.view


def check_scenario(sc) -> None:
    assert isinstance(sc, Scenario)
    assert isinstance(sc.title, str) and len(sc.title) <= MAX_TITLE
    assert isinstance(sc.caption, str) and len(sc.caption) <= MAX_CAPTION
    check_dataset(sc.data, dims=2, max_classes=MAX_CLASSES)
    assert len(sc.data.y) <= MAX_POINTS
    check_config(sc.config)
    if sc.config.cost is not None:  # Δ over the data's classes
        K = sc.data.n_classes
        cost = np.asarray(sc.config.cost, dtype=float)
        assert cost.shape == (K, K)
        assert np.isfinite(cost).all()
        assert (cost >= 0).all()
    assert isinstance(sc.speed, int)
    assert sc.speed >= -1
    assert set(sc.view) <= set(VIEW_OPTIONS) | ({"race"} if sc.race else set())


def check_model(model) -> None:
    assert isinstance(model, Model)
    assert model.problem in PROBLEMS
    assert all(isinstance(c, str) and len(c) <= MAX_NAME for c in model.classes)
    classified = model.kind == "svc"
    assert len(model.classes) >= 2 if classified else model.classes == ()
    for name in ("epsilon", "nu", "rho"):
        value = getattr(model, name)
        assert value is None or math.isfinite(value)
    assert isinstance(model.kernel, Kernel)
    assert math.isfinite(model.lam)
    assert model.lam >= 0
    assert model.bias in BIASES
    b = model.intercept
    assert b.dtype == np.float64
    assert b.ndim == 1
    assert np.isfinite(b).all()
    K = b.shape[0]
    assert K == len(model.classes) or (K == 1 and len(model.classes) in (0, 2))
    if model.coef is not None:
        assert model.coef.dtype == np.float64
        assert model.coef.ndim == 2
        assert model.coef.shape[0] == K
        assert np.isfinite(model.coef).all()
        d = model.coef.shape[1]
    else:
        sv, dual = model.support_vectors, model.dual_coef
        assert sv.dtype == dual.dtype == np.float64
        assert sv.ndim == dual.ndim == 2
        assert dual.shape == (K, sv.shape[0])
        assert np.isfinite(sv).all()
        assert np.isfinite(dual).all()
        d = sv.shape[1]
    if model.cost is not None:
        C = len(model.classes)
        assert model.cost.shape == (C, C)
        assert np.isfinite(model.cost).all()
    with np.errstate(all="ignore"):  # (the values may overflow; the shapes must be right)
        F = model.decision_function(np.zeros((3, d)))
        labels = model.predict(np.zeros((3, d)))
    assert F.shape == ((3,) if model.single_output else (3, K))
    if model.kind == "regression":
        assert labels.shape == (3,)
    else:
        assert all(c in (model.classes or ("inlier", "outlier")) for c in labels)
    text = json.dumps(model.to_dict(), sort_keys=True)
    with tempfile.TemporaryDirectory() as tmp:  # written again, it reads back the same
        write_model(Path(tmp) / "again.json", model)
        write_model_npz(Path(tmp) / "again.npz", model)
        for again in (
            read_model(Path(tmp) / "again.json"),
            read_model_npz(Path(tmp) / "again.npz"),
        ):
            assert json.dumps(again.to_dict(), sort_keys=True) == text


def check_document(doc, path: Path) -> None:
    if isinstance(doc, Dataset):
        if doc.target is not None:  # (an svm-toy regression file: read so for any problem)
            check_svmtoy_data(doc, "svc")
        else:
            check_csv_data(doc)
        assert len(doc.y) <= MAX_POINTS
    elif isinstance(doc, SessionFile):
        check_session(doc)
        assert len(doc.y) <= MAX_POINTS
    else:
        check_scenario(doc)


# -------------------------------------------------------------------- valid files
def valid_sessions() -> list:
    rng = np.random.default_rng(0)
    cost = 1.0 - np.eye(MAX_CLASSES)
    cost[0, 2] = 2.5
    full = SessionFile(
        X=rng.normal(size=(8, 2)) * 10 ** rng.uniform(-3, 3, size=(8, 1)),
        y=rng.integers(0, 3, 8),
        names=tuple(f"kind {k}" for k in range(MAX_CLASSES)),
        colors=tuple(reversed(CLASS_COLORS)),
        class_count=4,
        cost=cost,
        config=SolverConfig(
            kernel=Kernel("rbf", gamma=0.37),
            lam=0.003,
            algorithm="sgd",
            schedule="inv_sqrt_t",
            eta=0.25,
            iterations=1234,
            seed=9,
            project=True,
            radius=2.0,
        ),
        split=Split(0.3, 5, 12),
        caption=("Title", "What to look for — ünïcode"),
        view=View(
            extent=(-1.5, 2.25, -3.0, 0.125),
            toggles=("optimum", "slack"),
            speed=10,
            warm_start=True,
            current_class=2,
        ),
    )
    minimal = {
        "format": "svmviz-session",
        "version": 1,
        "classes": [{"name": "a"}, {"name": "class 3"}],
        "points": [[0, 0, 0], [1.5, -2, 1]],
    }
    empty = SessionFile.from_dict(dict(minimal, points=[]), "empty")
    return [full.to_dict(), empty.to_dict(), minimal]


def valid_scenarios() -> list:
    shipped = [json.loads(p.read_text(encoding="utf-8")) for p in list_scenarios()]
    named = {
        "format": "svmviz-scenario",
        "version": 1,
        "title": "t",
        "caption": "c",
        "data": {
            "generate": {"kind": "spirals", "n": 30, "classes": 3, "seed": 2},
            "classes": ["red", "green", "blue"],
        },
        "config": {
            "kernel": {"name": "poly", "gamma": 0.5, "degree": 2, "coef0": 1.0},
            "cost": [[0, 1, 2], [1, 0, 1], [1, 1, 0]],
            "seed": 4,
        },
        "speed": 5,
        "view": {"iterate": True},
    }
    return shipped + [named]


def valid_models() -> list:
    rng = np.random.default_rng(1)
    linear = Model(
        ("-1", "1"),
        Kernel(),
        0.01,
        "free",
        np.array([0.25]),
        coef=rng.normal(size=(1, 2)),
        extra={"iterations": 10, "objective": 0.5},
    )
    rbf = Model(
        ("a", "b"),
        Kernel("rbf", gamma=0.7),
        0.1,
        "regularized",
        np.array([-0.1]),
        support_vectors=rng.normal(size=(4, 2)),
        dual_coef=rng.normal(size=(1, 4)),
    )
    multi = Model(
        ("x", "y", "z"),
        Kernel(),
        0.01,
        "none",
        np.zeros(3),
        coef=rng.normal(size=(3, 3)),
        cost=1.0 - np.eye(3),
    )
    poly = Model(
        ("0", "1", "2", "3"),
        Kernel("poly", gamma=0.5, degree=2, coef0=1.0),
        0.02,
        "free",
        rng.normal(size=4),
        support_vectors=rng.normal(size=(3, 2)),
        dual_coef=rng.normal(size=(4, 3)),
        cost=2.0 * (1.0 - np.eye(4)),
    )
    config = SolverConfig(kernel=Kernel("sigmoid", gamma=0.1), algorithm="gd")
    sigmoid = Model(
        ("no", "yes"),
        config.kernel,
        0.01,
        "free",
        np.array([0.0]),
        support_vectors=np.empty((0, 2)),
        dual_coef=np.empty((1, 0)),
    )
    # the problems of version 2
    weston = replace(multi, loss="weston_watkins")
    nu_svc = replace(linear, problem="nu-svc", nu=0.3, rho=0.8, extra={})
    one_class = replace(
        rbf, classes=(), problem="one-class", loss=None, nu=0.2, rho=0.1, bias="none"
    )
    svr = replace(
        linear, classes=(), problem="epsilon-svr", loss="epsilon_insensitive", epsilon=0.1
    )
    nu_svr = replace(
        rbf, classes=(), problem="nu-svr", loss="epsilon_insensitive", nu=0.5, epsilon=0.2
    )
    return [
        with_provenance(linear, SolverConfig(), "converged", 0.25),
        rbf,
        multi,
        poly,
        with_provenance(sigmoid, config, "budget", None),
        weston,
        nu_svc,
        one_class,
        svr,
        nu_svr,
    ]


def valid_csv_texts() -> list:
    root = Path(__file__).resolve().parents[2]
    blobs = (root / "assets" / "data" / "blobs.csv").read_text(encoding="utf-8")
    blobs = "\n".join(blobs.splitlines()[:16]) + "\n"
    rng = np.random.default_rng(2)
    three = Dataset.from_labels(rng.normal(size=(9, 3)), ["cat", "dog", "b,c"] * 3)
    with tempfile.TemporaryDirectory() as tmp:
        write_csv(Path(tmp) / "d.csv", three)
        written = (Path(tmp) / "d.csv").read_text(encoding="utf-8")
    return [blobs, written, "a;b;c;l\n1;2;3;x\n4;5;6;y\n", "x\ty\tl\n0\t1\t-1\n1\t0\t1\n"]


def valid_svmtoy_texts() -> list:
    """As svm-toy's Save writes them ("%d 1:%f 2:%f", and "%f 1:%f" for a regression), as
    svmviz writes them, and with comments, signs and a qid."""
    rng = np.random.default_rng(3)
    xy = rng.random((12, 2))
    three = "".join(f"{k} 1:{x:f} 2:{y:f}\n" for k, (x, y) in zip([1, 2, 3] * 4, xy, strict=True))
    regression = "".join(f"{t:f} 1:{x:f}\n" for t, x in rng.random((10, 2)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.txt"
        write_svmtoy(path, Dataset.from_labels(rng.normal(size=(9, 2)), ["a", "b", "c"] * 3))
        written = path.read_text(encoding="utf-8")
    commented = "# svm-toy\n\n-1 1:0.5 2:0.25 # a\n+1 qid:2 1:0.75 2:1.5\n1 1:0 2:0\n"
    return [three, regression, written, commented]


SESSIONS = valid_sessions()
SCENARIOS = valid_scenarios()
MODELS = valid_models()
MODEL_DICTS = [m.to_dict() for m in MODELS]
LOSSES = [*BINARY_LOSSES, *MULTICLASS_LOSSES, "epsilon_insensitive"]
CSV_TEXTS = valid_csv_texts()
SVMTOY_TEXTS = valid_svmtoy_texts()
COST_TEXTS = ["0,1,2\n1,0,1\n2,1,0\n", "0,1\n1,0\n", "0;2.5;1\n1;0;1\n1;1;0\n"]


def _keys(value, into: set) -> set:
    if isinstance(value, dict):
        for k, v in value.items():
            into.add(k)
            _keys(v, into)
    elif isinstance(value, list):
        for v in value:
            _keys(v, into)
    return into


KEYS = sorted(
    _keys(SESSIONS + SCENARIOS + MODEL_DICTS, set())
    | {"generate", "points", "classes", "kind", "n", "noise", "margin", "seed", "autosave"}
)

# ------------------------------------------------------------------------ strategies
NAN, INF = float("nan"), float("inf")
SPECIAL_NUMBERS = [
    0,
    -0.0,
    1,
    -1,
    2,
    0.5,
    1e308,
    -1e308,
    5e-324,
    2**31,
    2**53 + 1,
    2**63,
    2**64,
    -(2**63) - 1,
    10**400,
    -(10**400),
    10**4000,
    NAN,
    INF,
    -INF,
    True,
    False,
]
WORDS = [
    "svmviz-session",
    "svmviz-scenario",
    "svmviz-model",
    *KERNELS,
    *BIASES,
    *MARGINS,
    *ALGORITHMS,
    *SCHEDULES,
    *SAMPLINGS,
    *AVERAGES,
    *KINDS,
    *CLASS_COLORS,
    "#zzzzzz",
    "nan",
    "inf",
    "1e999",
    "-0",
    "1.5",
    "",
    " ",
    "\x00",
    "\ud800",
    "é" * 3000,
]
# numbers as JSON text: what the number tokens of a valid file are replaced by
NUMBER_TOKENS = [
    "1e308",
    "-1e308",
    "1e999",
    "-1e999",
    "-0",
    "-0.0",
    "NaN",
    "Infinity",
    "-Infinity",
    "nan",
    "inf",
    "0x10",
    "1_0",
    "1e",
    "--1",
    "9" * 5000,
    "9" * 4000,
    "1e-400",
    "1" + "0" * 400,
    "+1",
    ".5",
    "5.",
    "2147483648",
    "18446744073709551616",
    "true",
    "null",
    '"1"',
    "[]",
    "{}",
]

numbers = st.one_of(
    st.integers(-3, 12),
    st.sampled_from(SPECIAL_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    numbers,
    st.text(max_size=12),
    st.sampled_from(WORDS),
)
json_values = st.recursive(
    scalars,
    lambda kids: (
        st.lists(kids, max_size=5)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), kids, max_size=5)
    ),
    max_leaves=20,
)
matrices = st.lists(st.lists(numbers, max_size=4), max_size=4)


def maybe(strategy):
    """Mostly ``strategy``, sometimes any JSON value."""
    return st.one_of(strategy, strategy, json_values)


# -- mutations of a JSON document
def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _at(doc, path):
    for k in path:
        doc = doc[k]
    return doc


JSON_OPS = ("replace", "special", "delete", "add", "duplicate", "empty", "wrap", "retype")


@st.composite
def mutated_json(draw, bases):
    """A valid document (one of ``bases``) with one to four values replaced, dropped,
    added, duplicated, emptied, wrapped in a list or given another type."""
    doc = copy.deepcopy(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(list(_paths(doc))))
        node = _at(doc, path)
        op = draw(st.sampled_from(JSON_OPS))
        new = node
        if op == "replace":
            new = draw(json_values)
        elif op == "special":
            new = draw(st.sampled_from(SPECIAL_NUMBERS + WORDS))
        elif op == "delete" and path:
            del _at(doc, path[:-1])[path[-1]]
            continue
        elif op == "add" and isinstance(node, dict):
            key = draw(st.sampled_from(KEYS) | st.text(max_size=6) | st.just("k" * 100_000))
            node[key] = draw(json_values)
            continue
        elif op == "add" and isinstance(node, list):
            node.insert(draw(st.integers(0, len(node))), draw(json_values))
            continue
        elif op == "duplicate" and isinstance(node, list) and 0 < len(node) < 1000:
            node.extend(copy.deepcopy(node) * draw(st.sampled_from([1, 2, 10])))
            continue
        elif op == "empty":
            new = type(node)() if isinstance(node, (dict, list, str)) else None
        elif op == "wrap":
            new = draw(st.sampled_from([[node], {"value": node}, [node, node]]))
        elif op == "retype":
            if isinstance(node, str):
                new = draw(st.sampled_from([len(node), [node], None, node.upper()]))
            elif isinstance(node, (int, float)):
                as_float = float(node) if abs(node) < 1e308 else INF  # (10**400)
                new = draw(st.sampled_from([str(node), as_float, [node], -node, not node]))
        if not path:
            doc = new
        else:
            _at(doc, path[:-1])[path[-1]] = new
    return doc


NUMBER = re.compile(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?")
INSERTS = [
    b"\x00",
    b"\xef\xbb\xbf",
    b"\r",
    b"\n",
    b"\r\n",
    b",",
    b";",
    b"\t",
    b'"',
    b"'",
    b"{",
    b"[",
    b"]",
    b"}",
    b":",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\\u0000",
    b"\\ud800",
    b"\x1a",
    b" " * 1000,
    b"PK\x03\x04",
]
BYTE_OPS = (
    "truncate",
    "flip",
    "insert",
    "delete",
    "number",
    "dup_line",
    "drop_line",
    "bom",
    "crlf",
    "cr",
    "key",
)


@st.composite
def mutated_bytes(draw, raw: bytes, max_ops: int = 3):
    """``raw`` cut, with bytes flipped, inserted or deleted, a number replaced, a line
    repeated or dropped, a BOM, other line ends or a JSON key inserted after a brace."""
    for _ in range(draw(st.integers(0, max_ops))):
        op = draw(st.sampled_from(BYTE_OPS))
        i = draw(st.integers(0, len(raw)))
        if op == "truncate":
            raw = raw[:i]
        elif op == "flip" and i < len(raw):
            raw = raw[:i] + bytes([raw[i] ^ draw(st.integers(1, 255))]) + raw[i + 1 :]
        elif op == "insert":
            raw = raw[:i] + draw(st.sampled_from(INSERTS) | st.binary(min_size=1)) + raw[i:]
        elif op == "delete":
            raw = raw[:i] + raw[i + draw(st.integers(1, 64)) :]
        elif op == "number":
            found = list(NUMBER.finditer(raw))
            if found:
                m = draw(st.sampled_from(found))
                token = draw(st.sampled_from(NUMBER_TOKENS)).encode()
                raw = raw[: m.start()] + token + raw[m.end() :]
        elif op in ("dup_line", "drop_line"):
            lines = raw.split(b"\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k : k + 1] = [lines[k]] * (2 if op == "dup_line" else 0)
            raw = b"\n".join(lines)
        elif op == "bom":
            raw = b"\xef\xbb\xbf" + raw
        elif op == "crlf":
            raw = raw.replace(b"\n", b"\r\n")
        elif op == "cr":
            raw = raw.replace(b"\n", b"\r")
        elif op == "key":
            braces = [m.end() for m in re.finditer(rb"\{", raw)]
            if braces:
                at = draw(st.sampled_from(braces))
                key = json.dumps(draw(st.sampled_from(KEYS)))
                value = json.dumps(draw(json_values))
                raw = raw[:at] + f"{key}: {value}, ".encode() + raw[at:]
    return raw


@st.composite
def json_bytes(draw, doc):
    """``doc`` as the JSON text svmviz would write (or on one line), as UTF-8."""
    indent = draw(st.sampled_from([1, None]))
    text = json.dumps(doc, indent=indent, ensure_ascii=draw(st.booleans()))
    return text.encode("utf-8", "surrogatepass")


@st.composite
def mutated_files(draw, bases):
    """A valid JSON document mutated as a value, then as bytes."""
    doc = draw(st.one_of(st.sampled_from(bases), mutated_json(bases)))
    return draw(mutated_bytes(draw(json_bytes(doc))))


DEPTHS = [5, 31, 32, 33, 63, 64, 65, 200, 900, 999, 1000, 1500, 3000, 100_000]


@st.composite
def deeply_nested(draw, bases):
    """A valid document with one value replaced by lists or objects nested very deep."""
    doc = copy.deepcopy(draw(st.sampled_from(bases)))
    path = draw(st.sampled_from([p for p in _paths(doc) if p]))
    _at(doc, path[:-1])[path[-1]] = "@@DEEP@@"
    depth = draw(st.sampled_from(DEPTHS))
    leaf = draw(st.sampled_from(["1", "1.5", '"x"', "null", "[]", "{}", "NaN", "1e999"]))
    if draw(st.booleans()):
        nested = "[" * depth + leaf + "]" * depth
    else:
        nested = '{"a": ' * depth + leaf + "}" * depth
    text = json.dumps(doc).replace('"@@DEEP@@"', nested)
    return text.encode("utf-8", "surrogatepass")


@st.composite
def huge_values(draw, bases):
    """A valid document with one value replaced by a very long text, a long list or a
    number with thousands of digits (on one long line)."""
    doc = copy.deepcopy(draw(st.sampled_from(bases)))
    path = draw(st.sampled_from([p for p in _paths(doc) if p]))
    _at(doc, path[:-1])[path[-1]] = "@@HUGE@@"
    huge = draw(
        st.sampled_from(
            [
                json.dumps("x" * 200_000),
                json.dumps("y" * (MAX_NAME + 1)),
                json.dumps("z" * (MAX_CAPTION + 1)),
                json.dumps("é\u2028" * 50_000),
                "9" * 4300,
                "9" * 4301,
                "-" + "9" * 10_000,
                "0." + "0" * 10_000 + "1",
                "1" + "0" * 400 + ".0",
                "[" + ",".join(["1e308"] * 20_000) + "]",
                "[" + ",".join(["[0, 0, 0]"] * 3000) + "]",
            ]
        )
    )
    text = json.dumps(doc).replace('"@@HUGE@@"', huge)
    return text.encode("utf-8", "surrogatepass")


ODD = "\x00\ufeff\r\n\t\x0b\x0c\x1c\u2028\u2029\x85,;\"'{}[]:#0123456789.eE+- é\U0001f600\ud7ff"
odd_text = st.text(alphabet=st.one_of(st.characters(), st.sampled_from(list(ODD))), max_size=400)
MAGIC = [
    b"",
    b"PK\x03\x04",
    b"PK",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"{",
    b"[",
    b"x,y,label\n",
    b'{"format": "svmviz-session", "version": 1, ',
    b'{"format": "svmviz-model", ',
    b'{"format": "svmviz-scenario", "version": 1, ',
    b"\x93NUMPY\x01\x00",
]


@st.composite
def raw_inputs(draw):
    """Random bytes, or random (odd) text in some encoding, after a known prefix."""
    prefix = draw(st.sampled_from(MAGIC))
    if draw(st.booleans()):
        return prefix + draw(st.binary(max_size=2000))
    text = draw(odd_text)
    codec = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32", "latin-1"]))
    return prefix + text.encode(codec, "ignore")


# -- documents of the right shape with random values
kernel_dicts = st.fixed_dictionaries(
    {},
    optional={
        "name": maybe(st.sampled_from(KERNELS)),
        "gamma": maybe(numbers),
        "degree": maybe(numbers),
        "coef0": maybe(numbers),
        "extra": json_values,
    },
)
config_dicts = st.fixed_dictionaries(
    {},
    optional={
        "margin": maybe(st.sampled_from(MARGINS)),
        "lam": maybe(numbers),
        "bias": maybe(st.sampled_from(BIASES)),
        "kernel": maybe(kernel_dicts),
        "cost": maybe(matrices),
        "algorithm": maybe(st.sampled_from(ALGORITHMS)),
        "schedule": maybe(st.sampled_from(SCHEDULES)),
        "eta": maybe(numbers),
        "sampling": maybe(st.sampled_from(SAMPLINGS)),
        "batch": maybe(numbers),
        "average": maybe(st.sampled_from(AVERAGES)),
        "project": maybe(st.booleans()),
        "radius": maybe(numbers),
        "iterations": maybe(numbers),
        "tol": maybe(numbers),
        "seed": maybe(numbers),
        "unknown": json_values,
    },
)
texts = st.text(max_size=10) | st.sampled_from(WORDS)
session_docs = st.fixed_dictionaries(
    {"format": maybe(st.just("svmviz-session")), "version": maybe(st.just(1))},
    optional={
        "classes": maybe(
            st.lists(
                maybe(
                    st.fixed_dictionaries(
                        {},
                        optional={
                            "name": maybe(texts),
                            "color": maybe(st.sampled_from(CLASS_COLORS) | texts),
                        },
                    )
                ),
                max_size=11,
            )
        ),
        "class_count": maybe(numbers),
        "points": maybe(st.lists(maybe(st.lists(numbers, max_size=4)), max_size=8)),
        "cost": maybe(matrices),
        "config": maybe(config_dicts),
        "split": maybe(
            st.fixed_dictionaries(
                {},
                optional={
                    "fraction": maybe(numbers),
                    "seed": maybe(numbers),
                    "size": maybe(numbers),
                },
            )
        ),
        "caption": maybe(
            st.fixed_dictionaries({}, optional={"title": maybe(texts), "text": maybe(texts)})
        ),
        "view": maybe(
            st.fixed_dictionaries(
                {},
                optional={
                    "extent": maybe(st.lists(numbers, max_size=5)),
                    "speed": maybe(numbers),
                    "current_class": maybe(numbers),
                    "warm_start": json_values,
                    **{k: json_values for k in VIEW_TOGGLES},
                },
            )
        ),
        "autosave": json_values,
    },
)
generate_dicts = st.fixed_dictionaries(
    {"kind": maybe(st.sampled_from(KINDS))},
    optional={
        "n": maybe(st.integers(0, 300) | numbers),
        "noise": maybe(numbers),
        "classes": maybe(numbers),
        "seed": maybe(numbers | st.lists(numbers, max_size=3)),
        "margin": maybe(numbers),
        "bogus": json_values,
    },
)
point_rows = st.lists(
    maybe(st.tuples(numbers, numbers, maybe(texts | numbers)).map(list)), max_size=10
)
scenario_docs = st.fixed_dictionaries(
    {"format": maybe(st.just("svmviz-scenario")), "version": maybe(st.just(1))},
    optional={
        "title": maybe(texts),
        "caption": maybe(texts),
        "data": maybe(
            st.one_of(
                st.fixed_dictionaries(
                    {"generate": maybe(generate_dicts)},
                    optional={"classes": maybe(st.lists(texts, max_size=10))},
                ),
                st.fixed_dictionaries({"points": maybe(point_rows)}),
            )
        ),
        "config": maybe(config_dicts),
        "speed": maybe(numbers),
        "view": maybe(
            st.dictionaries(st.sampled_from(VIEW_OPTIONS) | texts, json_values, max_size=3)
        ),
    },
)


@st.composite
def arrays_of(draw, rows, cols):
    return [
        [
            draw(numbers) if draw(st.integers(0, 9)) == 0 else draw(st.floats(-3, 3))
            for _ in range(cols)
        ]
        for _ in range(rows)
    ]


@st.composite
def model_docs(draw):
    """A model document: mostly consistent shapes, with random values here and there."""
    C = draw(st.integers(0, 5))
    K = 1 if C == 2 and draw(st.booleans()) else C
    d, n = draw(st.integers(0, 3)), draw(st.integers(0, 4))
    doc = {
        "format": draw(maybe(st.just("svmviz-model"))),
        "version": draw(maybe(st.sampled_from([1, 2]))),
        "classes": draw(maybe(st.lists(texts, min_size=C, max_size=C))),
        "kernel": draw(maybe(kernel_dicts)),
        "lam": draw(maybe(numbers)),
        "bias": draw(maybe(st.sampled_from(BIASES))),
        "cost": draw(maybe(st.none() | arrays_of(C, C) | matrices)),
        "intercept": draw(maybe(arrays_of(1, K).map(lambda a: a[0]))),
    }
    if doc["version"] == 2:  # the fields of version 2 (a problem's numbers, all of them)
        doc["problem"] = draw(maybe(st.sampled_from(PROBLEMS)))
        doc["loss"] = draw(maybe(st.sampled_from(LOSSES)))
        for name in ("epsilon", "nu", "rho"):
            doc[name] = draw(maybe(numbers))
    if draw(st.booleans()):
        doc["coef"] = draw(maybe(arrays_of(K, d)))
    else:
        doc["support_vectors"] = draw(maybe(arrays_of(n, d)))
        doc["dual_coef"] = draw(maybe(arrays_of(K, n)))
    for key in draw(st.lists(st.sampled_from(sorted(doc)), max_size=2, unique=True)):
        del doc[key]
    return doc


def json_files(bases, shaped):
    """Every JSON input for one format: raw, mutated, deeply nested, huge, shaped."""
    return st.one_of(
        raw_inputs(),
        mutated_files(bases),
        deeply_nested(bases),
        huge_values(bases),
        shaped.flatmap(json_bytes).flatmap(lambda raw: mutated_bytes(raw, max_ops=1)),
    )


# -- CSV
CELLS = [
    "",
    " ",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "Infinity",
    "1e308",
    "-1e308",
    "1e999",
    "-0",
    "1_000",
    "0x10",
    " 1 ",
    "1,5",
    '"',
    '""',
    "'",
    "\x00",
    "\r",
    "1e",
    "٣",
    "1" * 5000,
    "x" * 140_000,
    "q" * (MAX_NAME + 1),  # a label one character over a class name's bound
    "label",
    "-1",
    "1",
    "0",
    "a",
    "A",
    "é",
    "\u2028",
    "# comment",
]
HEADERS = [
    ["x"],
    [],
    ["x", "y", "label", "extra"],
    ["", ""],
    ["x", "x", "x"],
    ["label"],
    ["x", "y"],
    [f"c{k}" for k in range(1000)],
    ["x", "y", "label"],
]
CSV_OPS = (
    "drop_row",
    "dup_row",
    "blank",
    "add_cell",
    "drop_cell",
    "cell",
    "header",
    "one_label",
    "many_labels",
    "wide_row",
)


def _split_csv(text: str) -> list:
    delimiter = ";" if ";" in text.splitlines()[0] else "\t" if "\t" in text else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


@st.composite
def csv_rows(draw):
    """Rows of a valid CSV file with rows, cells, the header or the labels changed."""
    rows = _split_csv(draw(st.sampled_from(CSV_TEXTS)))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(CSV_OPS))
        r = draw(st.integers(0, len(rows) - 1)) if rows else 0
        cell = draw(st.sampled_from(CELLS) | odd_text | numbers.map(str))
        if op == "drop_row" and rows:
            del rows[r]
        elif op == "dup_row" and rows:
            rows.insert(r, list(rows[r]))
        elif op == "blank":
            rows.insert(r, draw(st.sampled_from([[], [""], ["", ""], [" "]])))
        elif op == "add_cell" and rows:
            rows[r].insert(draw(st.integers(0, len(rows[r]))), cell)
        elif op == "drop_cell" and rows and rows[r]:
            del rows[r][draw(st.integers(0, len(rows[r]) - 1))]
        elif op == "cell" and rows and rows[r]:
            rows[r][draw(st.integers(0, len(rows[r]) - 1))] = cell
        elif op == "header" and rows:
            rows[0] = list(draw(st.sampled_from(HEADERS)))
        elif op == "one_label":
            rows = rows[:1] + [row[:-1] + ["same"] for row in rows[1:]]
        elif op == "many_labels":
            rows = rows[:1] + [row[:-1] + [f"c{k}"] for k, row in enumerate(rows[1:])]
        elif op == "wide_row" and rows and len(rows[r]) < 100:
            rows[r] = rows[r] * draw(st.sampled_from([2, 100, 3000]))
    return rows


@st.composite
def csv_bytes(draw, rows_strategy=None):
    rows = draw(rows_strategy if rows_strategy is not None else csv_rows())
    delimiter = draw(st.sampled_from([",", ",", ";", "\t", "|", " "]))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    if draw(st.booleans()):
        quoting = draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC]))
        out = io.StringIO()
        writer = csv.writer(out, delimiter=delimiter, lineterminator=ending, quoting=quoting)
        for row in rows:
            writer.writerow(row)
        text = out.getvalue()
    else:  # naive: no quoting at all
        text = "".join(delimiter.join(row) + ending for row in rows)
    bom = draw(st.sampled_from(["", "", "\ufeff"]))
    return draw(mutated_bytes((bom + text).encode("utf-8", "surrogatepass"), max_ops=2))


random_rows = st.lists(
    st.lists(st.sampled_from(CELLS) | odd_text | numbers.map(str), max_size=5), max_size=8
)
csv_files = st.one_of(
    raw_inputs(),
    csv_bytes(),
    csv_bytes(random_rows),
    st.sampled_from(CSV_TEXTS).map(str.encode).flatmap(mutated_bytes),
)


SVMTOY_OPS = (
    "drop_line",
    "dup_line",
    "blank",
    "drop_coordinate",
    "add_coordinate",
    "swap_coordinates",
    "label",
    "value",
    "many_classes",
)
SVMTOY_TOKENS = [
    "3:0.5",
    "2:0.1",
    "1:0.1",
    "0:1",
    "-1:2",
    "1:",
    ":1",
    "x",
    "qid:1",
    "qid",
    "99999999999:1",
    "2147483647:1",
    "1:2:3",
    "#",
]
SVMTOY_LABELS = ["0", "-1", "+2", "1.5", "1e300", "2147483648", "x", "١", "1_0", "7"]


@st.composite
def svmtoy_lines(draw):
    """Lines of a valid svm-toy file with lines, coordinates, labels or values changed."""
    lines = [line.split() for line in draw(st.sampled_from(SVMTOY_TEXTS)).splitlines()]
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(SVMTOY_OPS))
        r = draw(st.integers(0, len(lines) - 1)) if lines else 0
        row = lines[r] if lines else []
        if op == "drop_line" and lines:
            del lines[r]
        elif op == "dup_line" and lines:
            lines.insert(r, list(row))
        elif op == "blank":
            lines.insert(r, draw(st.sampled_from([[], ["#", "a", "comment"], ["  "]])))
        elif op == "drop_coordinate" and len(row) > 1:
            del row[draw(st.integers(1, len(row) - 1))]
        elif op == "add_coordinate" and row:
            token = draw(st.sampled_from(SVMTOY_TOKENS) | odd_text)
            row.insert(draw(st.integers(1, len(row))), token)
        elif op == "swap_coordinates" and len(row) > 2:
            row[1:] = row[:0:-1]
        elif op == "label" and row:
            row[0] = draw(st.sampled_from(SVMTOY_LABELS + NUMBER_TOKENS) | odd_text)
        elif op == "value" and len(row) > 1:
            k = draw(st.integers(1, len(row) - 1))
            value = draw(st.sampled_from(NUMBER_TOKENS) | numbers.map(str) | odd_text)
            row[k] = row[k].split(":", 1)[0] + ":" + value
        elif op == "many_classes":
            lines = [[str(k + 1), *row[1:]] for k, row in enumerate(lines)]
    return lines


@st.composite
def svmtoy_bytes(draw):
    lines = draw(svmtoy_lines())
    space = draw(st.sampled_from([" ", " ", "\t", "  "]))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = "".join(space.join(row) + ending for row in lines)
    bom = draw(st.sampled_from(["", "", "\ufeff"]))
    return draw(mutated_bytes((bom + text).encode("utf-8", "surrogatepass"), max_ops=2))


svmtoy_files = st.one_of(
    raw_inputs(),
    svmtoy_bytes(),
    svmtoy_bytes(),
    st.sampled_from(SVMTOY_TEXTS).map(str.encode).flatmap(mutated_bytes),
)


@st.composite
def cost_files(draw):
    """(bytes, the number of classes): a valid cost matrix with cells, rows and columns
    changed, then its bytes; the number of classes mostly the valid file's."""
    text = draw(st.sampled_from(COST_TEXTS))
    rows = [r.split(";" if ";" in r else ",") for r in text.splitlines()]
    for _ in range(draw(st.integers(0, 2))):
        r = draw(st.integers(0, len(rows) - 1))
        c = draw(st.integers(0, len(rows[r]) - 1)) if rows[r] else 0
        op = draw(st.sampled_from(["cell", "cell", "drop_row", "dup_row", "drop_cell", "add_cell"]))
        cell = draw(st.sampled_from(CELLS) | numbers.map(str))
        if op == "cell" and rows[r]:
            rows[r][c] = cell
        elif op == "drop_row" and len(rows) > 1:
            del rows[r]
        elif op == "dup_row":
            rows.insert(r, list(rows[r]))
        elif op == "drop_cell" and rows[r]:
            del rows[r][c]
        elif op == "add_cell":
            rows[r].insert(c, cell)
    raw = "\n".join(",".join(row) for row in rows).encode("utf-8", "surrogatepass")
    n = len(text.splitlines()) if draw(st.booleans()) else draw(st.integers(1, MAX_CLASSES))
    return draw(mutated_bytes(raw, max_ops=draw(st.sampled_from([0, 0, 1, 2])))), n


# -- NPZ
def npy_bytes(array) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, array, allow_pickle=True)  # (to make a bad file)
    return out.getvalue()


def npy_header(descr, shape, fortran=False, version=(1, 0), body=b"") -> bytes:
    header = repr({"descr": descr, "fortran_order": fortran, "shape": shape}).encode("latin-1")
    header += b" " * (63 - (len(header) + 10) % 64) + b"\n"
    size = struct.pack("<H" if version == (1, 0) else "<I", len(header))
    return b"\x93NUMPY" + bytes(version) + size + header + body


DTYPES = [
    "<f8",
    "<f4",
    "<f2",
    ">f8",
    "<i8",
    "<i4",
    "<u8",
    "|b1",
    "<c16",
    "<U5",
    "|S5",
    "<M8[s]",
    "<m8[s]",
    "|V8",
    [("a", "<f8"), ("b", "<i4")],
    "<g",
]
BAD_HEADERS = [
    ("<f8", (2**40,)),
    ("<f8", (10**6, 10**6)),
    ("<f8", (-1,)),
    ("<f8", (2**63,)),
    ("<f8", (2**31, 2**31)),
    ("<U100000000", (1,)),
    ("<U5", ()),
    ("O", (2,)),
    ("|V0", (3,)),
    ("foo", (1,)),
    ("<f8", (3,)),
    ("<f8", ()),
    ("<f8", (0,)),
    ("<f8", "x"),
    (3, (1,)),
]


@st.composite
def random_arrays(draw):
    if draw(st.integers(0, 5)) == 0:  # an object array: needs pickle to read
        return np.array(draw(st.lists(json_values, max_size=3)) + [None], dtype=object)
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    shape = tuple(draw(st.lists(st.integers(0, 4), max_size=3)))
    size = int(np.prod(shape)) * dtype.itemsize
    if dtype.kind == "f" and draw(st.booleans()):  # plausible numbers
        values = draw(
            st.lists(
                st.floats(width=dtype.itemsize * 8 if dtype.itemsize <= 8 else 64),
                min_size=int(np.prod(shape)),
                max_size=int(np.prod(shape)),
            )
        )
        return np.array(values, dtype=dtype).reshape(shape)
    return np.frombuffer(draw(st.binary(min_size=size, max_size=size)), dtype=dtype).reshape(shape)


def _meta(d: dict) -> dict:
    return {
        k: v
        for k, v in d.items()
        if k not in ("intercept", "coef", "support_vectors", "dual_coef", "cost")
    }


@st.composite
def meta_arrays(draw, d):
    choice = draw(st.integers(0, 9))
    if choice <= 3:  # a mutated meta
        doc = draw(mutated_json([_meta(d)]))
        return np.array(json.dumps(doc))
    if choice == 4:  # not JSON
        return np.array(draw(odd_text))
    if choice == 5:  # JSON, not an object
        return np.array(json.dumps(draw(json_values)))
    if choice == 6:  # deep
        depth = draw(st.sampled_from(DEPTHS))
        return np.array("[" * depth + "]" * depth)
    if choice == 7:  # a text in another shape or type
        text = json.dumps(_meta(d))
        return draw(
            st.sampled_from([np.array([text]), np.array(text.encode()), np.array([[text, text]])])
        )
    return draw(random_arrays())


NPZ_OPS = ("meta", "array", "drop", "add", "rename", "garbage", "header", "truncate_member")


@st.composite
def npz_files(draw):
    """A valid model .npz with its members replaced, dropped, added, renamed (no .npy),
    garbled or given headers that claim huge or impossible shapes; then maybe the archive's
    bytes mutated."""
    model = draw(st.sampled_from(MODELS))
    d = model.to_dict()
    members = {}
    with np.load(io.BytesIO(model_npz_bytes(model)), allow_pickle=False) as npz:
        for name in npz.files:
            members[f"{name}.npy"] = npy_bytes(npz[name])
    names = [
        "meta.npy",
        "intercept.npy",
        "coef.npy",
        "support_vectors.npy",
        "dual_coef.npy",
        "cost.npy",
        "meta",
        "coef",
        "x.npy",
        "dir/meta.npy",
        "meta.npy/",
    ]
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(NPZ_OPS))
        name = draw(st.sampled_from(sorted(members) or names))
        if op == "meta":
            members["meta.npy"] = npy_bytes(draw(meta_arrays(d)))
        elif op == "array":
            target = draw(st.sampled_from(names[1:6]))
            members[target] = npy_bytes(draw(random_arrays()))
        elif op == "drop" and members:
            del members[name]
        elif op == "add":
            # (a name that starts with NUL is cut to "" by zipfile, which then fails itself)
            extra = st.text(min_size=1, max_size=5).filter(lambda s: s[0] != "\x00")
            members[draw(st.sampled_from(names) | extra)] = draw(
                st.binary(max_size=64) | random_arrays().map(npy_bytes)
            )
        elif op == "rename" and members:
            members[name.removesuffix(".npy") or "x"] = members.pop(name)
        elif op == "garbage" and members:
            members[name] = draw(mutated_bytes(members[name]))
        elif op == "header":
            descr, shape = draw(st.sampled_from(BAD_HEADERS))
            body = draw(st.sampled_from([b"", b"\x00" * 24, b"\x00" * 4096]))
            version = draw(st.sampled_from([(1, 0), (2, 0), (3, 0)]))
            members[draw(st.sampled_from(names[:6]))] = npy_header(
                descr, shape, False, version, body
            )
        elif op == "truncate_member" and members:
            members[name] = members[name][: draw(st.integers(0, len(members[name])))]
    compression = draw(
        st.sampled_from(
            [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
        )
    )
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ("Duplicate name")
        with zipfile.ZipFile(out, "w", compression) as zf:
            for name, raw in members.items():
                zf.writestr(name, raw)
            if draw(st.integers(0, 9)) == 0:
                zf.writestr(draw(st.sampled_from(sorted(members) or ["meta.npy"])), b"again")
    return draw(mutated_bytes(out.getvalue(), max_ops=draw(st.sampled_from([0, 0, 1, 2]))))


FILE_NAMES = [
    "data.csv",
    "naïve data (2).csv",
    "a,b;c.CSV",
    "日本語.json",
    "lesson.JSON",
    "doc.txt",
    "doc",
    "model.npz",
    ".hidden.json",
    "toy.svm",
    "points",
]

# ------------------------------------------------------------------------ the fuzz tests


@FUZZ
@given(raw=csv_files, name=st.sampled_from(["data.csv", "naïve data (2).csv", "x"]))
def test_read_csv(raw, name):
    with tempfile.TemporaryDirectory() as tmp:
        data = attempt(read_csv, write(tmp, name, raw))
    if data is not None:
        check_csv_data(data)


@FUZZ
@given(
    raw=svmtoy_files,
    name=st.sampled_from(["toy.txt", "naïve toy (2).svm", "toy"]),
    kind=st.sampled_from(["svc", "regression", "one-class"]),
)
def test_read_svmtoy(raw, name, kind):
    with tempfile.TemporaryDirectory() as tmp:
        data = attempt(read_svmtoy, write(tmp, name, raw), kind)
    if data is not None:
        check_svmtoy_data(data, kind)


@FUZZ
@given(file=st.one_of(st.tuples(raw_inputs(), st.integers(1, MAX_CLASSES)), cost_files()))
def test_read_cost_matrix(file):
    raw, n_classes = file
    with tempfile.TemporaryDirectory() as tmp:
        cost = attempt(read_cost_matrix, write(tmp, "cost.csv", raw), n_classes)
    if cost is not None:
        assert cost.shape == (n_classes, n_classes)
        assert cost.dtype == np.float64
        assert np.isfinite(cost).all()
        assert (cost >= 0).all()
        assert (np.diag(cost) == 0).all()


@FUZZ
@given(raw=json_files(SESSIONS, session_docs))
def test_read_session(raw):
    with tempfile.TemporaryDirectory() as tmp:
        session = attempt(read_session, write(tmp, "lesson.json", raw))
    if session is not None:
        check_session(session)


@FUZZ
@given(raw=json_files(SCENARIOS, scenario_docs))
def test_read_scenario(raw):
    with tempfile.TemporaryDirectory() as tmp:
        scenario = attempt(read_scenario, write(tmp, "demo.json", raw))
    if scenario is not None:
        check_scenario(scenario)


@FUZZ
@given(raw=json_files(MODEL_DICTS, model_docs()))
def test_read_model(raw):
    with tempfile.TemporaryDirectory() as tmp:
        model = attempt(read_model, write(tmp, "MODEL.json", raw))
    if model is not None:
        check_model(model)


@FUZZ
@given(raw=st.one_of(npz_files(), npz_files(), raw_inputs()))
def test_read_model_npz(raw):
    with tempfile.TemporaryDirectory() as tmp:
        model = attempt(read_model_npz, write(tmp, "model.npz", raw))
    if model is not None:
        check_model(model)


documents = st.one_of(
    csv_files,
    svmtoy_files,
    json_files(SESSIONS, session_docs),
    json_files(SCENARIOS, scenario_docs),
    json_files(MODEL_DICTS, model_docs()),
    npz_files(),
)


@FUZZ
@given(raw=documents, name=st.sampled_from(FILE_NAMES))
def test_read_document(raw, name):
    with tempfile.TemporaryDirectory() as tmp:
        path = write(tmp, name, raw)
        doc = attempt(read_document, path)
    if doc is not None:
        check_document(doc, path)


def test_the_valid_files_are_read():
    """The starting points of the mutations are valid files (else the fuzzing would only
    ever see refusals)."""
    with tempfile.TemporaryDirectory() as tmp:
        for k, d in enumerate(SESSIONS):
            check_session(read_session(write(tmp, f"s{k}.json", json.dumps(d).encode())))
        for k, d in enumerate(SCENARIOS):
            check_scenario(read_scenario(write(tmp, f"c{k}.json", json.dumps(d).encode())))
        for k, m in enumerate(MODELS):
            check_model(read_model(write(tmp, f"m{k}.json", json.dumps(m.to_dict()).encode())))
            check_model(read_model_npz(write(tmp, f"m{k}.npz", model_npz_bytes(m))))
        for k, text in enumerate(CSV_TEXTS):
            check_csv_data(read_csv(write(tmp, f"d{k}.csv", text.encode())))
        for k, text in enumerate(SVMTOY_TEXTS):
            path = write(tmp, f"toy{k}.txt", text.encode())
            for kind in ("svc", "regression", "one-class"):
                check_svmtoy_data(read_svmtoy(path, kind), kind)
            check_document(read_document(path), path)
        for k, text in enumerate(COST_TEXTS):
            n = len(text.splitlines())
            assert read_cost_matrix(write(tmp, f"cost{k}.csv", text.encode()), n).shape == (n, n)


# ------------------------------------------------------------------- regressions
# Inputs the fuzzing found, each a bug fixed in the reader.
# Inputs that found bugs (by the fuzzing, or by reading the readers while writing it): each
# is now a clear InputError, or read as it should be.
SESSION = (
    '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}, {"name": "b"}]'
    ', "points": [[0, 0, 0]]'
)
SCENARIO = '{"format": "svmviz-scenario", "version": 1, "title": "t", "caption": "c", '
MODEL = (
    '{"format": "svmviz-model", "version": 1, "classes": ["a", "b"], "kernel": {"name": '
    '"linear"}, "lam": 0.1, "bias": "free", '
)
BIG = "1" + "0" * 400  # 10**400: an int JSON reads, too large for a float
TWO_POINTS = '"data": {"points": [[0, 0, "a"], [1, 1, "b"]]}'


def session(extra: str) -> str:
    return f"{SESSION}, {extra}}}"


def scenario(data: str, extra: str = "") -> str:
    return SCENARIO + data + extra + "}"


def model(extra: str) -> str:
    return MODEL + extra + "}"


REFUSED = [
    # CSV: a file of empty cells (IndexError); a coordinate of 5,000 digits (a message of
    # 5,000 characters)
    (read_csv, "d.csv", ",\n", "no header and no data"),
    (read_csv, "d.csv", "x,y,l\n" + "9" * 5000 + ",0,a\n0,0,b\n", "coordinate is '99"),
    # coordinates whose squares overflow (found by the reliability tests: 1e300)
    (read_csv, "d.csv", "x,y,l\n0,0,a\n\n1,-1e300,b\n", "d.csv, line 4 has the coordinate -1e+300"),
    (
        read_session,
        "s.json",
        session('"points": [[0, 0, 0], [2e15, 0, 1]]'),
        "point 2 has the coordinate 2e+15, beyond ±1e15",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"points": [[0, 0, "a"], [0, 1e16, "b"]]}'),
        "data.points row 2 has the coordinate 1e+16",
    ),
    # JSON: an integer of more than 4,300 digits (ValueError); a lone surrogate (read, then
    # a UnicodeEncodeError when the session is saved again)
    (read_session, "s.json", session('"caption": ' + "9" * 5000), "thousands of digits"),
    (read_session, "s.json", session('"classes": [{"name": "\\ud800"}]'), "a lone \\u surrogate"),
    # sessions: numbers too large for a float (TypeError, OverflowError), a class slot of
    # 4,000 digits in the message, sizes the window's 32-bit spin boxes cannot show
    (read_session, "s.json", session(f'"points": [[{BIG}, 0, 0]]'), "not finite"),
    (read_session, "s.json", session(f'"points": [[0, 0, 1{"0" * 4000}]]'), "slot 1000"),
    (read_session, "s.json", session(f'"cost": [[{BIG}]]'), "cost must be rows of numbers"),
    (read_session, "s.json", session(f'"split": {{"fraction": {BIG}}}'), "fraction must be"),
    (read_session, "s.json", session('"split": {"size": 2147483648}'), "size must be a whole"),
    (read_session, "s.json", session(f'"view": {{"extent": [0, {BIG}, 0, 1]}}'), "view.extent"),
    # the solver settings of a session or a scenario
    (read_session, "s.json", session(f'"config": {{"lam": {BIG}}}'), "λ"),
    (read_session, "s.json", session('"config": {"batch": Infinity}'), "batch size"),
    (read_session, "s.json", session('"config": {"batch": 2147483648}'), "batch size must be"),
    (read_session, "s.json", session(f'"config": {{"cost": [[{BIG}]]}}'), "wrong type"),
    (
        read_session,
        "s.json",
        session('"config": {"%s": 1}' % ("k" * 100_000)),
        "unknown setting(s) 'kkk",
    ),
    (read_session, "s.json", session('"config": {"seed": "x"}'), "seed must be"),
    (read_session, "s.json", session('"config": {"seed": -1}'), "seed must be"),
    (read_session, "s.json", session('"config": {"seed": 2147483648}'), "seed must be"),
    (read_session, "s.json", session('"config": {"project": "yes"}'), "project must be"),
    (read_session, "s.json", session('"config": {"kernel": {"coef0": [1]}}'), "coef0"),
    (read_session, "s.json", session('"config": {"kernel": {"degree": Infinity}}'), "degree"),
    (read_session, "s.json", session('"config": {"kernel": {"degree": 2147483648}}'), "degree"),
    # scenarios: generate's parameters (MemoryError, ValueError, overflow), the class names,
    # the points (a 1-D X, non-finite coordinates, labels a session cannot keep), Δ
    (
        read_scenario,
        "c.json",
        scenario('"data": {"generate": {"kind": "blobs", "n": 1e12}}'),
        "number of points",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"generate": {"kind": "blobs", "%s": 1}}' % ("k" * 100_000)),
        "data.generate takes kind",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"generate": {"kind": "blobs", "n": NaN}}'),
        "number of points",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"generate": {"kind": "blobs", "noise": [1, 2]}}'),
        "noise",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"generate": {"kind": "blobs", "noise": 1e308}}'),
        "noise",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"generate": {"kind": "blobs", "seed": -1}}'),
        "seed",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"generate": {"kind": "separable", "margin": [1, 2]}}'),
        "margin",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"generate": {"kind": "blobs"}, "classes": 5}'),
        "data.classes",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"generate": {"kind": "blobs", "classes": 3}, "classes": ["a"]}'),
        "data.classes",
    ),
    (read_scenario, "c.json", scenario('"data": {"points": []}'), "empty"),
    (read_scenario, "c.json", scenario(f'"data": {{"points": [[{BIG}, 0, "a"]]}}'), "data.points"),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"points": [[NaN, 0, "a"], [0, 0, "b"]]}'),
        "not finite",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"points": [[0, 0, " "], [1, 1, "b"]]}'),
        "empty label",
    ),
    (
        read_scenario,
        "c.json",
        scenario('"data": {"points": [' + ", ".join(f'[{k}, 0, "c{k}"]' for k in range(10)) + "]}"),
        "at most 9 classes",
    ),
    (
        read_scenario,
        "c.json",
        scenario(TWO_POINTS, ', "config": {"cost": [[0, 1], [1]]}'),
        "cost must be 2 rows",
    ),
    (read_scenario, "c.json", scenario(TWO_POINTS, ', "config": {"cost": [[0]]}'), "2×2"),
    # a race of 200,000 characters, said whole
    (read_scenario, "c.json", scenario(TWO_POINTS, ', "race": "' + "x" * 5000 + '"'), "'race'"),
    # models: a message without the file's name, classes and intercepts that do not match
    # (IndexError when predicting), numbers too large for a float, lam and bias unchecked
    (
        read_model,
        "m.json",
        model('"intercept": [0], "coef": [[1, 2]]').replace("linear", "cubic"),
        "unknown kernel",
    ),
    (
        read_model,
        "m.json",
        model('"intercept": [0], "coef": [[1]]').replace('["a", "b"]', '{"a": 1}'),
        "classes must be a list",
    ),
    (
        read_model,
        "m.json",
        model('"intercept": [0, 0, 0], "coef": [[1], [1], [1]]'),
        "2 classes and 3 intercepts",
    ),
    (read_model, "m.json", model(f'"intercept": [{BIG}], "coef": [[1, 2]]'), "intercept"),
    (read_model, "m.json", model('"intercept": [0], "coef": [[1]]').replace("0.1", BIG), "lam"),
    (read_model, "m.json", model('"intercept": [0], "coef": [[1]]').replace("0.1", "NaN"), "lam"),
    (
        read_model,
        "m.json",
        model('"intercept": [0], "coef": [[1]]').replace('"free"', '"x"'),
        "bias must be",
    ),
    (
        read_model,
        "m.json",
        model('"intercept": [0], "coef": [[1]], "cost": [[0, 1, 1]]'),
        "cost: shape",
    ),
]


@pytest.mark.parametrize("reader, name, text, message", REFUSED)
def test_regression_refused_with_a_clear_message(tmp_path, reader, name, text, message):
    path = write(tmp_path, name, text.encode("utf-8"))
    with pytest.raises(InputError, match=re.escape(message)) as info:
        reader(path)
    check_message(info.value, path)


def _npy(array) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, array, allow_pickle=False)
    return out.getvalue()


def _npz(members: dict, compression=zipfile.ZIP_STORED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as zf:
        for name, raw in members.items():
            zf.writestr(name, raw)
    return out.getvalue()


META = _npy(
    np.array(
        json.dumps(
            {
                "format": "svmviz-model",
                "version": 1,
                "classes": ["a", "b"],
                "kernel": {"name": "linear"},
                "lam": 0.1,
                "bias": "free",
            }
        )
    )
)
ARRAYS = {"intercept.npy": _npy(np.array([0.0])), "coef.npy": _npy(np.array([[1.0, 2.0]]))}
# an x87 long double whose bits are no valid number: a RuntimeWarning when cast to float64
PSEUDO_NAN = np.frombuffer(bytes.fromhex("0000000000000000ffff000000000000"), dtype="<f16")


def _patched(raw: bytes, signature: bytes, offset: int, value: bytes) -> bytes:
    """``raw`` with ``value`` written ``offset`` bytes after each zip header ``signature``."""
    raw = bytearray(raw)
    for m in re.finditer(re.escape(signature), bytes(raw)):
        raw[m.start() + offset : m.start() + offset + len(value)] = value
    return bytes(raw)


PLAIN = _npz({"meta.npy": META, **ARRAYS})
DEFLATED = _npz({"meta.npy": META, **ARRAYS}, zipfile.ZIP_DEFLATED)
NPZ_REFUSED = [
    # a member that is not an .npy: np.load gives its bytes (AttributeError)
    ({"meta.npy": b"not an npy", **ARRAYS}, "'meta' is not a NumPy array"),
    # a garbled .npy header (tokenize.TokenError)
    (
        {
            "meta.npy": META,
            **ARRAYS,
            "intercept.npy": b"\x93NUMPY\x01\x00\x10\x00{'descr': '<f8  \n",
        },
        "'intercept' is not a valid NumPy array",
    ),
    # a long double that is no number (RuntimeWarning: invalid value encountered in cast)
    ({"meta.npy": META, **ARRAYS, "intercept.npy": _npy(PSEUDO_NAN)}, "intercept must be"),
    # 'meta' nested 100,000 deep (RecursionError)
    ({"meta.npy": _npy(np.array("[" * 100_000 + "]" * 100_000))}, "nested too deeply"),
    # a header that claims 2**40 numbers (MemoryError)
    (
        {"meta.npy": META, **ARRAYS, "intercept.npy": npy_header("<f8", (2**40,))},
        "'intercept' is too large",
    ),
    # a header that claims 2**64 rows (OverflowError: too large to convert to C long)
    (
        {"meta.npy": META, **ARRAYS, "coef.npy": npy_header("<f8", (2**64, 2))},
        "'coef' is too large",
    ),
    # an array of texts (ValueError: could not convert)
    (
        {"meta.npy": META, **ARRAYS, "coef.npy": _npy(np.array([["1", "x"]]))},
        "'coef' must be an array of numbers",
    ),
]
NPZ_RAW_REFUSED = [
    # "PK" and then no zip: np.load took it for a pickle
    (b"PKthis is no zip", "not an .npz file"),
    # a compression method zipfile does not know (NotImplementedError)
    (
        _patched(_patched(PLAIN, b"PK\x03\x04", 8, b"\x63\x00"), b"PK\x01\x02", 10, b"\x63\x00"),
        "damaged zip archive",
    ),
    # the "encrypted" flag (RuntimeError: password required)
    (_patched(PLAIN, b"PK\x01\x02", 8, b"\x01"), "damaged zip archive"),
    # a damaged deflate stream (zlib.error)
    (DEFLATED[:40] + bytes([DEFLATED[40] ^ 0xFF]) + DEFLATED[41:], "damaged zip archive"),
]


@pytest.mark.parametrize("members, message", NPZ_REFUSED)
def test_regression_npz_refused_with_a_clear_message(tmp_path, members, message):
    path = write(tmp_path, "model.npz", _npz(members))
    with pytest.raises(InputError, match=re.escape(message)) as info:
        read_model_npz(path)
    check_message(info.value, path)


@pytest.mark.parametrize("raw, message", NPZ_RAW_REFUSED)
def test_regression_damaged_npz_refused_with_a_clear_message(tmp_path, raw, message):
    path = write(tmp_path, "model.npz", raw)
    with pytest.raises(InputError, match=re.escape(message)) as info:
        read_model_npz(path)
    check_message(info.value, path)


def test_regression_a_kernel_model_without_support_vectors_reads_back(tmp_path):
    """write_model writes no support vectors as [] (no dimension): it was refused."""
    m = Model(
        ("a", "b"),
        Kernel("rbf"),
        0.1,
        "free",
        np.array([0.5]),
        support_vectors=np.empty((0, 2)),
        dual_coef=np.empty((1, 0)),
    )
    write_model(tmp_path / "m.json", m)
    write_model_npz(tmp_path / "m.npz", m)
    for again in (read_model(tmp_path / "m.json"), read_model_npz(tmp_path / "m.npz")):
        check_model(again)
        np.testing.assert_array_equal(again.decision_function(np.ones((4, 2))), 0.5)
        assert list(again.predict(np.ones((2, 2)))) == ["b", "b"]


def test_regression_noise_minus_zero_generates(tmp_path):
    """ "noise": -0.0 passed the check and numpy refused it ("scale < 0")."""
    text = scenario('"data": {"generate": {"kind": "xor", "n": 20, "noise": -0.0}}')
    check_scenario(read_scenario(write(tmp_path, "c.json", text.encode())))


def test_a_pipe_a_huge_file_and_a_zip_bomb_are_refused_before_reading(tmp_path, monkeypatch):
    """Noticed while fuzzing: a FIFO made the read wait forever, a file of gigabytes would
    fill the memory, and an .npz may inflate to far more than it weighs."""
    import io
    import zipfile

    import svmviz.core.file_io as files
    import svmviz.core.model_io as model_io
    from svmviz.core.errors import InputError
    from svmviz.core.files.session_file import read_document

    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_document(fifo)
    big = tmp_path / "big.csv"
    big.write_text("x,y,label\n0,0,a\n")
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 10)
    with pytest.raises(InputError, match="at most 0 MiB"):
        read_document(big)
    monkeypatch.undo()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("meta.npy", b"\0" * (model_io.MAX_FILE_BYTES + 1))  # 257 MiB of zeros
    bomb = tmp_path / "bomb.npz"
    bomb.write_bytes(buf.getvalue())
    assert bomb.stat().st_size < 2**20
    with pytest.raises(InputError, match="more than 256 MiB unpacked"):
        model_io.read_model_npz(bomb)


# --------------------------------------------------------- the ends of the table of limits
# Every number of a session, a scenario and a model file at each end of its range in
# svmviz.core.limits.BOUNDS: just inside, it is read (and is one the window can show: see
# tests/ui/test_extreme_files.py); just outside, refused in one line naming the range.
BASE_SESSION = {
    "format": "svmviz-session",
    "version": 1,
    "classes": [{"name": "a"}, {"name": "b"}],
    "points": [[0, 0, 0], [1, 1, 1], [0, 1, 0], [1, 0, 1]],
}
BASE_SCENARIO = {
    "format": "svmviz-scenario",
    "version": 1,
    "title": "t",
    "caption": "c",
    "data": {"points": [[0, 0, "a"], [1, 1, "b"], [0, 1, "a"], [1, 0, "b"]]},
}
START = {"W": [[0.5, -0.5]], "b": [0.0], "classes": ["a", "b"]}
# a bound's name, where its value goes in a config (a session's and a scenario's), and the
# settings beside it that make a problem (λ = 0: not Pegasos; ε: a regression)
CONFIG_FIELDS = [
    ("lam", ("lam",), {"algorithm": "sgd"}),
    ("eta", ("eta",), {}),
    ("epsilon", ("epsilon",), {}),
    ("nu", ("nu",), {}),
    ("radius", ("radius",), {"project": True}),
    ("tol", ("tol",), {}),
    ("gamma", ("kernel", "gamma"), {}),
    ("coef0", ("kernel", "coef0"), {}),
    ("degree", ("kernel", "degree"), {}),
    ("batch", ("batch",), {}),
    ("iterations", ("iterations",), {}),
    ("seed", ("seed",), {}),
]


def _extremes(name: str) -> list:
    """(value, taken) at the ends of BOUNDS[name]."""
    inside, outside = BOUNDS[name].edges()
    return [(v, True) for v in inside] + [(v, False) for v in outside]


def _config(path: tuple, value, beside: dict) -> dict:
    config = copy.deepcopy(beside)
    if len(path) == 2:
        config[path[0]] = {"name": "poly", path[1]: value}
    else:
        config[path[0]] = value
    return config


def _extent(name: str, v: float) -> list:
    """A view.extent with ``v`` as an edge (or as its width and height)."""
    if name == "span":
        return [-v / 2, v / 2, -v / 2, v / 2]
    return [v, v + 1.0, 0.0, 1.0] if v < 0 else [v - 1.0, v, 0.0, 1.0]


def session_extremes() -> list:
    """(id, session document, bound name, taken) for every number of a session."""
    cases = []
    for name, path, beside in CONFIG_FIELDS:
        for v, taken in _extremes(name):
            cases.append(
                (f"config.{name}={v!r}", {"config": _config(path, v, beside)}, name, taken)
            )
    for v, taken in _extremes("cost"):
        cases.append((f"cost={v!r}", {"cost": [[0, v], [1, 0]]}, "cost", taken))
    for v, taken in _extremes("coordinate"):
        cases.append((f"point={v!r}", {"points": [[0, 0, 0], [v, 1, 1]]}, "coordinate", taken))
    for v, taken in _extremes("target"):
        cases.append((f"target={v!r}", {"targets": [0, v, 1, 2]}, "target", taken))
    for key, name in (("seed", "split_seed"), ("size", "split_size")):
        for v, taken in _extremes(name):
            cases.append((f"split.{key}={v!r}", {"split": {key: v}}, name, taken))
    for v, taken in _extremes("speed"):
        cases.append((f"view.speed={v!r}", {"view": {"speed": v}}, "speed", taken))
    for name in ("extent", "span"):
        for v, taken in _extremes(name):
            cases.append(
                (f"view.{name}={v!r}", {"view": {"extent": _extent(name, v)}}, name, taken)
            )
    for v, taken in _extremes("t0"):
        cases.append((f"start.t0={v!r}", {"start": dict(START, t0=v)}, "t0", taken))
    return [(i, {**BASE_SESSION, **d}, n, t) for i, d, n, t in cases]


def scenario_extremes() -> list:
    """(id, scenario document, bound name, taken) for every number of a scenario."""
    cases = []
    for name, path, beside in CONFIG_FIELDS:
        for v, taken in _extremes(name):
            cases.append(
                (f"config.{name}={v!r}", {"config": _config(path, v, beside)}, name, taken)
            )
    for v, taken in _extremes("speed"):
        cases.append((f"speed={v!r}", {"speed": v}, "speed", taken))
    for v, taken in _extremes("coordinate"):
        points = [[0, 0, "a"], [v, 1, "b"]]
        cases.append((f"point={v!r}", {"data": {"points": points}}, "coordinate", taken))
    for v, taken in _extremes("cost"):
        cost = [[0, v, 1], [1, 0, 1], [1, 1, 0]]
        points = [[0, 0, "a"], [1, 1, "b"], [2, 0, "c"]]
        cases.append(
            (f"cost={v!r}", {"data": {"points": points}, "config": {"cost": cost}}, "cost", taken)
        )
    return [(i, {**BASE_SCENARIO, **d}, n, t) for i, d, n, t in cases]


def model_extremes() -> list:
    """(id, model document, bound name, taken) for the numbers of a model the window draws
    (svmviz.show): its kernel, λ, ε, ν and support vectors."""
    linear = MODELS[0].to_dict()
    rbf, svr = MODELS[1].to_dict(), MODELS[8].to_dict()
    cases = []
    # each on a kernel whose values stay finite at its end (the polynomial kernel's γ and c₀
    # at theirs overflow: test_a_polynomial_kernel_that_overflows_is_refused)
    for name, kernel in (("gamma", "rbf"), ("coef0", "sigmoid"), ("degree", "poly")):
        for v, taken in _extremes(name):
            doc = copy.deepcopy(rbf)
            doc["kernel"] = dict(doc["kernel"], name=kernel, **{name: v})
            cases.append((f"kernel.{name}={v!r}", doc, name, taken))
    for name, base in (("lam", linear), ("epsilon", svr)):
        for v, taken in _extremes(name):
            cases.append((f"{name}={v!r}", {**base, name: v}, name, taken))
    for v, taken in _extremes("coordinate"):
        doc = copy.deepcopy(rbf)
        doc["support_vectors"][0][0] = v
        cases.append((f"support_vector={v!r}", doc, "coordinate", taken))
    return cases


def _check_extreme(reader, check, tmp_path, doc, name, taken):
    path = write(tmp_path, "f.json", json.dumps(doc).encode())
    value = attempt(reader, path)
    if taken:
        assert value is not None, f"{name} at the end of its range was refused"
        check(value)
        return
    with pytest.raises(InputError) as info:
        reader(path)
    message = str(info.value)
    if name == "coordinate":
        assert f"beyond ±1e{COORDINATE_DIGITS}" in message, message
    else:  # (an extent too wide has edges beyond the reach)
        rules = {BOUNDS[name].rule()} | ({BOUNDS["extent"].rule()} if name == "span" else set())
        assert any(rule in message for rule in rules), message


@pytest.mark.parametrize(
    "doc, name, taken", [c[1:] for c in session_extremes()], ids=[c[0] for c in session_extremes()]
)
def test_a_session_at_the_ends_of_the_limits(tmp_path, doc, name, taken):
    _check_extreme(read_session, check_session, tmp_path, doc, name, taken)


@pytest.mark.parametrize(
    "doc, name, taken",
    [c[1:] for c in scenario_extremes()],
    ids=[c[0] for c in scenario_extremes()],
)
def test_a_scenario_at_the_ends_of_the_limits(tmp_path, doc, name, taken):
    _check_extreme(read_scenario, check_scenario, tmp_path, doc, name, taken)


@pytest.mark.parametrize(
    "doc, name, taken", [c[1:] for c in model_extremes()], ids=[c[0] for c in model_extremes()]
)
def test_a_model_at_the_ends_of_the_limits(tmp_path, doc, name, taken):
    _check_extreme(read_model, check_drawn_model, tmp_path, doc, name, taken)


@pytest.mark.parametrize("setting", [{"gamma": 1e150}, {"coef0": 1e150}, {"coef0": -1e150}])
def test_a_polynomial_kernel_that_overflows_is_refused(tmp_path, setting):
    """γ or c₀ at the end of its range, each taken alone, make (γ⟨x, x′⟩ + c₀)³ overflow: a
    model of no finite f is refused in one line naming its kernel."""
    doc = MODELS[1].to_dict()
    doc["kernel"] = dict(doc["kernel"], name="poly", degree=3, **setting)
    path = write(tmp_path, "f.json", json.dumps(doc).encode())
    with pytest.raises(InputError, match=r"f\.json: f\(x\) is not a finite number at its supp"):
        read_model(path)


def check_drawn_model(model) -> None:
    """A model file taken is one the plane draws (svmviz.show's overlay is its frame over the
    view): its regions and curves over its points' extent, with no warning (pytest's
    configuration makes warnings errors) and a finite f at every point."""
    from svmviz.core.data import Dataset
    from svmviz.core.pictures.frame import data_extent, make_frame

    check_model(model)
    assert model.kind in ("svc", "regression")  # (the cases of model_extremes)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 2))
    if model.kind == "regression":
        data = Dataset.regression(X, rng.normal(size=12))
    else:
        data = Dataset.from_labels(X, [model.classes[i % len(model.classes)] for i in range(12)])
    frame = make_frame(model, data, data_extent(X), n=40)
    assert np.isfinite(frame.margins).all()


@FUZZ
@given(data=st.data())
def test_sessions_with_numbers_near_the_limits(data, tmp_path_factory):
    """Random numbers around each end of a session's ranges, several fields at once."""
    doc = copy.deepcopy(BASE_SESSION)
    cases = session_extremes()
    for _ in range(data.draw(st.integers(1, 3))):
        _, extreme, _, _ = data.draw(st.sampled_from(cases))
        doc.update(
            copy.deepcopy(
                {k: v for k, v in extreme.items() if k not in BASE_SESSION or k == "points"}
            )
        )
    path = write(tmp_path_factory.mktemp("s"), "s.json", json.dumps(doc).encode())
    value = attempt(read_session, path)
    if value is not None:
        check_session(value)
