"""Which points are ringed as support vectors, one rule for every view that rings them
(the plane, the 3-D view): a classifier's by α (kernel: α_i from ALPHA_SHOWN of the
largest) or by its margin (linear: 0 ≤ y f ≤ level, none without margin lines); a
regression's and one-class's by their margins (``frame.support``). Training points only.
"""

from __future__ import annotations

import numpy as np

from svmviz.core.frame import Frame, tolerance

ALPHA_SHOWN = 0.05  # rings for α_i from this fraction of the largest (smaller: no ring)


def ringed(frame: Frame, alpha: np.ndarray | None, parts: np.ndarray | None = None):
    """A mask over the frame's points: the support vectors to ring. ``alpha`` |α_i| of a
    kernel model's points (None: linear); ``parts`` the split's part of each point (0:
    training), None without a split."""
    m = len(frame.margins)
    if frame.kind != "svc":
        ring = np.zeros(m, dtype=bool)
        ring[frame.support] = True  # (training points only: svmviz.app.split)
        return ring
    if alpha is not None and len(alpha) == m:
        return (alpha > 0) & (alpha >= ALPHA_SHOWN * (alpha.max() if alpha.size else 0.0))
    level = frame.level
    if level > 0:
        ring = (frame.margins <= level + tolerance(level)) & (frame.margins >= 0)
    else:
        ring = np.zeros(m, dtype=bool)
    if parts is not None and len(parts) == m:
        ring &= parts == 0  # support vectors are training points
    return ring
