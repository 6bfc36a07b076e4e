"""The app's long-lived QThreads, so that tests and a clean exit can see any still running."""

from __future__ import annotations

import weakref

_THREADS: weakref.WeakSet = weakref.WeakSet()


def register(thread) -> None:
    """Count ``thread`` (a QThread) among the app's threads while it exists."""
    _THREADS.add(thread)


def running_threads() -> list:
    """The app's threads that are still running (training, curves)."""
    return [t for t in list(_THREADS) if t.isRunning()]
