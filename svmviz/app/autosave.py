"""Autosave, crash recovery, and which window has which file open.

Each running window owns one autosave file in ``<config>/autosave/`` and holds a QLockFile
beside it while it runs. Every ``autosave_seconds`` the window's unsaved work (a session file,
plus the path of the file it belongs to) is written there, atomically; when the work is
saved or discarded the file goes, and a clean exit removes file and lock. After a crash the
lock is stale (its process is gone): the next start finds the file and offers the work back.

Beside the lock, ``NAME.open`` names the session file the window has open (so that another
window opening it is told), and ``NAME.writing`` the file it is writing while it writes (so
that the temporary a kill left beside it is found). A lock tells whether its window runs:
QLockFile records the pid, the host and the program's name and holds an flock, which a killed
process loses; a pid reused by another process is still told from the owner. At each start
:func:`remove_stale` removes what windows that are gone left (the work to recover aside).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QLockFile

from svmviz.core.errors import InputError
from svmviz.core.file_io import Stamp, read_json, remove_temporaries, write_json
from svmviz.core.files.session_file import SessionFile


@dataclass
class Recovered:
    """Work found after a crash: the session, the file it belonged to (None: never saved),
    when it was autosaved, and the autosave file itself (removed by ``discard``)."""

    session: SessionFile | None
    source: str | None
    saved_at: str
    path: Path
    lock: QLockFile
    error: str | None = None  # the autosave file could not be read

    def discard(self) -> None:
        _remove(self.path)
        self.lock.unlock()  # removes the lock file


class Autosave:
    """This window's autosave file and its lock."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.error: str | None = None  # why autosave is off, if it is
        self.name = name = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.path = self.folder / f"{name}.json"
        self.lock = QLockFile(str(self.folder / f"{name}.lock"))
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.error = f"cannot make {self.folder} ({exc.strerror or exc})"
            return
        if not self.lock.tryLock(0):
            self.error = f"cannot lock {self.folder} (error {int(self.lock.error().value)})"

    @property
    def active(self) -> bool:
        return self.error is None

    def write(self, session: SessionFile, source: str | None) -> Stamp | None:
        """Write the unsaved work (atomically); an InputError if the folder refuses it."""
        if not self.active:
            return None
        d = session.to_dict()
        d["autosave"] = {"source": source, "saved_at": datetime.now().isoformat(" ", "seconds")}
        return write_json(self.path, d)

    def clear(self) -> None:
        """Nothing unsaved: no file to recover."""
        if self.active:
            _remove(self.path)

    def set_document(self, path: Path | None) -> None:
        """Note the session file this window has open (None: none), for others_with."""
        if not self.active:
            return
        note = self.folder / f"{self.name}.open"
        try:
            if path is None:
                note.unlink(missing_ok=True)
            else:
                note.write_text(str(Path(path).resolve()), encoding="utf-8")
        except OSError:
            pass  # (a folder gone read-only: other windows are not told, nothing else)

    def others_with(self, path: Path) -> int:
        """How many other running windows have ``path`` open (their notes, set_document)."""
        if not self.active:
            return 0
        target = str(Path(path).resolve())
        count = 0
        for note in self.folder.glob("*.open"):
            if note.stem == self.name:
                continue
            try:
                if note.read_text(encoding="utf-8") != target:
                    continue
            except (OSError, UnicodeDecodeError):
                continue
            count += _running(self.folder / f"{note.stem}.lock")
        return count

    @contextmanager
    def writing(self, path: Path) -> Iterator[None]:
        """While the body writes ``path``, a note of it: if the process is killed meanwhile,
        the next start removes the temporary left beside ``path`` (remove_stale)."""
        note = self.folder / f"{self.name}.writing"
        try:
            if self.active:
                note.write_text(str(Path(path).resolve()), encoding="utf-8")
        except OSError:
            pass  # (then a kill may leave the temporary: the write itself goes on)
        try:
            yield
        finally:
            _remove(note)

    def close(self) -> None:
        """A clean exit: the file, the notes and the lock go."""
        self.clear()
        if self.active:
            _remove(self.folder / f"{self.name}.open")
            self.lock.unlock()


def remove_stale(folder: Path) -> None:
    """Remove what windows that are gone (killed) left in the autosave ``folder``: their
    locks and notes, the temporaries of their autosaves, and those of the files they were
    writing (beside those files). Their autosaved work stays, for find_recoverable."""
    folder = Path(folder)
    try:
        names = {p.stem for p in folder.iterdir() if p.suffix in (".lock", ".open", ".writing")}
    except OSError:
        return
    for name in names:
        lock = QLockFile(str(folder / f"{name}.lock"))
        if not lock.tryLock(0):
            continue  # its window runs (or another start is recovering its work)
        pid = _pid_of(name)
        writing = folder / f"{name}.writing"
        try:
            if writing.exists():
                remove_temporaries(Path(writing.read_text(encoding="utf-8")), pid)
        except (OSError, UnicodeDecodeError, ValueError):
            pass
        remove_temporaries(folder / f"{name}.json", pid)
        for suffix in (".open", ".writing"):
            _remove(folder / f"{name}{suffix}")
        lock.unlock()  # (removes the lock file)


def _running(lock_path: Path) -> bool:
    """Whether the window owning the lock ``lock_path`` runs (a lock we cannot take)."""
    lock = QLockFile(str(lock_path))
    if lock.tryLock(0):
        lock.unlock()  # stale, and gone now: remove_stale takes its notes at the next start
        return False
    return True


def _pid_of(name: str) -> int | None:
    """The pid a window's name (``PID-XXXXXXXX``) carries."""
    head = name.split("-", 1)[0]
    return int(head) if head.isdigit() else None


def find_recoverable(folder: Path) -> list[Recovered]:
    """Autosave files whose window is gone (its lock is stale or missing), newest first.
    Each comes with its lock held, so two starts never offer the same work."""
    folder = Path(folder)
    found = []
    for path in sorted(folder.glob("*.json"), key=_mtime, reverse=True):
        lock = QLockFile(str(path.with_suffix(".lock")))
        if not lock.tryLock(0):
            continue  # a running window's
        error, session, source, saved_at = None, None, None, ""
        try:
            d = read_json(path)
            info = d.get("autosave", {}) if isinstance(d, dict) else {}
            info = info if isinstance(info, dict) else {}  # (a damaged file: no details)
            source = info.get("source") if isinstance(info.get("source"), str) else None
            saved_at = str(info.get("saved_at", ""))[:40]
            session = SessionFile.from_dict(d, str(path))
        except InputError as exc:
            error = str(exc)
        found.append(Recovered(session, source, saved_at, path, lock, error))
    return found


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass  # (a folder gone read-only: the file stays, and is offered once more)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
