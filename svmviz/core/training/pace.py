"""How fast Play moves: the speed choices, and the log-t pace's clock arithmetic.

The curves are drawn against log t, so the default pace is uniform in log t: t = 1, 2, 3, …
one at a time, then faster, each decade of iterations in about ``DECADE_SECONDS`` of wall
time, so that a run of 10⁵ iterations takes seconds, not milliseconds, and its first steps
can be followed. Pure arithmetic (the wall time is a parameter): the worker's loop asks
which iteration is due now and when the next one is.

A speed is saved as one whole number (session files, scenarios, preferences): N ≥ 1 for N
iterations per frame, 0 for as fast as possible (what 0 always meant), ``LOG_PACE`` (−1) for
the log-t pace.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

DECADE_SECONDS = 1.6  # wall time per decade of t at the log-t pace (10⁵ iterations: 8 s)
LOG_PACE, INSTANT_CODE = -1, 0


@dataclass(frozen=True)
class Speed:
    """One of Play's speeds, by its saved code: N ≥ 1 iterations per frame, 0 as fast as
    possible, ``LOG_PACE`` uniform in log t."""

    code: int

    @property
    def instant(self) -> bool:
        return self.code == INSTANT_CODE

    @property
    def paced(self) -> bool:
        """The log-t pace."""
        return self.code == LOG_PACE

    @property
    def per_frame(self) -> int:
        """Iterations per frame (0: not a fixed number)."""
        return max(self.code, 0)

    @property
    def label(self) -> str:
        if self.paced:
            return "log-t pace"
        return "instant" if self.instant else f"{self.code} per frame"

    @classmethod
    def from_code(cls, code: int) -> Speed:
        """The speed a file or the preferences saved. Codes of older versions load as they
        were meant (0: as fast as possible; N: N per frame, an N not offered as the listed
        choice below it); anything else is the default."""
        if isinstance(code, bool) or not isinstance(code, int) or code < LOG_PACE:
            return DEFAULT
        if code <= 0:
            return cls(code)
        return max((s for s in CHOICES if 1 <= s.code <= code), key=lambda s: s.code)


CHOICES = (Speed(LOG_PACE), Speed(1), Speed(10), Speed(100), Speed(1000), Speed(INSTANT_CODE))
DEFAULT = CHOICES[0]
INSTANT = CHOICES[-1]


@dataclass(frozen=True)
class LogPace:
    """The log-t pace of one stretch of play: started at wall time ``start`` with ``t_from``
    iterations done, it is due at ``t_from · 10^(s / decade_seconds)`` after ``s`` seconds
    (from t = 0: at 10^(s / decade_seconds), so the first step comes at once)."""

    t_from: int
    start: float
    decade_seconds: float = DECADE_SECONDS

    @property
    def _base(self) -> int:
        return max(self.t_from, 1)

    def due(self, now: float) -> int:
        """How many iterations should be done at wall time ``now``."""
        s = max(0.0, now - self.start)
        # (a hair over: floating point must not hold t = 10 back at exactly one decade)
        t = math.floor(self._base * 10 ** (s / self.decade_seconds) * (1 + 1e-12))
        return max(self.t_from, t)

    def when(self, t: int) -> float:
        """The wall time at which iteration ``t`` is due."""
        if t <= self._base:
            return self.start
        return self.start + self.decade_seconds * math.log10(t / self._base)
