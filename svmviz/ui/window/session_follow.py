"""What follows the session's, the state's and the training's signals in the window: an
edit of the points, the classes, the settings, the split or the race retrains (or redraws),
the panel's edits become the session's, and each snapshot goes to the views. Apart from
the window (svmviz.ui.window.main_window), which builds what these slots drive."""

from __future__ import annotations

from PySide6 import QtCore


class SessionFollower(QtCore.QObject):
    """The slots of window ``w`` (a MainWindow), connected as it is made."""

    def __init__(self, w):
        super().__init__(w)
        self.w = w
        self._follow()

    def _follow(self) -> None:
        """The session, the state and the training to what follows them."""
        w = self.w
        # the Points tab marks the selected rows; the Margins tab lists the selected point's
        # loss terms (multiclass)
        w.session.selection_changed.connect(self._on_selection_changed)
        w.controller.snapshot_ready.connect(self._on_snapshot)
        w.controller.failed.connect(self._on_failed)
        w.session.points_changed.connect(self._on_points_changed)
        w.session.classes_changed.connect(self._on_classes_changed)
        w.session.config_changed.connect(self._on_config_changed)
        w.session.split_changed.connect(self._on_split_changed)
        w.session.race_changed.connect(self._on_race_changed)
        w.state.race_changed.connect(self._on_race_changed)
        w.panel.config_edited.connect(self._on_config_edited)
        w.panel.warm.setChecked(w.state.warm_start)
        w.panel.warm_start_changed.connect(w.state.set_warm_start)
        w.state.warm_start_changed.connect(w.panel.warm.setChecked)
        w.panel.cost_requested.connect(w.edit_cost)
        w.state.speed_changed.connect(w.controller.set_speed)
        w.controller.set_speed(w.state.speed)
        w.hand.active_changed.connect(w.controls.hand.setChecked)
        w.controls.hand.toggled.connect(w.hand.set_active)
        for signal in (w.session.points_changed, w.session.config_changed):
            signal.connect(self._follow_problem)
        w.session.start_changed.connect(w.sync_actions)
        w.hand.active_changed.connect(lambda _: w.sync_actions())
        self._follow_problem()
        w.view_docks.bind()
        # new points: none lit until the mouse is over one again (an index of the old points)
        w.session.points_changed.connect(lambda: w.plot.light_point(-1))

    @QtCore.Slot()
    def _follow_problem(self) -> None:
        """After an edit or new settings: the boundary by hand ends (a new job comes), and
        its action says whether this problem allows it."""
        w = self.w
        w.hand.leave(restore=False)
        why = w.hand.refusal()
        w.controls.hand.setEnabled(why is None)
        w.controls.hand.setToolTip(
            "Drag the line f = 0 and its margin by two handles (H)"
            if why is None
            else f"Not for this problem: {why}"
        )

    @QtCore.Slot()
    def _on_points_changed(self):
        w = self.w
        # the new job first: the worker sets it up while the points are drawn
        w.retrain(warm=w.state.warm_start)
        w.plot.draw_points()
        w.plot.show_selection()
        w.panel.set_n_points(len(w.session.points))

    @QtCore.Slot()
    def _on_selection_changed(self):
        w = self.w
        points = w.made.get("points")  # (a table made later shows it as it is made)
        if points is not None:
            points.view.show_selection(w.session.selection)
        w.frames.redraw_readings()

    @QtCore.Slot()
    def _on_classes_changed(self):
        """Names or colours: redraw, no new training (the problem is the same)."""
        w = self.w
        w.plot.draw_points()
        w.frames.redraw_plane()

    @QtCore.Slot()
    def _on_split_changed(self):
        w = self.w
        w.retrain()

    @QtCore.Slot()
    def _on_race_changed(self, *_):
        """The race set or switched on or off: every run again, where run 1 was."""
        w = self.w
        w.retrain()
        if w.state.race and not w.session.race:
            w.status.setText("Race: no other runs yet (View ▸ Race… sets them)")

    @QtCore.Slot(object)
    def _on_config_edited(self, config):
        """The panel's edit, one undoable edit (a drag of the λ slider: one for the drag)."""
        w = self.w
        w.session.set_config(config, merge=w.panel.continuing)

    @QtCore.Slot()
    def _on_config_changed(self):
        w = self.w
        if w.panel.config() != w.session.config:  # set elsewhere (a scenario, an undo)
            w.panel.set_config(w.session.config)
            w.panel.set_n_points(len(w.session.points))
        w.plot.draw_points()  # (another problem may draw them otherwise)
        w.retrain(warm=w.state.warm_start)

    @QtCore.Slot(str)
    def _on_failed(self, message):
        w = self.w
        w.clear_model(f"Cannot train: {message}")

    @QtCore.Slot(object)
    def _on_snapshot(self, snap):
        w = self.w
        if w.hand.take(snap):  # the boundary by hand shows its model over the run's frame
            w.sync_actions()
            return
        w.frames.show(snap)
        w.sync_actions()
        w.frames.show_rest(snap)
