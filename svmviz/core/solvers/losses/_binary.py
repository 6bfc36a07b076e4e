"""What every binary margin loss ℓ(z), z = y f(x), shares (scikit-learn's
``Classification`` of ``_sgd_fast``): a module gives ``loss(z)``, ``dloss(z)`` = ℓ′(z) and
``dloss2(z)`` = (ℓ′(z), ℓ″(z)), and takes the parts of :data:`PARTS` it does not define
from here (set on it by :mod:`svmviz.core.solvers.losses`); its parameters' ``margin`` is
the z below which an example has a term in the step (∞: every example).

The parts reach the module's functions through :mod:`._dispatch`, so the loop's
specialisation per loss inlines them (and the plain-Python twins call the module's).
"""

from __future__ import annotations

import numpy as np

from svmviz.core._jit import plain
from svmviz.core.solvers.losses import _common, _dispatch

totals = _common.single_totals
offset_term = _common.offset_term


@plain
def terms(loss, f, yi, ti, off, g):
    z = ti * f[0]
    active = z < loss.margin
    g[0] = -ti * _dispatch.dloss(loss, z) if active else 0.0
    return 1 if active else 0


@plain
def value(loss, f, yi, ti, off):
    return _dispatch.loss(loss, ti * f[0]), _common.binary_wrong(ti, f[0])


@plain
def derivatives(loss, f, ti):
    d1, d2 = _dispatch.dloss2(loss, ti * f[0])
    return ti * d1, d2


@plain
def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    if free:
        _common.newton_bias(loss, t, F, scale, b)


def signs(y):
    """z's sign y_i ∈ {−1, +1} of the classes y (0, 1)."""
    return np.where(y == 1, 1.0, -1.0)


def errors(model, F, y, target) -> float:
    return float(np.mean((F > 0).astype(np.int64) != y))


def offset_value(model) -> float:
    return 0.0


# what a binary margin loss's module takes from here
PARTS = ("terms", "value", "derivatives", "totals", "offsets", "offset_term")
PARTS += ("errors", "offset_value")
