"""A job's train/test split as the training runner sees it (svmviz.core.lesson.generalization).

The solver trains on the TRAIN points only, but frames cover every point of the job: this
maps the solver's indices to the job's, fills in f at the points it does not train on, and
samples the test error as training goes (the problem's error: 0-1, mean absolute, or
the share of outliers). Without a split every method is the identity.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from svmviz.app.snapshot import Job
from svmviz.core.lesson.explain import StepRecord
from svmviz.core.lesson.generalization import TEST, TRAIN
from svmviz.core.lesson.scores import mean_absolute_error, outlier_share
from svmviz.core.model_io import Model
from svmviz.core.objectives import errors
from svmviz.core.pictures.frame import Frame


class Split:
    """The split of one job: its training points, its test points and their error curve."""

    def __init__(self, job: Job):
        self.job = job
        self.train = job.train  # the training points' indices in the job's data (None: all)
        test = np.zeros(0) if job.parts is None else np.flatnonzero(job.parts == TEST)
        self.test = test if test.size else None  # None: no test error to measure
        self.curve: list = []  # (t, test error) samples of this job

    def sample(self, t: int, model: Model, values: np.ndarray | None = None) -> None:
        """Record the test error of ``model`` at iteration ``t`` (``values``: f at the test
        points, when known); once per iteration. The error is the problem's: the 0-1 error
        of a classifier, the mean absolute error |t − f(x)| of a regression, the share of
        outliers of a one-class model."""
        if self.test is None or (self.curve and self.curve[-1][0] >= t):
            return
        data = self.job.data
        F = model.decision_function(data.X[self.test]) if values is None else values
        if model.kind == "regression" and data.target is not None:
            error = mean_absolute_error(data.target[self.test] - F)
        elif model.kind == "one-class":
            error = outlier_share(F)
        else:
            error = errors(F, data.y[self.test])
        self.curve.append((t, error))

    def forget_from(self, t: int) -> None:
        """Drop the samples at ``t`` and after (a seek replays that future)."""
        while self.curve and self.curve[-1][0] >= t:
            self.curve.pop()

    def test_error(self) -> tuple | None:
        """The samples so far as (iterations t, errors), or None without test points."""
        if self.test is None:
            return None
        curve = np.array(self.curve, dtype=float).reshape(-1, 2)
        return curve[:, 0], curve[:, 1]

    def values(self, inside: np.ndarray, model: Model) -> np.ndarray:
        """f at every point of the job, from ``inside`` (the solver's own, at the training
        points) and the model's at the others."""
        if self.train is None:
            return inside
        X = self.job.data.X
        values = np.empty((len(X),) + inside.shape[1:])
        values[self.train] = inside
        other = np.flatnonzero(self.job.parts != TRAIN)
        values[other] = model.decision_function(X[other])
        return values

    def frame(self, frame: Frame) -> Frame:
        """Support vectors marked among the training points only."""
        parts = self.job.parts
        if parts is None:
            return frame
        return replace(frame, support=frame.support[parts[frame.support] == TRAIN])

    def alpha(self, alpha: np.ndarray | None) -> np.ndarray | None:
        """|α_i| of every point of the job (0 outside the training part)."""
        if self.train is None or alpha is None:
            return alpha
        full = np.zeros(len(self.job.data.y))
        full[self.train] = alpha
        return full

    def record(self, record: StepRecord | None) -> StepRecord | None:
        """A step's explanation with the job's indices of its samples."""
        if record is None or self.train is None:
            return record
        return replace(record, samples=self.train[record.samples])
