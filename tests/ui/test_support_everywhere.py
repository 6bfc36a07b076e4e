"""One support-vector count for every problem, wherever the window shows it: the plane's
rings, the curve "support vectors / m", the Points tab, the status line, the exported model
and `svmviz train`'s summary, for the same model (svmviz.core.pictures.margins.support_mask)."""

import re

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtCore

from svmviz.core.config import SolverConfig
from svmviz.core.fit import train
from svmviz.core.kernels import Kernel
from tests.core.test_support import PROBLEMS


def test_every_view_counts_the_same_support_vectors(make_window, wait_frame, qtbot):
    """One window, every problem in turn (kernel models, a run of 300 iterations and a
    `svmviz train` of the same each: about 2 s a problem, 11 problems, hence ~20 s)."""
    w = make_window(show=True, iterations=300)
    w.docks["points"].raise_()
    seen = {}
    for name, (settings, data) in PROBLEMS.items():
        config = SolverConfig(kernel=Kernel("rbf", gamma=1.0), iterations=300, **settings)
        w.session.load(data, config)
        w.run_to_budget()
        # (120 s: the first run of a loss on a fresh machine compiles its loop)
        wait_frame(w, lambda s: s.generation == w.controller.generation and s.t, 120000)
        snap = wait_frame(w, lambda s: s.status not in ("ready", "running"), 60000)
        assert snap.generation == w.controller.generation, name
        w.frames.redraw_readings()
        qtbot.waitUntil(lambda s=snap: w.point_table.model_.margins is s.frame.margins)
        m = len(data.X)
        count = len(snap.frame.support)
        rings = len(w.plot.rings.data)
        table = w.point_table.model_.n_support
        status = re.search(r"support vectors (\d+) of (\d+)", w.status.text())
        record = w.exports.model(snap).extra["support_count"]
        cli = train(config, data).model.extra["support_count"]
        assert rings == table == record["count"] == cli["count"] == count, name
        assert record["of"] == cli["of"] == m
        _, share = w.curves.support.getData()
        if count == 0 and "(no margin" in record["rule"]:  # logistic, softmax, ovr
            assert share is None or len(share) == 0, name
            assert status is None, name
        else:
            assert round(share[-1] * m) == count, name
            assert status is not None and status.groups() == (str(count), str(m)), name
            assert f"({count} support vectors)" in w.point_table.model_.headerData(
                8, QtCore.Qt.Orientation.Horizontal
            )
        seen[name] = (count, record.get("nonzero_alpha"))
    assert seen["epsilon-svr"][0] < seen["epsilon-svr"][1]  # the case: α ≠ rule
