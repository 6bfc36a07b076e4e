"""A race in the window (issue 27): four runs trained by one worker while the window paints
at full speed, against the same job without the race in the same run of the bench: the
frames painted per second, the QTimer lateness, a click's and a λ change's time to the
screen (the window's targets, svmviz.bench.window), and run 1's iterations per second."""

from __future__ import annotations

from svmviz.bench.report import row
from svmviz.bench.window import (
    TARGET_FPS,
    TARGET_LATENCY_MS,
    TARGET_LATENESS_MS,
    measure_case,
    qt_app,
    quiet_config,
)

# runs 2–4 beside the solver panel's (Pegasos): plain SGD, another λ, the last iterate
RACE = [{"algorithm": "sgd", "schedule": "inv_sqrt_t"}, {"lam": 0.1}, {"average": "last"}]
CASES = [("linear", 1000), ("rbf", 1000)]


def measure(quick: bool = False) -> list[dict]:
    config = quiet_config()
    qt_app()
    rows = []
    seconds, edits = (1.5, 3) if quick else (3.0, 8)
    for kernel, m in CASES:
        alone = measure_case(kernel, m, seconds, edits)
        raced = measure_case(kernel, m, seconds, edits, race=RACE)
        where = f"race of 4, {kernel} m={m:,}"
        rows.append(
            row(
                f"{where}: frames painted while training",
                raced["fps"],
                "frames/s",
                TARGET_FPS,
                f"alone {alone['fps']:.0f}; run 1 at {raced['its']:,.0f} iterations/s "
                f"(alone {alone['its']:,.0f})",
            )
        )
        rows.append(
            row(
                f"{where}: QTimer lateness p99",
                raced["p99"],
                "ms",
                TARGET_LATENESS_MS,
                f"alone {alone['p99']:.1f} ms",
                lower_is_better=True,
            )
        )
        rows.append(
            row(
                f"{where}: click to frame on screen, median",
                raced["click"],
                "ms",
                TARGET_LATENCY_MS,
                f"max {raced['click_max']:.0f} ms; alone {alone['click']:.0f} ms",
                lower_is_better=True,
            )
        )
        rows.append(
            row(
                f"{where}: λ change to frame on screen, median",
                raced["param"],
                "ms",
                TARGET_LATENCY_MS,
                f"max {raced['param_max']:.0f} ms; alone {alone['param']:.0f} ms",
                lower_is_better=True,
            )
        )
    config.cleanup()
    return rows
