"""`svmviz bench`: every speed figure of the project, each beside its target and anchor.

Every figure is measured in this run, on this machine; a ratio is taken against an anchor
measured in the same run. Modules: ``engine`` (solver updates per second, time to 1% of
the optimum), ``losses`` (the same for every loss and problem of solvers/losses),
``estimators`` (the scikit-learn estimators against SGDClassifier and SVC on a real data
set),
``frames`` (one frame of the plane, computed and drawn), ``window`` (the window while it
trains: frames per second, timer lateness, click and parameter latency, at the scales the
window supports), ``weights`` (the window's frame rate with the weight-space view on and
off, and one landscape's time), ``surface`` (the same with the 3-D view, under Xvfb when
this platform has no OpenGL, and one of its drawings), ``race`` (the window racing four
runs, against the same job alone), ``start`` (from the command to the first frame) and
``save`` (the window's longest stall while it saves 40,000 and 50,000 points).
"""

from __future__ import annotations

import json

from svmviz.bench.report import format_row


def main(args) -> int:
    from svmviz.bench import (
        companion,
        engine,
        estimators,
        frames,
        losses,
        play,
        race,
        save,
        start,
        surface,
        weights,
        window,
    )

    quick = getattr(args, "quick", False)
    rows = engine.measure(quick)
    rows += losses.measure(quick)
    rows += estimators.measure(quick)
    rows += frames.measure(quick)
    rows += window.measure(quick)
    rows += weights.measure(quick)
    rows += companion.measure(quick)
    rows += surface.measure(quick)
    rows += race.measure(quick)
    rows += start.measure(quick)
    rows += play.measure(quick)
    rows += save.measure(quick)
    if getattr(args, "json", False):
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        print(format_row(r))
    return 0
