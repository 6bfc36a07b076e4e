"""The window's files: new, open, save, save as, drag and drop, autosave and crash
recovery, and the prompts that keep unsaved work from being lost (the recent files' menu:
svmviz.ui.window.recent_files; the points written as a data set:
svmviz.ui.window.points_export).

The document is a session file (svmviz.core.files.session_file). Opening a data set (CSV, or
libsvm's svm-toy: svmviz.core.files.svmtoy) or a scenario makes an untitled document from it (Save
asks where to put the session). "Unsaved" compares the session's content with what was last
opened or saved, so undoing back to it is clean again. A scenario is a demo that its file
keeps as shipped: trying it (playing it, moving or deleting its points, as the captions ask)
is not work to save; points placed or generated, classes renamed or recoloured and the
solver's settings changed are (each is an edit: undone, it is not). Every read happens
before anything changes: a bad file is a dialog naming the problem, and the current work
stays as it was. Every write is atomic and off the GUI thread (app.background_write); a
failed one is a dialog, and the work stays in memory (and unsaved).

Two windows (or a window and another program) on one file: the document keeps the stamp of
the file as it last read or wrote it (core.file_io.Stamp). Once another writer has changed
the file the work is unsaved again (its title says so, closing asks), and Save asks before
overwriting the other's change. A stamp leaves nothing on the disk that a kill could leave
stale, unlike a lock beside the document; the autosave folder's notes tell a window that
opens a file another running window has open.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtWidgets

from svmviz.app.autosave import Autosave, find_recoverable, remove_stale
from svmviz.app.background_write import BackgroundWrite
from svmviz.app.preferences import Preferences, config_dir
from svmviz.app.session import Session
from svmviz.app.window_state import WindowState
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, check_window_data
from svmviz.core.edits import (
    DEFAULT_NAMES,
    Append,
    Replace,
    SetClass,
    SetCost,
    SetSettings,
    SwitchProblem,
)
from svmviz.core.errors import InputError
from svmviz.core.file_io import Stamp, identity, remove_temporaries
from svmviz.core.files.scenario import Scenario
from svmviz.core.files.session_file import SessionFile, View, read_document, write_session
from svmviz.core.files.svmtoy import opened_config
from svmviz.core.palette import CLASS_COLORS
from svmviz.ui.window.dialogs import ask_changed_on_disk, ask_open_path, ask_save_path

SESSION_FILTER = "svmviz session (*.json)"
OPEN_FILTER = (
    "svmviz files (*.json *.csv *.tsv *.txt *.svmlight *.libsvm *.svm *.toy);;"
    "Sessions and scenarios (*.json);;Data sets (*.csv *.tsv *.txt);;"
    "svm-toy files (*.txt *.svmlight *.libsvm *.svm *.toy);;All files (*)"
)
Button = QtWidgets.QMessageBox.StandardButton
DISK_CHECK_MS = 2000


def empty_session() -> SessionFile:
    return SessionFile(
        np.zeros((0, 2)),
        np.zeros(0, dtype=np.int64),
        DEFAULT_NAMES,
        CLASS_COLORS,
        config=SolverConfig(),
    )


class Files(QtCore.QObject):
    """The document of one window: its path, its saved content, autosave and the prompts.

    ``window``: the dialogs' parent, whose title names the document; ``session`` and
    ``state`` (svmviz.app.window_state.WindowState): what a session file holds; ``status``:
    shows a line of text to the user. Before a file replaces the session it emits
    ``replacing`` (the window pauses training), and ``replaced`` once it has.
    """

    replacing = QtCore.Signal()
    replaced = QtCore.Signal()

    def __init__(
        self,
        window: QtWidgets.QWidget,
        session: Session,
        state: WindowState,
        prefs: Preferences,
        status: Callable[[str], None],
    ):
        super().__init__(window)
        self.window = window
        self.session = session
        self.state = state
        self.prefs = prefs
        self.status = status
        self.path: Path | None = None  # the session file (None: untitled)
        self.name = "untitled"  # shown in the title: the file's name, or what it came from
        self.saved = self.session.content()  # the content last opened or saved
        self.demo = False  # the document is a scenario (see unsaved)
        self.stamp: Stamp | None = None  # the file as last read or written (see changed_on_disk)
        self._told_changed = False  # the status line said the file was changed
        self._disk: tuple | None = None  # (the file's identity, changed) last checked
        self.writer = BackgroundWrite(self)
        self._close_when_written = False
        # another writer's change is looked for every DISK_CHECK_MS (a stat; a file watcher
        # would take an inotify instance per window, and misses changes on network disks)
        self.disk_timer = QtCore.QTimer(self)
        self.disk_timer.setInterval(DISK_CHECK_MS)
        self.disk_timer.timeout.connect(self._check_disk)
        self.autosave = Autosave(config_dir() / "autosave")
        self.remove_leftovers()
        self._autosaved = None  # the content last autosaved
        self.autosave_timer = QtCore.QTimer(self)
        self.autosave_timer.timeout.connect(self.autosave_now)
        self.set_autosave_seconds(prefs.get("autosave_seconds"))
        if not self.autosave.active:
            status(f"Autosave is off: {self.autosave.error}")
        # the title's "*" follows every change, coalesced (a drag changes the points per move)
        self._title_timer = QtCore.QTimer(self)
        self._title_timer.setSingleShot(True)
        self._title_timer.setInterval(0)
        self._title_timer.timeout.connect(self.update_title)
        for signal in (
            self.session.points_changed,
            self.session.classes_changed,
            self.session.config_changed,
            self.session.split_changed,
            self.session.caption_changed,
        ):
            signal.connect(self._title_timer.start)
        self.update_title()

    # ------------------------------------------------------------------ state
    @property
    def dirty(self) -> bool:
        return self.unsaved(self.session.content())

    def changed_on_disk(self) -> bool:
        """Whether the session file no longer holds what this window last read or wrote
        (another window or program wrote it, or it is gone): then the work is unsaved."""
        if self.path is None or self.stamp is None:
            return False
        try:
            now = identity(self.path.stat())
        except OSError:
            now = None
        if self._disk is None or self._disk[0] != now:
            self._disk = (now, self.stamp.changed(self.path))
        return self._disk[1]

    def unsaved(self, content: SessionFile) -> bool:
        """Whether ``content`` (the session's) holds work that would be lost. In a scenario
        only what the user made counts: points placed or generated, classes renamed or
        recoloured, solver settings or Δ changed (the edits still done). The split, the
        classes shown in the bar, and its own points moved or deleted are trying the demo,
        as the captions ask: opening another file, or the same scenario again, does not ask
        to keep them. Once another writer has changed the file, the
        work is unsaved again."""
        if self.changed_on_disk():
            return True
        if content.same_content(self.saved):
            return False
        return not self.demo or any(_made(edit) for edit in self.session.edits)

    def update_title(self) -> None:
        self.window.setWindowTitle(f"{self.name}[*] — svmviz")
        self.window.setWindowModified(self.dirty)

    def _set_document(
        self,
        path: Path | None,
        name: str,
        demo: bool = False,
        saved: SessionFile | None = None,
        stamp: Stamp | None = None,
    ) -> None:
        """The document is now ``path`` (None: untitled), as ``saved`` holds it (by default
        the session's content) and as ``stamp`` found its file."""
        self.path = path
        self.name = name
        self.saved = self.session.content() if saved is None else saved
        self.demo = demo
        self.stamp, self._disk, self._told_changed = stamp, None, False
        if path is not None and stamp is not None:
            self.disk_timer.start()
        else:
            self.disk_timer.stop()
        self.autosave.set_document(path)
        self._autosaved = None
        self.autosave.clear()
        self.update_title()

    @QtCore.Slot()
    def _check_disk(self) -> None:
        """When another writer has changed the file, say so; the title (and closing) follow."""
        if self.writer.busy:
            return  # our own write: its stamp is taken once it is done
        changed = self.changed_on_disk()
        if changed and not self._told_changed:
            self.status(
                f"{self.name} was changed on the disk by another window or program: this "
                "window's work is no longer in it (Save asks before overwriting)"
            )
        self._told_changed = changed
        if self.window.isWindowModified() != self.dirty:
            self.update_title()

    def remove_leftovers(self) -> None:
        """What killed windows left: their autosave locks and notes, the temporaries of the
        files they were writing, and those beside the recent files (also the temporaries
        named as before they carried their writer's pid)."""
        if self.autosave.active:
            remove_stale(self.autosave.folder)
        for f in self.prefs.recent_files():
            remove_temporaries(Path(f))

    def set_autosave_seconds(self, seconds: int) -> None:
        if seconds > 0:
            self.autosave_timer.start(int(seconds * 1000))
        else:
            self.autosave_timer.stop()

    # ------------------------------------------------------------------ prompts
    def confirm_discard(self, doing: str) -> bool:
        """True when it is fine to replace the current work (``doing`` says by what): there
        are no unsaved changes, or the user saved them or chose to discard them."""
        if self.writer.busy:  # (a close while a save runs: once it is written)
            self._close_when_written = doing == "closing"
            return False
        if not self.dirty:
            return True
        if self.changed_on_disk() and self.session.content().same_content(self.saved):
            text = (
                f"“{self.name}” was changed on the disk by another window or program: this "
                f"window's work is no longer in it. Save it before {doing}?"
            )
        else:
            text = f"“{self.name}” has changes that are not saved. Save them before {doing}?"
        answer = QtWidgets.QMessageBox.question(
            self.window,
            "svmviz: unsaved changes",
            text,
            Button.Save | Button.Discard | Button.Cancel,
            Button.Save,
        )
        if answer == Button.Save:
            return self.save()
        return answer == Button.Discard

    def failed(self, what: str, exc: InputError) -> None:
        QtWidgets.QMessageBox.critical(
            self.window,
            f"svmviz: cannot {what}",
            f"{exc}\n\nNothing was lost: your work is still open in the window. Choose "
            "another folder or file name (File ▸ Save As…).",
        )

    # ------------------------------------------------------------------ commands
    def new(self) -> bool:
        if not self.confirm_discard("starting a new session"):
            return False
        self.replacing.emit()
        self.session.restore(empty_session())
        self.state.apply_view(empty_session().view, fit=False)
        self._set_document(None, "untitled")
        return True

    def open_dialog(self) -> bool:
        if not self.confirm_discard("opening another file"):
            return False
        path = ask_open_path(
            self.window, "Open a session, scenario or data set", self.folder(), OPEN_FILTER
        )
        return bool(path) and self.open_path(path, confirm=False)

    def open_path(self, path, confirm: bool = True) -> bool:
        """Open a session, a scenario or a data set (CSV, or svm-toy's: a regression one
        opens for epsilon-svr when a problem of classes is in force). A file that cannot be
        read is a dialog, and nothing changes."""
        path = Path(path)
        try:
            # (the stamp first: a change while reading makes a later Save ask, never lose it)
            stamp = Stamp.read(path) if path.suffix.lower() == ".json" else None
            doc = read_document(path, self.session.kind)  # (a CSV: as the problem reads it)
            if isinstance(doc, Dataset):
                check_window_data(doc, str(path))
        except InputError as exc:
            QtWidgets.QMessageBox.warning(self.window, f"svmviz: cannot open {path.name}", str(exc))
            return False
        if confirm and not self.confirm_discard(f"opening {path.name}"):
            return False
        self.replacing.emit()
        if isinstance(doc, SessionFile):
            self.session.restore(doc)
            self.state.apply_view(doc.view, fit=doc.view.extent is None and len(doc.y) > 0)
            self._set_document(path, path.name, stamp=stamp)
        elif isinstance(doc, Scenario):
            self.apply_scenario(doc)
            self._set_document(None, path.stem, demo=True)
        else:
            self.session.load(doc, opened_config(doc, self.session.config))
            self.session.set_caption(None)
            self.state.extent_requested.emit(None)  # fit the points
            self._set_document(None, path.stem)
        self.prefs.add_recent(path)
        self.prefs.remember_folder(path)
        self.replaced.emit()
        if isinstance(doc, Dataset) and doc.note:
            self.status(doc.note)  # how a row that could be a header was read
        elif isinstance(doc, SessionFile) and self.autosave.others_with(path):
            self.status(
                f"{path.name} is open in another svmviz window too: Save here asks before "
                "overwriting what the other saves"
            )
        return True

    def apply_scenario(self, scenario: Scenario) -> None:
        """A scenario's points (undoable), settings, speed, view options and caption."""
        self.session.load(scenario.data, scenario.config, scenario.race)
        self.session.set_caption((scenario.title, scenario.caption))
        self.state.apply_view(
            View(
                toggles=scenario.view,
                speed=scenario.speed,
                warm_start=self.state.warm_start,
                flags=tuple((name, True) for name in scenario.views),
            ),
            fit=True,
        )
        self.state.set_companion(scenario.companion)  # (its own: none if it names none)

    def save(self) -> bool:
        """Save to the document's file; when another writer has changed it since, ask
        whether to overwrite that change, save under another name, or cancel."""
        if self.path is None:
            return self.save_as()
        if self.stamp is not None and self.stamp.changed(self.path) and self.path.exists():
            choice = ask_changed_on_disk(self.window, self.name)
            if choice == "save as":
                return self.save_as()
            if choice != "overwrite":
                return False
        return self._write(self.path)

    def save_as(self) -> bool:
        start = Path(self.folder()) / f"{Path(self.name).stem}.json"
        path = ask_save_path(self.window, "Save the session", start, SESSION_FILTER)
        return path is not None and self._write(path)

    def _write(self, path: Path) -> bool:
        """Write the session to ``path`` off the GUI thread (the window keeps turning); the
        document is then what was written, even if it was edited meanwhile."""
        content = self.session.content(self.state.view())
        try:
            with self.autosave.writing(path):
                stamp = self._off_thread(functools.partial(write_session, path, content))
        except InputError as exc:
            self.failed("save the session", exc)
            return False
        self._set_document(path, path.name, saved=content, stamp=stamp)
        self.prefs.add_recent(path)
        self.prefs.remember_folder(path)
        self.status(f"Saved {path}")
        return True

    def _off_thread(self, job):
        """``job()`` (a write) in the writer's thread; a close asked for meanwhile follows."""
        try:
            return self.writer.run(job)
        finally:
            if self._close_when_written:
                self._close_when_written = False
                QtCore.QTimer.singleShot(0, self.window.close)

    def folder(self) -> str:
        """Where the dialogs start: the session's folder, else the folder last used."""
        if self.path is not None:
            return str(self.path.parent)
        return self.prefs.start_folder()

    # ------------------------------------------------------------------ drag and drop
    @staticmethod
    def dropped_file(mime: QtCore.QMimeData) -> str | None:
        """The local file a drag carries (the first one), or None."""
        for url in mime.urls() if mime.hasUrls() else ():
            if url.isLocalFile():
                return url.toLocalFile()
        return None

    # ------------------------------------------------------------------ autosave, recovery
    @QtCore.Slot()
    def autosave_now(self) -> None:
        """Write the unsaved work to the autosave file (nothing unsaved: no file)."""
        if not self.autosave.active or self.writer.busy:
            return
        content = self.session.content(self.state.view())
        if not self.unsaved(content):
            self.autosave.clear()
            self._autosaved = None
            return
        if self._autosaved is not None and content.same_content(self._autosaved):
            return
        source = None if self.path is None else str(self.path)
        try:
            self._off_thread(functools.partial(self.autosave.write, content, source))
        except InputError as exc:
            self.status(f"Autosave failed: {exc}")
            return
        self._autosaved = content

    def offer_recovery(self) -> bool:
        """After a crash: offer the work the last run had not saved. True if restored."""
        restored = False
        for found in find_recoverable(self.autosave.folder):
            if found.session is None:
                QtWidgets.QMessageBox.warning(
                    self.window,
                    "svmviz: autosave unreadable",
                    f"An autosaved session could not be read and is kept at\n{found.path}\n"
                    f"({found.error})",
                )
                found.lock.unlock()
                continue
            if restored:
                continue  # one at a time: the others stay for the next start
            source = found.source or "an untitled session"
            n = len(found.session.y)
            answer = QtWidgets.QMessageBox.question(
                self.window,
                "svmviz: recover unsaved work?",
                f"svmviz did not close normally. Work on {source} ({n} points) "
                f"was autosaved at {found.saved_at}. Recover it?",
                Button.Yes | Button.No,
                Button.Yes,
            )
            if answer != Button.Yes:
                found.discard()
                continue
            self.session.restore(found.session)
            self.state.apply_view(found.session.view, fit=found.session.view.extent is None)
            path = Path(found.source) if found.source else None
            self._set_document(path, path.name if path else "recovered")
            self.saved = empty_session()  # recovered work is unsaved until saved
            self.update_title()
            found.discard()
            self.autosave_now()  # ours now
            restored = True
        return restored

    def close(self) -> None:
        """A clean exit (after the prompt): no autosave left to recover."""
        self.autosave_timer.stop()
        self.disk_timer.stop()
        self.autosave.close()


def _made(edit) -> bool:
    """Whether an edit makes something of the user's: points placed or generated, a class
    renamed or recoloured, a setting changed; not a move, a delete or a Clear."""
    if isinstance(edit, Replace):
        return len(edit.points) > 0
    return isinstance(edit, (Append, SetClass, SetCost, SetSettings, SwitchProblem))
