"""Every loss's value and (sub)gradient at tabulated points, through the parts the loop calls
(their plain-Python twins): against hand values and against a central finite difference of
the value, so that a wrong slope fails here at once, not as a 1% gap at the end of a run
(scikit-learn's ``_test_loss_common`` in test_sgd.py, for every loss)."""

import math

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.objectives import zero_one_cost
from svmviz.core.problems import DECLARED
from svmviz.core.solvers import losses
from svmviz.core.solvers.losses import _dispatch


def _log1pexp(x):
    return math.log1p(math.exp(x))


# a binary margin loss: z = y f → (ℓ(z), ℓ′(z)), away from its kinks
MARGIN = {
    "hinge": {-2.0: (3.0, -1.0), 0.5: (0.5, -1.0), 2.0: (0.0, 0.0)},
    "squared_hinge": {-2.0: (9.0, -6.0), 0.5: (0.25, -1.0), 2.0: (0.0, 0.0)},
    "logistic": {
        -3.0: (_log1pexp(3.0), -1.0 / (1.0 + math.exp(-3.0))),
        0.0: (math.log(2.0), -0.5),
        2.0: (_log1pexp(-2.0), -1.0 / (1.0 + math.exp(2.0))),
    },
    "modified_huber": {-3.0: (12.0, -4.0), -0.5: (2.25, -3.0), 0.5: (0.25, -1.0), 2.0: (0, 0)},
}
F3, Y3 = (0.3, -0.5, 0.9), 0  # a multiclass example: its scores, its class
_SOFTMAX = np.exp(F3) / np.exp(F3).sum()
# the other losses: (scores f, class y, t: ±1 or the target, offsets (ρ, ε)) → (ℓ, −∂ℓ/∂f)
OTHER = {
    "crammer_singer": [(F3, Y3, 0.0, (0, 0), 1.6, (1.0, 0.0, -1.0))],
    "weston_watkins": [(F3, Y3, 0.0, (0, 0), 1.8, (2.0, -1.0, -1.0))],
    "ovr": [(F3, Y3, 0.0, (0, 0), 3.1, (1.0, -1.0, -1.0))],
    "softmax": [(F3, Y3, 0.0, (0, 0), math.log(np.exp(F3).sum()) - 0.3, np.eye(3)[Y3] - _SOFTMAX)],
    "nu-svc": [  # ρ = 1
        ((0.5,), 1, 1.0, (1.0, 0), 0.5, (1.0,)),
        ((0.5,), 0, -1.0, (1.0, 0), 1.5, (-1.0,)),
        ((2.0,), 1, 1.0, (1.0, 0), 0.0, (0.0,)),
    ],
    "one-class": [  # ρ = 1, ν = 0.5
        ((0.5,), 0, 0.0, (1.0, 0), 1.0, (2.0,)),
        ((2.0,), 0, 0.0, (1.0, 0), 0.0, (0.0,)),
    ],
    "epsilon-svr": [  # ε = 0.1, target 1
        ((0.5,), 0, 1.0, (0, 0.1), 0.4, (1.0,)),
        ((1.05,), 0, 1.0, (0, 0.1), 0.0, (0.0,)),
        ((2.0,), 0, 1.0, (0, 0.1), 0.9, (-1.0,)),
    ],
}
OTHER["nu-svr"] = OTHER["epsilon-svr"]  # (its ε is the offset)
H = 1e-6  # the finite difference's step


def _rows(name):
    """(scores, y, t, offsets, ℓ, −∂ℓ/∂f) of the loss ``name``."""
    if name not in MARGIN:
        return [(np.array(f, float), y, t, np.array(off, float), v, np.array(g, float))
                for f, y, t, off, v, g in OTHER[name]]  # fmt: skip
    rows = []
    for z, (v, slope) in MARGIN[name].items():
        for t in (1.0, -1.0):  # f = z/t for either class
            rows.append((np.array([z * t]), int(t > 0), t, np.zeros(2), v, np.array([-t * slope])))
    return rows


def _params(name):
    config = SolverConfig(epsilon=0.1, nu=0.5)
    if DECLARED[name].option == "problem":
        config = config.replace(problem=name)
    return losses.MODULES[name].params(config, zero_one_cost(3))


def test_every_loss_has_its_table():
    assert set(MARGIN) | set(OTHER) == set(losses.MODULES)
    margin = {n for n, m in losses.MODULES.items() if hasattr(m, "dloss")}
    assert margin == set(MARGIN)


@pytest.mark.parametrize("name", list(losses.MODULES))
def test_the_value_and_gradient_are_the_tabulated_ones(name):
    loss = _params(name)
    for f, y, t, off, want, slope in _rows(name):
        g = np.zeros_like(f)
        value, _ = _dispatch.value(loss, f, y, t, off)
        count = _dispatch.terms(loss, f, y, t, off, g)
        assert value == pytest.approx(want, rel=1e-12, abs=1e-12), (f, t)
        assert g == pytest.approx(slope, rel=1e-12, abs=1e-12), (f, t)
        assert (count > 0) == bool(np.any(slope != 0.0)), (f, t)


@pytest.mark.parametrize("name", list(losses.MODULES))
def test_the_gradient_is_the_value_s_finite_difference(name):
    """g_k = −∂ℓ/∂f_k is minus the central difference of the loop's value in f_k."""
    loss = _params(name)
    for f, y, t, off, _, _ in _rows(name):
        g = np.zeros_like(f)
        _dispatch.terms(loss, f, y, t, off, g)
        for k in range(len(f)):
            e = H * np.eye(len(f))[k]
            up = _dispatch.value(loss, f + e, y, t, off)[0]
            down = _dispatch.value(loss, f - e, y, t, off)[0]
            assert -g[k] == pytest.approx((up - down) / (2 * H), rel=1e-6, abs=1e-6), (f, k)


@pytest.mark.parametrize("name", list(MARGIN))
def test_a_margin_loss_s_derivatives_are_its_value_s(name):
    """The free bias's Newton step reads (∂ℓ/∂f, ∂²ℓ/∂f²): the first is the value's central
    difference in f, the second the first's; ℓ, ℓ′ are the table's."""
    module = losses.MODULES[name]
    loss = _params(name)
    for f, y, t, off, want, slope in _rows(name):
        d1, d2 = _dispatch.derivatives(loss, f, t)
        assert d1 == pytest.approx(-slope[0], rel=1e-12, abs=1e-12)
        up, down = _dispatch.derivatives(loss, f + H, t), _dispatch.derivatives(loss, f - H, t)
        assert d2 == pytest.approx((up[0] - down[0]) / (2 * H), rel=1e-6, abs=1e-6)
        up_v = _dispatch.value(loss, f + H, y, t, off)[0]
        down_v = _dispatch.value(loss, f - H, y, t, off)[0]
        assert d1 == pytest.approx((up_v - down_v) / (2 * H), rel=1e-6, abs=1e-6)
        # the numpy loss that defines the objective agrees
        assert module.losses(None, f, np.array([y]), None)[0] == pytest.approx(want, rel=1e-12)
