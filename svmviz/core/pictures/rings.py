"""Which points are ringed as support vectors, one rule for every view that rings them
(the plane, the 3-D view): the frame's support vectors
(svmviz.core.pictures.margins.support_mask, by f at the points, kernel and linear alike),
training points only. α sizes a kernel model's rings (svmviz.ui.plane.items.ring_sizes),
never chooses them.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.pictures.frame import Frame


def ringed(frame: Frame, parts: np.ndarray | None = None) -> np.ndarray:
    """A mask over the frame's points: its support vectors. ``parts`` the split's part of
    each point (0: training), None without a split (a frame of the window has its
    support among the training points already: svmviz.app.split)."""
    m = len(frame.margins)
    ring = np.zeros(m, dtype=bool)
    ring[frame.support] = True
    if parts is not None and len(parts) == m:
        ring &= parts == 0  # support vectors are training points
    return ring
