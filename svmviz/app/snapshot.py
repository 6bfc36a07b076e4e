"""What goes into the training runner (a :class:`Job`) and what comes out (a :class:`Snapshot`).

Plain frozen dataclasses, no Qt: the runner (svmviz.app.runner) builds them, the thread
wrapper (svmviz.app.worker) carries them across threads, and the window reads a snapshot's
fields by name. A snapshot is built by keyword only, so a new field cannot shift the others.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.app.race_runner import RaceFrame
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.lesson.explain import StepRecord
from svmviz.core.lesson.generalization import TRAIN, subset
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import Frame
from svmviz.core.training.race import Path
from svmviz.core.training.reference import Reference
from svmviz.core.training.start import Start

TO_THE_END = -1  # a Job's ``catch_up``: train to the end of the budget before the first frame


@dataclass(frozen=True)
class Job:
    """Everything the runner needs, owned by it (the GUI keeps editing its own copy)."""

    generation: int
    config: SolverConfig
    data: Dataset
    extent: tuple[float, float, float, float]
    grid: int = 160
    warm: bool = False  # go on from the previous job's model and t when the problem allows
    # each point's part of a train/test split (svmviz.core.lesson.generalization: TRAIN, TEST,
    # UNUSED), or None: train on every point. Frames still cover every point of ``data``.
    parts: np.ndarray | None = None
    # after an edit: the iteration to train to before the first frame (0: show w = 0;
    # TO_THE_END: the budget), so the plane goes from the last model to the edited
    # problem's at the same point of the run; ``explain``: that frame explains its last step
    catch_up: int = 0
    explain: bool = False
    # train from this w₀ instead of w = 0 (svmviz.core.training.start; ``warm`` goes first when it
    # applies); restart and seek replay from it
    start: Start | None = None
    # a race: the companion runs' configurations (runs 2–4; svmviz.app.race_runner), each
    # stepped with this job's own run on the same points
    race: tuple[SolverConfig, ...] = ()

    @property
    def train(self) -> np.ndarray | None:
        """Indices of the training points in ``data`` (None: all of them)."""
        return None if self.parts is None else np.flatnonzero(self.parts == TRAIN)

    def training_data(self) -> Dataset:
        if self.parts is None:
            return self.data
        return subset(self.data, np.flatnonzero(self.parts == TRAIN))


@dataclass(frozen=True, kw_only=True)
class Snapshot:
    """One published state of the training, safe to read in the GUI thread.

    ``history`` holds read-only views of the rows written so far (column ``t``: the
    iteration of each row, since the job's start; long runs are thinned, see
    :mod:`svmviz.core.telemetry`); the solver never writes those rows again (it appends into
    spare rows, thins into new arrays, and a reset makes a new history), so no copy is needed.
    """

    generation: int
    t: int
    t0: int  # the iteration a warm start began at (0: from w = 0)
    status: str
    model: Model
    frame: Frame
    history: dict
    reference: Reference | None
    reference_error: str | None
    alpha: np.ndarray | None = None  # (m,) |α_i| of a kernel model's points; None if linear
    step: StepRecord | None = None  # what the step did, when this frame follows one step
    iterate: bool = False  # model and frame are of the last iterate w_t, not the output w̄
    optimum: Frame | None = None  # the exact optimum's frame over the same extent
    # a split's test error, sampled as training goes: (iterations t, 0-1 errors), or None
    test_error: tuple | None = None
    reference_pending: bool = False  # the exact optimum is being computed
    status_text: str = ""  # the solver's status in words (a divergence: what to change)
    notice: str = ""  # a word about the problem (an rbf γ that isolates every point)
    # the compiled loop is being prepared ("loading" from numba's cache, "compiling" after
    # installing, "preparing": not known yet; "" when ready): the solver runs the same loop
    # as plain Python meanwhile, and hands over when it is ready
    preparing: str = ""
    # the run's path in weight space (linear models of 2-D data; None otherwise): the
    # iterate and output weights at the frames published so far (svmviz.core.pictures.weight_path),
    # a copy the runner never writes again
    path: Path | None = None
    start: Start | None = None  # the w₀ this run began at (None: w = 0, or a warm start)
    race: RaceFrame | None = None  # the companion runs of a race (svmviz.app.race_runner)
