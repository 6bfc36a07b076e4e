"""A fixed model drawn over the plane beside the training: a model fitted elsewhere (a
scikit-learn SVC, an svmviz estimator) that ``svmviz.show`` was given, so that the window
shows what it found while svmviz's own solver trains on the same points underneath.

Its lines are the plane's own (a frame of the model, :func:`svmviz.core.pictures.frame.reframe`d
over the view as the exact optimum's are), its support vectors are ringed, and it stays as
it was fitted while the points are edited (:meth:`Overlay.fits` says whether they are still
the points it was fitted on).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from svmviz.core.data import Dataset
from svmviz.core.edits import Points
from svmviz.core.pictures.frame import Frame, data_extent, make_frame, plane_points, reframe


@dataclass(frozen=True, eq=False)
class Overlay:
    """A fitted model to draw over the plane.

    ``name`` names it in the legend ("scikit-learn SVC"); ``data`` are the points it was
    fitted on, as the model reads them (its classes in the model's order); ``base`` is its
    frame on them (the points' margins; :meth:`frame` draws its curves over an extent);
    ``rings`` (k, 2) where its support vectors are in the plane; ``points`` the window's
    points when they were the ones it was fitted on (None: it was fitted on others)."""

    name: str
    model: object  # svmviz.core.model_io.Model
    data: Dataset
    base: Frame
    rings: np.ndarray
    points: Points | None

    def frame(self, extent, n: int = 160) -> Frame:
        """Its boundary and margins (curve and tube, or contours) over ``extent``."""
        frame = reframe(self.base, self.model, extent, n)
        if self.base.kind == "svc" and self.base.level <= 0:  # (see overlay: none drawn)
            frame = replace(frame, contours={**frame.contours, "margin": []})
        return frame

    def fits(self, points: Points) -> bool:
        """Whether ``points`` are the points it was fitted on (an edit undone is again)."""
        mine = self.points
        if mine is None:
            return False
        if points is mine:
            return True
        same_target = (points.target is None) == (mine.target is None) and (
            points.target is None or np.array_equal(points.target, mine.target)
        )
        return same_target and np.array_equal(points.X, mine.X) and np.array_equal(points.y, mine.y)


def overlay(name: str, model, data: Dataset, points: Points | None = None) -> Overlay:
    """The Overlay of ``model`` fitted on ``data``; its support vectors are the points its
    margins make support vectors (:func:`svmviz.core.pictures.margins.support_mask`, the plane's own
    definition, whatever α the model carries). A model that votes (scikit-learn's
    multiclass SVC) draws its boundaries only, and no support vectors."""
    P = plane_points(data)
    extent = data_extent(P) if len(P) else (-1.0, 1.0, -1.0, 1.0)
    base = make_frame(model, data, extent, n=2)  # (the points' part: the grid's comes later)
    if getattr(model, "decision", None) is not None:
        # a vote of one-vs-one classifiers (scikit-learn's multiclass SVC): its margins
        # would be lines of one vote more, not of f = ±1
        base = replace(base, level=0.0, support=np.arange(0))
    return Overlay(name, model, data, base, P[base.support], points)
