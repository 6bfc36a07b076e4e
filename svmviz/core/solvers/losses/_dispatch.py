"""The loop's calls into a loss: one generic function per part of the loss interface,
resolved by the type of the loss's parameters (a NamedTuple class per loss module).

In compiled code each generic function is an ``overload``: numba types the loop once per
loss class and inlines that loss's own function, so the loop is specialised per loss (as
scikit-learn's ``_sgd_fast`` is per ``LossFunction``) and every specialisation is cached on
disk. In plain Python (the loops' twins while the compiler works, the explainer, tests)
the generic function calls the loss module's plain-Python twin.
"""

from __future__ import annotations

import sys

from svmviz.core import _jit

_MODULES: dict = {}  # parameters class → loss module


def register(params_class, module_name: str) -> None:
    """Make the module ``module_name`` the loss of parameters of ``params_class``."""
    _MODULES[params_class] = sys.modules[module_name]


def module_of(loss):
    """The loss module of the parameters ``loss``."""
    return _MODULES[type(loss)]


class _Python:
    """The plain-Python twins of a loss module's parts, found in the module each part is
    defined in (a part may be a shared one of :mod:`._common`)."""

    def __init__(self, loss):
        self.module = _MODULES[type(loss)]

    def __getattr__(self, name):
        part = getattr(self.module, name)
        return getattr(_jit.python_version(sys.modules[part.__module__]), part.__name__)


def _python(loss):
    return _Python(loss)


def terms(loss, f, yi, ti, off, g):
    """g[k] = −∂ℓ_i/∂f_k for the example's scores f (bias included); the number of
    non-zero g[k] (0: the example adds nothing to the step)."""
    return _python(loss).terms(loss, f, yi, ti, off, g)


def value(loss, f, yi, ti, off):
    """(ℓ_i, 1.0 if the example counts as an error else 0.0) for its scores f."""
    return _python(loss).value(loss, f, yi, ti, off)


def derivatives(loss, f, ti):
    """(∂ℓ_i/∂f, ∂²ℓ_i/∂f²) of a smooth binary loss at f[0] (the free bias's Newton step)."""
    return _python(loss).derivatives(loss, f, ti)


def loss(loss, z):
    """ℓ(z) of a binary margin loss (:mod:`._binary`) at z = y f."""
    return _python(loss).loss(z)


def dloss(loss, z):
    """ℓ′(z) of a binary margin loss at z = y f."""
    return _python(loss).dloss(z)


def dloss2(loss, z):
    """(ℓ′(z), ℓ″(z)) of a binary margin loss at z = y f (the free bias's Newton step)."""
    return _python(loss).dloss2(z)


def totals(loss, y, t, F, scale, b, off):
    """(Σ_i ℓ_i, Σ_i wrong_i) over the training set for scores scale·F (no bias) + b."""
    return _python(loss).totals(loss, y, t, F, scale, b, off)


def offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
    """Set the offsets (the free bias b, ρ, ε) for the scores scale·F of the current w."""
    return _python(loss).offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step)


def offset_term(loss, off):
    """The objective's part in the offsets alone (−νρ, −ρ, νε; else 0)."""
    return _python(loss).offset_term(loss, off)


def _install() -> None:
    """Register the overloads (numba imported): each resolves the loss module by the
    parameters' class and inlines its compiled function."""
    from numba.extending import overload

    compiled: dict = {}

    def impl(loss_type, name, inline=True):  # (inlined: calls pass arrays, counted)
        module = _MODULES[loss_type.instance_class]
        key = (module.__name__, name)
        if key not in compiled:
            compiled[key] = _jit.compile_plain(getattr(module, name), inline)
        return compiled[key]

    @overload(terms, inline="always")
    def _terms(loss, f, yi, ti, off, g):
        fn = impl(loss, "terms")
        return lambda loss, f, yi, ti, off, g: fn(loss, f, yi, ti, off, g)

    @overload(value, inline="always")
    def _value(loss, f, yi, ti, off):
        fn = impl(loss, "value")
        return lambda loss, f, yi, ti, off: fn(loss, f, yi, ti, off)

    @overload(derivatives, inline="always")
    def _derivatives(loss, f, ti):
        fn = impl(loss, "derivatives")
        return lambda loss, f, ti: fn(loss, f, ti)

    @overload(loss, inline="always")
    def _loss(loss, z):
        fn = impl(loss, "loss")
        return lambda loss, z: fn(z)

    @overload(dloss, inline="always")
    def _dloss(loss, z):
        fn = impl(loss, "dloss")
        return lambda loss, z: fn(z)

    @overload(dloss2, inline="always")
    def _dloss2(loss, z):
        fn = impl(loss, "dloss2")
        return lambda loss, z: fn(z)

    @overload(totals, inline="always")
    def _totals(loss, y, t, F, scale, b, off):
        fn = impl(loss, "totals")
        return lambda loss, y, t, F, scale, b, off: fn(loss, y, t, F, scale, b, off)

    @overload(offsets)  # (not inlined: numba's inliner loses track of loop variables)
    def _offsets(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
        fn = impl(loss, "offsets", False)

        def call(loss, free, y, t, F, scale, b, off, n_pos, r, win, step):
            fn(loss, free, y, t, F, scale, b, off, n_pos, r, win, step)

        return call

    @overload(offset_term, inline="always")
    def _offset_term(loss, off):
        fn = impl(loss, "offset_term")
        return lambda loss, off: fn(loss, off)


_jit.on_compile(_install)
