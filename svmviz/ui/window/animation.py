"""The training as an animation for slides: an animated GIF, or numbered PNG frames.

The run is replayed from w = 0 or its start w₀ (svmviz.core.training.replay: the window's
configuration, seed and training points), and each chosen iteration is drawn by a twin of
the decision plot with its iteration t and objective F above it (:func:`training_frames`,
which ``svmviz.animate`` draws its frames with too). In the window one frame is made per turn of
the event loop (a zero-time timer), so the window stays responsive; a progress dialog
counts the frames and Cancel stops at once, leaving no partial file behind. The GIF is
written by Pillow (:func:`gif_bytes`), atomically, at the end.
"""

from __future__ import annotations

import io
from collections.abc import Generator, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.app.race_runner import Companions
from svmviz.core.errors import InputError
from svmviz.core.file_io import atomic_write_bytes
from svmviz.core.lesson.generalization import TRAIN
from svmviz.core.pictures.picture import check_gif_size, check_size
from svmviz.core.solvers import Solver
from svmviz.core.training.replay import SPACINGS, frame_iterations, replay
from svmviz.ui.window.dialogs import ok_cancel
from svmviz.ui.window.render import (
    PlaneState,
    draw_state,
    export_image,
    plane_twin,
    png_bytes,
    set_title,
)

HOLD_LAST_MS = 2000  # the last frame (the trained model) stays on screen a little longer


@dataclass(frozen=True)
class AnimationSettings:
    path: Path  # a .gif file, or the first of the numbered .png frames (name_0001.png)
    frames: int = 60
    frame_ms: int = 100
    spacing: str = "log"
    last: int = 1000  # the last iteration shown
    width: int = 800
    height: int = 600
    scale: float = 1.0

    @property
    def gif(self) -> bool:
        return self.path.suffix.lower() == ".gif"

    def frame_path(self, k: int) -> Path:
        return self.path.with_name(f"{self.path.stem}_{k + 1:04d}.png")


class AnimationExport(QtCore.QObject):
    """One export in progress. ``finished`` carries a message (done, cancelled or failed)."""

    finished = QtCore.Signal(bool, str)  # (written, message)

    def __init__(self, parent, state: PlaneState, job, settings: AnimationSettings):
        """``state``: the plane as the window shows it (its model is replaced per frame);
        ``job``: (configuration, all points as a Dataset, parts of the split or None, exact
        reference or None, the start w₀ the run began at or None)."""
        super().__init__(parent)
        check_size(settings.width, settings.height, settings.scale)
        self.settings = settings
        self.iterations = frame_iterations(settings.last, settings.frames, settings.spacing)
        if settings.gif:
            check_gif_size(len(self.iterations), settings.width, settings.height, settings.scale)
        self.config, self.data, self.parts, reference, start = job
        train = self.data if self.parts is None else _subset(self.data, self.parts)
        self._runs = replay(self.config, train, reference, self.iterations, start)
        self._frames = training_frames(
            state, self._runs, settings.width, settings.height, settings.scale, self.parts, start
        )
        self._images = []  # GIF: the frames, as palette images
        self._written = []  # PNG frames written so far (removed on cancel)
        self._done = False
        self.progress = QtWidgets.QProgressDialog(
            "Drawing the frames…", "Cancel", 0, len(self.iterations), parent
        )
        self.progress.setWindowTitle("svmviz: exporting the animation")
        self.progress.setMinimumWidth(420)  # the whole title, at any font
        self.progress.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(0)
        self.progress.canceled.connect(self.cancel)
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._next)

    def start(self) -> None:
        self.progress.setValue(0)
        self._timer.start()

    @QtCore.Slot()
    def cancel(self) -> None:
        if self._done:
            return
        for path in self._written:
            path.unlink(missing_ok=True)
        self._finish(False, "Animation export cancelled; nothing was written.")

    def _finish(self, ok: bool, message: str) -> None:
        self._done = True
        self._timer.stop()
        self._frames.close()  # (its twin closed)
        self._runs.close()
        self.progress.canceled.disconnect(self.cancel)
        self.progress.reset()
        self.progress.hide()
        self._images = []
        self.finished.emit(ok, message)

    @QtCore.Slot()
    def _next(self) -> None:
        """One frame: the solver to the next iteration, drawn and kept (or written)."""
        if self._done:
            return
        s = self.settings
        try:
            drawn = next(self._frames, None)
            if drawn is None:
                self._complete()
                return
            solver, image = drawn
            k = len(self._images) + len(self._written)
            if s.gif:
                self._images.append(palette_image(image))
            else:
                path = s.frame_path(k)
                atomic_write_bytes(path, png_bytes(image))
                self._written.append(path)
        except InputError as exc:
            for path in self._written:
                path.unlink(missing_ok=True)
            self._finish(False, f"The animation could not be written: {exc}")
            return
        self.progress.setValue(k + 1)
        self.progress.setLabelText(
            f"Frame {k + 1} of {len(self.iterations)} (iteration {solver.t_:,})"
        )

    def _complete(self) -> None:
        s = self.settings
        if s.gif:
            try:
                atomic_write_bytes(s.path, gif_bytes(self._images, s.frame_ms))
            except InputError as exc:
                self._finish(False, f"The animation could not be written: {exc}")
                return
            self._finish(True, f"Wrote {len(self._images)} frames to {s.path}")
        else:
            self._finish(
                True,
                f"Wrote {len(self._written)} frames: {s.frame_path(0).name} … "
                f"{self._written[-1].name} in {s.path.parent}",
            )


def _subset(data, parts):
    from svmviz.core.lesson.generalization import subset

    return subset(data, np.flatnonzero(parts == TRAIN))


def frame_title(solver: Solver, model) -> str:
    """An animation frame's title: the iteration t, the objective F of the drawn ``model``
    (the solver's output model) and the run's status where it ended otherwise than by its
    budget (converged, diverged)."""
    status = "" if solver.status_ in ("ready", "running", "budget") else f" ({solver.status_})"
    objective = model.extra.get("objective")
    value = "" if objective is None else f" · F = {float(objective):.4g}"
    return f"iteration t = {solver.t_:,}{value}{status}"


def training_frames(
    state: PlaneState,
    runs: Iterable[Solver],
    width: int,
    height: int,
    scale: float = 1.0,
    parts: np.ndarray | None = None,
    start=None,
) -> Generator[tuple[Solver, QtGui.QImage], None, None]:
    """Each solver of ``runs`` (svmviz.core.training.replay.replay) drawn as the plane ``state``
    (its points, extent and view; its model replaced by each solver's, titled by
    :func:`frame_title`), by one twin of ``width`` × ``height`` at ``scale``: (solver,
    image) pairs. ``parts``: the split of the state's points (the solver trained on the
    TRAIN ones); with a race in ``state``, its other runs replayed and drawn beside each
    (from the runs' ``start`` w₀, when they began at one: svmviz.core.training.start).
    The twin is closed when the frames end or the generator is closed."""
    # a race: its other runs replayed beside this one (svmviz.app.race_runner)
    configs = [] if state.race is None else [r.config for r in state.race.runs]
    companions = None
    state = replace(state, model=None, frame=None, alpha=None, optimum=None, slack=None)
    twin = None
    try:
        for solver in runs:
            race = None
            if configs:
                if companions is None:
                    companions = Companions(solver, configs, solver.data_)
                    if start is not None:
                        companions.set_start(start)
                companions.follow(solver)
                race = companions.frame(state.extent, iterate=False)
            model = solver.model()
            alpha = solver.training_alpha()
            if parts is not None and alpha is not None:
                full = np.zeros(len(parts))
                full[parts == TRAIN] = alpha
                alpha = full
            drawn = replace(
                state,
                model=model,
                alpha=alpha,
                kernel=model.coef is None,
                title=frame_title(solver, model),
                race=race,
            )
            if twin is None:
                twin = plane_twin(drawn, width, height, scale)
                state = replace(state, scale=twin.scale)  # later frames' titles at its scale
            else:
                set_title(twin, drawn)
                draw_state(twin, drawn)
            yield solver, export_image(twin.getPlotItem())
    finally:
        if twin is not None:
            twin.deleteLater()


def palette_image(image: QtGui.QImage):
    """A Qt image as a Pillow palette image (256 colours: what a GIF frame holds)."""
    from PIL import Image

    rgb = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h = rgb.width(), rgb.height()
    data = bytes(rgb.constBits())[: rgb.bytesPerLine() * h]
    frame = Image.frombuffer("RGB", (w, h), data, "raw", "RGB", rgb.bytesPerLine(), 1)
    return frame.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def gif_bytes(images, frame_ms: int) -> bytes:
    """Pillow palette images (:func:`palette_image`) as an animated GIF that loops, each
    frame ``frame_ms`` long and the last (the trained model) at least HOLD_LAST_MS."""
    if not images:
        raise InputError("no frames were drawn")
    out = io.BytesIO()
    durations = [frame_ms] * (len(images) - 1) + [max(frame_ms, HOLD_LAST_MS)]
    images[0].save(
        out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0
    )
    return out.getvalue()


class AnimationDialog(QtWidgets.QDialog):
    """Frames, their spacing and duration, the last iteration, the size and the scale."""

    def __init__(self, prefs, last: int, budget: int, parent=None):
        super().__init__(parent)
        self.setWindowTitle("svmviz: export the training as an animation")
        self.setMinimumWidth(460)
        form = QtWidgets.QFormLayout(self)
        self.frames = _spin(
            2,
            1000,
            prefs.get("animation_frames"),
            "frames in the animation (at most one per iteration: log spacing takes "
            "t = 1, 2, 3… one at a time, as the log-t pace, then evenly in log t)",
        )
        self.frame_ms = _spin(
            20, 5000, prefs.get("animation_frame_ms"), "how long each frame shows, in milliseconds"
        )
        self.frame_ms.setSuffix(" ms")
        self.spacing = QtWidgets.QComboBox()
        self.spacing.addItems(list(SPACINGS))
        self.spacing.setCurrentText(prefs.get("animation_spacing"))
        self.spacing.setToolTip(
            "log: more frames early, where the boundary moves most; linear: evenly in t"
        )
        self.last = _spin(
            1,
            max(budget, last, 1),
            last or budget,
            "the last iteration shown (the run is replayed from w = 0)",
        )
        self.width_ = _spin(100, 4000, 800, "width of a frame, in pixels")
        self.height_ = _spin(100, 4000, 600, "height of a frame, in pixels")
        self.scale = QtWidgets.QComboBox()
        self.scale.addItems(["1×", "2×"])
        self.scale.setToolTip("2×: twice the pixels, with lines and text twice as large")
        for label, widget in (
            ("Frames", self.frames),
            ("Each frame", self.frame_ms),
            ("Spacing in t", self.spacing),
            ("Up to iteration", self.last),
            ("Width", self.width_),
            ("Height", self.height_),
            ("Scale", self.scale),
        ):
            form.addRow(label, widget)
        form.addRow(ok_cancel(self, "Choose file…"))

    def settings(self, path: Path) -> AnimationSettings:
        return AnimationSettings(
            path,
            self.frames.value(),
            self.frame_ms.value(),
            self.spacing.currentText(),
            self.last.value(),
            self.width_.value(),
            self.height_.value(),
            float(self.scale.currentIndex() + 1),
        )

    def remember(self, prefs) -> None:
        prefs.set("animation_frames", self.frames.value())
        prefs.set("animation_frame_ms", self.frame_ms.value())
        prefs.set("animation_spacing", self.spacing.currentText())


def _spin(lo: int, hi: int, value: int, tip: str) -> QtWidgets.QSpinBox:
    spin = QtWidgets.QSpinBox()
    spin.setRange(lo, hi)
    spin.setValue(value)
    spin.setToolTip(tip)
    spin.setGroupSeparatorShown(True)
    return spin
