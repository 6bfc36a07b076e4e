"""The one object the GUI thread and the training thread share: requests, settings, mailbox.

The GUI writes (cancel, pause, the plane's extent, iterate or output, the speed, the newest
generation) and takes snapshots; the training runner (svmviz.app.runner) reads the settings
between chunks and posts snapshots. A queued slot could not carry these: it would wait for
the running loop to end. Everything here is behind one lock (or is a threading.Event), and
no Qt is imported, so tests drive the runner with this object and no thread at all.

The mailbox is latest-wins: :meth:`emit` overwrites the snapshot and calls ``notify`` only
when the GUI has taken the previous one, so a GUI slower than the training skips frames
instead of queueing stale ones (ScopeFoundry's display timer).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from svmviz.app.snapshot import Snapshot
from svmviz.core.training.pace import INSTANT, Speed


class Controls:
    """Requests and settings for the training runner, and its latest-wins mailbox.

    Parameters
    ----------
    notify
        Called (in the runner's thread) when a snapshot is posted and none was waiting.
    fail
        ``fail(generation, message)``: a job could not start.
    clock, sleep
        The pace's clock and its wait; the default wait wakes early on a pause or a cancel.
        A test may give a fake pair.
    """

    def __init__(
        self,
        notify: Callable[[], None] | None = None,
        fail: Callable[[int, str], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        sleep: Callable[[float], object] | None = None,
    ):
        self._lock = threading.Lock()
        self._cancel = threading.Event()  # drop the running loop now
        self._pause = threading.Event()  # stop the loop after this chunk
        self._notify = notify
        self._fail = fail
        self.clock = clock
        self.sleep = sleep if sleep is not None else self._pause.wait
        self._extent: tuple | None = None  # the plane region drawn; None: the job's own
        self._show_iterate = False  # frames of the last iterate instead of the output
        self._speed: Speed = INSTANT
        # the newest generation submitted: older queued jobs are skipped (a drag submits
        # one job per mouse move)
        self._latest_generation = 0
        self._mail: Snapshot | None = None
        self._posted = False  # a snapshot waits and the GUI has not taken it

    # ------------------------------------------------------------------ the GUI's side
    def stop(self, generation: int | None = None) -> None:
        """Cancel the running loop; with ``generation``, skip every older job."""
        self._cancel.set()
        self._pause.set()
        if generation is not None:
            with self._lock:
                self._latest_generation = generation

    def pause(self) -> None:
        self._pause.set()

    def resume(self) -> None:
        self._pause.clear()

    def set_extent(self, extent: tuple | None) -> None:
        with self._lock:
            self._extent = None if extent is None else tuple(float(v) for v in extent)

    def set_show_iterate(self, on: bool) -> None:
        with self._lock:
            self._show_iterate = bool(on)

    def set_speed(self, speed: Speed) -> None:
        with self._lock:
            self._speed = speed

    def peek(self) -> Snapshot | None:
        """The snapshot in the mailbox, left there."""
        with self._lock:
            return self._mail

    def take(self) -> Snapshot | None:
        """The snapshot in the mailbox; a snapshot posted from now on notifies again."""
        with self._lock:
            self._posted = False
            return self._mail

    # ------------------------------------------------------------------ the runner's side
    def is_interruption_requested(self) -> bool:
        return self._cancel.is_set()

    def is_pause_requested(self) -> bool:
        return self._pause.is_set()

    def clear_interruption(self) -> None:
        """A new job starts: the cancel that replaced the last one is spent."""
        self._cancel.clear()

    @property
    def extent(self) -> tuple | None:
        with self._lock:
            return self._extent

    @property
    def show_iterate(self) -> bool:
        with self._lock:
            return self._show_iterate

    @property
    def speed(self) -> Speed:
        with self._lock:
            return self._speed

    @property
    def latest_generation(self) -> int:
        with self._lock:
            return self._latest_generation

    def frame_pending(self) -> bool:
        """The GUI has not taken the last snapshot posted."""
        with self._lock:
            return self._posted

    def emit(self, snapshot: Snapshot) -> None:
        """Post ``snapshot``, replacing any the GUI has not taken."""
        with self._lock:
            self._mail = snapshot
            first = not self._posted
            self._posted = True
        if first and self._notify is not None:
            self._notify()

    def fail(self, generation: int, message: str) -> None:
        if self._fail is not None:
            self._fail(generation, message)
