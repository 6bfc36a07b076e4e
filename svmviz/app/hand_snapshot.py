"""The snapshot of a boundary moved by hand (svmviz.core.training.hand): the same
:class:`~svmviz.app.snapshot.Snapshot` the runner publishes, built in the GUI thread from
the run's newest one, so that every view (regions, margins, slack, the Points and Margins
tabs, the status line, the presenter's lines) shows the hand-made model as it shows a
trained one. Its ``status`` is ``"hand"``; the run's history, optimum and test error stay
(the curves go on showing the run), and the model's ``extra`` holds its objective, mean
loss, error and ‖w‖ on the training points.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from svmviz.app.snapshot import Job, Snapshot
from svmviz.core.data import Dataset
from svmviz.core.lesson.generalization import TRAIN, subset
from svmviz.core.model_io import Model
from svmviz.core.pictures.frame import make_frame
from svmviz.core.training.hand import hand_objective

HAND = "hand"  # the status of a hand-made model's snapshot


def hand_snapshot(
    run: Snapshot,
    model: Model,
    data: Dataset,
    parts: np.ndarray | None = None,
    margin: str = "soft",
    grid: int = Job.grid,
) -> Snapshot:
    """The snapshot of the hand-made ``model`` on the job's ``data`` (its training points:
    ``parts`` == TRAIN, or all), over the extent of the ``run``'s snapshot."""
    train = data if parts is None else subset(data, np.flatnonzero(parts == TRAIN))
    found = hand_objective(model, train.X, train.y, margin)
    model = replace(model, extra={"hand": True, **found})
    frame = make_frame(model, data, run.frame.extent, grid)
    if parts is not None:  # support vectors among the training points only
        frame = replace(frame, support=frame.support[parts[frame.support] == TRAIN])
    return replace(
        run,
        status=HAND,
        model=model,
        frame=frame,
        alpha=None,
        step=None,
        iterate=False,
        status_text="",
        notice="",
        preparing="",
    )
