"""The solver panel: every choice of the engine, bound to the session's SolverConfig.

Widgets → config: any change builds a new SolverConfig; a bad number or an impossible
setting (λ = 0 with Pegasos, say) is not applied: the control shows what is in force again,
marked, with the reason in red right under it. Config → widgets: set with the widgets'
signals blocked, so that nothing echoes back (napari's binding pattern).

λ has a field (exact) and a slider on its own row below (svmviz.ui.panels.lam_slider's scale)
with λ = 0 at its left end where the algorithm allows it; a typed λ moves the knob
(clamped at the ends, the field stays exact).

The problem (svc, ν-SVC, one-class, ε-SVR, ν-SVR), the binary and the multiclass loss come
first, with ε and ν where the problem has them; the controls a problem has no use for are
hidden (the losses, ε, ν, λ) or disabled (the bias of one-class), and a choice that would
make no problem is not offered (a hard margin is a hinge-loss svc). The options and each
one's objective (its tooltip) are read from the loss modules, never re-typed here
(svmviz.ui.panels.solver_choices, whose tables the race table shares).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from svmviz.core.config import (
    ALGORITHMS,
    HARD_MARGIN_LAM,
    MARGINS,
    NU_SCALED,
    SolverConfig,
)
from svmviz.core.errors import InputError
from svmviz.core.kernels import KERNELS, Kernel
from svmviz.core.limits import BOUNDS, Bound
from svmviz.core.solvers import losses
from svmviz.core.sources import cite
from svmviz.core.training import settings_used
from svmviz.ui import style
from svmviz.ui.panels.choice_box import ChoiceBox
from svmviz.ui.panels.lam_slider import (
    HARD_LAM_TIP,
    LAM_MAX_EXP,
    LAM_MIN_EXP,
    LAM_STEPS_PER_DECADE,
    LAM_TIP,
    lam_at,
    lam_position,
)
from svmviz.ui.panels.number_field import NumberField
from svmviz.ui.panels.solver_choices import (
    CHOICES,
    PROBLEM_CHOICES,
    hard_allowed,
    objective_tip,
    problem_words,
    takes_cost,
)
from svmviz.ui.panels.wrapped_label import WrappedLabel

DEFAULTS = SolverConfig()  # the losses and margin of the problems that have no choice of them


class SolverPanel(QtWidgets.QWidget):
    config_edited = QtCore.Signal(object)  # a valid SolverConfig
    warm_start_changed = QtCore.Signal(bool)
    cost_requested = QtCore.Signal()  # the cost matrix editor

    def __init__(self, config: SolverConfig, n_points: int = 0, parent=None):
        super().__init__(parent)
        self._n_points = n_points
        self.form = form = QtWidgets.QFormLayout(self)
        self._messages: dict[QtWidgets.QWidget, WrappedLabel] = {}  # under their control
        self.combos: dict[str, QtWidgets.QComboBox] = {}
        self._problem_words: tuple | None = None  # set_problem's (what the points make)
        for name, label, options, tip in PROBLEM_CHOICES:
            combo = ChoiceBox()
            combo.add_options(options)
            for i, option in enumerate(options):  # each option's objective, from its module
                combo.setItemData(i, objective_tip(option), QtCore.Qt.ItemDataRole.ToolTipRole)
            combo.setToolTip(tip)
            self._edits(combo.currentTextChanged, combo)
            self._add_row(label, combo)
            self.combos[name] = combo
            if name == "problem":
                self.problem = WrappedLabel()  # what the points make of the problem
                self.problem.setToolTip(
                    "svc: two classes with points make a binary problem (the binary loss), "
                    "three or more a multiclass one (the multiclass loss)"
                )
                form.addRow(self.problem)
        self.nu_fields: dict[str, NumberField] = {
            "epsilon": NumberField("ε", BOUNDS["epsilon"]),
            "nu": NumberField("ν", BOUNDS["nu"]),
        }
        for name, label, tip in (
            (
                "epsilon",
                "ε (tube)",
                "the half-width of the tube: points within ε of f cost nothing",
            ),
            (
                "nu",
                "ν",
                "at the optimum, ν bounds the share of errors from above and the share of "
                "support vectors from below (ν-SVC: margin errors; one-class: outliers; "
                "ν-SVR: points outside the tube, whose ε it learns); the status line gives "
                "the optimum's shares",
            ),
        ):
            field = self.nu_fields[name]
            field.setToolTip(f"{tip}; {field.rule()}")
            self._edits(field.editingFinished, field)
            self._add_row(label, field)
        self.cost_button = QtWidgets.QPushButton("Cost matrix Δ…")
        self.cost_button.setToolTip(
            "Δ(y′, y) of the multiclass hinge losses (rows: true class; default 0-1)"
        )
        self.cost_button.clicked.connect(self.cost_requested)
        form.addRow("", self.cost_button)
        for name, label, options, tip in CHOICES:
            combo = ChoiceBox()
            combo.add_options(options)
            combo.setToolTip(tip)
            self._edits(combo.currentTextChanged, combo)
            self._add_row(label, combo)
            self.combos[name] = combo
            if name == "schedule":
                self.step_words = WrappedLabel()  # the step in force (what auto is)
                self.step_words.setToolTip(settings_used.PEGASOS_WORDS)
                form.addRow(self.step_words)
        tip = QtCore.Qt.ItemDataRole.ToolTipRole
        words = settings_used.PEGASOS_WORDS
        self.combos["algorithm"].setItemData(ALGORITHMS.index("pegasos"), words, tip)

        self.lam_field = NumberField("λ", BOUNDS["lam"])
        self.lam_field.setToolTip(LAM_TIP)
        self._edits(self.lam_field.editingFinished, self.lam_field)
        self._add_row("λ", self.lam_field)
        # its own row, the panel's width: a few pixels a step, a decade between ticks
        self.lam_slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.lam_slider.setRange(0, lam_position(10.0**LAM_MAX_EXP))
        self.lam_slider.setTickPosition(QtWidgets.QSlider.TickPosition.TicksBelow)
        self.lam_slider.setTickInterval(LAM_STEPS_PER_DECADE)
        self.lam_slider.setPageStep(LAM_STEPS_PER_DECADE)
        self.lam_slider.setToolTip(
            f"λ on a log scale, 1e{LAM_MIN_EXP} to 1e{LAM_MAX_EXP} (ticks: decades; the left "
            "end: λ = 0, for gd and sgd): more λ, a wider margin (C = 1/(λm)). The field "
            f"above takes λ = 0 or from {BOUNDS['lam'].low:g} to {BOUNDS['lam'].high:g}"
        )
        self.lam_slider.valueChanged.connect(self._on_lam_slider)
        self.lam_slider.sliderPressed.connect(self._end_drag)
        self.continuing = False  # the edit emitted continues the last (a drag of the slider)
        self._dragged = False  # the slider's last edit was made while dragging it
        self._add_row(None, self.lam_slider)
        self.c_label = QtWidgets.QLabel()
        self.c_label.setToolTip("the same problem in libsvm's form: ½‖w‖² + C Σ ξ_i")
        form.addRow("C = 1/(λm)", self.c_label)
        self._lam_rows = (self.lam_field, self.lam_slider, self.c_label)

        self.fields: dict[str, NumberField] = {}
        for name, field, tip in (
            (
                "eta",
                NumberField("η₀", BOUNDS["eta"]),
                "the base step size of the constant, η₀/t and η₀/√t schedules",
            ),
            (
                "radius",
                NumberField("B", BOUNDS["radius"], empty="√(Δmax/λ)"),
                "project onto ‖w‖ ≤ B (empty: √(Δmax/λ) = 1/√λ for Pegasos)",
            ),
            (
                "gamma",
                NumberField("γ", BOUNDS["gamma"]),
                "kernel scale: exp(−γ‖x−z‖²), (γ⟨x,z⟩+c₀)^d, tanh(γ⟨x,z⟩+c₀)",
            ),
            ("coef0", NumberField("c₀", BOUNDS["coef0"]), "kernel offset of poly and sigmoid"),
        ):
            field.setToolTip(f"{tip}; {field.rule()}")
            self._edits(field.editingFinished, field)
            self.fields[name] = field
        self.kernel = ChoiceBox()
        self.kernel.addItems(list(KERNELS))
        self.kernel.setToolTip("k(x, z): linear, polynomial, Gaussian (rbf) or sigmoid")
        self._edits(self.kernel.currentTextChanged, self.kernel)
        self._add_row("Kernel", self.kernel)
        self._add_row("γ", self.fields["gamma"])
        self.degree = self._spin(BOUNDS["degree"], "degree d of the polynomial kernel")
        self._add_row("Degree d", self.degree)
        self._add_row("c₀ (coef0)", self.fields["coef0"])
        self._add_row("η₀", self.fields["eta"])
        self.batch = self._spin(
            BOUNDS["batch"], "k examples per stochastic step (Pegasos' mini-batch)"
        )
        self._add_row("Batch k", self.batch)
        self.project = QtWidgets.QCheckBox("project onto ‖w‖ ≤ B")
        self.project.setToolTip("projected (sub)gradient steps " + cite("002: projected gradient"))
        self._edits(self.project.toggled, self.project)
        self._add_row(None, self.project)
        self._add_row("Radius B", self.fields["radius"])
        self.iterations = self._spin(BOUNDS["iterations"], "the iteration budget T")
        self.iterations.setSingleStep(1000)
        self._add_row("Iterations T", self.iterations)
        self.seed = self._spin(
            BOUNDS["seed"], "the random seed: the same seed replays the same run"
        )
        self._add_row("Seed", self.seed)
        self.warm = QtWidgets.QCheckBox("warm start after edits")
        self.warm.setToolTip(
            "after an edit of the points or of λ, go on from the current w and t instead of "
            "restarting from w = 0 (when the problem keeps its shape)"
        )
        self.warm.toggled.connect(self.warm_start_changed)
        form.addRow(self.warm)
        self._config = config
        self._lam_used: float | None = None  # a hard margin's λ, from the exact solution
        self._lam_hard_shown = False  # the λ field shows that λ, not the λ setting
        self.set_config(config)

    def _add_row(self, label: str | None, widget: QtWidgets.QWidget) -> None:
        """A row of the form (the whole width without a label), and under it the row of
        the message that says why an edit of ``widget`` was not applied (hidden)."""
        if label is None:
            self.form.addRow(widget)
        else:
            self.form.addRow(label, widget)
        message = WrappedLabel()
        style.tint(message, text=style.ERROR_COLOR)
        self.form.addRow(message)
        self.form.setRowVisible(message, False)
        self._messages[widget] = message

    def _spin(self, bound: Bound, tip: str) -> QtWidgets.QSpinBox:
        """A spin box for a whole number within ``bound`` (it cannot hold another); its
        value is applied on Enter, on leaving it or on its arrows, not at each digit typed."""
        low, high = int(bound.low), int(bound.high)
        spin = QtWidgets.QSpinBox()
        spin.setRange(low, high)
        spin.setKeyboardTracking(False)
        spin.setToolTip(f"{tip} ({low:,} to {high:,})")
        self._edits(spin.valueChanged, spin)
        return spin

    def _edits(self, signal, widget) -> None:
        signal.connect(lambda *_: self._on_edit(widget))

    def message(self, widget: QtWidgets.QWidget) -> str:
        """The message shown under ``widget`` ("" if none)."""
        label = self._messages[widget]
        return label.text() if self.form.isRowVisible(label) else ""

    def _show_message(self, widget, text: str) -> None:
        for other, label in self._messages.items():
            shown = other is widget and bool(text)
            label.setText(text if shown else "")
            self.form.setRowVisible(label, shown)
            if shown:
                label.fit_height()

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
            *self.nu_fields.values(),
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
                if name in ("loss", "multiclass") and config.problem != "svc":
                    continue  # (hidden: they keep the svc's losses for a switch back)
                combo.set_value(getattr(config, name))
            for name, field in self.nu_fields.items():
                field.show_value(getattr(config, name))
            self._update_enabled()
            self._show_lam(config.lam)
            self.kernel.setCurrentText(config.kernel.name)
            self.fields["gamma"].show_value(config.kernel.gamma)
            self.fields["coef0"].show_value(config.kernel.coef0)
            self.degree.setValue(int(config.kernel.degree))
            self.fields["eta"].show_value(config.eta)
            self.fields["radius"].show_value(config.radius)
            self.batch.setValue(config.batch)
            self.project.setChecked(config.project)
            self.iterations.setValue(config.iterations)
            self.seed.setValue(config.seed)
        finally:
            for w in widgets:
                w.blockSignals(False)
        self._show_message(None, "")
        if self._problem_words is not None:
            self.set_problem(*self._problem_words)

    def set_n_points(self, n: int) -> None:
        self._n_points = n
        self._show_c(self._config.lam)

    def set_problem(self, n_classes: int, custom_cost: bool = False, targets: bool = False) -> None:
        """Say which problem the points make under the problem in force (``n_classes``: the
        classes with points; ``targets``: the points carry targets, a 2-D regression); the
        binary loss applies to two classes, the multiclass loss to more, Δ to the
        multiclass losses that take it."""
        self._problem_words = (n_classes, custom_cost, targets)
        cfg = self._config
        text = problem_words(cfg, n_classes, custom_cost, targets)
        self.problem.setText(text)
        self.problem.fit_height()
        self.cost_button.setEnabled(n_classes >= 3 and takes_cost(cfg))
        # the loss not in force is greyed (kept, for when a class is added or removed)
        self.combos["loss"].setEnabled(n_classes <= 2)
        self.combos["multiclass"].setEnabled(n_classes != 2)
        in_force = losses.module_for(cfg, max(n_classes, 2)).NAME
        self.combos["problem"].setToolTip(f"what to learn; in force: {objective_tip(in_force)}")

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
        """The λ setting, or with a hard margin the λ used (the setting is kept); the slider
        where that λ is (at its nearest end beyond its range)."""
        self._lam_hard_shown = self._config.margin == "hard"
        field = self.lam_field
        if self._lam_hard_shown:
            used = self._lam_used
            field.show_value(used, "" if used is None else f"{used:.3g}")
            field.setPlaceholderText(HARD_MARGIN_LAM)
            field.setToolTip(HARD_LAM_TIP)
            lam = used if used is not None else lam  # the slider's position
        else:
            field.show_value(lam)
            field.setPlaceholderText("")
            field.setToolTip(LAM_TIP)
        self.lam_slider.setValue(lam_position(lam))
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
        ignored = settings_used.ignored(cfg)
        for name, widget in self._training_controls().items():
            widget.setEnabled(name not in ignored)
        self.step_words.setText(settings_used.step_rule(cfg))
        self.step_words.fit_height()
        hard = cfg.margin == "hard"
        self.lam_slider.setEnabled(not hard)
        self.lam_field.setEnabled(not hard)
        svc = cfg.problem == "svc"
        for widget in (self.combos["loss"], self.combos["multiclass"], self.cost_button):
            self.form.setRowVisible(widget, svc)
        parameters = losses.parameters_of(cfg.problem)
        for name, field in self.nu_fields.items():
            self.form.setRowVisible(field, name in parameters)
        for widget in self._lam_rows:  # (ν-SVC and one-class: ½‖w‖², no λ)
            self.form.setRowVisible(widget, cfg.problem not in NU_SCALED)
        self.combos["bias"].setEnabled(cfg.kind != "one-class")  # (ρ is its offset)
        # a hard margin only where it makes a problem (a hinge-loss svc)
        model = self.combos["margin"].model()
        model.item(MARGINS.index("hard")).setEnabled(hard or hard_allowed(cfg))
        # λ = 0 (the slider's left end) only where the algorithm takes it
        blocked = self.lam_slider.blockSignals(True)
        self.lam_slider.setMinimum(1 if cfg.algorithm == "pegasos" else 0)
        self.lam_slider.blockSignals(blocked)

    def _training_controls(self) -> dict:
        """The controls of the settings that svmviz.core.training.settings_used.ignored may name."""
        return {
            "schedule": self.combos["schedule"],
            "sampling": self.combos["sampling"],
            "batch": self.batch,
            "seed": self.seed,
            "eta": self.fields["eta"],
            "radius": self.fields["radius"],
        }

    # ------------------------------------------------------------------ widgets → config
    def _on_lam_slider(self, position: int) -> None:
        self.lam_field.show_value(float(f"{lam_at(position):.3g}"))  # (its position again)
        self._on_edit(self.lam_slider)
        self._dragged = self.lam_slider.isSliderDown()

    def _end_drag(self) -> None:
        self._dragged = False  # (a new press of the slider: a new edit)

    def _read(self) -> SolverConfig:
        fields = self.fields
        kernel = Kernel(
            self.kernel.currentText(),
            fields["gamma"].value(),
            self.degree.value(),
            fields["coef0"].value(),
        )
        choices = {name: combo.value() for name, combo in self.combos.items()}
        if choices["problem"] != "svc":  # (their losses are the problem's own)
            choices.update(loss=DEFAULTS.loss, multiclass=DEFAULTS.multiclass)
        settings = dict(
            **choices,
            epsilon=self.nu_fields["epsilon"].value(),
            nu=self.nu_fields["nu"].value(),
            # the field shows a hard margin's λ: the setting is the one kept
            lam=self._config.lam if self._lam_hard_shown else self.lam_field.value(),
            kernel=kernel,
            cost=self._config.cost,
            eta=fields["eta"].value(),
            batch=self.batch.value(),
            project=self.project.isChecked(),
            radius=fields["radius"].value(),
            iterations=self.iterations.value(),
            tol=self._config.tol,
            seed=self.seed.value(),
        )
        try:
            return SolverConfig(**settings)
        except InputError:
            if settings["margin"] != "hard":
                raise
            # a problem or loss chosen that has a soft margin only: the margin follows
            settings["margin"] = "soft"
            return SolverConfig(**settings)

    def _on_edit(self, source: QtWidgets.QWidget) -> None:
        """An edit of ``source``: applied if the configuration it makes is valid; if not,
        every control shows what is in force again, and ``source`` says why, marked."""
        try:
            config = self._read()
        except InputError as exc:
            self.set_config(self._config)
            if isinstance(source, NumberField):
                source.set_marked(True)
            self._show_message(source, f"{exc}. Not applied: {self._in_force(source)}")
            return
        self._show_message(None, "")
        if config.margin == "hard" and self._config.margin != "hard":
            self._lam_used = None  # (another problem's)
        self._config = config
        if self.combos["margin"].value() != config.margin:  # (set soft by the problem)
            blocked = self.combos["margin"].blockSignals(True)
            self.combos["margin"].set_value(config.margin)
            self.combos["margin"].blockSignals(blocked)
        self._update_enabled()
        self._show_lam_quietly(config.lam)  # the field exact, the slider where it is
        if self._problem_words is not None:
            self.set_problem(*self._problem_words)
        self.continuing = source is self.lam_slider and self._dragged
        self.config_edited.emit(config)

    def _in_force(self, source) -> str:
        """What stays in force after a refused edit of ``source``, in words."""
        if source in (self.lam_field, self.lam_slider):
            return f"λ = {self._config.lam:g} is kept"
        return "the settings in force are kept"
