"""Files written off the GUI thread, so that saving a large session does not freeze the
window: it goes on painting and training while the file is encoded and written, and the
user's input waits, queued, until the write is done (nothing edits, saves or replaces the
document in between; a close meanwhile is Files' to defer).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from PySide6 import QtCore

T = TypeVar("T")


class BackgroundWrite(QtCore.QObject):
    """Runs one write at a time in a thread of its own; ``busy`` while it runs."""

    _done = QtCore.Signal()

    def __init__(self, parent: QtCore.QObject | None = None):
        super().__init__(parent)
        self.busy = False

    def run(self, job: Callable[[], T]) -> T:
        """``job()``'s result (or what it raised), computed in a thread while this thread's
        event loop turns, user input excluded. A job asked for while another runs (a timer
        that fires meanwhile) runs here, at once."""
        if self.busy:
            return job()
        outcome: dict = {}

        def work() -> None:
            try:
                outcome["value"] = job()
            except BaseException as exc:  # (re-raised in the caller's thread)
                outcome["error"] = exc
            finally:
                self._done.emit()  # queued to the loop below, in the caller's thread

        loop = QtCore.QEventLoop()
        self._done.connect(loop.quit)
        thread = threading.Thread(target=work, name="svmviz-write", daemon=True)
        self.busy = True
        try:
            thread.start()
            loop.exec(QtCore.QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
            thread.join()  # (the loop also ends when the application quits)
        finally:
            self.busy = False
            self._done.disconnect(loop.quit)
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]
