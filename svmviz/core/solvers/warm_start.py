"""A warm start: a solver goes on from another's output (on edited points, or with other
parameters) instead of w = 0, at its iteration t. A base of :class:`~.iterative.Solver`:
``warm_state`` of one solver is what ``warm_from`` of the next takes.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.solvers._fitted import Fitted
from svmviz.core.solvers._state import carry_over


class WarmStart(Fitted):
    """What a warm start carries, and how a solver just reset takes it."""

    def warm_state(self) -> dict:
        """What a warm start needs: the output model's parameters, the iteration t, and the
        points and classes they belong to."""
        avg = self.config.average != "last"
        return dict(
            linear=self.linear_,
            p=self.problem_.PhiT.shape[0],
            classes=self.data_.classes,
            params=self._output_params().copy(),
            b=(self.state_.bbar if avg else self.state_.b).copy(),
            off=(self.state_.offbar if avg else self.state_.off).copy(),
            problem=self.config.problem,
            t=int(self.t_),
            X=self.data_.X,
            y=self.data_.y,
        )

    def warm_from(self, state: dict) -> bool:
        """Go on from ``state`` (:meth:`warm_state` of a solver of the same kind of problem on
        edited points or with other parameters) instead of w = 0, at its iteration t, so that
        the step size η_t goes on decreasing (a Pegasos step at t = 1 would wipe w out).

        Linear models keep w. Kernel models keep α_i of each point still present unchanged
        (same coordinates and class); a moved or new point starts at α_i = 0. Returns False,
        and leaves the solver at w = 0, when the problem changed shape (kernel ↔ linear,
        other classes, another bias mode)."""
        if (
            state["linear"] != self.linear_
            or state["classes"] != self.data_.classes
            or state["params"].shape[0] != self.n_out_
            or (self.linear_ and state["p"] != self.problem_.PhiT.shape[0])
            or state.get("problem", "svc") != self.config.problem
            or self.t_ != 0
        ):
            return False
        st = self.state_
        if self.linear_:
            st.W[:] = state["params"]
        else:
            carry_over(st.A, state["params"], state["X"], state["y"], self.data_.X, self.data_.y)
            st.S[:] = st.A @ self.problem_.G
        st.b[:] = state["b"]
        st.off[:] = state.get("off", 0.0)
        st.offbar[:] = st.off
        if self.loss_.EXACT_BIAS and self.bias_ == "free":
            st.win[0] = st.b[0]
        st.Wbar[:], st.Abar[:], st.Sbar[:] = st.W, st.A, st.S
        st.bbar[:] = st.b
        st.scal[0] = 1.0
        st.scal[1] = float(np.sum(st.A * st.S))  # αᵀKα, which the loop keeps
        self.t_ = self.t0_ = state["t"]
        return True
