"""The sizes svmviz takes on, and the message beyond them (never an out-of-memory crash).

* A kernel model keeps the m×m kernel matrix (and the exact optimum a second one, for
  libsvm): MAX_KERNEL_POINTS = 5,000 training points is 191 MiB each. The window stays
  interactive up to 3,000 (see `svmviz bench`).
* The window and the files it opens take at most MAX_POINTS = 50,000 points; a linear model
  stays interactive up to 20,000. `svmviz train` has no such limit for linear models (it
  draws nothing); its history is bounded anyway (:mod:`svmviz.core.telemetry`).
* Kernel values evaluated at once (a grid against the support vectors): BLOCK_ENTRIES, 32 MiB.
* Texts a file brings: a class name of at most MAX_NAME characters, a title of
  MAX_TITLE, a caption of MAX_CAPTION (an 8 MB caption kept the window from appearing for
  half a minute; a 5 MB class name slowed every frame).
* Coordinates up to MAX_COORDINATE = 1e15 in size: beyond, their squares (‖x‖², distances,
  in the float32 of the drawn grid beyond about 1e19) overflow. Every reader and the solver
  refuse them with a message (the degenerate-data tests found 1e300 crashing three places).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from svmviz.core.errors import InputError

MAX_KERNEL_POINTS = 5_000
MAX_POINTS = 50_000
BLOCK_ENTRIES = 1 << 22
MAX_NAME = 100
MAX_TITLE = 200
MAX_CAPTION = 2_000
COORDINATE_DIGITS = 15
MAX_COORDINATE = 10.0**COORDINATE_DIGITS


def mib(entries: int) -> str:
    return f"{8 * entries / 2**20:,.0f} MiB"


def check_kernel_points(m: int, kernel_name: str) -> None:
    """Refuse a kernel problem whose kernel matrix would pass the limit."""
    if m > MAX_KERNEL_POINTS:
        raise InputError(
            f"{m:,} points are too many for a kernel model (its {kernel_name} kernel matrix "
            f"takes {mib(m * m)}; the limit is {MAX_KERNEL_POINTS:,} points). Use the linear "
            "kernel, a train/test split or fewer points"
        )


def check_points(m: int, where: str) -> None:
    """Refuse a data set larger than the window takes."""
    if m > MAX_POINTS:
        raise InputError(
            f"{where}: {m:,} points; the window takes up to {MAX_POINTS:,} (it stays "
            "interactive up to 20,000 with a linear model). `svmviz train` trains a linear "
            "model on more"
        )


def check_coordinates(X: np.ndarray, where: Callable[[int], str]) -> None:
    """Refuse a coordinate beyond ±MAX_COORDINATE; ``where(i)`` names point i (from 0)."""
    beyond = np.flatnonzero(np.any(np.abs(X) > MAX_COORDINATE, axis=1))
    if beyond.size:
        i = int(beyond[0])
        value = float(X[i][np.argmax(np.abs(X[i]))])
        raise InputError(
            f"{where(i)} has the coordinate {value:.3g}, beyond ±1e{COORDINATE_DIGITS}, the "
            "largest svmviz trains on and draws; scale the coordinates down"
        )


def check_text(text: str, limit: int, where: str) -> str:
    """``text`` when it has at most ``limit`` characters; else a refusal naming ``where``
    (e.g. "session.json: class 2's name") and both lengths."""
    if len(text) > limit:
        raise InputError(f"{where} has {len(text):,} characters; at most {limit:,} are taken")
    return text
