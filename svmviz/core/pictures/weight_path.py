"""The path of one run in weight space, as the window records it: the iterate w_t and the
output w̄_t of a linear model of 2-D data at each published frame, in a
:class:`svmviz.core.training.race.Path` (thinned beyond its MAX_PATH points).

The training runner records at each frame, truncates the path when a step back replays
the run to an earlier t (the same seed gives the same iterates, so what is kept is still
the run's), and hands the window a copy that it never writes again. Plain numpy.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.training.race import Path


def drawable(solver) -> bool:
    """Whether ``solver``'s weights have a place in the weight-space view: a linear model
    of two inputs."""
    return bool(solver.linear_) and getattr(solver, "d_", 0) == 2


def record(path: Path, solver) -> None:
    """Add ``solver``'s iterate and output weights (K×2, data coordinates) at its t, once
    per t; a t below the last recorded one (a step back) first truncates the path."""
    t = int(solver.t_)
    if path.t and path.t[-1] >= t:
        if path.t[-1] == t:
            return
        truncate(path, t - 1)
    params, _ = solver.iterate()  # K×p: the weights, and a regularized bias's column
    output = solver.model(objective=False).coef
    path.add(t, params[:, :2].copy(), np.array(output, dtype=float))


def truncate(path: Path, t: int) -> None:
    """Drop the points recorded after iteration ``t`` (in place)."""
    n = int(np.searchsorted(np.asarray(path.t), t, side="right"))
    del path.t[n:], path.iterate[n:], path.output[n:]


def frozen(path: Path) -> Path:
    """A copy for another thread: new lists of the same arrays (each point's arrays are
    made once by :func:`record` and never written again)."""
    return Path(list(path.t), list(path.iterate), list(path.output))


def points(path: Path, k: int = 0, output: bool = False) -> np.ndarray:
    """The path of row ``k``'s weights, N×2 (the iterates', or the outputs')."""
    rows = path.output if output else path.iterate
    if not rows:
        return np.zeros((0, 2))
    return np.array([r[k] for r in rows], dtype=float)


class Points:
    """Row ``k``'s points of a path (:func:`points`), kept between frames and extended by
    the newest points only: a path's points are never written again, so the same array
    object at the last index seen means the same points before it (a thinned, truncated
    or new path is built again)."""

    def __init__(self, k: int = 0, output: bool = False):
        self.k, self.output = k, output
        self._xy = np.zeros((0, 2))
        self._last = None  # the path's array at the last index taken

    def of(self, path: Path) -> np.ndarray:
        rows = path.output if self.output else path.iterate
        n = len(self._xy)
        if n == 0 or n > len(rows) or rows[n - 1] is not self._last:
            self._xy = points(path, self.k, self.output)
        elif len(rows) > n:
            new = np.array([r[self.k] for r in rows[n:]], dtype=float)
            self._xy = np.vstack([self._xy, new])
        self._last = rows[-1] if rows else None
        return self._xy
