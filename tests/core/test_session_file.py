import json

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, write_csv
from svmviz.core.errors import InputError
from svmviz.core.files.scenario import Scenario, list_scenarios
from svmviz.core.files.session_file import (
    SessionFile,
    View,
    read_document,
    read_session,
    write_session,
)
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import Split
from svmviz.core.palette import CLASS_COLORS, MAX_CLASSES


def a_session(seed=0, n=40) -> SessionFile:
    rng = np.random.default_rng(seed)
    names = tuple(f"kind {k}" for k in range(MAX_CLASSES))
    colors = tuple(reversed(CLASS_COLORS))
    cost = 1.0 - np.eye(MAX_CLASSES)
    cost[0, 2] = 2.5
    return SessionFile(
        X=rng.normal(size=(n, 2)) * 10 ** rng.uniform(-3, 3, size=(n, 1)),
        y=rng.integers(0, 3, n),
        names=names,
        colors=colors,
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


def test_round_trip_is_exact(tmp_path):
    s = a_session()
    path = tmp_path / "lesson.json"
    write_session(path, s)
    again = read_session(path)
    assert again.same_content(s)
    np.testing.assert_array_equal(again.X, s.X)  # bit for bit
    assert again.view == s.view
    assert again.config == s.config
    assert again.split == s.split
    assert not a_session(seed=1).same_content(s)
    moved = SessionFile(**{**s.__dict__, "X": s.X + np.array([[1e-12, 0]] + [[0, 0]] * 39)})
    assert not moved.same_content(s)
    other_view = SessionFile(**{**s.__dict__, "view": View()})
    assert other_view.same_content(s)  # panning is not an edit


def test_documented_fields(tmp_path):
    path = tmp_path / "s.json"
    write_session(path, a_session(n=3))
    d = json.loads(path.read_text(encoding="utf-8"))
    assert d["format"] == "svmviz-session"
    assert d["version"] == 1
    assert set(d) == {
        "format",
        "version",
        "classes",
        "class_count",
        "points",
        "cost",
        "config",
        "split",
        "caption",
        "view",
    }
    assert len(d["points"][0]) == 3
    assert d["config"]["cost"] is None


def test_a_short_file_gets_defaults(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(
        json.dumps(
            {
                "format": "svmviz-session",
                "version": 1,
                "classes": [{"name": "a"}, {"name": "class 3"}],
                "points": [[0, 0, 0], [1, 1, 1]],
            }
        )
    )
    s = read_session(path)
    assert s.names[:3] == ("a", "class 3", "class 3 (2)")  # never a repeated name
    assert s.config == SolverConfig()
    assert s.split == Split()
    assert s.caption is None
    assert s.view.speed == -1  # no speed: the default, the log-t pace


@pytest.mark.parametrize("speed", [0, 1, 10, 100, 1000, 7, -1])
def test_speeds_of_every_version_load(tmp_path, speed):
    """Older files saved 0 (as fast as possible) or N per frame; -1 is the log-t pace. The
    code is read as written (what it is shown as: svmviz.core.training.pace.Speed.from_code)."""
    from svmviz.core.training.pace import Speed

    path = tmp_path / "s.json"
    path.write_text(
        json.dumps(
            {
                "format": "svmviz-session",
                "version": 1,
                "classes": [{"name": "a"}],
                "points": [],
                "view": {"speed": speed},
            }
        )
    )
    view = read_session(path).view
    assert view.speed == speed
    shown = Speed.from_code(view.speed)
    assert shown.instant if speed == 0 else shown.paced if speed == -1 else shown.per_frame
    assert Speed.from_code(10).per_frame == 10
    assert Speed.from_code(7).per_frame == 1


BAD = [
    ("{", "line 1, column 2: not JSON"),
    ("[1, 2]", "not an svmviz session"),
    ('{"format": "svmviz-model", "version": 1}', "not an svmviz session"),
    ('{"format": "svmviz-session", "version": 2}', "version 2, written by a newer svmviz"),
    ('{"format": "svmviz-session", "version": "1"}', "not a version number"),
    ('{"format": "svmviz-session", "version": 1}', "classes must be a list"),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}, {"name": "a"}],'
        ' "points": []}',
        "same name",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a", "color": "red"}],'
        ' "points": []}',
        "not #RRGGBB",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], '
        '"points": [[0, 0]]}',
        "point 1 is not",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], '
        '"points": [[0, 0, 12]]}',
        "class slot 12",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], '
        '"points": [[0, 1e999, 0]]}',
        "not finite",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"config": {"lam": -1}}',
        "λ",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"config": {"kernel": 3}}',
        "wrong type",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"cost": [[0, -1], [1, 0]]}',
        r"entry \(1, 2\) must be a number from 0 to 1e\+150, not -1.0",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"split": {"fraction": 2}}',
        "test fraction",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"view": {"extent": [1, 0, 0, 1]}}',
        "x0 < x1",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"view": {"speed": -2}}',
        "view.speed",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"view": {"speed": "log"}}',
        "view.speed",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"class_count": 30}',
        "class_count",
    ),
    (  # an 8 MB caption kept the window from appearing for half a minute
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"caption": {"title": "t", "text": "' + "c" * 8_000_000 + '"}}',
        "the caption has 8,000,000 characters; at most 2,000 are taken",
    ),
    (
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "a"}], "points": [], '
        '"caption": {"title": "' + "t" * 201 + '", "text": "c"}}',
        "the caption's title has 201 characters; at most 200",
    ),
    (  # a 5 MB class name slowed every frame
        '{"format": "svmviz-session", "version": 1, "classes": [{"name": "'
        + "n" * 5_000_000
        + '"}], "points": []}',
        "class 1's name has 5,000,000 characters; at most 100",
    ),
]


@pytest.mark.parametrize("text, message", BAD)
def test_bad_session_files_say_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        read_session(path)
    assert str(path) in str(info.value)


def test_read_document_by_content(tmp_path):
    session = tmp_path / "s.json"
    write_session(session, a_session(n=5))
    assert isinstance(read_document(session), SessionFile)
    assert isinstance(read_document(list_scenarios()[0]), Scenario)
    csv = tmp_path / "d.csv"
    write_csv(csv, Dataset.from_labels(np.eye(2), ["a", "b"]))
    assert isinstance(read_document(csv), Dataset)
    model = tmp_path / "m.json"
    model.write_text('{"format": "svmviz-model", "version": 1}')
    with pytest.raises(InputError, match="is a trained model"):
        read_document(model)
    binary = tmp_path / "image.csv"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(InputError, match="binary file"):
        read_document(binary)


def test_atomic_writes_keep_the_usual_permissions(tmp_path):
    import os
    import stat

    from svmviz.core.file_io import atomic_write_text

    path = tmp_path / "new.json"
    umask = os.umask(0o022)
    try:
        atomic_write_text(path, "{}")
        assert stat.S_IMODE(path.stat().st_mode) == 0o644  # not mkstemp's private 0600
        path.chmod(0o640)
        atomic_write_text(path, "{ }")
        assert stat.S_IMODE(path.stat().st_mode) == 0o640  # an existing file keeps its own
    finally:
        os.umask(umask)


def test_a_full_disk_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    import errno
    import os

    from svmviz.core.file_io import atomic_write_text

    path = tmp_path / "lesson.json"
    path.write_text("the old session")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)  # the disk fills while the file is written
    with pytest.raises(InputError, match="lesson.json: cannot write .No space left on device"):
        atomic_write_text(path, "the new session")
    assert path.read_text() == "the old session"
    assert [p.name for p in tmp_path.iterdir()] == ["lesson.json"]


def test_the_views_are_kept_by_name_and_older_files_open(tmp_path):
    view = View(weight_class=2, views=("a", "b"), companion="b")
    s = SessionFile(**{**a_session().__dict__, "view": view})
    path = tmp_path / "lesson.json"
    write_session(path, s)
    d = json.loads(path.read_text(encoding="utf-8"))
    saved = d["view"]
    assert (saved["views"], saved["companion"], saved["weight_class"]) == (["a", "b"], "b", 2)
    assert read_session(path).view == s.view
    # a file of an older version: a view on or off by a key of its own, no list of views
    del d["view"]["views"], d["view"]["companion"], d["view"]["weight_class"]
    d["view"]["a"], d["view"]["c"] = True, False
    path.write_text(json.dumps(d), encoding="utf-8")
    old = read_session(path).view
    assert (old.views, old.companion, old.weight_class) == (None, None, 0)
    assert old.flags == (("a", True), ("c", False))
    d["view"]["weight_class"] = MAX_CLASSES
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(InputError, match="weight_class"):
        read_session(path)
    d["view"]["weight_class"] = 0
    d["view"]["views"] = ["a", 3]
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(InputError, match="view names"):
        read_session(path)


def test_a_newer_files_view_settings_are_ignored(tmp_path):
    s = SessionFile(**{**a_session().__dict__, "view": View(views=("a",))})
    path = tmp_path / "lesson.json"
    write_session(path, s)
    d = json.loads(path.read_text(encoding="utf-8"))
    d["view"]["hologram_depth"] = 3
    path.write_text(json.dumps(d), encoding="utf-8")
    assert read_session(path).view == s.view


def test_a_scenario_may_open_a_view_beside_the_plane(tmp_path):
    from svmviz.core.files.scenario import read_scenario

    circles = next(p for p in list_scenarios() if p.stem.startswith("03"))
    s = read_scenario(circles)
    assert s.views == () and s.companion == "surface"
    d = json.loads(circles.read_text(encoding="utf-8"))
    d["view"] = {"surface": True, "weights": 3}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(InputError, match="companion"):  # the message names what it may hold
        read_scenario(bad)
