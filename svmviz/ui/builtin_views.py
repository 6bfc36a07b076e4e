"""The views svmviz comes with, registered in their tabs' order (svmviz.ui.views). A new view
is a module with a factory and one ``register(ViewSpec(...))`` line here."""

from __future__ import annotations

from svmviz.ui import layout
from svmviz.ui.curves import CurvePanel
from svmviz.ui.generalization_panel import GeneralizationPanel, generalization_reading
from svmviz.ui.gram_view import GramView, gram_reading
from svmviz.ui.point_table import MarginHistogram, PointTable, margins_reading, points_reading
from svmviz.ui.race_view import RaceSteps, with_race_steps
from svmviz.ui.readings import Pace, Reading
from svmviz.ui.step_view import StepPanel
from svmviz.ui.surface_view import SurfaceView, surface_reading
from svmviz.ui.theory_panel import TheoryPanel, theory_reading
from svmviz.ui.views import Home, Made, ViewSpec, register
from svmviz.ui.weight_space import WeightSpaceView, weight_space_reading


def _plain(view_class, reading, scroll: bool = False):
    """The factory of a view that needs nothing of the window: the view, its reading, in a
    scroll area with ``scroll``."""

    def make(w) -> Made:
        view = view_class()
        return Made(layout.scrolled(view) if scroll else view, view, reading(view))

    return make


_margins = _plain(MarginHistogram, margins_reading)
_theory = _plain(TheoryPanel, theory_reading, scroll=True)
_weight_space = _plain(WeightSpaceView, weight_space_reading)
_surface = _plain(SurfaceView, surface_reading)


def _curves(w) -> Made:
    panel = CurvePanel()
    reading = Reading(lambda snap, router: router.feed_curves(panel, snap), clear=panel.clear)
    return Made(panel, panel, reading)


def _step(w) -> Made:
    panel = StepPanel()
    w.race_steps = RaceSteps()  # a race's other runs' steps, above the formula
    return Made(layout.scrolled(with_race_steps(panel, w.race_steps)), panel)


def _points(w) -> Made:
    table = PointTable()
    table.selected.connect(w.session.select)
    return Made(table, table, points_reading(table))


def _generalization(w) -> Made:
    panel = GeneralizationPanel(w.session)
    return Made(layout.scrolled(panel), panel, generalization_reading(panel))


def _kernel_matrix(w) -> Made:
    view = GramView()
    view.selected.connect(w.session.select)
    return Made(view, view, gram_reading(view))


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
