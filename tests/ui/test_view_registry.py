"""The views registry (svmviz.ui.views.registry): a view registered in one line is in the View menu,
the companion chooser, the session file, the preferences and presentation mode, and drawn
after a Run; a newer release's view name is kept and ignored; core knows no view's name."""

import ast
import json
from pathlib import Path

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtWidgets

import svmviz
from svmviz.core.files.session_file import read_session
from svmviz.ui.views import registry
from svmviz.ui.views.reading import Reading
from svmviz.ui.views.registry import Made, ViewSpec


class Tiny(QtWidgets.QLabel):
    """A new engineer's view: the iteration it last drew."""

    def show_t(self, snap, router):
        self.setText(f"t = {snap.t}")


def _tiny(window) -> Made:
    label = Tiny("nothing yet")
    return Made(label, label, Reading(label.show_t, clear=lambda: label.setText("cleared")))


def menu_texts(menu) -> list[str]:
    texts = []
    for action in menu.actions():
        texts.append(action.text())
        if action.menu() is not None:
            texts += menu_texts(action.menu())
    return texts


def view_menu(w):
    return next(a.menu() for a in w.menuBar().actions() if a.text() == "&View")


def test_a_view_registered_in_one_line_is_everywhere(qtbot, make_window, wait_frame, tmp_path):
    with registry.registered(ViewSpec("tiny", "Tiny", _tiny, menu="Tiny view")):
        w = make_window(iterations=200, show=True)
        tiny = w.made["tiny"].view
        # the View menu: its dock's entry and its entry beside the plane
        assert menu_texts(view_menu(w)).count("Tiny view") == 2
        chooser = w.companion.pane.chooser
        assert "Tiny" in [chooser.itemText(i) for i in range(chooser.count())]
        # drawn after a Run made while it was hidden
        w.state.set_view("tiny", False)
        w.run_to_budget()
        wait_frame(w, lambda s: s.t == 200)
        assert tiny.text() != "t = 200"  # (not drawn while hidden: its pace)
        w.state.set_companion("tiny")
        qtbot.waitUntil(lambda: tiny.text() == "t = 200", timeout=5000)
        assert tiny.isVisible() and w.companion.pane.isVisible()
        # the session file keeps it (on, and beside the plane)
        w.state.set_view("tiny", True)
        path = tmp_path / "s.json"
        w.files._write(path)
        saved = json.loads(path.read_text())["view"]
        assert "tiny" in saved["views"] and saved["companion"] == "tiny"
        # the preferences too
        w.preferences.save()
        assert "tiny" in json.loads(w.prefs.get("views"))
        assert w.prefs.get("companion") == "tiny"
        # presentation mode shows it beside the plane
        w.set_presentation(True)
        qtbot.waitUntil(lambda: tiny.isVisible(), timeout=5000)
        assert not w.docks["curves"].isVisible()
        w.set_presentation(False)
        w.close()
    assert "tiny" not in registry.names()


def test_a_newer_releases_view_is_kept_and_ignored(qtbot, make_window, tmp_path):
    w = make_window(iterations=50)
    path = tmp_path / "newer.json"
    w.files._write(path)
    doc = json.loads(path.read_text())
    doc["view"]["views"] = ["curves", "points", "hologram"]
    doc["view"]["companion"] = "hologram"
    doc["view"]["hologram_depth"] = 3  # a newer release's setting of its own
    path.write_text(json.dumps(doc))
    assert w.files.open_path(path)
    assert w.state.views == {"curves", "points", "hologram"}
    assert w.companion.name is None  # (a view this release lacks: the plane alone)
    assert not w.docks["margins"].isVisible()
    again = tmp_path / "again.json"
    w.files._write(again)
    assert "hologram" in read_session(again).view.views


def test_an_older_files_view_flags_still_open(qtbot, make_window, tmp_path):
    w = make_window(iterations=50)
    path = tmp_path / "older.json"
    w.files._write(path)
    doc = json.loads(path.read_text())
    del doc["view"]["views"], doc["view"]["companion"]
    doc["view"]["weight_space"] = True  # (how releases before the registry kept it)
    path.write_text(json.dumps(doc))
    assert w.files.open_path(path)
    assert w.state.view_on("weight_space")


def test_the_core_names_no_view():
    # ("points" is a key of the files' data, "step" a kind of generated data: not views)
    names = set(registry.names()) - {"points", "step"}
    core = Path(svmviz.__file__).parent / "core"
    for source in core.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value not in names, f"{source.name} names the view {node.value!r}"


def test_each_view_has_one_dock_and_one_menu_entry(make_window):
    w = make_window(first_frame=False)
    texts = menu_texts(view_menu(w))
    for spec in registry.REGISTRY:
        assert w.docks[spec.name].objectName() == spec.dock_name
        # its dock's entry, and its entry beside the plane
        assert texts.count(spec.menu_text) == 2, spec.name
