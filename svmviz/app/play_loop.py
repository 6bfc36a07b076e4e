"""Play: the training runner's loop at one of three speeds (svmviz.core.training.pace), no Qt.

- as fast as possible: chunks of a few milliseconds of training; a new frame once the GUI
  has taken the previous one (it takes at most one per display refresh), frames taking at
  most half of the time;
- N iterations per frame (slow motion for the classroom): N steps, a frame with its last
  step explained, a wait, on a clock of its own;
- the log-t pace: the iterations due by now, a frame, a wait until the next is due.

After an edit, a new job first catches up (:func:`catch_up`) with the iteration the run
was at, at full speed and without frames at first, so the plane keeps the last model until
the edited problem's model at the same point of the run replaces it.

Between chunks the loop reads the requests and settings from the runner's ``state`` (a
pause or a cancel stops it, a new speed applies from the next frame); the compiled loop
releases the GIL meanwhile, so the GUI thread keeps its frame rate. Until it is compiled
(the first run after installing) the same loop runs as plain Python and rests between
chunks, so that the compiler, in another thread, gets the GIL.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from svmviz.app.snapshot import TO_THE_END
from svmviz.core.lesson.explain import StepRecord
from svmviz.core.solvers import Solver
from svmviz.core.training.pace import LogPace

FRAME_SECONDS = 1 / 60  # at most one published frame per display refresh
CHUNK_SECONDS = 0.004  # training time between checks for pause / cancel / publish
SLOW_SECONDS = 2 * FRAME_SECONDS  # one step of "N per frame" every two display refreshes
TEST_SAMPLING = 1.05  # at full speed, a split's test error is measured every 5% of t
# while the plain-Python loop runs (the compiled one being prepared), the full-speed loop
# rests this many times as long as each chunk took: the compiler needs the GIL more than
# the Python loop needs speed
PYTHON_REST = 1.0
MAX_CHUNK = 1 << 20
# an edit's catch-up publishes no frame for this long (the last model stays on the plane);
# past it (the plain-Python loop, a long budget) frames show its progress
CATCH_UP_SECONDS = 0.3


def next_chunk(chunk: int, spent: float) -> int:
    """The next chunk's iterations at full speed: towards CHUNK_SECONDS of work."""
    if spent < CHUNK_SECONDS / 2:
        return min(chunk * 2, MAX_CHUNK)
    if spent > CHUNK_SECONDS * 2 and chunk > 1:
        return chunk // 2
    return chunk


def frame_due(since: float, cost: float) -> bool:
    """Whether a full-speed frame is due ``since`` seconds after the last one was built,
    which took ``cost`` seconds of the loop's own work: at most two per display refresh
    (the GUI takes one per refresh), and frames take at most half of the loop's time (as
    long training between two as the last frame took)."""
    return since >= max(FRAME_SECONDS / 2, cost)


def next_cap(cap: int, n: int, spent: float) -> int:
    """The log-t pace's most iterations in one call: about a frame's time at most (a pause
    stays prompt when the solver cannot keep the pace), doubling while easily met."""
    if spent > FRAME_SECONDS and cap > 1:
        return cap // 2
    if spent < FRAME_SECONDS / 4 and n == cap:
        return min(2 * cap, MAX_CHUNK)
    return cap


class Playable(Protocol):
    """What the loop uses of the runner (svmviz.app.runner.TrainingRunner)."""

    state: Any  # svmviz.app.runner.RunnerState
    solver: Solver | None
    explained_step: StepRecord | None

    def restart(self) -> Solver: ...
    def explain(self, solver: Solver) -> StepRecord | None: ...
    def sample_test(self) -> None: ...
    def follow_race(self, explain: bool = False) -> None: ...
    def record_path(self) -> None: ...
    def publish(self) -> None: ...


def play(runner: Playable) -> None:
    """Play ``runner``'s job (see svmviz.app.runner.TrainingRunner.play)."""
    PlayLoop(runner).run()


def catch_up(runner: Playable, target: int, explain: bool) -> bool:
    """Train ``runner``'s new job to iteration ``target`` (TO_THE_END: to its budget) at full
    speed, a pause notwithstanding (it is the job's set-up); with ``explain`` the last of
    those steps comes explained, as a step or a seek leaves it. Whether it got there (False:
    a newer job cancelled it)."""
    return PlayLoop(runner).catch_up(target, explain)


class PlayLoop:
    """One call of Play: the loop and what it keeps between its chunks."""

    def __init__(self, runner: Playable):
        self.runner = runner
        self.state = runner.state
        self.chunk = 1  # iterations per chunk at full speed (adapts to the solver)
        self.last = time.perf_counter()  # when the last frame was published
        self.frame_cost = 0.0  # the last full-speed frame's own work (thread time)
        self.next_test = 0  # the iteration of the next test-error sample at full speed
        self.next_slow = self.state.clock()  # when the next slow-motion frame is due
        self.pace: LogPace | None = None  # the log-t pace of this stretch of play
        self.pace_cap = 1  # iterations in one call at the log-t pace (adapts to the solver)
        self.pace_single = True  # the log-t pace still takes one step a frame

    def run(self) -> None:
        """Train until the budget, a pause or a cancel; then one last frame. At the end
        (the budget, a convergence or a divergence) the run plays again from w = 0: Play
        would otherwise do nothing."""
        runner, state = self.runner, self.state
        s = runner.solver
        if s is None:
            return
        if s.done and not state.is_interruption_requested():
            s = runner.restart()
        runner.explained_step = None
        while not (s.done or state.is_pause_requested() or state.is_interruption_requested()):
            speed = state.speed
            if speed.paced:
                self.paced_frame(s)
                self.last = time.perf_counter()
                continue
            self.pace = None
            if speed.per_frame:
                self.slow_frame(s, speed.per_frame)
                self.last = time.perf_counter()
                continue
            self.full_speed_chunk(s)
        if not state.is_interruption_requested():
            if s.done:  # the end: no step's marks stay on the plane (a pause keeps them)
                runner.explained_step = None
            runner.publish()

    def catch_up(self, target: int, explain: bool) -> bool:
        """See :func:`catch_up`."""
        s, state = self.runner.solver, self.state
        if s is None:
            return False
        self.last = time.perf_counter() + CATCH_UP_SECONDS  # no frame before then
        while not (s.done or state.is_interruption_requested()):
            left = MAX_CHUNK if target == TO_THE_END else target - int(explain) - s.t_
            if left <= 0:
                break
            self.full_speed_chunk(s, left)
            self.runner.record_path()  # (the way there in weight space: no frame shows it)
        if state.is_interruption_requested():
            return False
        if explain and not s.done and target != TO_THE_END and s.t_ < target:
            self.runner.explained_step = self.runner.explain(s)
        return True

    def full_speed_chunk(self, s: Solver, most: int = MAX_CHUNK) -> None:
        """One chunk of training (at most ``most`` iterations), the test error now and then,
        a frame when one is due."""
        runner = self.runner
        start = time.perf_counter()
        python = Solver.preparing()
        s.step(min(self.chunk, most))
        runner.follow_race()  # (a race's other runs: in the chunk's time, not the frame's)
        if s.t_ >= self.next_test:
            runner.sample_test()
            self.next_test = int(s.t_ * TEST_SAMPLING) + 1
        spent = time.perf_counter() - start
        self.chunk = next_chunk(self.chunk, spent)
        if python:
            time.sleep(PYTHON_REST * spent)
        now = time.perf_counter()
        # a new frame once the GUI has taken the previous one (it takes at most one per
        # display refresh, so this is the refresh rate, or the rate the GUI manages)
        if frame_due(now - self.last, self.frame_cost) and not self.state.frame_pending():
            cpu = time.thread_time()
            runner.publish()
            self.last = time.perf_counter()
            # the frame's own work: waits for the GIL (the GUI painting) do not count
            self.frame_cost = time.thread_time() - cpu

    def slow_frame(self, s: Solver, per_frame: int) -> None:
        """``per_frame`` iterations, a frame whose last step comes explained (the step
        inspector follows a slow play as it follows stepping), a wait on the loop's own
        clock (never paced by when frames happened to be taken)."""
        runner, state = self.runner, self.state
        if per_frame > 1:
            s.step(per_frame - 1)
        runner.explained_step = runner.explain(s) if not s.done else None
        if s.done:  # the step that ended the run: its marks do not stay (see run)
            runner.explained_step = None
        runner.publish()
        self.next_slow = max(self.next_slow + SLOW_SECONDS, state.clock())
        state.sleep(max(0.0, self.next_slow - state.clock()))

    def paced_frame(self, s: Solver) -> None:
        """One frame of the log-t pace: the iterations due by now, a frame, then a wait
        until the next iteration is due (at least a display refresh; woken early by a pause
        or a cancel). A frame that follows exactly one step carries it explained: the step
        inspector follows the first steps."""
        runner, state = self.runner, self.state
        now = state.clock()
        done = s.t_ - s.t0_
        if self.pace is None:
            self.pace, self.pace_cap, self.pace_single = LogPace(done, now), 1, True
        if state.frame_pending():  # the GUI has not taken the last frame: no new one yet
            state.sleep(FRAME_SECONDS / 4)
            return
        n = min(self.pace.due(now) - done, self.pace_cap)
        if n > 0:
            start = time.perf_counter()
            # one step a frame, explained, until the first frame of more (from then on the
            # pace only grows: the inspector does not flicker between a step and its hint)
            self.pace_single = self.pace_single and n == 1
            if self.pace_single:
                runner.explained_step = runner.explain(s)
            else:
                runner.explained_step = None
                s.step(n)
                runner.follow_race()  # (a race's other runs: in the pace's measured time)
            if s.done:  # the step that ended the run: its marks do not stay (see run)
                runner.explained_step = None
            self.pace_cap = next_cap(self.pace_cap, n, time.perf_counter() - start)
            runner.publish()
        wake = max(self.pace.when(s.t_ - s.t0_ + 1), now + FRAME_SECONDS)
        state.sleep(max(0.0, wake - state.clock()))
