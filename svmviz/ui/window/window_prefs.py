"""What the window remembers between runs (svmviz.app.preferences): its geometry, the docks'
layout, the View toggles, the speed and warm start; the Preferences dialog, and resetting
every remembered setting."""

from __future__ import annotations

import json

from PySide6 import QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.files.session_file import View
from svmviz.core.limits import view_names
from svmviz.ui.views import registry
from svmviz.ui.window import layout
from svmviz.ui.window.preferences_dialog import PreferencesDialog


class WindowPreferences:
    """The remembered settings of ``window`` (a MainWindow: its layout and geometry) and of
    its ``state`` (svmviz.app.window_state.WindowState); ``files``: its svmviz.ui.window.files
    (the autosave interval); ``status``: shows a line of text to the user."""

    def __init__(self, window, prefs, state, files, status):
        self.window, self.prefs, self.state = window, prefs, state
        self.files, self.status = files, status
        self._default_layout = None

    def restore(self) -> None:
        """At the start: the window and the view as they were at the last close (at the
        first start: the whole screen)."""
        w, p = self.window, self.prefs
        self._default_layout = w.saveState(layout.LAYOUT_VERSION)
        geometry, state = p.get_bytes("geometry"), p.get_bytes("layout")
        if geometry is None or not w.restoreGeometry(geometry):
            layout.use_screen(w)
        layout.when_shown(w, size=not layout.restore(w, state))
        toggles = tuple(name for name in self.state.TOGGLES if p.get(name))
        view = View(
            toggles=toggles,
            speed=p.speed_code(),
            warm_start=p.get("warm_start"),
            weight_class=p.get("weight_class"),
            views=_names(p.get("views")),
            companion=p.get("companion") or None,
        )
        self.state.apply_view(view, fit=False)

    def save(self) -> None:
        """At the close."""
        w, p = self.window, self.prefs
        geometry, state = w.presentation.normal_layout()  # never presentation mode's
        self.state.set_presentation(False)
        p.set_bytes("geometry", geometry)
        p.set_bytes("layout", state)
        view = self.state.view()
        for name in self.state.TOGGLES:
            p.set(name, name in view.toggles)
        p.set("pace", view.speed)
        p.set("warm_start", view.warm_start)
        p.set("weight_class", view.weight_class)
        p.set("views", json.dumps(list(view.views or ())))
        p.set("companion", view.companion or "")
        p.sync()

    def edit(self) -> None:
        """The Preferences dialog."""
        dialog = PreferencesDialog(self.prefs, self.window)
        dialog.reset_requested.connect(self.reset)
        if dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted:
            dialog.apply(self.prefs)
            self.files.set_autosave_seconds(self.prefs.get("autosave_seconds"))

    def reset(self) -> None:
        """Forget every remembered setting: the default layout, view, speed and sizes."""
        w = self.window
        self.prefs.reset()
        self.state.set_presentation(False)
        layout.restore(w, self._default_layout)
        layout.size_columns(w)
        self.state.apply_view(View(views=tuple(registry.default_on()), companion=None), fit=False)
        self.files.set_autosave_seconds(self.prefs.get("autosave_seconds"))
        self.status("Preferences reset to their defaults")


def _names(text: str) -> tuple | None:
    """The views remembered (None: nothing remembered, or a hand-edited entry unreadable)."""
    try:
        return view_names(json.loads(text), "preferences", "views") if text else None
    except (ValueError, InputError):
        return None
