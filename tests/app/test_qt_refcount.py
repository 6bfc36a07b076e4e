"""PySide6 6.12.0 drops a reference to True on every Signal.emit() and aborts the process
after a few hundred emits ("Fatal Python error: bool_dealloc"). This catches any release with
the same fault before it reaches a classroom."""

import sys

import pytest

QtCore = pytest.importorskip("PySide6.QtCore")


class Emitter(QtCore.QObject):
    fired = QtCore.Signal(object)
    flag = QtCore.Signal(bool)


def test_ten_thousand_emits_keep_the_refcount_of_true(qapp):
    e = Emitter()
    received = []
    e.fired.connect(received.append)
    e.flag.connect(received.append)
    before = sys.getrefcount(True)
    for _ in range(5000):
        e.fired.emit(True)
        e.flag.emit(True)
    received.clear()
    after = sys.getrefcount(True)
    assert abs(after - before) <= 2, (before, after)


def test_installed_release_is_not_the_broken_one():
    import PySide6

    assert PySide6.__version__ != "6.12.0"
