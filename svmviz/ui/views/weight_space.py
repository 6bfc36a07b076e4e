"""The weight-space view: the objective F(w) over the two weights (w₁, w₂) of a linear model
of 2-D data, with the exact optimum w*, the paths of the iterate w_t and of the output
w̄_t, the current step's shrink and push, the projection ball and the level set of the
current F (issue 27; Orange's Gradient Descent widget draws the cost over (θ₀, θ₁) the
same way, for logistic regression).

Every other part of the model is held (svmviz.core.pictures.landscape): b at the current model's
value ("slice") or at 0 (and so for a model without a bias), and for multiclass models
every row but the chosen class's w_k. The landscape is computed off the GUI thread
(svmviz.app.landscape_runner) when the problem, the class, the hold, the grid or the held
part (beyond HELD_SHARE of the grid's side) changes; the path and the markers follow every
frame. A left click emits ``start_clicked(k, w)``: the start w₀ of the next run, so the axes
stay fixed while a lesson goes on (a pixel is the same w₀ from one state to the next): they
change on Fit or when a point to draw (w, w*, the path's newest) leaves them, and say so.
Each training point is a line there (svmviz.ui.views.weight_dual), linked with the plane by hover.
Its parts: the geometry of its axes and the step (weight_geometry), its readouts' words
(weight_words), the race runs' paths (weight_race), the items drawn (weight_items).
"""

from __future__ import annotations

import time

import numpy as np
from PySide6 import QtCore, QtWidgets

from svmviz.app.landscape_runner import LandscapeRequest, LandscapeRunner, data_digest
from svmviz.core.pictures.landscape import DEFAULT_GRID, Landscape, grid_around, profilable
from svmviz.core.pictures.weight_path import Points
from svmviz.core.solvers import rules
from svmviz.ui.steady_box import SteadyBox
from svmviz.ui.views.curves import scale_plot_text
from svmviz.ui.views.draw_pace import DrawPace, TimedPlotWidget
from svmviz.ui.views.reading import Pace, Reading, on_screen
from svmviz.ui.views.steady_labels import steady
from svmviz.ui.views.weight_dual import DualLines
from svmviz.ui.views.weight_geometry import grid_key, held_vector, inside, step_parts, widened
from svmviz.ui.views.weight_items import WeightItems, at
from svmviz.ui.views.weight_race import RacePaths
from svmviz.ui.views.weight_words import held_words, value_words

HELD_SHARE = 0.02  # of the grid's side: a held part that moved more asks for a new landscape
REQUEST_SECONDS = 0.5  # the least time between two landscapes asked for by a drift
DRAW_SECONDS = 1 / 15  # the least time between two drawings (a frame between: drawn after)
REFIT = "axes refit: the path left them"


def why_not(model) -> str | None:
    """Why ``model`` has no weight space to draw (one line), or None."""
    if model.coef is None:
        return "Nothing to draw: a kernel model's weights live in its feature space, not in 2-D."
    if model.coef.shape[1] != 2:
        return (
            f"Nothing to draw: the weight space is drawn for two weights (2-D data); "
            f"this model has {model.coef.shape[1]}."
        )
    return None


class WeightSpaceView(QtWidgets.QWidget):
    """The view (a reading: :func:`weight_space_reading`)."""

    start_clicked = QtCore.Signal(int, object)  # class row k, the two weights clicked
    class_changed = QtCore.Signal(int)
    line_hovered = QtCore.Signal(int)  # the point whose line is under the mouse (−1: none)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.k = 0  # the class whose row varies (as chosen; a binary model has row 0)
        self.hold = "slice"
        self.runner = LandscapeRunner(self)
        self.runner.ready.connect(self._on_ready)
        self.runner.failed.connect(lambda _, reason: self.say(f"Cannot draw: {reason}"))
        self.land: Landscape | None = None
        self._last = None  # (snapshot, training data getter, config): the newest shown
        self._grid = None  # (w1, w2): the axes' box widened to the view's shape
        self._box = None  # the axes' box (w₁ min, w₁ max, w₂ min, w₂ max), kept between states
        self._fit_asked = False
        self._box_has_optimum = False
        self._digest = (None, "")  # (generation, data digest)
        self._asked = None  # the key of the newest landscape asked for
        self._held = None  # its held part
        self._asked_at = 0.0
        self._k_shown = 0
        self._hand = None
        self._paths = (Points(), Points(output=True))  # the drawn paths, extended per frame
        self._averaged = True
        self._noted: tuple | None = None  # (job, t) of the refit the axes' note says
        self._by_hand = False  # the frame shown is of a boundary moved by hand
        self._hard = False  # a hard margin: the feasible region is shaded
        self._names: tuple = ()  # the classes' names
        self._drift = QtCore.QTimer(self, singleShot=True, interval=int(REQUEST_SECONDS * 1000))
        self._drift.timeout.connect(self.redraw)
        # at most every DRAW_SECONDS while playing, and a share of the GUI thread (the
        # plane's frames come first: svmviz.ui.views.draw_pace)
        self.pace = DrawPace(self, self.redraw, DRAW_SECONDS)
        self.drawn = None  # the snapshot drawn last

        column = QtWidgets.QVBoxLayout(self)
        column.setContentsMargins(2, 2, 2, 2)
        column.setSpacing(2)
        row = QtWidgets.QHBoxLayout()
        self.class_box = QtWidgets.QComboBox()
        self.class_box.setToolTip("The class whose weights w_k vary (the others are held)")
        self.class_box.currentIndexChanged.connect(self._on_class)
        self.hold_box = QtWidgets.QComboBox()
        self.hold_box.addItem("slice through b", "slice")
        self.hold_box.addItem("b = 0", "none")
        self.hold_box.addItem("b profiled", "profiled")
        self.hold_box.setToolTip(
            "What is held of the bias b: the current model's (a slice of F), b = 0, or at "
            "each w the best b (profiled, as the free-bias hinge solver's exact bias)"
        )
        self.hold_box.currentIndexChanged.connect(self._on_hold)
        self.fit_button = QtWidgets.QToolButton(text="Fit")
        self.fit_button.setToolTip(
            "Fit the axes to 0, w, w* and the path (they stay fixed while training goes on, "
            "so a click means the same w₀ each time)"
        )
        self.fit_button.clicked.connect(self.fit)
        self.axes_note = QtWidgets.QLabel()
        self.axes_note.setWordWrap(True)  # (its own line: never cut in a narrow view)
        self._say_axes("")
        for box in (self.class_box, self.hold_box):  # (whole, not squeezed to "slice th")
            box.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToContents)
        row.addWidget(self.class_box)
        row.addWidget(self.hold_box)
        row.addWidget(self.fit_button)
        row.addStretch(1)
        column.addLayout(row)
        column.addWidget(self.axes_note)
        self.plot = TimedPlotWidget(enableMenu=False)
        self.plot.setAspectLocked(True)
        item = self.plot.getPlotItem()
        item.setLabel("bottom", "w₁")
        item.setLabel("left", "w₂")
        for side in ("bottom", "left"):  # (the weights themselves, not "w₂ (x0.001)")
            item.getAxis(side).enableAutoSIPrefix(False)
        item.hideButtons()
        self.items = WeightItems(item)
        self.race = RacePaths(self.items)
        self.dual = DualLines(self.plot, self)
        self.dual.line_hovered.connect(self.line_hovered)
        self.plot.scene().sigMouseClicked.connect(self._on_click)
        column.addWidget(self.plot, 1)
        self.key = QtWidgets.QLabel(WeightItems.legend_html(True))
        self.held_label = QtWidgets.QLabel()
        self.value_label = QtWidgets.QLabel()
        self.message = QtWidgets.QLabel("Nothing to draw: no model trained yet.")
        self.message.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        for label in (self.key, self.held_label, self.value_label, self.message):
            label.setWordWrap(True)  # (no label widens the column: the plane's room)
        for label in (self.held_label, self.value_label, self.message):
            label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        # (the readouts change several times a second: a new text of the same size
        # relayouts this box, not the window)
        self.notes = SteadyBox([self.key, self.held_label, self.value_label], spacing=2)
        column.addWidget(self.notes)
        column.addWidget(self.message)
        self.message.hide()
        self._set_classes(())
        self.hold_box.hide()

    # ------------------------------------------------------------------ the public part
    def show_snapshot(
        self, snap, training_data, config, names=(), index=lambda: None, flat_out=False
    ) -> None:
        """Draw ``snap``; ``training_data()`` gives the points it was trained on (asked
        only for a new landscape or generation); ``config``: the session's (the projection's
        radius, the margin); ``names``: the model's classes as the window names them;
        ``index()``: the training points' indices among the session's (None: the same);
        ``flat_out``: training plays at full speed (svmviz.ui.views.draw_pace)."""
        self._last = (snap, training_data, config, names, index)
        if not on_screen(self):
            return  # (drawn when shown: redraw)
        if self.pace.ready(flat_out):
            self.redraw()

    def redraw(self) -> None:
        """The newest snapshot again (the view came on screen, a setting changed)."""
        self.pace.stop()
        if self._last is not None:
            self.pace.began()
            self.drawn = self._last[0]
            self._draw(*self._last)
            self.pace.ended(self.plot.paint_seconds)

    def resizeEvent(self, event) -> None:
        """A new shape: drawn again once laid out (its grid takes the view's shape)."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():  # (the labels wrap anew)
            for label in (self.key, self.held_label, self.value_label):
                label.setMinimumHeight(0)
        if self._last is not None:
            QtCore.QTimer.singleShot(0, self, self.redraw)

    def clear(self, message: str = "Nothing to draw: no model trained yet.") -> None:
        self._last = None
        self.race.drawn = ()
        self.show_race([], [], [])
        self.runner.cancel()
        self._asked = None
        self.land = None
        self._box = self._grid = None  # (nothing drawn: the next model's axes are fit anew)
        self.items.clear()
        self.dual.clear()
        self.say(message)

    def fit(self) -> None:
        """Fit the axes to 0, w, w* and the path at the next drawing (now)."""
        self._fit_asked = True
        self.redraw()

    def light_point(self, i: int) -> None:
        """Light the line of the session's point ``i`` (hovered in the plane; −1: none)."""
        self.dual.light_point(i)

    def say(self, message: str) -> None:
        """One line instead of the plot (why there is nothing to draw)."""
        self.plot.hide()
        for widget in (self.notes, self.class_box, self.hold_box):
            widget.hide()
        self.message.setText(message)
        self.message.show()

    def show_hand(self, w: np.ndarray | None) -> None:
        """A marker "your w" at the hand-set weights (row k's two), or none."""
        self._hand = None if w is None else np.asarray(w, dtype=float).reshape(-1)[:2]
        self.items.show_point(self.items.hand, self._hand)

    def show_race(self, paths, colors, labels) -> None:
        """Each race run's path (svmviz.core.training.race.Path) of the class row shown, in its
        colour; ``labels`` name them in the legend."""
        self.race.show(paths, colors, labels, self._k_shown)
        self.key.setText(self._key_html())

    def set_class(self, k: int) -> None:
        """Vary class ``k``'s row (kept by the session's View)."""
        self.k = max(0, int(k))
        if self.class_box.count() > self.k:
            self.class_box.setCurrentIndex(self.k)
        self.redraw()

    def set_scale(self, k: float) -> None:
        """Text at ``k`` times its size (presentation mode)."""
        scale_plot_text(self.plot, k)

    def shutdown(self) -> None:
        self._drift.stop()
        self.runner.shutdown()

    # ------------------------------------------------------------------ drawing
    def _key_html(self) -> str:
        return (
            WeightItems.legend_html(self._averaged, self._by_hand, self.dual.words, self._hard)
            + self.race.key
        )

    def _draw(self, snap, training_data, config, names=(), index=lambda: None) -> None:
        model = snap.model
        reason = why_not(model)
        if reason is not None:
            self.say(reason)
            return
        self.message.hide()
        for widget in (self.plot, self.notes):
            widget.show()
        K = model.coef.shape[0]
        names = tuple(names) if len(names) == K else tuple(model.classes)
        self._names = names
        self._set_classes(names if K > 1 else ())
        k = min(self.k, K - 1)
        self._k_shown = k
        self.hold_box.setVisible(model.bias != "none")
        can_profile = profilable(model)
        self.hold_box.model().item(2).setEnabled(can_profile)
        hold = "none" if model.bias == "none" else self.hold
        if hold == "profiled" and not can_profile:
            hold = "slice"
        ref = snap.reference
        optimum = None
        if ref is not None and ref.model is not None and ref.model.coef is not None:
            if ref.model.coef.shape == model.coef.shape:
                optimum = ref.model
        averaged = config.average != "last"
        self._averaged = averaged
        self._hard = config.margin == "hard"
        self._by_hand = snap.status == "hand"
        path = snap.path
        if self._paths[0].k != k:
            self._paths = (Points(k), Points(k, output=True))
        iterate = self._paths[0].of(path) if path is not None else np.zeros((0, 2))
        output = self._paths[1].of(path) if path is not None and averaged else None
        w = model.coef[k]
        self._grow(snap, model, k, hold, optimum, iterate, output)
        self._ask(snap, model, k, hold, training_data)
        self.dual.follow(snap.generation, training_data, index)
        w1, w2 = self._grid
        self.dual.show(model, k, hold, self._hard, (w1[0], w1[-1], w2[0], w2[-1]), snap.step)
        self.key.setText(self._key_html())
        steady(self.key)
        it = self.items
        it.show_paths(iterate, output)
        it.show_point(it.current, w)
        it.show_point(it.optimum, None if optimum is None else optimum.coef[k])
        it.show_ball(self._radius(snap, config, model))
        side = float(self._grid[0][-1] - self._grid[0][0])
        it.show_step(step_parts(snap.step, k), side)
        level = at(self.land, w) if self.land is not None else float("nan")
        it.show_level(self.land, level)
        self._write(snap, model, k, hold)
        if self.race.follow(snap, k):  # runs 2… of a race (run 1's path is the view's own)
            self.key.setText(self._key_html())

    def _say_axes(self, note: str) -> None:
        """The axes' note (a blank line when none: the plot keeps its height, and a
        pixel its w, when the note goes)."""
        self.axes_note.setText(f"<small>{note or '&nbsp;'}</small>")

    def _grow(self, snap, model, k, hold, optimum, iterate, output) -> None:
        """The axes: fit when there are none, when Fit was asked, or when a point to draw
        (w, w*, the path's newest) has left them (said in the view); else kept, whatever the
        state. The grid is the axes' box widened to the view's shape (equal scales: the
        landscape fills it) and follows a new shape without moving the axes."""
        # (by hand: around 0, w* and your w, the run's path aside: the basin, not the jumps)
        hand = snap.status == "hand"
        keep = [model.coef[k]]
        if optimum is not None:
            keep.append(optimum.coef[k])
        if len(iterate) and not hand:
            keep.append(iterate[-1])
        if output is not None and len(output) and not hand:
            keep.append(output[-1])
        note = None
        if self._noted is not None and (
            self._noted[0] != snap.generation or snap.t < self._noted[1]
        ):  # (the note said the refit of a path no longer drawn: another job's, or later)
            self._say_axes("")
            self._noted = None
        if self._box is None or self._fit_asked:
            note = ""
        elif not inside(self._shown(), keep):
            # (a box fit before w* was known is the first fit still: refit silently)
            note = REFIT if self._box_has_optimum else ""
        if note is not None:
            path = iterate if output is None else np.vstack([iterate, output])
            w1, w2 = grid_around(model, k, optimum, 2, path=None if hand else path)
            self._box = (float(w1[0]), float(w1[-1]), float(w2[0]), float(w2[-1]))
            self._fit_asked = False
            self._box_has_optimum = optimum is not None
            self._say_axes(note)
            self._noted = (snap.generation, snap.t) if note else None
            self.plot.setRange(xRange=self._box[:2], yRange=self._box[2:], padding=0)
        view = self.plot.getPlotItem().vb.size()
        aspect = view.width() / view.height() if view.height() > 0 else 1.0
        self._grid = widened(self._box, aspect, DEFAULT_GRID)

    def _shown(self):
        """The weights on screen (w1, w2 ends; the grid's before the view has a size)."""
        vb = self.plot.getPlotItem().vb
        if vb.width() <= 1 or vb.height() <= 1:
            return self._grid
        (x0, x1), (y0, y1) = vb.viewRange()
        return np.array([x0, x1]), np.array([y0, y1])

    def _ask(self, snap, model, k, hold, training_data) -> None:
        """A new landscape when its key changed (the held part: beyond HELD_SHARE of the
        side, and at most every REQUEST_SECONDS)."""
        w1, w2 = self._grid
        held = held_vector(model, k, hold)
        if self._asked is not None:
            same_grid = self._asked[-1] == grid_key(w1, w2)
            same_problem = self._asked[1][:3] == (snap.generation, k, hold)
            if same_grid and same_problem:
                drift = float(np.max(np.abs(held - self._held), initial=0.0))
                if drift <= HELD_SHARE * float(w1[-1] - w1[0]):
                    return
                wait = REQUEST_SECONDS - (time.perf_counter() - self._asked_at)
                if wait > 0:
                    if not self._drift.isActive():
                        self._drift.start(int(1000 * wait) + 1)
                    return
        data = training_data()
        if data is None:
            return
        if self._digest[0] != snap.generation:
            self._digest = (snap.generation, data_digest(data))
        request = LandscapeRequest(model, data, w1, w2, k, hold, self._digest[1])
        key = request.key()
        self._asked = (key, (snap.generation, k, hold), grid_key(w1, w2))
        self._held, self._asked_at = held, time.perf_counter()
        found = self.runner.request(request, key)
        if found is not None:
            self._on_ready(key, found)

    @QtCore.Slot(object, object)
    def _on_ready(self, key, land: Landscape) -> None:
        self.land = land
        self.items.show_landscape(land)
        # (the snapshot drawn, not the newest waiting its turn: the labels and the key
        # speak of one frame)
        snap = self.drawn
        if self._last is not None and snap is not None and on_screen(self):
            if why_not(snap.model) is None:
                w = snap.model.coef[min(self._k_shown, snap.model.coef.shape[0] - 1)]
                self.items.show_level(land, at(land, w))
                self._write(snap, snap.model, self._k_shown, land.hold)

    def _radius(self, snap, config, model) -> float:
        """B of the projection ball (0: no projection)."""
        if snap.step is not None and snap.step.radius > 0:
            return float(snap.step.radius)
        cost = model.cost if model.cost is not None else np.ones((1, 1))
        if model.lam <= 0:
            return 0.0
        return rules.projection_radius(
            config.radius, config.project, config.algorithm, model.lam, cost
        )

    def _write(self, snap, model, k, hold) -> None:
        """The labels: what is held, and F of the model shown and F*."""
        land = self.land
        self.held_label.setText(held_words(model, k, hold, land, self._names))
        pending = land is None or self.runner.pending is not None
        self.value_label.setText(value_words(snap, model, k, land, pending))
        steady(self.held_label, self.value_label)

    # ------------------------------------------------------------------ controls
    def _set_classes(self, names) -> None:
        names = tuple(str(n) for n in names)
        current = tuple(self.class_box.itemText(i) for i in range(self.class_box.count()))
        if names != current:
            self.class_box.blockSignals(True)
            self.class_box.clear()
            for name in names:
                self.class_box.addItem(f"w of {name}")
            self.class_box.setCurrentIndex(min(self.k, max(0, len(names) - 1)))
            self.class_box.blockSignals(False)
        self.class_box.setVisible(len(names) > 1 and self.plot.isVisibleTo(self))

    @QtCore.Slot(int)
    def _on_class(self, index: int) -> None:
        if index >= 0 and index != self.k:
            self.k = index
            self.class_changed.emit(index)
            self.redraw()

    @QtCore.Slot(int)
    def _on_hold(self, index: int) -> None:
        self.hold = self.hold_box.itemData(index)
        self.redraw()

    def _on_click(self, event) -> None:
        if event.button() != QtCore.Qt.MouseButton.LeftButton or not self.plot.isVisible():
            return
        vb = self.plot.getPlotItem().vb
        pos = event.scenePos()
        if not vb.sceneBoundingRect().contains(pos):
            return
        p = vb.mapSceneToView(pos)
        self.start_clicked.emit(self._k_shown, np.array([p.x(), p.y()]))


def weight_space_reading(view: WeightSpaceView) -> Reading:
    """The view as a reading: every frame (the path and the markers are cheap; the
    landscape is asked for only when its key changes), drawn only while on screen."""

    def show(snap, router) -> None:
        def training_data():
            data = router.session.dataset()
            parts = router.state.parts
            if data is None or parts is None or len(parts) != len(data.y):
                return data
            from svmviz.core.lesson.generalization import TRAIN, subset

            return subset(data, np.flatnonzero(parts == TRAIN))

        def index():
            parts = router.state.parts
            if parts is None or len(parts) != len(router.session.points):
                return None
            from svmviz.core.lesson.generalization import TRAIN

            return np.flatnonzero(parts == TRAIN)

        names = [router.session.classes[int(c)] for c in router.present]
        config = router.session.config
        view.show_snapshot(snap, training_data, config, names, index, router.flat_out)

    return Reading(show=show, pace=Pace.FRAME, widget=view, clear=view.clear)
