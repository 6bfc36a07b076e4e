"""A long session (opt-in: ``pytest --runslow tests/app/test_soak.py -s``): ten minutes of
play with an edit every two seconds (a point added, dragged, deleted; λ, the kernel and the
split changed; a restart), the resident memory measured after a minute's warm-up and at the
end. ``SVMVIZ_SOAK_SECONDS`` shortens or lengthens it."""

import os
import time

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtWidgets

from svmviz.core.kernels import Kernel
from svmviz.core.lesson.generalization import Split

SECONDS = float(os.environ.get("SVMVIZ_SOAK_SECONDS", 600))
WARM_UP = min(60.0, SECONDS / 10)
GROWTH_MIB = 64  # allowed growth from the warm-up to the end


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.slow
def test_ten_minutes_of_play_with_edits(qtbot, make_window):
    rng = np.random.default_rng(0)
    w = make_window(iterations=20_000_000, show=True)
    s = w.session
    w.state.set_speed(0)  # instant: the engine's full speed, edits at that speed
    w.toggle_play()
    kernels = [Kernel(), Kernel("rbf"), Kernel("poly", degree=3)]
    start = time.perf_counter()
    at_start = None
    samples = []
    edits = 0
    while (now := time.perf_counter() - start) < SECONDS:
        qtbot.wait(2000)
        k = edits % 6
        if k == 0:
            s.add_point(*rng.normal(0, 2, 2), int(rng.integers(0, 3)))
        elif k == 1 and len(s.points):
            s.move_points([int(rng.integers(len(s.points)))], *rng.normal(0, 0.3, 2))
        elif k == 2 and len(s.points) > 40:
            s.delete_points([int(rng.integers(len(s.points)))])
        elif k == 3:
            cfg = s.config.replace(
                kernel=kernels[edits // 6 % 3], lam=float(rng.choice([1e-3, 1e-2, 0.1]))
            )
            s.set_config(cfg)
        elif k == 4:
            s.set_split(Split(float(rng.choice([0.0, 0.3])), int(rng.integers(10))))
        else:
            w.reset(play=True)
        if not w.playing:
            w.toggle_play()
        edits += 1
        if at_start is None and now >= WARM_UP:
            at_start = rss_mib()
        samples.append((round(now), round(rss_mib(), 1)))
    at_end = rss_mib()
    t = w.snapshot.t if w.snapshot is not None else 0
    w.toggle_play()
    print(
        f"\nsoak: {SECONDS:.0f} s, {edits} edits, last job at t = {t:,}; resident memory "
        f"{at_start:.1f} MiB after {WARM_UP:.0f} s, {at_end:.1f} MiB at the end "
        f"(max {max(m for _, m in samples):.1f}); samples every minute: "
        f"{samples[::30]}"
    )
    assert at_end - at_start < GROWTH_MIB
    assert QtWidgets.QApplication.instance() is not None
