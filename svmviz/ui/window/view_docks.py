"""The window's views in their docks: every registered view (svmviz.ui.views.registry) in a
dock of its own, made when its dock is first shown or the view first read, its reading
routed to the frame router, and each dock shown or hidden as the window's state says (the
View menu, presentation mode, the companion beside the plane). Apart from the window
(svmviz.ui.window.main_window), which builds it and keeps its ``docks``, ``made`` and
``specs``, because placing docks is one concern with its own rules."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from svmviz.ui.views import registry
from svmviz.ui.views.registry import Made
from svmviz.ui.window import layout


class ViewDocks:
    """The docks of ``w``'s views: ``docks`` and ``made`` by the view's name, ``specs`` the
    views this window was made with, ``attrs`` the window attributes that name a view."""

    def __init__(self, w: QtWidgets.QMainWindow):
        self.w = w
        self._placing_docks = 0
        self.docks: dict[str, QtWidgets.QDockWidget] = {}
        self.made = registry.MadeOnRead(self._make)
        self._routed = False  # (readings go to the frame router once it is made)
        self.specs = {s.name: s for s in registry.REGISTRY}  # (the views this window was made with)
        self.attrs = {s.attr: s.name for s in self.specs.values() if s.attr is not None}
        for spec in self.specs.values():
            self.docks[spec.name] = layout.dock(
                w, spec.title, spec.dock_name, QtWidgets.QWidget(), menu=spec.menu_text
            )

    def _make(self, name: str) -> Made:
        """``name``'s view made, in its dock, its attribute set and its reading routed."""
        w = self.w
        spec = self.specs[name]
        made = spec.make(w)
        if spec.attr is not None:
            setattr(w, spec.attr, made.view)
        if made.scale is not None and w.plot.scale != 1.0:  # (presenting)
            made.scale(w.plot.scale)
        empty = self.docks[name].widget()
        self.docks[name].setWidget(made.widget)
        empty.deleteLater()
        if self._routed:  # (drawn as if it had been there all along)
            self._route(name, made)
            w.frames.show_now(name)
        return made

    def _route(self, name: str, made: Made) -> None:
        reading = self.specs[name].reading(made)
        if reading is not None:
            self.w.frames.register(name, reading)

    def route(self) -> None:
        """The views made so far, and each made from now on, to the frame router; a view
        shown draws the current state at once."""
        for name, made in list(self.made.items()):
            self._route(name, made)
        self._routed = True
        for name, dock in self.docks.items():
            dock.visibilityChanged.connect(lambda shown, name=name: shown and self._shown(name))

    def bind(self) -> None:
        """The docks' View menu entries and the state's views, and the companion, bound both
        ways (not while the window places docks itself: presentation mode, a companion)."""
        w = self.w
        for name, dock in self.docks.items():
            entry = dock.toggleViewAction()
            entry.toggled.connect(
                lambda on, name=name: None if self._placing else w.state.set_view(name, on)
            )
            # (after Qt has shown the dock: a dock the centre keeps hidden brings its view
            # beside the plane instead)
            entry.triggered.connect(
                lambda on, name=name: None if self._placing or not on else w.companion.asked(name)
            )
        w.state.views_changed.connect(lambda _: self._on_views())
        w.state.companion_changed.connect(self.show_companion)

    def _shown(self, name: str) -> None:
        """``name``'s dock shown: its view (made now if it is the first time) draws the
        current state."""
        self.made[name]  # noqa: B018  (made on first read)
        self.w.frames.bring(name)

    @property
    def _placing(self) -> bool:
        """Docks are being shown and hidden by the window, not asked for by the user."""
        p = self.w.presentation
        return self._placing_docks > 0 or p.on or p.settling

    def place_dock(self, name: str) -> None:
        """``name``'s dock shown or hidden as the state says (hidden while its view is the
        companion); a view off until asked comes in front of the curves."""
        w = self.w
        dock, on = self.docks[name], w.state.view_on(name)
        self._placing_docks += 1
        try:
            home = self.specs[name].home
            crowded = w.companion.crowded and w.dockWidgetArea(dock) == layout.RIGHT
            if w.presentation.on or name == w.companion.name or crowded:
                dock.hide()
            elif home is registry.Home.FRONT:
                layout.place_beside_curves(w, dock, on)
            elif home is registry.Home.TAB:
                layout.place_in_tabs(w, dock, self._tab_anchor(name), on)
            else:
                dock.setVisible(on)
        finally:
            self._placing_docks -= 1

    def _tab_anchor(self, name: str) -> QtWidgets.QDockWidget:
        """A dock of the readings' tab group other than ``name``'s (one in it, if any)."""
        tabs = [n for n, s in self.specs.items() if s.home is registry.Home.TAB and n != name]
        grouped = [n for n in tabs if self.docks[n].isVisible()] or tabs
        return self.docks[grouped[0]] if grouped else self.docks[name]

    def _on_views(self) -> None:
        self.place_docks()
        if self.w.presentation.on:  # (the companion presenting may follow the views on)
            self.show_companion(None)

    def place_docks(self) -> None:
        for name in self.docks:
            self.place_dock(name)

    @QtCore.Slot(object)
    def show_companion(self, name) -> None:
        self._placing_docks += 1
        try:
            self.w.companion.apply(self.w.presentation.companion_name())
        finally:
            self._placing_docks -= 1
