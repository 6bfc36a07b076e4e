"""The compiled loops' readiness, and a run's hand-over from plain Python to them.

Solvers do not wait for numba: until the compiled loops are ready (:mod:`svmviz.core._jit`)
they run the same loops as plain Python, and a run begun so is replayed from its start on
the compiled loop once that is ready, so that a seed gives the compiled bits. A base of
:class:`~.iterative.Solver`: its static methods are the readiness API the window, the bench
and the tests call (``Solver.warm_up()``, ``Solver.preparing()``...).
"""

from __future__ import annotations

import copy

import numpy as np

from svmviz.core import _jit
from svmviz.core.config import SolverConfig
from svmviz.core.kernels import compiled_gram
from svmviz.core.solvers import _loop, losses
from svmviz.core.solvers._fitted import Fitted
from svmviz.core.telemetry import History

# what Handover._compile_loops calls, for the default loss: numba's cache holding them means
# a warm-up loads them
_WARM_LOSS = losses.module_for(SolverConfig(), 2).__name__.rpartition(".")[2]
WARM_UP_ENTRIES = ((_loop, "run_linear_binary", _WARM_LOSS), (_loop, "run", _WARM_LOSS))


class Handover(Fitted):
    """The readiness API (static) and the replay of a run begun in plain Python."""

    @classmethod
    def warm_up(cls) -> None:
        """Compile the loops (numba) on tiny problems, in this thread, and mark them ready:
        the linear binary one and the general one (kernels, classes, batches); after
        installation this takes seconds once, then comes from numba's cache. Solvers do not
        wait for it: until then they run the same loops as plain Python, and the first
        that does starts this in a background thread if nobody has."""
        _jit.compile_now(cls._compile_loops, WARM_UP_ENTRIES)

    @staticmethod
    def python_meanwhile() -> None:
        """For an interactive program (the window): from now on a solver whose compiled
        loops are not ready runs them as plain Python meanwhile (replayed on the compiled
        loop once it is ready: :meth:`_run_loops`), instead of waiting for the compiler."""
        _jit.python_meanwhile = True

    @staticmethod
    def compiling() -> bool:
        """The compiled loops are being made in a thread of this process."""
        return _jit.compiling()

    @staticmethod
    def preparing() -> str:
        """While the compiled loops are being prepared (solvers run plain Python now), how:
        "loading" from numba's cache, "compiling", "in memory" (numba's cache failed) or
        "preparing"; "unavailable" when they could not be compiled; "" when not."""
        return _jit.preparing()

    @staticmethod
    def notice() -> str:
        """What went wrong in preparing the compiled loops, in a line ("" when nothing)."""
        return _jit.notice()

    @classmethod
    def prepare_in_background(cls, on_change=None) -> None:
        """Start preparing the compiled loops in a background thread now, rather than at
        the first step (an interactive program that waits for its user); ``on_change()`` is
        called in that thread when :meth:`preparing` changes (never if they are ready)."""
        if on_change is not None:
            _jit.on_change(on_change)
        _jit.compile_in_background(cls._compile_loops, WARM_UP_ENTRIES)

    @classmethod
    def _compile_loops(cls) -> None:
        from svmviz.core import _gram
        from svmviz.core.data import Dataset
        from svmviz.core.kernels import Kernel

        data = Dataset.from_labels(np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]), [0, 1, 1])
        for kernel in (Kernel(), Kernel("rbf")):
            cls(SolverConfig(iterations=2, kernel=kernel)).reset(data).step(2)
        _gram.to_stride(np.zeros(6), 2, 3)  # (the Gram cache's append)

    @classmethod
    def _loops(cls):
        """The loop module to call now: compiled when ready (or in the thread compiling it),
        else its plain-Python twin, with the compilation started in the background."""
        if _jit.use_compiled():
            return _loop
        if not _jit.python_meanwhile:
            _jit.compile_now(cls._compile_loops, WARM_UP_ENTRIES)
            if not _jit.unavailable():
                return _loop
        else:
            _jit.compile_in_background(cls._compile_loops, WARM_UP_ENTRIES)
        return _jit.python_version(_loop)

    def _run_loops(self):
        """:meth:`_loops` for this run, which never mixes them: the compiled loop and its
        plain-Python twin give the same iterates up to rounding, not the same bits (numba's
        fastmath reassociates sums), so a run begun in Python is replayed from its start on
        the compiled loop once that is ready (milliseconds: the Python loop ran a minute at
        most), and a run begun compiled stays compiled. Its replays (the timeline, an
        animation) are made on the compiled loop too: a seed gives the compiled bits."""
        loops = self._loops()
        if loops is _loop:
            if self._python_start is not None:
                self._replay_compiled()
            return _loop
        if self._python_start is None:
            if self.t_ > self.t0_:  # begun compiled (only tests make the loops unready)
                return _loop
            self._python_start = self._start_of_run()
        return loops

    def _start_of_run(self) -> dict:
        """What a replay of the run from here needs: the state, the buffers the loop
        carries between calls, the sampler (with its generator) and the iteration."""
        return dict(
            arrays=[a.copy() for a in (*self.state_, *self.screens_, *self._scratch)],
            sampler=copy.deepcopy(self._sampler),
            t=self.t_,
            budget=self.budget_,
        )

    def _replay_compiled(self) -> None:
        """The run so far again, from its start, on the compiled loop (and an RBF kernel's
        matrix made again by the compiled loop, as a run begun compiled has it)."""
        start, self._python_start = self._python_start, None
        assert start is not None
        t = self.t_
        for a, saved in zip(
            (*self.state_, *self.screens_, *self._scratch), start["arrays"], strict=True
        ):
            a[...] = saved
        st = self.state_
        if not self.linear_ and compiled_gram(self.config.kernel):  # (and what it gave)
            G = self.config.kernel.gram(self.data_.X, self.data_.X)
            self.problem_.G[...] = G + 1.0 if self.bias_ == "regularized" else G
            st.S[:], st.Sbar[:] = st.A @ self.problem_.G, st.Abar @ self.problem_.G
            st.scal[1] = float(np.sum(st.A * st.S))
        self._sampler = start["sampler"]
        self.rng_ = self._sampler.rng
        self.t_, self.budget_ = start["t"], start["budget"]
        self.history_ = History(self.batch_, self.loss_.OFFSETS)
        self._last_check = None
        self.exact_step_ = None
        self.status_ = "running"
        while self.t_ < t and not self.done:  # (a hard margin's budget grows as it did)
            self.step(t - self.t_)
