"""The 3-D view drawn with OpenGL (run under Xvfb with Mesa: SVMVIZ_GL_TESTS=1, .ci/run):
what its items hold is f over the grid, the points at their f(x_i) or at φ(x_i), the
lift's plane, in the view's box; the picture is drawn; it follows training and the step's
sampled point; the camera resets; the view is a window of its own, which the mouse turns."""

import numpy as np
import pytest
from PySide6 import QtGui

from svmviz.core.data import Dataset
from svmviz.core.generate import generate
from svmviz.core.kernels import Kernel
from svmviz.core.pictures.feature_map import feature_map
from svmviz.core.pictures.frame import grid_values
from svmviz.core.pictures.rings import ringed
from svmviz.core.pictures.scene3d import lift_box, surface_box
from svmviz.core.pictures.surface import MAX
from svmviz.ui.views.surface_items import CAMERA, NAME_POINTS
from svmviz.ui.views.surface_view import GRID, LIFT, SURFACE

CIRCLES = Dataset.from_labels(*generate("circles", n=80, noise=0.08, seed=5))
BLOBS = Dataset.from_labels(*generate("blobs", n=60, classes=3, seed=1))


def surface_window(make_window, wait_frame, qtbot, data, steps=300, **settings):
    """A window with the 3-D view on, trained ``steps`` iterations and drawn."""
    w = make_window(data, show=True, **settings)
    w.resize(1600, 1000)
    w.state.set_view("surface", True)
    qtbot.waitUntil(lambda: w.surface.items is not None, timeout=5000)
    assert w.surface.reason is None  # OpenGL here
    w.advance(steps)
    wait_frame(w, lambda s: s.t >= steps)
    drawn(w, qtbot)
    return w


def drawn(w, qtbot):
    qtbot.waitUntil(lambda: w.surface.drawn is w.snapshot, timeout=5000)


def training(w) -> Dataset:
    return w.session.dataset()


def grid_heights(model, s, pick):
    """f over the view's grid, computed here, as the surface must hold it."""
    F = grid_values(model, s.xs, s.ys)
    return pick(F).reshape(len(s.ys), len(s.xs))


def test_the_surface_is_f_over_the_grid_and_the_points_stand_at_f(make_window, wait_frame, qtbot):
    w = surface_window(
        make_window, wait_frame, qtbot, CIRCLES, kernel=Kernel("rbf", gamma=1.0), lam=0.1
    )
    view, items, snap = w.surface, w.surface.items, w.snapshot
    assert view.shown == SURFACE and view.surf.xs.size == GRID
    data = training(w)
    model = snap.model
    s = view.surf
    np.testing.assert_allclose(s.heights, grid_heights(model, s, lambda F: F), atol=1e-9)
    box = surface_box(s)
    np.testing.assert_allclose(items.surface._z, box.heights(s.heights).T, atol=1e-6)
    f = model.decision_function(data.X)
    want = box.to_box(np.column_stack([data.X, f]))
    np.testing.assert_allclose(items.points.pos, want, atol=1e-5)
    ring = ringed(snap.frame)
    assert items.rings.visible()  # (λ = 0.1: some points on or inside the margin at t = 300)
    np.testing.assert_allclose(items.rings.pos, want[ring], atol=1e-5)
    assert ring.sum() == len(w.plot.rings.getData()[0]) > 0  # the plane's rings
    # the planes z = 0 and ±1, and the boundary drawn on the surface at z = 0
    assert s.planes == (1.0, 0.0, -1.0) and all(p.visible() for p in items.levels)
    boundary = items.lines.pos[np.all(items.lines.color == (0, 0, 0, 1), axis=1)]
    # (the contour is the plane grid's, linear between its cells: f = 0 within 1% of ±1)
    np.testing.assert_allclose(boundary[:, 2], 0.0, atol=1e-2 * box.scale[2])
    assert "f = 0" in view.caption.text() and "support vectors" in view.caption.text()


def test_a_multiclass_surface_is_the_largest_f_or_a_chosen_class(make_window, wait_frame, qtbot):
    w = surface_window(make_window, wait_frame, qtbot, BLOBS, kernel=Kernel("rbf", gamma=0.5))
    view = w.surface
    assert view.cls.isVisible() and view.cls.currentData() == MAX
    model = w.snapshot.model
    np.testing.assert_allclose(
        view.surf.heights, grid_heights(model, view.surf, lambda F: F.max(axis=1)), atol=1e-9
    )
    view.cls.setCurrentIndex(view.cls.findData(2))
    drawn(w, qtbot)
    assert view.surf.shown.startswith("f_k of class")
    np.testing.assert_allclose(
        view.surf.heights, grid_heights(model, view.surf, lambda F: F[:, 2]), atol=1e-9
    )
    np.testing.assert_allclose(
        w.surface.items.surface._z, surface_box(view.surf).heights(view.surf.heights).T, atol=1e-6
    )


def test_regression_draws_the_tube_and_one_class_its_plane(make_window, wait_frame, qtbot):
    rng = np.random.default_rng(3)
    X = rng.uniform(-2, 2, (50, 2))
    data = Dataset.regression(X, np.sin(X[:, 0]) + 0.5 * X[:, 1])
    w = surface_window(
        make_window, wait_frame, qtbot, data, problem="epsilon-svr", epsilon=0.2,
        kernel=Kernel("rbf", gamma=0.5),
    )  # fmt: skip
    s, items = w.surface.surf, w.surface.items
    assert s.tube == pytest.approx(0.2)
    box = surface_box(s)
    for sheet, sign in zip(items.sheets, (1, -1), strict=True):
        assert sheet.visible()
        np.testing.assert_allclose(sheet._z, box.heights(s.heights + sign * 0.2).T, atol=1e-6)
    want = box.to_box(np.column_stack([X, data.target]))  # the points at their targets
    np.testing.assert_allclose(items.points.pos, want, atol=1e-5)

    one = surface_window(
        make_window, wait_frame, qtbot, Dataset.points(X), problem="one-class", nu=0.2,
        kernel=Kernel("rbf", gamma=0.5),
    )  # fmt: skip
    s = one.surface.surf
    assert s.planes == (0.0,) and s.tube is None
    model = one.snapshot.model
    np.testing.assert_allclose(s.heights, grid_heights(model, s, lambda F: F), atol=1e-9)


def test_the_lift_puts_the_points_at_phi_and_the_plane_separates_them(
    make_window, wait_frame, qtbot
):
    kernel = Kernel("poly", gamma=1.0, degree=2, coef0=0.0)
    w = surface_window(make_window, wait_frame, qtbot, CIRCLES, steps=2000, kernel=kernel)
    view = w.surface
    view.mode.setCurrentIndex(view.mode.findData(LIFT))
    drawn(w, qtbot)
    assert view.shown == LIFT and "exact" in view.caption.text()
    data, model = training(w), w.snapshot.model
    Phi = feature_map(kernel, data.X)
    np.testing.assert_allclose(view.lifted.points, Phi, atol=1e-12)
    box = lift_box(view.lifted)
    np.testing.assert_allclose(view.items.points.pos, box.to_box(Phi), atol=1e-5)
    # the drawn plane: its corners on ⟨w, φ⟩ + b = 0, and every point on the side f says
    corners = view.items.plane.opts["meshdata"].vertexes() / box.scale + box.center
    w_, b_ = view.lifted.w, view.lifted.b
    np.testing.assert_allclose(corners @ w_ + b_, 0.0, atol=1e-4 * np.abs(w_).max())
    np.testing.assert_array_equal(np.sign(Phi @ w_ + b_), np.sign(model.decision_function(data.X)))
    # rbf has none: the surface, and a line saying why
    w.session.set_config(w.session.config.replace(kernel=Kernel("rbf", gamma=1.0)))
    wait_frame(w, lambda s: s.model.kernel.name == "rbf")
    drawn(w, qtbot)
    assert view.shown == SURFACE and "infinite" in view.caption.text()


def test_the_picture_is_drawn_in_the_classes_colours(make_window, wait_frame, qtbot):
    w = surface_window(make_window, wait_frame, qtbot, CIRCLES, kernel=Kernel("rbf", gamma=1.0))
    image = w.surface.gl.grabFramebuffer()
    assert image.width() > 200 and image.height() > 150
    pixels = np.array(
        [
            [QtGui.QColor(image.pixel(x, y)).getRgb()[:3] for x in range(0, image.width(), 4)]
            for y in range(0, image.height(), 4)
        ]
    )
    drawn_share = np.mean(np.any(pixels < 235, axis=2))  # not the white background
    assert drawn_share > 0.1
    colors = [QtGui.QColor(c) for c in w.session.colors[:2]]
    for c in colors:  # each class's hue somewhere on the surface or its points
        target = np.array([c.red(), c.green(), c.blue()])
        hue = np.linalg.norm(pixels - target, axis=2) < 60
        assert hue.sum() > 5, c.name()


def test_it_follows_training_and_marks_the_sampled_point(make_window, wait_frame, qtbot):
    w = surface_window(make_window, wait_frame, qtbot, CIRCLES, kernel=Kernel("rbf", gamma=1.0))
    first = w.surface.drawn.t
    w.controller.play()
    qtbot.waitUntil(lambda: w.surface.drawn.t > first + 100, timeout=10000)
    w.controller.pause()
    w.advance(1)
    snap = wait_frame(w, lambda s: s.step is not None and s.t > first + 100)
    drawn(w, qtbot)
    i = int(snap.step.samples[0])
    items = w.surface.items
    assert items.sampled.visible()
    np.testing.assert_allclose(items.sampled.pos[0], items.points.pos[i], atol=1e-6)


def test_reset_puts_the_camera_back(make_window, wait_frame, qtbot):
    w = surface_window(make_window, wait_frame, qtbot, CIRCLES, kernel=Kernel("rbf", gamma=1.0))
    gl = w.surface.gl
    gl.orbit(40, 15)
    gl.opts["distance"] *= 2
    assert gl.opts["azimuth"] != CAMERA["azimuth"]
    w.surface.reset.click()
    assert [gl.opts[k] for k in CAMERA] == pytest.approx(list(CAMERA.values()))


def test_presentation_mode_draws_it_large_below_the_curve(make_window, wait_frame, qtbot):
    w = surface_window(make_window, wait_frame, qtbot, CIRCLES, kernel=Kernel("rbf", gamma=1.0))
    long = w.surface.caption.text()
    assert "ringed" in long
    w.state.set_presentation(True)
    qtbot.waitUntil(lambda: w.surface.gl.height() > 400, timeout=5000)
    w.advance(10)
    snap = wait_frame(w, lambda s: s.t >= 310)
    qtbot.waitUntil(lambda: w.surface.drawn is not None and w.surface.drawn.t == snap.t)
    short = w.surface.caption.text()  # its first part: large type in a narrow column
    assert long.startswith(short) and len(short) < len(long)
    assert w.surface.items.names[0].font.pointSizeF() > NAME_POINTS
    w.state.set_presentation(False)
    qtbot.waitUntil(lambda: w.surface.caption.text() == long, timeout=5000)


def test_the_view_is_a_window_of_its_own_that_the_mouse_turns(make_window, wait_frame, qtbot):
    """The GL view is a QOpenGLWindow in a container (the rest of the window is not
    composed through OpenGL); it draws when the view follows training, and a drag with the
    left button turns the camera, as in pyqtgraph's GLViewWidget."""
    from PySide6 import QtCore, QtOpenGL, QtWidgets
    from PySide6.QtOpenGLWidgets import QOpenGLWidget
    from PySide6.QtTest import QTest

    w = surface_window(make_window, wait_frame, qtbot, CIRCLES, kernel=Kernel("rbf", gamma=1.0))
    gl = w.surface.gl
    assert isinstance(gl, QtOpenGL.QOpenGLWindow)
    assert not w.findChildren(QOpenGLWidget)
    assert isinstance(w.surface.gl_box, QtWidgets.QWidget) and w.surface.gl_box.isVisible()
    qtbot.waitUntil(lambda: gl.paints > 0, timeout=5000)
    before = gl.opts["azimuth"], gl.opts["elevation"]
    left = QtCore.Qt.MouseButton.LeftButton
    none = QtCore.Qt.KeyboardModifier.NoModifier
    QTest.mousePress(gl, left, none, QtCore.QPoint(100, 100))
    for x in range(110, 170, 10):
        QTest.mouseMove(gl, QtCore.QPoint(x, 110))
    QTest.mouseRelease(gl, left, none, QtCore.QPoint(170, 110))
    assert (gl.opts["azimuth"], gl.opts["elevation"]) != before


def test_while_playing_it_keeps_its_share_and_draws_the_last_state(make_window, wait_frame, qtbot):
    """At full speed the view draws far enough apart for its drawings and their paintings,
    counted until the frame is swapped (where OpenGL in software renders), to take at
    most SHARE of the time (or LONGEST apart); once training stops, the last
    state is drawn."""
    import time

    from svmviz.ui.views.draw_pace import LONGEST, SHARE

    w = surface_window(make_window, wait_frame, qtbot, CIRCLES, kernel=Kernel("rbf", gamma=1.0))
    gl = w.surface.gl
    swapped = []
    gl.frameSwapped.connect(lambda: swapped.append((time.perf_counter(), gl.paint_seconds)))
    paint = gl.paintGL
    started = []

    def timed_paint():
        started.append(time.perf_counter())
        paint()

    gl.paintGL = timed_paint  # (called by Qt through the instance)
    w.surface.redraw()
    qtbot.waitUntil(lambda: len(swapped) > 0, timeout=5000)
    at, seconds = swapped[-1]
    assert seconds >= at - started[-1] - 1e-3  # (its painting: until the frame is swapped)
    drawings = []
    draw = w.surface._draw
    w.surface._draw = lambda *args: drawings.append(time.perf_counter()) or draw(*args)
    w.controller.play()
    qtbot.waitUntil(lambda: len(drawings) >= 4, timeout=20000)  # (three gaps while playing)
    paused_at = time.perf_counter()
    w.controller.pause()
    qtbot.waitUntil(lambda: w.surface.drawn is w.snapshot, timeout=5000)
    # while playing only: a pause's frames draw at once (the state it stopped at)
    gaps = np.diff([t for t in drawings if t < paused_at])
    least = min(seconds for _, seconds in swapped)  # (each wait: at least a painting's)
    assert len(gaps) and gaps.min() >= 0.95 * min(least / SHARE, LONGEST)
