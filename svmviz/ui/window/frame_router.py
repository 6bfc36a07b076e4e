"""Each snapshot of the training, to the window's views: the plane (regions, margins, rings,
the optimum, the slack segments), the step inspector, the curves, the timeline, the status
line and the presenter's lines, and the readings registered by name (svmviz.ui.views.reading:
the Points, Margins, Theory and Test set tabs…), each at its pace.

While playing, the plane follows every frame; the curves and the status text are redrawn
every CURVE_SECONDS in a timer event of their own (never in the same pass as a frame of the
plane: their axes and text re-render on every update, which at 60 Hz would take most of the
GUI thread), and the readings with them, those on screen only if they ask so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from PySide6 import QtCore

from svmviz.core.lesson.support import has_support, training_count
from svmviz.core.pictures.lines import slack_segments
from svmviz.ui.panels.status import status_text
from svmviz.ui.views.race_view import RaceCurves
from svmviz.ui.views.reading import Pace, Reading
from svmviz.ui.window.render import PlaneState

if TYPE_CHECKING:
    from svmviz.ui.panels.solver_panel import SolverPanel
    from svmviz.ui.panels.status import StatusLine
    from svmviz.ui.panels.timeline import Timeline
    from svmviz.ui.plane.decision_plot import DecisionPlot
    from svmviz.ui.plane.hover import HoverReadout
    from svmviz.ui.plane.step_arrows import StepOverlay
    from svmviz.ui.views.curves import CurvePanel
    from svmviz.ui.views.step_view import StepPanel
    from svmviz.ui.window.presentation import Presentation

CURVE_SECONDS = 0.35  # the curve panels while playing (their paint costs a plane's)
MARKS_SECONDS = 0.1  # the rings and crosses, while playing at full speed


@dataclass(kw_only=True)
class Views:
    """The widgets a snapshot is shown in (by keyword: a field added cannot shift others)."""

    plot: DecisionPlot
    curves: CurvePanel
    hover: HoverReadout
    step_overlay: StepOverlay
    step_panel: StepPanel
    timeline: Timeline
    status: StatusLine
    panel: SolverPanel
    presentation: Presentation


class FrameRouter(QtCore.QObject):
    """Shows the newest snapshot of ``controller`` (svmviz.app.worker.TrainingController)
    of the ``session``'s job in ``views``, as ``state`` (the window's WindowState) says."""

    def __init__(self, session, state, controller, views: Views, parent=None):
        super().__init__(parent)
        self.session, self.state, self.controller, self.v = session, state, controller, views
        self.snapshot = None
        self._curves_of = None  # the snapshot the curves and text show
        self._last_marks = 0.0
        self._support = []  # (t − t0, support vectors) of the frames of this job
        self.present = np.arange(0)  # the session's classes in the job (its outputs' order)
        self.readings: dict[str, Reading] = {}
        self.region_colors = np.zeros(0, dtype=np.uint32)
        self._step_key = None  # what the step inspector shows (to redraw only on a change)
        self.step_shown = object()  # not None: the first frame writes the hint
        self.curve_timer = QtCore.QTimer(self)
        self.curve_timer.setInterval(int(CURVE_SECONDS * 1000))
        self.curve_timer.timeout.connect(self.show_curves)
        for name in state.TOGGLES:
            state.toggle_signal(name).connect(self._on_view_options)

    def register(self, name: str, reading: Reading) -> None:
        """Show each snapshot in ``reading`` at its pace from now on (a name once)."""
        if name in self.readings:
            raise ValueError(f"a reading named {name!r} is registered already")
        self.readings[name] = reading

    def _show_readings(self, snap, pace: Pace) -> None:
        for reading in self.readings.values():
            if reading.due(pace):
                reading.show(snap, self)

    # ------------------------------------------------------------------ a job
    def start_job(self, present, kernel: bool, budget: int) -> None:
        """A new job of the classes ``present`` (the split: the state's parts)."""
        # at full speed, the new job's first frames come without rings and crosses (at
        # 20,000 points, all ringed at w = 0, they cost more than the frame); they follow
        # at MARKS_SECONDS
        self._last_marks = time.perf_counter()
        self.present = present
        self._support = []
        self.region_colors = self.v.plot.region_colors(present)
        self.v.plot.set_ring_meaning(kernel=kernel)
        self.v.plot.set_parts(self.state.parts)
        self.v.curves.set_budget(budget)

    @property
    def flat_out(self) -> bool:
        """Training plays at full speed: the plane's frames come as fast as the GUI thread
        takes them, and what else draws takes them away (the marks, the views beside)."""
        return self.controller.playing and self.controller.full_speed

    def follow_play(self, playing: bool) -> None:
        """The curves' timer runs while playing."""
        if playing and not self.curve_timer.isActive():
            self.curve_timer.start()
        elif not playing and self.curve_timer.isActive():
            self.curve_timer.stop()

    def clear(self, message: str) -> None:
        """No model (too few classes, or training failed): ``message`` in the status line."""
        v = self.v
        self.snapshot = None
        v.hover.hide()
        v.step_overlay.hide()
        self._step_key = self.step_shown = None
        v.step_panel.show_record(None, None, (), np.zeros((0, 2)))  # no step of these points
        self._curves_of = None
        v.plot.clear_model()
        for reading in self.readings.values():
            if reading.clear is not None:
                reading.clear()
        v.timeline.show_t(0, 0, self.session.config.iterations)
        v.status.setText(message)

    def redraw_plane(self) -> None:
        """After a change of the classes' colours: the plane again."""
        if self.present.size:
            self.region_colors = self.v.plot.region_colors(self.present)
        if self.snapshot is not None:
            self._draw_plane(self.snapshot)

    def redraw_all(self) -> None:
        """The plane and the readings again (presentation mode on or off)."""
        self.region_colors = self.v.plot.region_colors(self.present)
        if self.snapshot is not None:
            self._draw_plane(self.snapshot)
            self.redraw_readings()

    @QtCore.Slot()
    def redraw_readings(self) -> None:
        if self.snapshot is not None:
            self._curves_of = None
            self.show_curves()

    def bring(self, name: str) -> None:
        """The rule for every view shown (its dock brought to the front, made the companion):
        it draws the current state at once, whatever its pace, once it is laid out (a view
        hidden while a Run, a New or a scenario went by would show what it drew before)."""
        QtCore.QTimer.singleShot(0, self, lambda: self.show_now(name))

    def show_now(self, name: str) -> None:
        """``name``'s reading draws the current state now (a view just made)."""
        reading = self.readings.get(name)
        if reading is None:
            return
        if self.snapshot is not None:
            reading.show(self.snapshot, self)
        elif reading.clear is not None:
            reading.clear()

    @QtCore.Slot()
    def _on_view_options(self, *_) -> None:
        v, state = self.v, self.state
        if self.snapshot is not None:
            self._draw_slack(self.snapshot)
        v.curves.set_suboptimality(state.suboptimality)
        self._curves_of = None  # redraw the curves in the new mode
        if self.snapshot is not None:
            self.show_curves()
        v.plot.show_optimum(self.snapshot.optimum if self.snapshot else None, state.optimum)
        if state.iterate != self.controller.showing_iterate:
            self.controller.show_iterate(state.iterate)

    # ------------------------------------------------------------------ a frame
    def show(self, snap) -> None:
        """A new snapshot: the plane at once, the rest as the pace allows."""
        self.snapshot = snap
        if has_support(snap.frame):  # (as the plane rings them: svmviz.core.pictures.rings)
            t = snap.t - snap.t0
            while self._support and self._support[-1][0] >= t:  # a step back: its future goes
                self._support.pop()
            self._support.append((t, len(snap.frame.support)))
            if len(self._support) > 4096:  # a frame each: thinned as the history is
                self._support = self._support[:256] + self._support[257::2]
        self._draw_plane(snap)
        self.v.plot.show_optimum(snap.optimum, self.state.optimum)
        self.v.panel.show_lam_used(None if snap.reference is None else snap.reference.lam_hard)
        self.show_step(snap)
        self._show_readings(snap, Pace.FRAME)

    def show_rest(self, snap) -> None:
        """After the plane: everything when stepping or stopped; the status line beside the
        inspector's step or in slow motion; the rest follows with the curves' timer."""
        if not self.controller.playing:
            self.show_curves()
        elif snap.step is not None or self.state.speed.per_frame:
            self._show_status(snap)

    def _draw_plane(self, snap) -> None:
        if snap.frame.kind == "svc" and snap.frame.region.max(initial=0) >= len(self.region_colors):
            return  # a frame of other classes (replaced; its successor is on its way)
        # at full speed the rings and crosses follow at MARKS_SECONDS (setting them costs more
        # than a frame of the plane for a kernel model, whose α change at every step); when
        # stepping, in slow motion and at the end, every frame has them
        now = time.perf_counter()
        marks = not self.flat_out or now - self._last_marks >= MARKS_SECONDS
        if marks:
            self._last_marks = now
        self.v.plot.draw_frame(snap.frame, self.region_colors, snap.alpha, marks=marks)
        self._draw_slack(snap)
        self.v.plot.key.frame_drawn()  # (an edit's legend placement: after this frame)

    def _draw_slack(self, snap) -> None:
        m, p = snap.model, self.session.points
        if (
            not self.state.slack
            or m.coef is None
            or not m.binary
            or snap.frame.level <= 0  # (no margin lines: logistic)
            or len(snap.frame.margins) != len(p)
        ):
            self.v.plot.show_slack(None)
            return
        y_sign = np.where(self.present[1] == p.y, 1.0, -1.0)  # the positive class: the second
        train = self.state.training_mask(len(p))
        self.v.plot.show_slack(
            *slack_segments(
                m.coef[0], float(m.intercept[0]), p.X[train], y_sign[train], snap.frame.level
            )
        )

    def show_step(self, snap) -> None:
        """The step inspector: the last step explained, or its hint when not stepping."""
        p = self.session.points
        if snap.step is not None and len(snap.frame.margins) != len(p):
            return  # points edited since; the restarted job's frame follows
        key = (snap.step, snap.frame.extent, snap.iterate)
        if snap.step is None and self.step_shown is None:
            return  # nothing was shown and nothing is: no relayout of the panel per frame
        old = self._step_key
        # (the step by identity: a StepRecord holds arrays, which == compares elementwise)
        if old is not None and old[0] is snap.step and old[1:] == key[1:]:
            return
        self._step_key, self.step_shown = key, snap.step
        self.v.step_overlay.show(snap.step, p.X, snap.frame.extent)
        labels = [self.session.classes[int(k)] for k in p.y]
        self.v.step_panel.show_record(
            snap.step,
            self.session.config,
            labels,
            p.X,
            self.v.step_overlay.scale,
            snap.model.classes,
            snap.iterate,
            kernel=snap.model.kernel,
            alpha=snap.alpha,
            train=self.state.training_mask(len(p)),
        )

    @QtCore.Slot()
    def show_curves(self) -> None:
        """The curves, the timeline and the status text of the newest snapshot."""
        snap, v = self.snapshot, self.v
        if snap is None or snap is self._curves_of:
            return
        self._curves_of = snap
        if v.hover.position is not None:
            if v.hover.cursor_inside():
                self.show_hover(v.hover.position)  # the model under a resting mouse changed
            else:
                v.hover.forget()  # the mouse left without Qt saying so
        self._show_status(snap)
        self._show_readings(snap, Pace.CURVES)

    def show_hover(self, pos) -> None:
        """The hover readout of the current model at data point ``pos`` (None hides it)."""
        snap = self.snapshot
        model = snap.model if snap is not None and snap.t > 0 else None
        self.v.hover.show_at(pos, model, model.classes if model is not None else ())

    def show_still(self, snap, readings: bool = True) -> None:
        """A snapshot of the same run and history as the one shown (the boundary moved by
        hand, svmviz.ui.plane.hand_boundary): the plane and the status line, and with
        ``readings`` the readings; the curves stay as they are."""
        self.show(snap)
        self._show_status(snap)
        if readings:
            self._show_readings(snap, Pace.CURVES)

    def _show_status(self, snap) -> None:
        """The status line, the timeline and the presenter's lines: with every frame when
        stepping, in slow motion or when a frame explains its step (never behind the step
        inspector), with the curves otherwise (60 frames/s at the pace's later decades)."""
        self.v.timeline.show_t(snap.t, snap.t0, self.session.config.iterations)
        self.v.status.setText(
            status_text(snap, len(self.session.points), self.session.config, self.state.parts)
        )
        self.v.presentation.show(snap, self.session)

    def feed_curves(self, panel, snap) -> None:
        """A snapshot's history, support-vector share and test error into ``panel``."""
        panel.show_history(
            snap.history, None if snap.reference is None else snap.reference.objective, t0=snap.t0
        )
        points = [(t, c) for t, c in self._support if t > 0]  # (log axis: t ≥ 1)
        if has_support(snap.frame) and points:
            ts, counts = np.array(points, dtype=float).T
            panel.show_support(ts, counts / training_count(self.state.parts, snap.frame))
        else:
            panel.show_support([], [])
        if snap.test_error is not None:
            ts, errs = snap.test_error
            panel.show_test_error(ts - snap.t0, errs)
        else:
            panel.show_test_error([], [])
        panel.show_problem(snap, self.state.parts)  # (the problem's words and numbers)

    # ------------------------------------------------------------------ for the exports
    @property
    def scale(self) -> float:
        """Of the plane's markers, lines and text (presentation mode)."""
        return self.v.plot.scale

    def fill_curves(self, panel) -> None:
        """Show in another CurvePanel (an export's) what the window's curves show."""
        panel.set_budget(self.session.config.iterations)
        panel.set_suboptimality(self.state.suboptimality)
        if self.snapshot is not None:
            self.feed_curves(panel, self.snapshot)
            if self.snapshot.race is not None:  # (a race's other runs' curves)
                suboptimality = self.state.suboptimality and self.snapshot.reference is not None
                RaceCurves(panel).show(self.snapshot.race, suboptimality)

    def plane_state(self) -> PlaneState:
        """What the decision plot shows, for an export's twin of it."""
        snap, plot, parts = self.snapshot, self.v.plot, self.state.parts
        extent = plot.view_extent()
        if snap is None:
            return PlaneState(
                self.session,
                extent,
                parts=parts,
                scale=plot.scale,
                region_alpha=plot.region_alpha,
                given=plot.given.overlay,
            )
        slack = None
        if plot.slack.isVisible():
            x, y = plot.slack.getData()
            slack = (np.column_stack([x[0::3], y[0::3]]), np.column_stack([x[1::3], y[1::3]]))
        optimum = None
        if self.state.optimum and snap.reference is not None:
            optimum = snap.reference.model
        return PlaneState(
            self.session,
            extent,
            snap.model,
            snap.frame,
            snap.alpha,
            parts,
            optimum,
            slack,
            snap.model.coef is None,
            plot.scale,
            plot.region_alpha,
            given=plot.given.overlay,
            race=snap.race,
        )
