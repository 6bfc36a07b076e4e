"""Files: sessions reopen exactly, unsaved work is never lost silently, bad files are
dialogs that change nothing, a failed write keeps the work, autosave recovers after a kill."""

import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.cli import window_parser
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, write_csv
from svmviz.core.files.session_file import read_session, write_session
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import Split
from svmviz.ui.window import points_export, recent_files
from svmviz.ui.window.launch import start

Button = QtWidgets.QMessageBox.StandardButton


@pytest.fixture
def dialogs(monkeypatch):
    """Records the warning and critical dialogs (their text) instead of showing them."""
    shown = []
    for kind in ("warning", "critical", "information"):
        monkeypatch.setattr(
            QtWidgets.QMessageBox, kind, lambda *a, kind=kind: shown.append((kind, a[2]))
        )
    return shown


def answer(monkeypatch, button, asked=None):
    def question(parent, title, text, *args):
        if asked is not None:
            asked.append(text)
        return button

    monkeypatch.setattr(QtWidgets.QMessageBox, "question", question)


def save_to(monkeypatch, path):
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))


@pytest.fixture
def window(make_window):
    """make_window for these tests of files: they look at a window's documents, not its
    frames, and do not wait for the first one (whose status would replace a message)."""
    return functools.partial(make_window, first_frame=False)


def dressed(window):
    """A window with something of everything a session file keeps."""
    w = window(iterations=2000)
    s = w.session
    s.add_point(0.123456789012345, -2.5, 2)  # a third class
    s.set_class(0, "setosa", "#CC79A7")
    s.set_cost(s.present_classes(), np.array([[0, 2.0, 1], [1, 0, 1], [3, 1, 0]]))
    s.set_config(
        SolverConfig(
            kernel=Kernel("rbf", gamma=0.5),
            lam=0.02,
            algorithm="sgd",
            schedule="inv_sqrt_t",
            eta=0.3,
            iterations=2000,
            seed=4,
        )
    )
    s.set_split(Split(0.25, 3, None))
    s.set_caption(("A title", "A caption — with ünïcode"))
    w.controls.optimum.setChecked(True)
    w.controls.slack.setChecked(True)
    w.controls.speed_combo.setCurrentIndex(2)
    w.plot.setRange(xRange=(-3, 2), yRange=(-2, 1), padding=0)
    return w


def test_a_saved_session_reopens_exactly(qtbot, window, tmp_path, monkeypatch):
    w = dressed(window)
    assert w.files.dirty
    qtbot.waitUntil(w.isWindowModified, timeout=1000)  # the title's "*" follows
    path = tmp_path / "lesson.json"
    save_to(monkeypatch, path)
    assert w.files.save()  # untitled: Save asks where
    assert not w.files.dirty
    assert w.windowTitle().startswith("lesson.json")
    saved = w.session.content(w.state.view())
    w.close()

    again = window(Dataset.from_labels(np.eye(2), ["x", "y"]))
    assert again.files.open_path(path)
    got = again.session.content(again.state.view())
    assert got.same_content(saved)
    np.testing.assert_array_equal(got.X, saved.X)  # bit for bit
    assert got.view.toggles == ("optimum", "slack")
    assert got.view.speed == saved.view.speed
    # the same region in view (with a locked aspect, a window of another shape shows more)
    (a0, a1, b0, b1), (c0, c1, d0, d1) = got.view.extent, saved.view.extent
    assert a0 <= c0 + 1e-9
    assert a1 >= c1 - 1e-9
    assert b0 <= d0 + 1e-9
    assert b1 >= d1 - 1e-9
    assert abs((a0 + a1) - (c0 + c1)) < 1e-6
    assert abs((b0 + b1) - (d0 + d1)) < 1e-6
    assert not again.caption.isHidden()
    assert "A title" in again.caption.text()
    assert again.panel.config() == saved.config  # the solver panel shows it
    assert again.session.classes[0] == "setosa"
    assert again.session.colors[0] == "#CC79A7"
    assert not again.files.dirty
    assert again.prefs.recent_files()[0] == str(path.resolve())
    qtbot.waitUntil(lambda: again.snapshot is not None, timeout=30000)
    assert again.state.parts is not None
    assert (again.state.parts == 1).sum() > 0  # the split trains
    again.close()


def test_unsaved_changes_are_asked_about_on_close_new_and_open(
    qtbot, window, tmp_path, monkeypatch, dialogs
):
    w = window()
    w.show()
    assert not w.files.dirty
    w.session.add_point(0.5, 0.5)
    assert w.files.dirty
    w.session.undo()
    assert not w.files.dirty  # back to what was opened: nothing to save
    w.session.add_point(0.5, 0.5)
    asked = []
    answer(monkeypatch, Button.Cancel, asked)
    assert not w.close()
    assert w.isVisible()  # Cancel keeps the window and the work
    assert not w.files.new()
    assert len(w.session.points) == 61
    csv = tmp_path / "d.csv"
    write_csv(csv, Dataset.from_labels(np.array([[0.0, 0], [1, 1]]), ["a", "b"]))
    assert not w.files.open_path(csv)
    assert len(w.session.points) == 61
    assert len(asked) == 3
    assert all("not saved" in a for a in asked)
    # Save at the prompt writes the session, then goes on
    path = tmp_path / "kept.json"
    save_to(monkeypatch, path)
    answer(monkeypatch, Button.Save)
    assert w.files.new()
    assert len(read_session(path).y) == 61
    assert len(w.session.points) == 0
    assert w.windowTitle().startswith("untitled")
    # Discard goes on without saving
    w.session.add_point(1.0, 1.0)
    answer(monkeypatch, Button.Discard)
    assert w.files.open_path(csv)
    assert len(w.session.points) == 2
    assert len(read_session(path).y) == 61
    w.close()


BAD_FILES = [
    ("bad.csv", b"x,y,label\n1,2,a\n3,oops,b\n", "line 3, column 2"),
    ("bad.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary file"),
    ("three.csv", b"x,y,z,label\n1,2,3,a\n1,2,3,b\n", "2-D data"),
    ("other.json", b'{"name": "package.json of something else"}', "not an svmviz session"),
    ("broken.json", b'{"format": "svmviz-session", "version": 1,', "not JSON"),
    ("newer.json", b'{"format": "svmviz-session", "version": 7}', "newer svmviz"),
    ("model.json", b'{"format": "svmviz-model", "version": 1}', "trained model"),
    ("missing.json", None, "no such file"),
    ("toy.svm", b"1 1:0.1 2:0.2\n2 1:0.3\n", "line 2: the coordinate 2:y is missing"),
    ("toy", b"1 1:0.1 2:0.2\n2 1:0.3 2:x\n", "line 2: '2 1:0.3 2:x' is not an svm-toy point"),
    ("ten.txt", "".join(f"{k} 1:0.{k} 2:0.5\n" for k in range(10)).encode(), "at most 9 classes"),
]


@pytest.mark.parametrize("name, content, message", BAD_FILES)
def test_a_bad_file_is_a_dialog_and_the_work_stays(
    qtbot, window, tmp_path, dialogs, name, content, message
):
    w = window()
    w.session.add_point(0.5, 0.5)  # unsaved work
    before = w.session.points
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    assert not w.files.open_path(path)
    assert len(dialogs) == 1
    assert dialogs[0][0] == "warning"
    assert message in dialogs[0][1]
    assert name in dialogs[0][1]
    assert w.session.points is before
    assert w.files.dirty  # nothing changed, nothing asked
    w.close()


@contextmanager
def read_only(folder: Path):
    """``folder`` read-only for this process. Root ignores permission bits, so as root the
    process takes the identity of "nobody" meanwhile (seteuid; given back after)."""
    folder.chmod(0o555)
    root = os.geteuid() == 0
    try:
        if root:
            os.seteuid(65534)
        yield
    finally:
        if root:
            os.seteuid(0)
        folder.chmod(0o755)


def test_a_write_into_a_read_only_folder_keeps_the_work_and_the_file(
    qtbot, window, monkeypatch, dialogs
):
    folder = Path(tempfile.mkdtemp(prefix="svmviz-read-only-"))
    try:
        w = window()
        path = folder / "lesson.json"
        save_to(monkeypatch, path)
        assert w.files.save()
        on_disk = path.read_bytes()
        w.session.add_point(3.0, 3.0)  # unsaved work
        edited = w.session.points
        with read_only(folder):
            assert not w.files.save()  # the same file, now in a read-only folder
            save_to(monkeypatch, folder / "other.json")
            assert not w.files.save_as()
            assert not w.exports.write_picture("plane", folder / "plane.png", 300, 200)
        assert [kind for kind, _ in dialogs] == ["critical"] * 3
        assert "lesson.json: cannot write" in dialogs[0][1]
        assert "Nothing was lost" in dialogs[0][1]
        assert path.read_bytes() == on_disk  # the file is intact
        assert sorted(p.name for p in folder.iterdir()) == ["lesson.json"]  # no leftovers
        assert w.session.points is edited
        assert w.files.dirty  # the work is still there
        assert w.files.path == path
        qtbot.waitUntil(w.isWindowModified, timeout=1000)
        w.close()
    finally:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


def test_drag_and_drop_of_a_csv_opens_it(qtbot, window, tmp_path):
    w = window()
    w.show()
    qtbot.waitExposed(w)
    csv = tmp_path / "dropped.csv"
    write_csv(csv, Dataset.from_labels(np.array([[0.0, 0], [1, 1], [2, 0]]), ["p", "q", "p"]))
    mime = QtCore.QMimeData()
    mime.setUrls([QtCore.QUrl.fromLocalFile(str(csv))])
    target = w.plot.viewport()  # dropped on the plane: the event reaches the window
    pos = QtCore.QPointF(target.width() / 2, target.height() / 2)
    action = QtCore.Qt.DropAction.CopyAction
    enter = QtGui.QDragEnterEvent(
        pos.toPoint(),
        action,
        mime,
        QtCore.Qt.MouseButton.LeftButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
    )
    QtWidgets.QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    drop = QtGui.QDropEvent(
        pos, action, mime, QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.KeyboardModifier.NoModifier
    )
    QtWidgets.QApplication.sendEvent(target, drop)
    qtbot.waitUntil(lambda: len(w.session.points) == 3, timeout=5000)
    assert w.session.classes[:2] == ("p", "q")
    assert w.windowTitle().startswith("dropped")
    w.close()


def test_preferences_are_remembered_and_reset(qtbot, window, tmp_path, monkeypatch):
    w = window()
    w.controls.optimum.setChecked(True)
    w.controls.speed_combo.setCurrentIndex(3)
    w.step_dock.hide()
    path = tmp_path / "s.json"
    save_to(monkeypatch, path)
    w.files.save()
    w.close()
    w2 = window()
    assert w2.controls.optimum.isChecked()
    assert w2.controls.speed_combo.currentIndex() == 3
    assert not w2.step_dock.isVisible()
    assert w2.step_dock.isHidden()
    menu = QtWidgets.QMenu()
    recent_files.fill_recent_menu(w2.files, menu)
    assert menu.actions()[0].text().endswith("s.json")
    answer(monkeypatch, Button.Yes)
    w2.reset_preferences()
    assert not w2.controls.optimum.isChecked()
    assert w2.controls.speed_combo.currentIndex() == 0
    assert not w2.step_dock.isHidden()
    assert w2.prefs.recent_files() == []
    w2.close()
    w3 = window()
    assert not w3.controls.optimum.isChecked()
    w3.controls.optimum.setChecked(True)
    w3.close()
    _, w4 = start(window_parser().parse_args(["--reset-preferences"]))  # from the shell
    qtbot.addWidget(w4)
    assert not w4.controls.optimum.isChecked()
    w4.close()


@pytest.mark.parametrize(
    "old, pace, shown",
    [
        (0, None, "log-t pace"),  # everyone's saved default: gives way to the new default
        (10, None, "10 per frame"),  # a speed chosen: kept
        (100, 0, "instant"),  # a speed saved by this version: it
        (None, None, "log-t pace"),
    ],
)
def test_the_remembered_speed_of_older_versions(window, old, pace, shown):
    from svmviz.app.preferences import Preferences

    p = Preferences()
    if old is not None:
        p.set("speed", old)
    if pace is not None:
        p.set("pace", pace)
    p.sync()
    w = window()
    assert w.controls.speed_combo.currentText() == shown
    assert w.controller.speed.label == shown
    w.close()


def test_a_recent_file_that_is_gone_leaves_the_list(window, tmp_path, dialogs):
    w = window()
    path = tmp_path / "gone.json"
    write_session(path, w.session.content())
    w.prefs.add_recent(path)
    path.unlink()
    assert not recent_files.open_recent(w.files, str(path.resolve()))
    assert "no longer there" in dialogs[0][1]
    assert w.prefs.recent_files() == []
    w.close()


EDITOR = textwrap.dedent("""
    import sys, time
    from PySide6 import QtWidgets
    from svmviz.core.config import SolverConfig
    from svmviz.ui.window.launch import build_window, demo_data

    app = QtWidgets.QApplication([])
    w = build_window(demo_data(), SolverConfig(iterations=500))
    w.show()
    k = 0
    while True:  # a teacher placing points, one every 50 ms, until the process is killed
        w.session.add_point(0.01 * k, -0.02 * k, k % 2)
        k += 1
        end = time.monotonic() + 0.05
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.005)
        if k == 30:
            print("editing", flush=True)
""")


def test_work_is_recovered_after_the_process_is_killed(qtbot, window, own_config_dir, monkeypatch):
    (own_config_dir / "svmviz.ini").write_text("[General]\nautosave_seconds=1\n")
    env = dict(os.environ, SVMVIZ_CONFIG_DIR=str(own_config_dir), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, "-c", EDITOR], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "editing"
        autosaved = own_config_dir / "autosave"
        deadline = time.monotonic() + 60
        while not any(autosaved.glob("*.json")) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.2)  # editing goes on after the first autosave
        proc.send_signal(signal.SIGKILL)  # no clean exit: the lock stays, stale
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    (file,) = autosaved.glob("*.json")
    kept = json.loads(file.read_text())
    n = len(kept["points"])
    assert n > 60
    assert kept["autosave"]["source"] is None
    asked = []
    answer(monkeypatch, Button.Yes, asked)
    _, w = start(window_parser().parse_args([]))  # the next start of `svmviz`
    qtbot.addWidget(w)
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=10000)  # offered once the window is up
    assert "did not close normally" in asked[0]
    assert f"({n} points)" in asked[0]
    p = w.session.points
    assert len(p) == n
    k = np.arange(n - 60)  # the points the editor placed, in order
    np.testing.assert_array_equal(p.X[60:], np.column_stack([0.01 * k, -0.02 * k]))
    assert w.files.dirty
    assert w.windowTitle().startswith("recovered")
    assert not file.exists()  # taken: not offered twice
    answer(monkeypatch, Button.Discard)
    assert w.close()
    w2 = window()
    assert not w2.files.offer_recovery()  # nothing left (a clean close removed ours)
    w2.close()


def test_a_running_window_s_autosave_is_not_offered_to_another(window, monkeypatch):
    w = window()
    w.session.add_point(1.0, 1.0)
    w.files.autosave_now()
    assert w.files.autosave.path.exists()
    asked = []
    answer(monkeypatch, Button.Yes, asked)
    w2 = window()
    assert not w2.files.offer_recovery()
    assert not asked
    w2.close()
    answer(monkeypatch, Button.Discard)
    assert w.close()
    assert not w.files.autosave.path.exists()  # a clean close removes it


def test_points_saved_as_csv_open_again_as_they_were(window, tmp_path, monkeypatch):
    w = window()
    w.session.set_class(1, "Square one")
    path = tmp_path / "points"  # no suffix: .csv is added
    save_to(monkeypatch, path)
    assert points_export.export_csv(w.files)
    before = w.session.points
    w.close()
    w2 = window(Dataset.from_labels(np.eye(2), ["x", "y"]))
    assert w2.files.open_path(tmp_path / "points.csv")
    p = w2.session.points
    np.testing.assert_array_equal(p.X, before.X)  # bit for bit (repr floats)
    np.testing.assert_array_equal(p.y, before.y)
    assert w2.session.classes[:2] == ("class 1", "Square one")
    w2.close()


# as libsvm's svm-toy saves them: "%d 1:%f 2:%f" (y down the screen), or with -s 3 in its
# options line "%f 1:%f" (the target, then x)
SVMTOY = "1 1:0.100000 2:0.100000\n2 1:0.500000 2:0.900000\n3 1:0.900000 2:0.500000\n"
SVMTOY_REGRESSION = "0.316000 1:0.218000\n0.500000 1:0.400000\n0.702000 1:0.604000\n"


def test_an_svm_toy_file_opens_and_the_points_export_as_one(window, tmp_path, monkeypatch):
    path = tmp_path / "toy.txt"
    path.write_text(SVMTOY)
    w = window()
    assert w.files.open_path(path)
    p = w.session.points
    np.testing.assert_allclose(p.X, [[0.1, 0.9], [0.5, 0.1], [0.9, 0.5]])  # y flipped: up
    assert p.y.tolist() == [0, 1, 2]
    assert w.session.classes[:3] == ("1", "2", "3")
    assert w.session.config.problem == "svc"
    assert w.windowTitle().startswith("toy")
    actions = {a.text(): a for a in w.findChildren(QtGui.QAction)}
    assert "Points as svm-toy file…" in actions
    out = tmp_path / "again"  # no suffix: .txt is added
    save_to(monkeypatch, out)
    actions["Points as svm-toy file…"].trigger()
    assert (tmp_path / "again.txt").read_text() == "1 1:0.1 2:0.1\n2 1:0.5 2:0.9\n3 1:0.9 2:0.5\n"
    w.close()


def test_an_svm_toy_regression_file_opens_for_epsilon_svr(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "sine"
    path.write_text(SVMTOY_REGRESSION)
    w = window()
    assert w.session.config.problem == "svc"
    assert w.files.open_path(path)
    assert w.session.config.problem == "epsilon-svr"  # (it has no classes)
    np.testing.assert_allclose(w.session.points.X, [[0.218, 0.684], [0.4, 0.5], [0.604, 0.298]])
    save_to(monkeypatch, tmp_path / "again.txt")
    assert points_export.export_svmtoy(w.files)
    assert (tmp_path / "again.txt").read_text() == "0.316 1:0.218\n0.5 1:0.4\n0.702 1:0.604\n"
    w.close()
    _, again = start(window_parser().parse_args([str(path), "--lam", "0.1"]))  # `svmviz FILE`
    qtbot.addWidget(again)
    assert again.session.config.problem == "epsilon-svr"
    assert again.session.config.lam == 0.1
    assert len(again.session.points) == 3
    again.close()


def test_svmviz_file_opens_with_its_points_filling_the_plane(qtbot, tmp_path):
    """`svmviz FILE`, as File ▸ Open: an svm-toy file's unit square fills the plane (it
    was an eighth of its width, inside the default view of (−4, 4) × (−3, 3))."""
    path = tmp_path / "toy.txt"
    path.write_text(SVMTOY)
    _, w = start(window_parser().parse_args([str(path)]))
    qtbot.addWidget(w)
    qtbot.waitUntil(lambda: w.plot.view_extent()[0] > -1)  # (fitted once laid out)
    x0, x1, y0, y1 = w.plot.view_extent()
    assert x0 < 0.1 and x1 > 0.9 and y0 < 0.1 and y1 > 0.9  # every point in view
    assert max(x1 - x0, y1 - y0) < 2.5  # and large
    w.close()


def test_points_svm_toy_cannot_hold_are_said_before_the_dialog(window, dialogs, monkeypatch):
    asked = []
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a: asked.append(a))
    rng = np.random.default_rng(0)
    w = window(Dataset.regression(rng.normal(size=(6, 2)), rng.normal(size=6)), problem="nu-svr")
    assert not points_export.export_svmtoy(w.files)
    assert dialogs == [
        (
            "warning",
            "svm-toy holds a regression of one input x and a target, and these data have 2 "
            "inputs; save them as CSV",
        )
    ]
    assert not asked
    w.close()


def test_autosave_in_a_folder_that_cannot_be_made_is_said(window, tmp_path, monkeypatch):
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("")
    monkeypatch.setenv("SVMVIZ_CONFIG_DIR", str(blocker))  # autosave/ cannot go under a file
    w = window()
    assert not w.files.autosave.active
    assert w.status.text().startswith("Autosave is off: cannot make")
    w.session.add_point(0.0, 0.0)
    w.files.autosave_now()  # nothing to write to: no error either
    w.close()


def test_svmviz_opens_a_session_or_scenario_given_on_the_command_line(qtbot, window, tmp_path):
    from svmviz.core.files.scenario import list_scenarios

    w = dressed(window)
    path = tmp_path / "lesson.json"
    write_session(path, w.session.content(w.state.view()))
    saved = w.session.content()
    w.files.saved = saved
    w.close()
    _, again = start(window_parser().parse_args([str(path)]))
    qtbot.addWidget(again)
    assert again.session.content().same_content(saved)
    assert not again.files.dirty
    assert again.windowTitle().startswith("lesson.json")
    again.close()
    _, demo = start(window_parser().parse_args([str(list_scenarios()[0]), "--play"]))
    qtbot.addWidget(demo)
    assert demo.session.caption is not None
    assert demo.controller.playing
    demo.close()


def test_undo_after_open_brings_nothing_of_the_old_document_back(
    qtbot, window, tmp_path, monkeypatch
):
    """Issue 16: after Open, Undo brought back the old points under the new file's settings,
    an empty third class and the new title (and Ctrl+S wrote that over the lesson). Open
    and New start a document: nothing is left to undo."""
    from svmviz.core.files.scenario import list_scenarios

    lesson = dressed(window)
    path = tmp_path / "lesson.json"
    save_to(monkeypatch, path)
    assert lesson.files.save()
    saved = lesson.session.content(lesson.state.view())
    lesson.close()

    w = window()
    w.session.add_point(0.5, 0.5)  # an edit of the demo: undoable
    assert w.session.can_undo
    assert w.open_scenario(list_scenarios()[0])  # (the prompt: Discard)
    assert not w.session.can_undo
    assert not w.controls.undo.isEnabled()
    w.session.add_point(0.25, 0.25)  # an edit of the scenario...
    assert w.files.open_path(path)  # ...discarded at the prompt
    assert not w.session.can_undo
    assert not w.controls.undo.isEnabled()
    w.session.undo()  # Ctrl+Z: nothing happens
    assert w.session.content().same_content(saved)
    assert w.session.caption == saved.caption
    assert w.session.config == saved.config
    assert w.files.name == "lesson.json"
    assert not w.files.dirty
    # an edit of the session undoes back to the session, never further
    w.session.delete_points([0])
    w.session.undo()
    assert not w.session.can_undo
    assert w.session.content().same_content(saved)
    # New: an empty document, nothing to undo
    assert w.files.new()
    assert not w.session.can_undo
    assert len(w.session.points) == 0
    assert w.files.name == "untitled"
    assert w.session.caption is None
    w.close()


def test_file_dialogs_start_in_the_last_folder_used_else_home(window, tmp_path, monkeypatch):
    """Issue 16: Open and Export started in the installed package's scenarios folder (the
    last file opened was a scenario of File ▸ Scenarios)."""
    from svmviz.core.files.scenario import list_scenarios

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    started = []

    def dialog(kind, path=""):
        def ask(parent, title, start, filters, *args, **kwargs):
            started.append((kind, Path(start)))
            return path, ""

        monkeypatch.setattr(QtWidgets.QFileDialog, kind, ask)

    w = window()
    dialog("getOpenFileName")
    assert not w.files.open_dialog()
    assert started[-1] == ("getOpenFileName", home)  # nothing used yet: home
    assert w.open_scenario(list_scenarios()[0])
    assert not w.files.open_dialog()
    assert started[-1][1] == home  # not site-packages/svmviz/scenarios
    dialog("getSaveFileName")
    assert w.exports._ask("Export the training", "training.gif", "GIF (*.gif)") is None
    assert started[-1] == ("getSaveFileName", home / "training.gif")

    # a file opened from a folder: the next dialogs start there
    data = tmp_path / "lessons"
    data.mkdir()
    csv = data / "points.csv"
    write_csv(csv, Dataset.from_labels(np.array([[0.0, 0], [1, 1]]), ["a", "b"]))
    dialog("getOpenFileName", str(csv))
    assert w.files.open_dialog()
    dialog("getOpenFileName")
    w.files.open_dialog()
    assert started[-1][1] == data
    dialog("getSaveFileName")
    w.exports._ask("Export the trained model", "model.json", "MODEL.json (*.json)")
    assert started[-1][1] == data / "model.json"
    # a folder chosen in an export is the next start (the animation's, the model's...)
    out = tmp_path / "slides"
    out.mkdir()
    dialog("getSaveFileName", str(out / "run.gif"))
    assert w.exports._ask("Export the training", "training.gif", "GIF (*.gif)") is not None
    dialog("getSaveFileName")
    w.exports._ask("Export the training history", "history.csv", "CSV (*.csv)")
    assert started[-1][1] == out / "history.csv"
    w.close()

    # remembered between runs; a folder that is gone falls back to home
    again = window()
    dialog("getOpenFileName")
    again.files.open_dialog()
    assert started[-1][1] == out
    out.rmdir()
    again.files.open_dialog()
    assert started[-1][1] == home
    again.close()


def test_qt_s_own_file_dialog_is_wide_enough_to_read(qtbot, tmp_path, monkeypatch):
    """Issue 16: Qt's own file dialog opened at 632×408 with its columns cut ("JSO…ent").
    (Its state file, QtProject.conf, goes to tmp_path, not the user's.)"""
    from svmviz.ui.window.dialogs import FILE_DIALOG_SIZE, widen_file_dialog

    Settings = QtCore.QSettings
    default = QtCore.QStandardPaths.writableLocation(
        QtCore.QStandardPaths.StandardLocation.GenericConfigLocation
    )
    Settings.setPath(Settings.Format.NativeFormat, Settings.Scope.UserScope, str(tmp_path))
    try:
        (tmp_path / "lesson.json").write_text("{}")
        dialog = QtWidgets.QFileDialog(None, "Open", str(tmp_path), "svmviz files (*.json)")
        dialog.setOption(QtWidgets.QFileDialog.Option.DontUseNativeDialog)
        dialog.setModal(True)
        dialog.show()
        qtbot.waitExposed(dialog)
        assert dialog.width() < FILE_DIALOG_SIZE[0]  # Qt's own size: too narrow
        widen_file_dialog()
        assert dialog.width() >= FILE_DIALOG_SIZE[0]
        assert dialog.height() >= FILE_DIALOG_SIZE[1]
        tree = dialog.findChild(QtWidgets.QTreeView, "treeView")
        header, metrics = tree.header(), tree.fontMetrics()
        for column, text in ((1, "1023.9 KiB"), (2, "JSON document")):
            assert header.sectionSize(column) > metrics.horizontalAdvance(text)
        qtbot.waitUntil(
            lambda: (
                tree.viewport().width()
                >= sum(header.sectionSize(c) for c in range(header.count())) - 1
            ),
            timeout=2000,
        )
        dialog.reject()
        dialog.deleteLater()
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    finally:
        Settings.setPath(Settings.Format.NativeFormat, Settings.Scope.UserScope, default)


def test_a_scenario_tried_as_its_caption_says_is_left_without_a_prompt(
    qtbot, make_window, wait_frame, monkeypatch, unsaved_changes_discarded
):
    """Issue 23: re-opening a scenario after touching it always asked to save. Trying a
    scenario (playing it, the view, its own points dragged or deleted, as the captions ask)
    is not work to keep; points placed, classes renamed and (issue 43) settings changed
    are, and are asked about until undone."""
    from PySide6.QtCore import Qt
    from test_window import click, drag

    from svmviz.core.files.scenario import list_scenarios

    asked = unsaved_changes_discarded
    lam_sweep, outlier = list_scenarios()[1], list_scenarios()[8]
    w = make_window(iterations=500, active=True)
    qtbot.waitExposed(w)
    assert w.open_scenario(lam_sweep)
    w.advance(20)
    wait_frame(w, lambda s: s.t == 20)
    w.panel.lam_slider.setValue(w.panel.lam_slider.maximum())  # "drag the λ slider"
    w.panel.combos["algorithm"].set_value("sgd")
    assert w.session.config.algorithm == "sgd"
    assert w.files.dirty  # settings changed: asked about until undone
    w.session.undo()
    w.session.undo()
    w.controls.optimum.setChecked(False)  # a view option
    qtbot.keyClick(w, Qt.Key.Key_3)  # a third class in the bar, no point of it
    assert not w.files.dirty
    qtbot.wait(50)  # (the title follows on a timer)
    assert not w.isWindowModified()
    assert w.open_scenario(lam_sweep)  # the same again: as shipped, no prompt
    assert w.open_scenario(outlier)
    n = len(w.session.points)
    assert asked == []
    drag(qtbot, w, (-1.1, 0.8), (0.5, -2.5))  # "drag the outlier away"
    assert not np.any(np.all(np.isclose(w.session.points.X, [-1.1, 0.8]), axis=1))
    click(qtbot, w, 2.9, 1.6, Qt.MouseButton.RightButton)  # (or delete a point)
    assert len(w.session.points) == n - 1
    w.files.autosave_now()
    assert not w.files.autosave.path.exists()  # nothing to recover either
    assert w.open_scenario(outlier)
    assert asked == []
    # a point placed is the user's: asked about (Cancel keeps it), clean once undone
    click(qtbot, w, 0.0, 2.8)
    assert len(w.session.points) == n + 1
    assert w.files.dirty
    qtbot.waitUntil(w.isWindowModified, timeout=1000)
    w.files.autosave_now()
    assert w.files.autosave.path.exists()
    answer(monkeypatch, Button.Cancel, asked)
    assert not w.open_scenario(lam_sweep)
    assert len(asked) == 1
    assert len(w.session.points) == n + 1
    w.session.undo()
    assert not w.files.dirty
    # a class renamed too
    w.session.set_class(0, "cats")
    assert w.files.dirty
    answer(monkeypatch, Button.Discard, asked)
    assert w.open_scenario(lam_sweep)
    assert len(asked) == 2


def test_a_csv_without_a_header_opens_every_row_and_a_guess_is_said(window, tmp_path):
    w = window()
    plain = tmp_path / "plain.csv"
    plain.write_text("".join(f"{0.1 * k},{-0.2 * k},{k % 2}\n" for k in range(60)))
    assert w.files.open_path(plain)
    assert len(w.session.points) == 60
    iris = tmp_path / "iris.csv"
    iris.write_text("5.1,3.5,setosa\n4.9,3,setosa\n6.2,2.9,virginica\n")
    assert w.files.open_path(iris)
    assert len(w.session.points) == 3
    assert "line 1 was read as a point" in w.status.text()


def on_disk_changed(monkeypatch, choice, asked=None):
    """Save finds the file changed by another writer: answer ``choice`` (overwrite, save as,
    cancel), recording the names asked about."""
    import svmviz.ui.window.files

    def ask(parent, name):
        if asked is not None:
            asked.append(name)
        return choice

    monkeypatch.setattr(svmviz.ui.window.files, "ask_changed_on_disk", ask)


def test_two_windows_on_one_file_lose_no_work(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "shared.json"
    a = window()
    save_to(monkeypatch, path)
    assert a.files.save()
    b = window()
    assert b.files.open_path(path)
    assert "open in another svmviz window" in b.status.text()  # B is told
    for k in range(3):
        a.session.add_point(0.1 * k, 2.0)
    assert a.files.save()  # nobody else wrote it: no question
    # B, opened before A's save, adds 7 and saves: asked, it cancels; A's points stay
    asked = []
    on_disk_changed(monkeypatch, "cancel", asked)
    for k in range(7):
        b.session.add_point(0.1 * k, -2.0)
    assert not b.files.save()
    assert asked == ["shared.json"]
    assert len(read_session(path).y) == 63
    assert b.files.dirty
    # B overwrites: then A's work is no longer in the file, and A says so
    on_disk_changed(monkeypatch, "overwrite")
    assert b.files.save()
    assert len(read_session(path).y) == 67
    assert not b.files.dirty
    assert a.files.dirty
    qtbot.waitUntil(a.isWindowModified, timeout=5000)  # the title's "*", by the watcher
    closing = []
    answer(monkeypatch, Button.Cancel, closing)
    assert not a.close()  # closing A asks
    assert "changed on the disk" in closing[0]
    # A saves its work under another name: both are kept
    mine = tmp_path / "mine.json"
    save_to(monkeypatch, mine)
    on_disk_changed(monkeypatch, "save as")
    assert a.files.save()
    assert len(read_session(mine).y) == 63
    assert len(read_session(path).y) == 67
    assert not a.files.dirty
    assert a.files.path == mine


def test_a_save_is_written_off_the_gui_thread_and_edits_meanwhile_stay_unsaved(
    qtbot, window, tmp_path, monkeypatch
):
    import threading

    import svmviz.ui.window.files

    w = window()
    w.show()
    path = tmp_path / "s.json"
    real = svmviz.ui.window.files.write_session
    in_gui_thread = []

    def slow(path, content):
        in_gui_thread.append(threading.current_thread() is threading.main_thread())
        time.sleep(0.5)
        return real(path, content)

    monkeypatch.setattr(svmviz.ui.window.files, "write_session", slow)
    save_to(monkeypatch, path)
    QtCore.QTimer.singleShot(100, lambda: w.session.add_point(0.1, 0.2))  # while it writes
    assert w.files.save()
    assert in_gui_thread == [False]
    assert len(read_session(path).y) == 60  # what there was at Save
    assert len(w.session.points) == 61
    assert w.files.dirty  # the point added meanwhile is not in the file
    # a close while a save runs waits for it, then closes (asking about the unsaved)
    closing = []
    answer(monkeypatch, Button.Discard, closing)
    QtCore.QTimer.singleShot(100, w.close)
    assert w.files.save()
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=5000)
    assert not closing  # saved before it closed: nothing to ask
    assert len(read_session(path).y) == 61


def killed(code: str, *args) -> int:
    """Run ``code`` in a process until it prints a line, then kill it (SIGKILL: nothing of
    its own clean-up runs); its pid."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip()
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    return proc.pid


def lock_name(w) -> str:
    """The name of the window's autosave lock."""
    return Path(w.files.autosave.lock.fileName()).name


RUNNING_WINDOW = """
import sys, time
from svmviz.app.autosave import Autosave

autosave = Autosave(sys.argv[1])  # a window's lock, with nothing unsaved
print("running", flush=True)
time.sleep(60)
"""


def test_a_killed_window_s_lock_and_old_temporaries_are_removed_at_the_next_start(
    window, tmp_path, own_config_dir
):
    live = window()  # a running window: its lock stays
    doc = tmp_path / "recent.json"  # a recent file, with a temporary of an old killed save,
    doc.write_text("{}")  # named as svmviz named them before they carried their writer's pid
    live.prefs.add_recent(doc)
    old_temporary = tmp_path / ".recent.json.k2j4h5g6.tmp"
    old_temporary.write_text("half")
    an_hour_ago = time.time() - 3600
    os.utime(old_temporary, (an_hour_ago, an_hour_ago))
    autosave = own_config_dir / "autosave"
    pid = killed(RUNNING_WINDOW, autosave)
    assert len(list(autosave.glob(f"{pid}-*.lock"))) == 1
    started = window()  # the next start
    assert {p.name for p in autosave.iterdir()} == {lock_name(live), lock_name(started)}
    assert not old_temporary.exists()
    assert doc.read_text() == "{}"


SAVING_WINDOW = """
import os, sys, time
from pathlib import Path
from svmviz.app.autosave import Autosave
from svmviz.core.file_io import atomic_write_bytes

folder, doc = Path(sys.argv[1]), Path(sys.argv[2])
autosave = Autosave(folder)
autosave.set_document(doc)

def stuck(src, dst):  # killed while it saves, between the write and the rename
    print("saving", flush=True)
    time.sleep(60)

os.replace = stuck
with autosave.writing(doc):
    atomic_write_bytes(doc, b"{}")
"""


def test_a_save_killed_before_its_rename_leaves_nothing_after_the_next_start(
    window, tmp_path, own_config_dir
):
    doc = tmp_path / "new" / "lesson.json"  # (a folder no recent file is in)
    doc.parent.mkdir()
    autosave = own_config_dir / "autosave"
    pid = killed(SAVING_WINDOW, autosave, doc)
    left = {p.suffix for p in autosave.glob(f"{pid}-*")}
    assert left == {".lock", ".open", ".writing"}  # its lock, the files open and written
    assert len(list(doc.parent.glob(f".lesson.json.svmviz-{pid}-*.tmp"))) == 1
    started = window()  # the next start
    assert {p.name for p in autosave.iterdir()} == {lock_name(started)}
    assert list(doc.parent.iterdir()) == []


@pytest.mark.parametrize("button, choice", [("Overwrite", "overwrite"), ("Save As…", "save as")])
def test_the_changed_on_disk_question_offers_overwrite_save_as_and_cancel(
    qtbot, window, button, choice
):
    from svmviz.ui.window.dialogs import ask_changed_on_disk

    w = window()
    seen = []

    def click():
        box = QtWidgets.QApplication.activeModalWidget()
        seen.append(box.text())
        (wanted,) = [b for b in box.buttons() if b.text() == button]
        wanted.click()

    QtCore.QTimer.singleShot(0, click)
    assert ask_changed_on_disk(w, "shared.json") == choice
    assert "“shared.json” was changed on the disk" in seen[0]
    QtCore.QTimer.singleShot(0, lambda: QtWidgets.QApplication.activeModalWidget().reject())
    assert ask_changed_on_disk(w, "shared.json") == "cancel"
