"""The solver panel: every choice of the engine, bound to the session's SolverConfig.

Widgets → config: any change builds a new SolverConfig; an impossible one (λ = 0 with
Pegasos, say) is shown in red under the controls and not applied. Config → widgets: set with
the widgets' signals blocked, so that nothing echoes back (napari's binding pattern).
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtWidgets

from svmviz.core.config import (
    ALGORITHMS,
    AVERAGES,
    BIASES,
    HARD_MARGIN_LAM,
    MARGINS,
    MAX_ITERATIONS,
    SAMPLINGS,
    SCHEDULES,
    SolverConfig,
)
from svmviz.core.errors import InputError
from svmviz.core.kernels import KERNELS, Kernel
from svmviz.core.sources import cite
from svmviz.ui import style

LAM_MIN_EXP, LAM_MAX_EXP, LAM_STEPS_PER_DECADE = -6, 2, 20
LAM_TIP = "λ ≥ 0 exactly (0: no regularization, gd and sgd only)"
HARD_LAM_TIP = (
    f"hard margin: λ is {HARD_MARGIN_LAM}, the λ whose soft problem has the hard "
    "margin's solution (1/(2m·max α), exact dual); shown once the exact solution "
    "is known. Your λ comes back with a soft margin."
)

# (field, label, options, tooltip) for the choice controls
CHOICES = [
    ("margin", "Margin", MARGINS, "soft: λ/2‖w‖² + mean hinge; hard: ½‖w‖² s.t. y f(x) ≥ 1"),
    (
        "algorithm",
        "Algorithm",
        ALGORITHMS,
        "gd: full-batch subgradient descent; sgd: one example a step; pegasos: η_t = 1/(λt)",
    ),
    (
        "schedule",
        "Step η_t",
        SCHEDULES,
        "auto: 1/(λt) when λ > 0; constant η₀; η₀/t; η₀/√t; pegasos 1/(λt)",
    ),
    ("sampling", "Sampling", SAMPLINGS, "uniform: i at random each step; shuffle: passes"),
    (
        "average",
        "Output w̄",
        AVERAGES,
        f"last iterate; uniform average {cite('003')}; t-weighted average (fastest, measured)",
    ),
    (
        "bias",
        "Bias b",
        BIASES,
        "free: b not regularized (libsvm); regularized: b² in ‖w‖²; none: f = ⟨w, x⟩",
    ),
]


class WrappedLabel(QtWidgets.QLabel):
    """A word-wrapped label as tall as its lines at its width (in a form inside a scroll
    area it was given one line's height, and its text was cut)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(True)

    def fit_height(self) -> None:
        self.setMinimumHeight(0)  # (a label's heightForWidth is at least its minimum)
        self.setMinimumHeight(self.heightForWidth(max(self.width(), 60)))

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.fit_height()


class SolverPanel(QtWidgets.QWidget):
    config_edited = QtCore.Signal(object)  # a valid SolverConfig
    warm_start_changed = QtCore.Signal(bool)
    cost_requested = QtCore.Signal()  # the cost matrix editor

    def __init__(self, config: SolverConfig, n_points: int = 0, parent=None):
        super().__init__(parent)
        self._n_points = n_points
        form = QtWidgets.QFormLayout(self)
        self.problem = WrappedLabel()
        self.problem.setWordWrap(True)
        self.problem.setToolTip(
            "two classes: binary hinge loss; three or more: Crammer–Singer multiclass "
            "(switched on automatically by the classes that have points)"
        )
        form.addRow("Problem", self.problem)
        self.cost_button = QtWidgets.QPushButton("Cost matrix Δ…")
        self.cost_button.setToolTip(
            "Δ(y′, y) of the multiclass hinge loss (rows: true class; default 0-1)"
        )
        self.cost_button.clicked.connect(self.cost_requested)
        form.addRow("", self.cost_button)
        self.combos: dict[str, QtWidgets.QComboBox] = {}
        for name, label, options, tip in CHOICES:
            combo = QtWidgets.QComboBox()
            combo.addItems(list(options))
            combo.setToolTip(tip)
            combo.currentTextChanged.connect(self._on_edit)
            form.addRow(label, combo)
            self.combos[name] = combo

        lam_row = QtWidgets.QHBoxLayout()
        self.lam_slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.lam_slider.setRange(0, (LAM_MAX_EXP - LAM_MIN_EXP) * LAM_STEPS_PER_DECADE)
        self.lam_slider.setToolTip("λ on a log scale: more λ, a wider margin (C = 1/(λm))")
        self.lam_field = QtWidgets.QLineEdit()
        self.lam_field.setToolTip(LAM_TIP)
        self.lam_field.setMaximumWidth(90)
        lam_row.addWidget(self.lam_slider, 1)
        lam_row.addWidget(self.lam_field)
        form.addRow("λ", lam_row)
        self.c_label = QtWidgets.QLabel()
        self.c_label.setToolTip("the same problem in libsvm's form: ½‖w‖² + C Σ ξ_i")
        form.addRow("C = 1/(λm)", self.c_label)
        self.lam_slider.valueChanged.connect(self._on_lam_slider)
        self.lam_field.editingFinished.connect(self._on_edit)

        self.fields: dict[str, QtWidgets.QLineEdit] = {}
        for name, tip in (
            ("eta", "the base step size of the constant, η₀/t and η₀/√t schedules"),
            ("radius", "project onto ‖w‖ ≤ B (empty: √(Δmax/λ) = 1/√λ for Pegasos)"),
            ("gamma", "kernel scale: exp(−γ‖x−z‖²), (γ⟨x,z⟩+c₀)^d, tanh(γ⟨x,z⟩+c₀)"),
            ("coef0", "kernel offset of poly and sigmoid"),
        ):
            f = QtWidgets.QLineEdit()
            f.setToolTip(tip)
            f.editingFinished.connect(self._on_edit)
            self.fields[name] = f
        self.kernel = QtWidgets.QComboBox()
        self.kernel.addItems(list(KERNELS))
        self.kernel.setToolTip("k(x, z): linear, polynomial, Gaussian (rbf) or sigmoid")
        self.kernel.currentTextChanged.connect(self._on_edit)
        form.addRow("Kernel", self.kernel)
        form.addRow("γ", self.fields["gamma"])
        self.degree = QtWidgets.QSpinBox()
        self.degree.setRange(1, 10)
        self.degree.setToolTip("degree d of the polynomial kernel")
        self.degree.valueChanged.connect(self._on_edit)
        form.addRow("Degree d", self.degree)
        form.addRow("c₀ (coef0)", self.fields["coef0"])
        form.addRow("η₀", self.fields["eta"])
        self.batch = QtWidgets.QSpinBox()
        self.batch.setRange(1, 100000)
        self.batch.setToolTip("k examples per stochastic step (Pegasos' mini-batch)")
        self.batch.valueChanged.connect(self._on_edit)
        form.addRow("Batch k", self.batch)
        self.project = QtWidgets.QCheckBox("project onto ‖w‖ ≤ B")
        self.project.setToolTip("projected (sub)gradient steps " + cite("002: projected gradient"))
        self.project.toggled.connect(self._on_edit)
        form.addRow(self.project)
        form.addRow("Radius B", self.fields["radius"])
        self.iterations = QtWidgets.QSpinBox()
        self.iterations.setRange(1, MAX_ITERATIONS)
        self.iterations.setSingleStep(1000)
        self.iterations.setToolTip("the iteration budget T")
        self.iterations.valueChanged.connect(self._on_edit)
        form.addRow("Iterations T", self.iterations)
        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip("the random seed: the same seed replays the same run")
        self.seed.valueChanged.connect(self._on_edit)
        form.addRow("Seed", self.seed)
        self.warm = QtWidgets.QCheckBox("warm start after edits")
        self.warm.setToolTip(
            "after an edit of the points or of λ, go on from the current w and t instead of "
            "restarting from w = 0 (when the problem keeps its shape)"
        )
        self.warm.toggled.connect(self.warm_start_changed)
        form.addRow(self.warm)
        self.error = QtWidgets.QLabel()
        self.error.setWordWrap(True)
        style.tint(self.error, text=style.ERROR_COLOR)
        form.addRow(self.error)
        self._config = config
        self._lam_used: float | None = None  # a hard margin's λ, from the exact solution
        self._lam_hard_shown = False  # the λ field shows that λ, not the λ setting
        self.set_config(config)

    # ------------------------------------------------------------------ config → widgets
    def config(self) -> SolverConfig:
        """The configuration the widgets show (the last valid one)."""
        return self._config

    def set_config(self, config: SolverConfig) -> None:
        if config.margin == "hard" and self._config.margin != "hard":
            self._lam_used = None  # (another problem's)
        self._config = config
        widgets = [
            *self.combos.values(),
            self.lam_slider,
            self.lam_field,
            self.kernel,
            self.degree,
            self.batch,
            self.project,
            self.iterations,
            self.seed,
            *self.fields.values(),
        ]
        for w in widgets:
            w.blockSignals(True)
        try:
            for name, combo in self.combos.items():
                combo.setCurrentText(getattr(config, name))
            self._show_lam(config.lam)
            self.kernel.setCurrentText(config.kernel.name)
            self.fields["gamma"].setText(f"{config.kernel.gamma:g}")
            self.fields["coef0"].setText(f"{config.kernel.coef0:g}")
            self.degree.setValue(int(config.kernel.degree))
            self.fields["eta"].setText(f"{config.eta:g}")
            self.fields["radius"].setText("" if config.radius is None else f"{config.radius:g}")
            self.batch.setValue(config.batch)
            self.project.setChecked(config.project)
            self.iterations.setValue(config.iterations)
            self.seed.setValue(config.seed)
        finally:
            for w in widgets:
                w.blockSignals(False)
        self._update_enabled()
        self.error.setText("")

    def set_n_points(self, n: int) -> None:
        self._n_points = n
        self._show_c(self._config.lam)

    def set_problem(self, n_classes: int, custom_cost: bool = False) -> None:
        """Say which problem the classes with points make; Δ applies to multiclass only."""
        if n_classes < 2:
            text = "– (points of two classes needed)"
        elif n_classes == 2:
            text = "binary (2 classes)"
        else:
            cost = "custom Δ" if custom_cost else "0-1 cost"
            text = f"multiclass, Crammer–Singer ({n_classes} classes, {cost})"
        self.problem.setText(text)
        self.problem.fit_height()
        self.cost_button.setEnabled(n_classes >= 3)

    def show_lam_used(self, lam: float | None) -> None:
        """The λ a hard margin is solved with (None: not known yet); shown greyed in the λ
        field while the margin is hard, so the panel says the λ the step inspector, `svmviz
        train` and the model file say."""
        if lam != self._lam_used:
            self._lam_used = lam
            if self._lam_hard_shown:
                self._show_lam_quietly(self._config.lam)

    def _show_lam_quietly(self, lam: float) -> None:
        blocked = self.lam_slider.blockSignals(True)
        try:
            self._show_lam(lam)
        finally:
            self.lam_slider.blockSignals(blocked)

    def _show_lam(self, lam: float) -> None:
        """The λ setting, or with a hard margin the λ used (the setting is kept)."""
        self._lam_hard_shown = self._config.margin == "hard"
        if self._lam_hard_shown:
            used = self._lam_used
            self.lam_field.setText("" if used is None else f"{used:.3g}")
            self.lam_field.setPlaceholderText(HARD_MARGIN_LAM)
            self.lam_field.setToolTip(HARD_LAM_TIP)
            lam = used if used is not None else lam  # the slider's position
        else:
            self.lam_field.setText(f"{lam:g}")
            self.lam_field.setPlaceholderText("")
            self.lam_field.setToolTip(LAM_TIP)
        if lam > 0:
            pos = (math.log10(lam) - LAM_MIN_EXP) * LAM_STEPS_PER_DECADE
            self.lam_slider.setValue(int(round(min(max(pos, 0), self.lam_slider.maximum()))))
        else:
            self.lam_slider.setValue(0)
        self._show_c(lam)

    def _show_c(self, lam: float) -> None:
        m = self._n_points
        if self._config.margin == "hard":
            self.c_label.setText("∞ (hard margin)")
        elif lam == 0:
            self.c_label.setText("∞ (λ = 0)")
        else:
            self.c_label.setText(f"{1 / (lam * m):.4g}" if m else "–")

    def _update_enabled(self) -> None:
        cfg = self._config
        kernel = cfg.kernel.name
        self.fields["gamma"].setEnabled(kernel != "linear")
        self.degree.setEnabled(kernel == "poly")
        self.fields["coef0"].setEnabled(kernel in ("poly", "sigmoid"))
        stochastic = cfg.algorithm != "gd"
        self.batch.setEnabled(stochastic)
        self.combos["sampling"].setEnabled(stochastic)
        self.combos["schedule"].setEnabled(cfg.algorithm != "pegasos")
        self.fields["eta"].setEnabled(cfg.algorithm != "pegasos")
        hard = cfg.margin == "hard"
        self.lam_slider.setEnabled(not hard)
        self.lam_field.setEnabled(not hard)

    # ------------------------------------------------------------------ widgets → config
    def _on_lam_slider(self, value: int) -> None:
        lam = 10 ** (LAM_MIN_EXP + value / LAM_STEPS_PER_DECADE)
        self.lam_field.setText(f"{lam:.3g}")
        self._on_edit()

    def _read(self) -> SolverConfig:
        def number(name, text):
            try:
                return float(text)
            except ValueError:
                raise InputError(f"{name}: {text!r} is not a number") from None

        radius_text = self.fields["radius"].text().strip()
        kernel = Kernel(
            self.kernel.currentText(),
            number("γ", self.fields["gamma"].text()),
            self.degree.value(),
            number("coef0", self.fields["coef0"].text()),
        )
        return SolverConfig(
            **{name: combo.currentText() for name, combo in self.combos.items()},
            # the field shows a hard margin's λ: the setting is the one kept
            lam=self._config.lam if self._lam_hard_shown else number("λ", self.lam_field.text()),
            kernel=kernel,
            cost=self._config.cost,
            eta=number("η₀", self.fields["eta"].text()),
            batch=self.batch.value(),
            project=self.project.isChecked(),
            radius=None if not radius_text else number("B", radius_text),
            iterations=self.iterations.value(),
            tol=self._config.tol,
            seed=self.seed.value(),
        )

    def _on_edit(self, *_) -> None:
        try:
            config = self._read()
        except InputError as exc:
            self.error.setText(str(exc))
            return
        self.error.setText("")
        if config.margin == "hard" and self._config.margin != "hard":
            self._lam_used = None  # (another problem's)
        self._config = config
        if self._lam_hard_shown or config.margin == "hard":
            self._show_lam_quietly(config.lam)  # the setting, or the hard margin's λ
        self._show_c(config.lam)
        self._update_enabled()
        self.config_edited.emit(config)
