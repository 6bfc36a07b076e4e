"""Export: pictures of the plots (PNG at a chosen size and scale, SVG, the clipboard), the
trained model (MODEL.json, the format `svmviz train --out` writes, or .npz), the history
of the run (CSV, as `svmviz train --history`) and the training as an animation.

Every write is atomic and a failed one is a dialog; nothing in the window changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.app.race_runner import race_history_csv
from svmviz.core.errors import InputError
from svmviz.core.file_io import atomic_write_text
from svmviz.core.lesson.support import support_record, training_count
from svmviz.core.model_io import with_provenance, write_model, write_model_npz
from svmviz.core.pictures.picture import check_size
from svmviz.core.solvers import STATUS_TEXT
from svmviz.core.solvers.losses import offset_columns
from svmviz.core.telemetry import held, history_csv
from svmviz.ui.window.animation import AnimationDialog, AnimationExport
from svmviz.ui.window.dialogs import ask_save_path, ok_cancel
from svmviz.ui.window.render import curves_twin, export_image, plane_twin, write_plot

if TYPE_CHECKING:
    from svmviz.ui.window.render import PlaneState

PLOTS = {  # what can be pictured: the label, and the suggested file name
    "plane": ("the decision plot", "decision"),
    "objective": ("the objective plot", "objective"),
    "loss": ("the loss and error plot", "loss"),
}


class ImageDialog(QtWidgets.QDialog):
    """Which plot, its size in pixels and the scale (2× for slides)."""

    def __init__(self, prefs, plot: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle("svmviz: picture size")
        self.setMinimumWidth(360)
        form = QtWidgets.QFormLayout(self)
        self.which = QtWidgets.QComboBox()
        for key, (label, _) in PLOTS.items():
            self.which.addItem(label.capitalize(), key)
        self.which.setCurrentIndex(list(PLOTS).index(plot))
        self.width_ = QtWidgets.QSpinBox()
        self.height_ = QtWidgets.QSpinBox()
        for spin, key in ((self.width_, "export_width"), (self.height_, "export_height")):
            spin.setRange(100, 8000)
            spin.setValue(prefs.get(key))
            spin.setSuffix(" px")
        self.scale = QtWidgets.QComboBox()
        self.scale.addItems(["1×", "2×", "3×"])
        self.scale.setCurrentIndex(min(2, max(0, prefs.get("export_scale") - 1)))
        self.scale.setToolTip(
            "PNG: this many times the pixels, lines and text grow with them "
            "(2× for slides); SVG is vectors and ignores it"
        )
        form.addRow("Plot", self.which)
        form.addRow("Width", self.width_)
        form.addRow("Height", self.height_)
        form.addRow("Scale (PNG)", self.scale)
        form.addRow(ok_cancel(self))

    def values(self) -> tuple[str, int, int, int]:
        return (
            self.which.currentData(),
            self.width_.value(),
            self.height_.value(),
            self.scale.currentIndex() + 1,
        )

    def remember(self, prefs) -> None:
        _, w, h, k = self.values()
        prefs.set("export_width", w)
        prefs.set("export_height", h)
        prefs.set("export_scale", k)


class Shown(Protocol):
    """What the window shows, as the exports need it (svmviz.ui.window.frame_router.FrameRouter)."""

    snapshot: Any  # the newest snapshot shown, or None

    @property
    def scale(self) -> float: ...  # of the plane's markers, lines and text

    def plane_state(self) -> PlaneState: ...

    def fill_curves(self, panel) -> None: ...


class Exports(QtCore.QObject):
    """The window's export commands.

    ``window``: the dialogs' parent; ``session``: what is trained (its job); ``frames``:
    what the window shows; ``status``: shows a line of text to the user.
    """

    def __init__(
        self,
        window: QtWidgets.QWidget,
        session,
        prefs,
        frames: Shown,
        status: Callable[[str], None],
    ):
        super().__init__(window)
        self.window = window
        self.session = session
        self.prefs = prefs
        self.frames = frames
        self.status = status
        self.animation: AnimationExport | None = None

    # ------------------------------------------------------------------ pictures
    def picture(self, which: str, width: int, height: int, scale: float = 1.0):
        """A twin of plot ``which`` at the size, laid out and drawn (the caller closes it),
        and its PlotItem."""
        check_size(width, height, scale)
        frames = self.frames
        if which == "plane":
            twin = plane_twin(frames.plane_state(), width, height, scale)
            return twin, twin.getPlotItem()
        twin = curves_twin(frames.fill_curves, which, width, height, frames.scale * scale)
        return twin, twin.getPlotItem()

    def save_picture(self, which: str = "plane") -> bool:
        dialog = ImageDialog(self.prefs, which, self.window)
        if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
            return False
        dialog.remember(self.prefs)
        which, width, height, scale = dialog.values()
        path = self._ask(
            f"Save {PLOTS[which][0]}", f"{PLOTS[which][1]}.png", "PNG image (*.png);;SVG (*.svg)"
        )
        return path is not None and self.write_picture(which, path, width, height, scale)

    def write_picture(self, which, path, width, height, scale=1.0) -> bool:
        if str(path).lower().endswith(".svg"):
            scale = 1.0  # vectors: the size is the viewBox
        try:
            twin, item = self.picture(which, width, height, scale)
            try:
                write_plot(item, path)
            finally:
                twin.deleteLater()
        except InputError as exc:
            self._failed("save the picture", exc)
            return False
        self.status(f"Saved {PLOTS[which][0]} to {path}")
        return True

    def copy_picture(self, which: str = "plane") -> None:
        """The plot on the clipboard, at the remembered size and scale."""
        width, height = self.prefs.get("export_width"), self.prefs.get("export_height")
        scale = self.prefs.get("export_scale")
        try:
            twin, item = self.picture(which, width, height, scale)
        except InputError as exc:
            self._failed("copy the picture", exc)
            return
        image = export_image(item)
        twin.deleteLater()
        QtGui.QGuiApplication.clipboard().setImage(image)
        self.status(
            f"Copied {PLOTS[which][0]} ({image.width()} × {image.height()} pixels) to the clipboard"
        )

    # ------------------------------------------------------------------ model and history
    def _trained(self):
        snap = self.frames.snapshot
        if snap is None or snap.t == 0:
            QtWidgets.QMessageBox.information(
                self.window,
                "svmviz: nothing trained yet",
                "Train first (Play, Step or Run): there is no model to export yet.",
            )
            return None
        return snap

    def save_model(self) -> bool:
        snap = self._trained()
        if snap is None:
            return False
        path = self._ask(
            "Export the trained model",
            "model.json",
            "MODEL.json, as svmviz train --out (*.json);;NumPy arrays (*.npz)",
        )
        if path is None:
            return False
        model = self.model(snap)
        try:
            (write_model_npz if path.suffix.lower() == ".npz" else write_model)(path, model)
        except InputError as exc:
            self._failed("export the model", exc)
            return False
        self.status(f"Exported the model at iteration {snap.t:,} to {path}")
        return True

    def model(self, snap):
        """The model of ``snap`` as it is exported (what `svmviz train --out` writes): with
        the classes' names of now and what made it."""
        ref = snap.reference
        model = with_provenance(
            self._named(snap.model),
            self.session.job_config(),
            snap.status,
            None if ref is None else ref.objective,
        )
        model.extra["iterations"] = snap.t
        data = self.session.dataset()
        if data is not None and len(data.X) == len(snap.frame.margins):
            m = training_count(self.session.parts(), snap.frame)
            record = support_record(model, data, len(snap.frame.support), m)
            model.extra["support_count"] = record  # (as the plane rings them)
        return model

    def _named(self, model):
        """The model with the classes' names of now: a rename does not retrain (the problem
        is the same), so the model trained before it still has the names of then."""
        data = self.session.dataset()
        if not model.classes or data is None or len(data.classes) != len(model.classes):
            return model
        return replace(model, classes=data.classes)

    def save_history(self) -> bool:
        snap = self._trained()
        if snap is None:
            return False
        path = self._ask("Export the training history", "history.csv", "CSV (*.csv)")
        if path is None:
            return False
        try:
            offsets = offset_columns(snap.model.problem)
            history = held(snap.history)  # (the checkpoints' rows and the frames')
            text = history_csv(history, start=snap.t0 + 1, offsets=offsets)
            if snap.race is not None:  # every run, with a run column (svmviz.app.race_runner)
                text = race_history_csv(snap.race, snap.history, start=snap.t0 + 1)
            atomic_write_text(path, text)
        except InputError as exc:
            self._failed("export the history", exc)
            return False
        rows, last = len(history["objective"]), int(history["t"][-1])
        thinned = "" if rows == last else f" (iterations 1–{last:,}, log-spaced)"
        runs = "" if snap.race is None else f" of each of {len(snap.race.runs) + 1} runs"
        self.status(f"Exported {rows:,} rows{thinned}{runs} to {path}")
        return True

    # ------------------------------------------------------------------ animation
    def save_animation(self) -> bool:
        w, session = self.window, self.session
        if session.dataset() is None:
            QtWidgets.QMessageBox.information(
                w, "svmviz: nothing to animate", "Place points of at least two classes first."
            )
            return False
        snap = self.frames.snapshot
        budget = session.config.iterations
        # up to the run's end: where it stopped once stopped (a tolerance, a hard margin's
        # grown budget), else its budget; a run from a start w₀ counts t − t₀
        end = budget
        if snap is not None and snap.status in set(STATUS_TEXT) - {"ready", "running"}:
            end = snap.t - (snap.t0 if snap.start is not None else 0)
        dialog = AnimationDialog(self.prefs, end, budget, w)
        if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
            return False
        dialog.remember(self.prefs)
        path = self._ask(
            "Export the training",
            "training.gif",
            "Animated GIF (*.gif);;Numbered PNG frames (*.png)",
        )
        return path is not None and self.start_animation(dialog.settings(path))

    def start_animation(self, settings) -> bool:
        snap, session = self.frames.snapshot, self.session
        reference = snap.reference if snap is not None else None
        start = snap.start if snap is not None else None
        job = (session.job_config(), session.dataset(), session.parts(), reference, start)
        try:
            self.animation = AnimationExport(self.window, self.frames.plane_state(), job, settings)
        except InputError as exc:
            self._failed("export the animation", exc)
            return False
        self.animation.finished.connect(self._on_animation_finished)
        self.animation.start()
        return True

    @QtCore.Slot(bool, str)
    def _on_animation_finished(self, ok: bool, message: str) -> None:
        self.status(message)
        if not ok and "could not" in message:
            QtWidgets.QMessageBox.critical(self.window, "svmviz: animation not written", message)
        self.animation = None

    # ------------------------------------------------------------------ helpers
    def _ask(self, title: str, name: str, filters: str) -> Path | None:
        """The file to write (None: cancelled), asked in the folder last used; the folder
        chosen is remembered for the next dialog."""
        path = ask_save_path(self.window, title, Path(self.prefs.start_folder()) / name, filters)
        if path is not None:
            self.prefs.remember_folder(path)
        return path

    def _failed(self, what: str, exc: InputError) -> None:
        QtWidgets.QMessageBox.critical(self.window, f"svmviz: cannot {what}", str(exc))
