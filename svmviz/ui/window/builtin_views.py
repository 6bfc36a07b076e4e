"""The views svmviz comes with, registered in their tabs' order (svmviz.ui.views.registry). A
new view is a module with a factory and one ``register(ViewSpec(...))`` line here. A factory runs
when its view is first shown or read (the window's start makes only what is on screen), so
it connects its view to the window itself, and imports its view's module: a start imports
only the modules of the views it shows."""

from __future__ import annotations

from svmviz.ui.views.curves import CurvePanel, scale_plot_text
from svmviz.ui.views.race_view import RaceSteps, with_race_steps
from svmviz.ui.views.reading import Pace, Reading
from svmviz.ui.views.registry import Home, Made, ViewSpec, register
from svmviz.ui.views.step_view import StepPanel
from svmviz.ui.window import focus, layout


def _margins(w) -> Made:
    from svmviz.ui.views.margin_histogram import MarginHistogram, margins_reading

    view = MarginHistogram()
    sides = ("left", "bottom", "right")
    return Made(view, view, margins_reading(view), lambda k: scale_plot_text(view, k, sides))


def _surface(w) -> Made:
    from svmviz.ui.views.surface_view import SurfaceView, surface_reading

    view = SurfaceView()
    return Made(view, view, surface_reading(view), view.set_scale)


def _theory(w) -> Made:
    from svmviz.ui.views.theory_panel import TheoryPanel, theory_reading

    panel = TheoryPanel()
    panel.epsilon_changed.connect(lambda _: w.frames.redraw_readings())
    focus.give_back_keys([panel], w.plot)
    return Made(layout.scrolled(panel), panel, theory_reading(panel))


def _curves(w) -> Made:
    panel = CurvePanel()
    reading = Reading(lambda snap, router: router.feed_curves(panel, snap), clear=panel.clear)
    return Made(panel, panel, reading, panel.set_scale)


def _step(w) -> Made:
    panel = StepPanel()
    w.race_steps = RaceSteps()  # a race's other runs' steps, above the formula
    return Made(layout.scrolled(with_race_steps(panel, w.race_steps)), panel)


def _points(w) -> Made:
    from svmviz.ui.views.point_table import PointTable, points_reading

    table = PointTable()
    table.selected.connect(w.session.select)
    table.show_selection(w.session.selection)  # (then the window's selection_changed)
    return Made(table, table, points_reading(table))


def _generalization(w) -> Made:
    from svmviz.ui.views.generalization_panel import GeneralizationPanel, generalization_reading

    panel = GeneralizationPanel(w.session)
    focus.give_back_keys([panel], w.plot)

    def scale(k: float) -> None:
        for plot in (panel.learning, panel.sweep):
            scale_plot_text(plot, k)

    return Made(layout.scrolled(panel), panel, generalization_reading(panel), scale, panel.shutdown)


def _kernel_matrix(w) -> Made:
    from svmviz.ui.views.gram_view import GramView, gram_reading

    view = GramView()
    view.selected.connect(w.session.select)
    return Made(view, view, gram_reading(view))


def _weight_space(w) -> Made:
    """The landscape, its click to train from there, and the points lit both ways (a point
    hovered in the plane lights its line here, a line hovered here lights its point)."""
    from svmviz.ui.views.weight_space import WeightSpaceView, weight_space_reading

    view = WeightSpaceView()
    view.start_clicked.connect(w.train_from_row)
    w.input.point_hovered.connect(view.light_point)
    view.line_hovered.connect(w.plot.light_point)
    w.session.points_changed.connect(lambda: view.light_point(-1))  # (an old points' index)

    def hand(model) -> None:  # (the boundary moved by hand: its w marked)
        view.show_hand(None if model is None else model.coef[0])

    w.hand_changed.connect(hand)
    if w.hand.active and w.hand.snapshot is not None:  # (made while the hand is out)
        hand(w.hand.snapshot.model)
    view.class_changed.connect(w.state.set_weight_class)
    w.state.weight_class_changed.connect(view.set_class)
    view.set_class(w.state.weight_class)
    return Made(view, view, weight_space_reading(view), view.set_scale, view.shutdown)


LINEAR_2D = "linear models of 2-D data"
register(
    ViewSpec(
        "curves",
        "Curves",
        _curves,
        shortcut="Ctrl+1",
        pace=Pace.CURVES,
        home=Home.CURVES,
        attr="curves",
        draws="every model: the objective, the loss, the support vectors",
    )
)
register(ViewSpec("step", "Step", _step, menu="Step inspector", pace=Pace.FRAME, attr="step_panel"))
register(ViewSpec("points", "Points", _points, attr="point_table"))
register(ViewSpec("margins", "Margins", _margins, attr="histogram"))
register(ViewSpec("theory", "Theory", _theory, attr="theory"))
register(
    ViewSpec(
        "generalization",
        "Test set",
        _generalization,
        menu="Generalization",
        pace=Pace.CURVES,
        attr="generalization",
    )
)
register(
    ViewSpec(
        "kernel_matrix",
        "Kernel",
        _kernel_matrix,
        menu="Kernel matrix",
        shortcut="Ctrl+4",
        home=Home.FRONT,
        attr="gram",
        draws="every model (the kernel's matrix of the points)",
    )
)
register(
    ViewSpec(
        "weight_space",
        "Weight space",
        _weight_space,
        shortcut="Ctrl+2",
        pace=Pace.FRAME,
        home=Home.FRONT,
        attr="weight_space",
        draws=LINEAR_2D,
    )
)
register(
    ViewSpec(
        "surface",
        "3-D",
        _surface,
        menu="3-D surface",
        shortcut="Ctrl+3",
        pace=Pace.FRAME,
        home=Home.FRONT,
        attr="surface",
        draws="two classes or a regression: f over the plane, and the kernel's lift",
    )
)
