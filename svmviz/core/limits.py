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
* Every other number a file, the command line or the solver dock may set has its range in
  BOUNDS (one table: the readers, SolverConfig, the dock's fields and the estimators check
  against it), so that whatever is accepted trains, and the window can show and draw it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from svmviz.core.errors import InputError, finite_number, shown

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


# -------------------------------------------------------------------- the table of ranges
MAX_WHOLE = 2**31 - 1  # a whole number Qt's widgets hold (spin boxes, sliders: 32-bit ints)
# every iteration keeps a telemetry row (~60 bytes at batch 1): 2e7 rows are about 1.2 GB
MAX_ITERATIONS = 20_000_000
# Pegasos' w stays within R/λ (each iterate a mean of the yx/λ, R ≤ √2·MAX_COORDINATE), so
# that ‖w‖² ≤ 2e30/λ² stays below the loop's divergence limit 1e150 for λ ≥ 1e-50 whatever
# the points; λ = 1e-70 diverges on coordinates of 1e15. Beyond 1e6 every w is about 0.
LAM_MIN, LAM_MAX = 1e-50, 1e6
# η₀, γ, |c₀| and Δ: any two of them (or one and ‖w‖, kept under 1e150 by the loop's
# divergence test) multiply to a finite number; a run they make diverge says which to lower
LARGE = 1e150
# the plane's view: its edges within the zoom's reach (svmviz.ui.plane.decision_plot), its width
# and height at least MIN_SPAN, whose square (the grid's distances) is still a normal float;
# the window zooms in no further (pyqtgraph widens by itself a range narrower than ~1e-14
# of its centre)
EXTENT_REACH = 2 * MAX_COORDINATE
MIN_SPAN = 1e-100


@dataclass(frozen=True)
class Bound:
    """The range of one number: ``low`` to ``high`` (``low`` itself excluded when
    ``low_open``), 0 also when ``zero``; ``whole``: a whole number. ``label`` names it in
    messages ("λ (lam)")."""

    label: str
    low: float
    high: float
    low_open: bool = False
    zero: bool = False
    whole: bool = False

    def rule(self) -> str:
        """The range in words: "a number from 1e-50 to 1e+06, or 0"."""
        if self.whole:
            return f"a whole number from {self.low:,} to {self.high:,}"
        if self.low_open:
            text = f"a number in ({self.low:g}, {self.high:g}]"
        else:
            text = f"a number from {self.low:g} to {self.high:g}"
        return f"{text}, or 0" if self.zero else text

    def holds(self, value: Any) -> bool:
        if self.whole:
            ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
            return ok and self.low <= value <= self.high
        if not finite_number(value):
            return False
        if self.zero and value == 0:
            return True
        return (self.low < value if self.low_open else self.low <= value) and value <= self.high

    def edges(self) -> tuple[list, list]:
        """The values at the ends of the range, each just inside (taken) and just outside
        (refused): what the tests of every reader and the window try."""
        if self.whole:
            low, high = int(self.low), int(self.high)
            return [low, high], [low - 1, high + 1]
        above = float(np.nextafter(self.high, np.inf))
        past_low = float(np.nextafter(self.low, np.inf))
        below_low = float(np.nextafter(self.low, -np.inf))
        if self.low_open:
            return [past_low, self.high], [self.low, above]
        inside = [self.low, self.high] + ([0.0] if self.zero else [])
        outside = [below_low, above] + ([float(np.nextafter(0.0, 1.0))] if self.zero else [])
        return inside, outside

    def check(self, value: Any, where: str = "", label: str | None = None) -> Any:
        """``value`` when it is in range; else an InputError of one line naming ``where``
        (a file, "" for none), the number (``label``, by default this bound's) and the range."""
        if not self.holds(value):
            plain = isinstance(value, int) and not isinstance(value, bool) and abs(value) < 1e15
            given = f"{value:,}" if plain else shown(value)
            name = self.label if label is None else label
            prefix = f"{where}: " if where else ""
            raise InputError(f"{prefix}{name} must be {self.rule()}, not {given}")
        return value


BOUNDS = {
    # the points (check_coordinates) and a regression's targets
    "coordinate": Bound("a coordinate", -MAX_COORDINATE, MAX_COORDINATE),
    "target": Bound("a target", -MAX_COORDINATE, MAX_COORDINATE),
    # SolverConfig (svmviz.core.config; the kernel's in svmviz.core.kernels)
    "lam": Bound("λ (lam)", LAM_MIN, LAM_MAX, zero=True),
    "eta": Bound("the step size η₀ (eta)", 0.0, LARGE, low_open=True),
    "epsilon": Bound("ε (epsilon)", 0.0, MAX_COORDINATE),  # the tube, in the targets' units
    "nu": Bound("ν (nu)", 0.0, 1.0, low_open=True),
    "radius": Bound("the projection radius B (radius)", 0.0, MAX_COORDINATE, low_open=True),
    "tol": Bound("the tolerance (tol)", 0.0, 1.0),  # a relative change: 1 stops at once
    "gamma": Bound("gamma", 0.0, LARGE, low_open=True),
    "coef0": Bound("coef0", -LARGE, LARGE),
    # beyond, (γ⟨x,z⟩+c₀)^d of points of size 10 overflows anyway; the dock's spin box
    "degree": Bound("the kernel degree", 1, 100, whole=True),
    "batch": Bound("the batch size", 1, MAX_WHOLE, whole=True),
    "iterations": Bound("iterations", 1, MAX_ITERATIONS, whole=True),
    "seed": Bound("the seed", 0, MAX_WHOLE, whole=True),
    "cost": Bound("a cost Δ", 0.0, LARGE),
    # a session's and a scenario's own
    "t0": Bound("t0", 1, MAX_WHOLE - MAX_ITERATIONS, whole=True),  # t0 + T within Qt's ints
    # Play's speed (svmviz.core.training.pace): N iterations a frame, 0 as fast as possible, −1
    # log-t
    "speed": Bound("the speed", -1, MAX_ITERATIONS, whole=True),
    "split_seed": Bound("the split's seed", 0, MAX_WHOLE, whole=True),
    "split_size": Bound("the training-set size", 2, MAX_WHOLE, whole=True),
    "extent": Bound("an edge of view.extent", -EXTENT_REACH, EXTENT_REACH),
    "span": Bound("view.extent's width and height", MIN_SPAN, 2 * EXTENT_REACH),
}


def check_extent(extent: Any, where: str) -> tuple:
    """A view's [x0, x1, y0, y1] as floats: four numbers within the zoom's reach, x0 < x1,
    y0 < y1, each side at least MIN_SPAN; else an InputError naming ``where``."""
    ok = isinstance(extent, (list, tuple)) and len(extent) == 4
    if not ok or not all(finite_number(e) for e in extent):
        raise InputError(f"{where}: view.extent must be [x0, x1, y0, y1] with x0 < x1, y0 < y1")
    for e in extent:
        BOUNDS["extent"].check(e, where)
    x0, x1, y0, y1 = (float(e) for e in extent)
    if not (x0 < x1 and y0 < y1):
        raise InputError(f"{where}: view.extent must be [x0, x1, y0, y1] with x0 < x1, y0 < y1")
    BOUNDS["span"].check(min(x1 - x0, y1 - y0), where)
    return x0, x1, y0, y1


def lam_of_C(C: Any, m: int) -> float:
    """λ = 1/(C·m) of libsvm's C for m points, C within the range that makes a λ of BOUNDS
    (else an InputError naming C and its range, not the λ it would make)."""
    lam = BOUNDS["lam"]
    C_range = Bound("C", 1.0 / (lam.high * m), 1.0 / (lam.low * m))
    if not C_range.holds(C):
        raise InputError(
            f"C must be {C_range.rule()} for {m:,} points (C = 1/(λm), λ from {lam.low:g} "
            f"to {lam.high:g}), not {shown(C)}"
        )
    return 1.0 / (float(C) * m)


MAX_VIEW_NAME = 64


def view_names(value: Any, where: str, key: str) -> tuple:
    """A list of view names (short words): the ui's, or a newer release's (kept)."""
    ok = isinstance(value, list) and len(value) <= 256
    ok = ok and all(isinstance(v, str) and 0 < len(v) <= MAX_VIEW_NAME for v in value)
    if not ok:
        raise InputError(f"{where}: {key} must be view names (words of at most {MAX_VIEW_NAME})")
    return tuple(sorted(set(value)))
