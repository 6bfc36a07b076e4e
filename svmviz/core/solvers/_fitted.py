"""The Solver's fitted attributes, declared once for the parts of the class that live in
modules of their own (:mod:`.output`, :mod:`.hard_margin`, :mod:`.warm_start`,
:mod:`.handover`): each part is
a base of :class:`~svmviz.core.solvers.iterative.Solver` and reads what ``reset`` sets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.solvers import feasible
from svmviz.core.solvers._sampling import Sampler
from svmviz.core.solvers._state import Problem, Settings, State
from svmviz.core.telemetry import History

if TYPE_CHECKING:
    from svmviz.core.model_io import Model


class Fitted:
    """What :meth:`Solver.reset` sets (and ``__init__``: ``config``, ``record``)."""

    config: SolverConfig
    record: bool | str
    notice_: str
    data_: Dataset
    binary_: bool
    linear_: bool
    m_: int
    d_: int
    n_out_: int
    bias_: str
    lam_: float
    objective_scale_: float
    r2_: float
    loss_: Any  # the loss module (:mod:`.losses`)
    state_: State
    problem_: Problem
    settings_: Settings
    screens_: tuple[np.ndarray, np.ndarray, np.ndarray]  # (_screen.allocate)
    fast_: bool
    batch_: int
    rng_: np.random.Generator
    t_: int
    t0_: int
    budget_: int
    optimum_: float | None
    exact_step_: feasible.ExactStep | None
    status_: str
    history_: History
    _sampler: Sampler
    _scratch: tuple[np.ndarray, np.ndarray, np.ndarray]
    _work: np.ndarray
    _entries: dict[str, Callable]
    _window: int
    _last_check: tuple | None  # (objective, w) at the stopping rule's last check
    _python_start: dict | None

    if TYPE_CHECKING:  # (the methods that one part calls of another)

        def __init__(self, config: SolverConfig, record: bool | str = True) -> None: ...

        def reset(self, data: Dataset, *args: Any, **kwargs: Any) -> Fitted: ...

        @property
        def done(self) -> bool: ...

        def step(self, n: int = 1) -> int: ...

        def model(self, iterate: bool = False, objective: bool = True) -> Model: ...

        def training_values(self, iterate: bool = False) -> np.ndarray: ...

        def _averaged(self, iterate: bool = False) -> bool: ...

        def _output_params(self, iterate: bool = False) -> np.ndarray: ...

        def exact_objective(self) -> float: ...

        def _offsets(self, iterate: bool = False) -> tuple[np.ndarray, np.ndarray]: ...
