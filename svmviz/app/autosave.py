"""Autosave and crash recovery.

Each running window owns one autosave file in ``<config>/autosave/`` and holds a QLockFile
beside it while it runs. Every ``autosave_seconds`` the window's unsaved work (a session file,
plus the path of the file it belongs to) is written there, atomically; when the work is
saved or discarded the file goes, and a clean exit removes file and lock. After a crash the
lock is stale (its process is gone): the next start finds the file and offers the work back.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QLockFile

from svmviz.core.errors import InputError
from svmviz.core.file_io import read_json, write_json
from svmviz.core.session_file import SessionFile


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
        name = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
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

    def write(self, session: SessionFile, source: str | None) -> None:
        """Write the unsaved work (atomically); an InputError if the folder refuses it."""
        if not self.active:
            return
        d = session.to_dict()
        d["autosave"] = {"source": source, "saved_at": datetime.now().isoformat(" ", "seconds")}
        write_json(self.path, d)

    def clear(self) -> None:
        """Nothing unsaved: no file to recover."""
        if self.active:
            _remove(self.path)

    def close(self) -> None:
        """A clean exit: the file and the lock go."""
        self.clear()
        if self.active:
            self.lock.unlock()


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
