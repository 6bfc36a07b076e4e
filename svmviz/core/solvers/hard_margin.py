"""A hard margin's end of run: its budget, which adapts (HARD_GAP), and its last exact step
(:mod:`.feasible`: b re-centred, w rescaled so that min y f = 1; recorded in
``exact_step_``). A base of :class:`~.iterative.Solver`, which calls these when it stops.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.config import MAX_ITERATIONS
from svmviz.core.solvers import feasible
from svmviz.core.solvers._fitted import Fitted

# a hard margin goes on past its budget until its margin, after the last exact step
# (feasible.py), is within HARD_GAP of the maximum, for at most HARD_BUDGETS budgets
HARD_GAP = 0.01
HARD_BUDGETS = 40


class HardMargin(Fitted):
    """The budget and the last exact step of a hard margin's run."""

    def _extend_budget(self) -> bool:
        """At the budget of a hard margin whose margin after the exact step would still be
        more than HARD_GAP below the maximum: one more budget (at most HARD_BUDGETS in
        all); whether it was given."""
        if self.optimum_ is None or not len(self.history_):
            return False
        iterations = self.config.iterations
        cap = min(HARD_BUDGETS * iterations, MAX_ITERATIONS)  # (each keeps a telemetry row)
        if self.margin_ratio() >= 1.0 - HARD_GAP or self.budget_ + iterations > cap:
            return False
        self.budget_ += iterations
        return True

    def margin_ratio(self) -> float:
        """A hard margin's output after the exact step: its margin over the maximum
        1/√(2·optimum) (for a cost matrix Δ: √(optimum / its objective ½‖w‖²)); nan
        without the optimum, ≤ 0 when the output's w does not separate the data."""
        if self.optimum_ is None:
            return float("nan")
        _, t = self._recentred()
        norm = float(np.sqrt(max(self.model().norm2(), 0.0)))
        return t / norm * float(np.sqrt(2.0 * self.optimum_)) if norm > 0 else 0.0

    def exact_objective(self) -> float:
        """½‖w‖² of the output, the hard margin's objective ½‖w‖² + C Σ ξ on a feasible
        output (after the exact step)."""
        P = self._output_params()
        if self.linear_:
            return 0.5 * float(np.sum(P * P))
        return 0.5 * float(np.einsum("km,mn,kn->", P, self.problem_.G, P))

    def _recentred(self) -> tuple[np.ndarray, float]:
        """(b, t) of the exact step for the output now (:func:`feasible.recentred`)."""
        b, _ = self._offsets()
        F = self.training_values()
        return feasible.recentred(F, self.data_.y, self.problem_.cost, b, self.bias_ == "free")

    def _take_exact_step(self) -> None:
        """A hard margin's last exact step (:mod:`.feasible`), once, when the run stops:
        the output's b re-centred and w, b divided by t, so that min y f = 1; recorded in
        ``exact_step_``. Not taken when the output's w does not separate the data."""
        if self.config.margin != "hard" or self.exact_step_ is not None:
            return
        b, t = self._recentred()
        if not (np.isfinite(t) and t > 0):
            return
        before = self.model()
        F = self.training_values()
        norm = float(np.sqrt(max(before.norm2(), 0.0)))
        st = self.state_
        if self._averaged():
            for a in (st.Wbar, st.Abar, st.Sbar):
                a /= t
            b_before = st.bbar.copy()
            st.bbar[:] = b / t
        else:
            st.scal[0] /= t
            b_before = st.b.copy()
            st.b[:] = b / t
        self.exact_step_ = feasible.ExactStep(
            iteration=int(self.t_),
            scale=float(t),
            bias_before=tuple(float(v) for v in b_before),
            bias=tuple(float(v) for v in b / t),
            margin_before=feasible.least_margin(F, self.data_.y) / norm,
            margin=feasible.least_margin(self.training_values(), self.data_.y) * t / norm,
            broken_before=feasible.broken(F, self.data_.y, self.problem_.cost),
        )
