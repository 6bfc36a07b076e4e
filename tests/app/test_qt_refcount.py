"""PySide6 6.12.0 drops a reference to True on every Signal.emit() and aborts the process
after a few hundred emits ("Fatal Python error: bool_dealloc"). This catches any release with
the same fault before it reaches a classroom."""

import subprocess
import sys

import pytest

pytest.importorskip("PySide6.QtCore")

EMITS = """
import sys
from PySide6 import QtCore

class Emitter(QtCore.QObject):
    fired = QtCore.Signal(object)
    flag = QtCore.Signal(bool)

app = QtCore.QCoreApplication([])
e = Emitter()
received = []
e.fired.connect(received.append)
e.flag.connect(received.append)
before = sys.getrefcount(True)
for _ in range(5000):
    e.fired.emit(True)
    e.flag.emit(True)
received.clear()
print(before, sys.getrefcount(True))
"""


def test_ten_thousand_emits_keep_the_refcount_of_true():
    """In a fresh interpreter: another thread of the test process (pytest-xdist's, a
    test's worker) takes and drops references to True meanwhile."""
    done = subprocess.run([sys.executable, "-c", EMITS], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    before, after = map(int, done.stdout.split())
    assert abs(after - before) <= 2, (before, after)


def test_installed_release_is_not_the_broken_one():
    import PySide6

    assert PySide6.__version__ != "6.12.0"
