"""The results of the source texts, with the current data's numbers (svmviz.core.lesson.bounds)."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from svmviz.core.errors import InputError
from svmviz.core.lesson import bounds
from svmviz.core.lesson.generalization import TRAIN, subset
from svmviz.core.solvers import losses
from svmviz.core.sources import cite, cite_html
from svmviz.ui.views.reading import Pace, Reading


class TheoryPanel(QtWidgets.QWidget):
    epsilon_changed = QtCore.Signal(float)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("ε for Corollary 17.2:"))
        self.epsilon = QtWidgets.QDoubleSpinBox()
        self.epsilon.setDecimals(4)
        self.epsilon.setRange(1e-4, 10.0)
        self.epsilon.setSingleStep(0.01)
        self.epsilon.setValue(0.1)
        self.epsilon.setToolTip("the accuracy ε asked of SGD in " + cite("000: Corollary 17.2"))
        self.epsilon.valueChanged.connect(self.epsilon_changed)
        row.addWidget(self.epsilon)
        row.addStretch(1)
        layout.addLayout(row)
        self.text = QtWidgets.QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.text.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop)
        self.text.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.text, 1)
        self.loss_title = "hinge loss"  # the loss in force (its module's TITLE)

    def show_bounds(self, b, gap: float | None) -> None:
        """``b``: svmviz.core.lesson.bounds.Bounds; ``gap``: the current F(w̄) − F*."""
        rows = [
            f"<b>Rademacher complexity</b> {cite_html('002: risk bounds for SVMs')}: "
            f"(B/√n)·√(tr K/n) = ({b.B:.3g}/√{b.n})·"
            f"√({b.trace:.4g}/{b.n}) = <b>{b.rademacher:.4g}</b> &nbsp; with B = ‖w‖ of the "
            "current model: the complexity term of the risk bound for functions with ‖f‖ ≤ B",
        ]
        if b.rho is None:
            rows.append(
                f"<b>Corollary 17.2</b> {cite_html('000')} and <b>Pegasos</b> "
                f"{cite_html('002')} need a loss whose subgradients are bounded; the "
                f"{self.loss_title}'s grow with the slack, so neither bound applies"
            )
        if b.T_needed is not None:
            rows.append(
                f"<b>Corollary 17.2</b> {cite_html('000')}: with B = ‖w*‖ = {b.B_star:.3g} and ρ = "
                f"{b.rho:.3g} (the bound on the {self.loss_title}'s subgradients; largest "
                f"‖x‖ = {b.R:.3g}), "
                f"T ≥ B²ρ²/ε² = <b>{b.T_needed:,}</b> iterations with η = √(B²/(ρ²T)) = "
                f"{b.eta:.3g} reach E[F(w̄)] − F* ≤ ε = {b.epsilon:g} (for λ = 0)"
            )
        if b.pegasos is not None:
            text = (
                f"<b>Pegasos</b> {cite_html('002')}: after T = {b.T:,} steps, E[F(w̄)] − F* ≤ "
                f"G²(1 + ln T)/(2λT) = <b>{b.pegasos:.3g}</b> with G = 1 + ρ = "
                f"{1 + b.rho:.3g}, λ = {b.lam:.3g} — the O(G² log T/(λT)) of the text"
            )
            if gap is not None:
                text += f"; the gap here: {gap:.3g}"
            rows.append(text)
        self.text.setText("<br><br>".join(rows))

    def show_nothing(self) -> None:
        """No model to evaluate the results on (fewer than two classes, or no training)."""
        self.text.setText("The results are evaluated on a model: place points of two classes.")


def theory_reading(panel: TheoryPanel) -> Reading:
    """The Theory tab as a reading of the training: the results with the current ‖w‖, t
    and the training part's data (at w = 0 too: the data's numbers are the new data's)."""

    def show(snap, router) -> None:
        data = router.session.dataset()
        if data is None:
            return
        parts = router.state.parts
        if parts is not None and len(parts) == len(data.y):
            try:
                data = subset(data, np.flatnonzero(parts == TRAIN))
            except InputError:
                return
        config = router.session.config
        ref = snap.reference
        norms = snap.history["norm"]
        module = losses.module_for(config, data.n_classes)
        b = bounds.evaluate(
            data,
            config.kernel,
            config.bias,
            float(norms[-1]) if len(norms) else 0.0,  # ‖w‖ of w = 0 before the first step
            None if ref is None else float(np.sqrt(ref.model.norm2())),
            snap.model.lam,
            snap.t,
            panel.epsilon.value(),
            lambda R: module.subgradient_bound(R, data.n_classes, config),
        )
        panel.loss_title = module.TITLE
        objective = snap.history["objective"]
        gap = None if ref is None or not len(objective) else float(objective[-1] - ref.objective)
        panel.show_bounds(b, gap)

    return Reading(show, Pace.VISIBLE, panel, panel.show_nothing)
