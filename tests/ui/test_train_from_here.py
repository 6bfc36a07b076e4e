"""Train from here after a finished run trains: a start from a hand-made line and one from a
click in weight space reach, within the run's budget, the gap of the run from w = 0."""

import numpy as np

# The same seed samples the same points from a start as from w = 0, so the two runs' gaps
# differ only by how far w₀ is from w*. Across seeds 0–7 the gap at this budget spans a
# factor of 6, so a start that trains as well is within 2× of the same seed's; steps sized
# as at the end of the run (t0 = the budget) stay 5× to 270× above it.
TOLERANCE = 2.0


def gap_at_end(w, wait_frame):
    w.run_to_budget()
    end = wait_frame(
        w,
        lambda s: (
            s.generation == w.controller.generation
            and s.status not in ("ready", "running")
            and s.reference is not None
        ),
    )
    assert end.t == end.t0 + w.session.config.iterations
    return float(end.history["objective"][-1]) - end.reference.objective, end


def test_a_start_after_a_finished_run_reaches_the_gap_from_zero(make_window, wait_frame):
    w = make_window(iterations=3000)
    zero, end = gap_at_end(w, wait_frame)
    best = np.array(end.reference.model.coef)
    b = np.array(end.reference.model.intercept)
    # a good hand-made line (near w*), then a weight-space click far from it
    w.train_from(1.3 * best + [[0.3, -0.4]], b + 0.3)
    hand, snap = gap_at_end(w, wait_frame)
    assert snap.t0 == len(w.session.points)
    assert 0 <= hand <= TOLERANCE * zero
    w.train_from_row(0, np.array([-2.0, 3.0]))
    click, snap = gap_at_end(w, wait_frame)
    assert snap.start is not None and snap.t0 == len(w.session.points)
    assert 0 <= click <= TOLERANCE * zero
