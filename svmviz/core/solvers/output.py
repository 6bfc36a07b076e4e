"""The Solver's output: the model it reports (the averaged iterate or the last one), its
values on the training points and its exact telemetry, from the scores and ‖w‖² the solver
keeps (O(mK), no kernel evaluated). A base of :class:`~.iterative.Solver`: reading the
state, never stepping it.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.model_io import Model
from svmviz.core.solvers._fitted import Fitted


class Output(Fitted):
    """The output model of a :class:`~.iterative.Solver` and what is computed from it."""

    def _averaged(self, iterate: bool = False) -> bool:
        """Whether the model reported is the average (the output) or the last iterate."""
        return self.config.average != "last" and not iterate

    def _output_params(self, iterate: bool = False) -> np.ndarray:
        avg = self._averaged(iterate)
        st = self.state_
        if self.linear_:
            return st.Wbar if avg else st.W * st.scal[0]
        return st.Abar if avg else st.A * st.scal[0]

    def model(self, iterate: bool = False, objective: bool = True) -> Model:
        """The current output model (the averaged iterate if averaging), as a Model; with
        ``iterate``, the last iterate w_t instead (what a step moves). ``objective``: with
        the output's objective in its ``extra`` (when it is the output)."""
        cfg = self.config
        avg = self._averaged(iterate)
        b, off = self._offsets(iterate)
        params = self._output_params(iterate).copy()
        extra = {"iterations": int(self.t_)}
        output = avg == (cfg.average != "last")  # the telemetry's model
        if objective and len(self.history_) and output:
            extra["objective"] = float(self.history_["objective"][-1])
            if np.isnan(extra["objective"]) and self.record is not True:
                extra["objective"] = self.output_objective()
        if self.exact_step_ is not None and avg == (cfg.average != "last"):
            extra["exact_step"] = self.exact_step_.to_dict()
            extra["objective"] = self.exact_objective()
            if len(self.history_):  # (the history's last row: the output before the step)
                extra["objective_before_exact_step"] = float(self.history_["objective"][-1])
        kind = cfg.kind
        common = dict(
            classes=self.data_.classes if kind == "svc" else (),  # (one-class ignores labels)
            kernel=cfg.kernel,
            lam=self.lam_,
            bias=self.bias_,
            cost=self.problem_.cost.copy() if hasattr(self.settings_.loss, "cost") else None,
            extra=extra,
            problem=cfg.problem,
            **self._model_fields(off),
        )
        if kind == "one-class":  # f = ⟨w, φ(x)⟩ − ρ
            b = b - off[0]
        if self.linear_:
            d = self.d_
            intercept = params[:, d].copy() if self.bias_ == "regularized" else b
            return Model(coef=params[:, :d].copy(), intercept=intercept, **common)
        intercept = params.sum(axis=1) if self.bias_ == "regularized" else b
        sv = np.flatnonzero(np.any(params != 0, axis=0))
        return Model(
            support_vectors=self.data_.X[sv].copy(),
            dual_coef=params[:, sv].copy(),
            intercept=intercept,
            **common,
        )

    def _model_fields(self, off) -> dict:
        """The Model's loss (the module's MODEL_LOSS, else its name), and ε, ν, ρ where the
        problem has them: a parameter of the loss, or an offset it learns (OFFSETS)."""
        params, learned = self.settings_.loss, self.loss_.OFFSETS
        fields = dict(loss=self.loss_.MODEL_LOSS)
        fields["rho"] = float(off[0]) if "rho" in learned else None
        fields["epsilon"] = (
            float(off[1]) if "epsilon" in learned else getattr(params, "epsilon", None)
        )
        fields["nu"] = getattr(params, "nu", None)
        return fields

    def output_objective(self) -> float:
        """The output model's objective (what the history records at every step), exact,
        from the scores and ‖w‖² the solver keeps: O(mK), no kernel evaluated."""
        return self._exact_telemetry()["objective"]

    def exact_last_row(self, F: np.ndarray | None = None) -> None:
        """The history's last row made exact where the telemetry left it NaN (record False,
        or between checkpoints): the output's objective, loss and error, as the loop records
        them. For a run's end, the stopping rule's checks and each of the window's frames
        (:meth:`shared_history`). ``F``: the output's :meth:`training_values`, when the
        caller has them."""
        h = self.history_
        if not len(h) or not np.isnan(h["objective"][-1]):
            return
        values = self._exact_telemetry(F)
        for name in ("objective", "loss", "error"):
            h[name][-1] = values[name]

    def shared_history(self, F: np.ndarray | None = None) -> dict:
        """The history for another thread (a frame of the window): read-only views of its
        columns, the last row exact (``F`` as :meth:`exact_last_row` takes it). That row is
        new since the last frame, or was made exact then: no row handed out is written
        again."""
        self.exact_last_row(F)
        return self.history_.views()

    def _exact_telemetry(self, F: np.ndarray | None = None) -> dict:
        """The output's objective (scaled as the history's), mean loss and error, exact
        (``F``: the output's training values, computed here when None)."""
        from svmviz.core.objectives import scores_objective

        st, P = self.state_, self._output_params()
        if self.linear_:
            n2 = float(np.sum(P * P))
        elif self._averaged():
            n2 = float(np.sum(st.Abar * st.Sbar))
        else:
            n2 = float(np.sum(st.A * st.S)) * float(st.scal[0]) ** 2
        model = self.model(iterate=not self._averaged(), objective=False)
        data = self.data_
        F = self.training_values() if F is None else F
        values = scores_objective(model, F, data.y, data.target, n2)
        values["objective"] = float(values["objective"]) * self.objective_scale_
        return values

    def training_values(self, iterate: bool = False) -> np.ndarray:
        """The output model's f on the training points, from the scores the solver keeps
        (no kernel evaluation): (m,) for binary, (m, K) for multiclass. Equal to
        ``self.model(iterate).decision_function(data.X)`` up to rounding."""
        st, PhiT = self.state_, self.problem_.PhiT
        b, off = self._offsets(iterate)
        if self._averaged(iterate):
            F = st.Wbar @ PhiT if self.linear_ else st.Sbar
        else:
            sigma = st.scal[0]
            F = sigma * (st.W @ PhiT if self.linear_ else st.S)
        if self.config.kind == "one-class":
            b = b - off[0]
        F = (F + b[:, None]).T
        return F[:, 0] if self.n_out_ == 1 else F

    def _offsets(self, iterate: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Copies of (b, (ρ, ε)) of the output model, or of the iterate."""
        st = self.state_
        if self._averaged(iterate):
            return st.bbar.copy(), st.offbar.copy()
        return st.b.copy(), st.off.copy()

    def iterate(self) -> tuple[np.ndarray, np.ndarray]:
        """(params, b) of the current iterate w_t (not the average), as copies: K×p weights
        in the solver's features (linear) or K×m coefficients α on the training points."""
        return self._output_params(iterate=True).copy(), self.state_.b.copy()

    def training_alpha(self, iterate: bool = False) -> np.ndarray | None:
        """|α_i| summed over the outputs, per training point, for kernel models (the size of
        each support vector's ring); None for linear models."""
        if self.linear_:
            return None
        return np.abs(self._output_params(iterate)).sum(axis=0)

    def decision_function(self, X) -> np.ndarray:
        return self.model().decision_function(X)

    def predict(self, X) -> np.ndarray:
        return self.model().predict(X)
