"""Play's speeds and the log-t pace: pure arithmetic on a given wall time (no Qt, no clock)."""

import pytest

from svmviz.core.training.pace import (
    CHOICES,
    DECADE_SECONDS,
    DEFAULT,
    INSTANT,
    LOG_PACE,
    LogPace,
    Speed,
)


def test_the_first_ten_steps_come_one_at_a_time_and_each_decade_takes_the_same_time():
    pace = LogPace(0, 100.0)
    assert pace.due(100.0) == 1  # Play shows its first step at once
    # t = 1 … 10: every iteration is due at a time of its own, later than the one before
    times = [pace.when(t) for t in range(1, 11)]
    assert all(b - a > 0.05 for a, b in zip(times, times[1:], strict=False))
    for t in range(1, 11):
        assert pace.due(pace.when(t)) == t
        assert pace.due(pace.when(t) - 1e-6) < t or t == 1
    # uniform in log t: 10 → 100 → … → 10⁵ each in DECADE_SECONDS
    for k in range(1, 5):
        assert pace.when(10 ** (k + 1)) - pace.when(10**k) == pytest.approx(DECADE_SECONDS)
    assert pace.when(10**5) - pace.start == pytest.approx(5 * DECADE_SECONDS)
    assert 6 <= 5 * DECADE_SECONDS <= 10  # a run of 10⁵ takes seconds, not milliseconds


def test_a_pace_resumed_after_a_pause_goes_on_from_where_it_stopped():
    pace = LogPace(500, 7.0)
    assert pace.due(7.0) == 500  # nothing at once: the next iteration is due a little later
    assert pace.when(501) > 7.0
    assert pace.due(7.0 + DECADE_SECONDS) == 5000
    assert pace.due(6.0) == 500  # (a clock read before the start)


def test_speeds_by_their_saved_codes_and_old_files_codes():
    assert Speed.from_code(0) == INSTANT
    assert INSTANT.instant
    assert INSTANT.label == "instant"
    assert Speed.from_code(LOG_PACE) == DEFAULT
    assert DEFAULT.paced
    for n in (1, 10, 100, 1000):
        speed = Speed.from_code(n)
        assert speed.per_frame == n
        assert speed.label == f"{n} per frame"
        assert speed in CHOICES
    # an N older versions could read from a scenario: the listed speed below it
    assert Speed.from_code(7) == Speed(1)
    assert Speed.from_code(50_000) == Speed(1000)
    for odd in (-2, True, 1.5, "fast", None):
        assert Speed.from_code(odd) == DEFAULT
    assert len({s.label for s in CHOICES}) == len(CHOICES)
