"""The window's plots have no pyqtgraph context menu (a right click is the plane's: it
removes a point): none is built at start only to be thrown away (each costs milliseconds
of the start)."""

import importlib

import pyqtgraph as pg

view_box_module = importlib.import_module("pyqtgraph.graphicsItems.ViewBox.ViewBox")


def test_no_plot_builds_a_menu_it_does_not_keep(make_window, monkeypatch):
    built = []
    menu = view_box_module.ViewBoxMenu
    monkeypatch.setattr(
        view_box_module, "ViewBoxMenu", lambda view: built.append(view) or menu(view)
    )
    w = make_window(first_frame=False)
    for name in w.specs:  # (each view made, as when first shown)
        w.made[name]  # noqa: B018
    boxes = [
        item
        for view in w.findChildren(pg.GraphicsView)
        for item in view.scene().items()
        if isinstance(item, pg.ViewBox)
    ]
    assert len(boxes) >= 8  # (the plane, the curves, the tabs' and the views' plots)
    kept = [box for box in boxes if box.menu is not None]
    assert sorted(map(id, built)) == sorted(map(id, kept))
    assert w.plot.view not in kept and w.curves.objective_plot.getViewBox() not in kept
