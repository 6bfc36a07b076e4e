"""Optional numba: the inner loops are plain Python that numba compiles when it is there.

``SVMVIZ_NO_NUMBA=1`` runs the same functions as Python (slow, but the same numbers up to
the last digits: fastmath reassociates the compiled sums), which is how the tests check that
the compiled path and the pure-Python path agree.

numba is imported when a loop first runs, not when svmviz starts: importing it takes
~0.35 s, and the window's first frame needs no compiled code. Until then each decorated
function is a :class:`_Deferred` placeholder in its module; the first call of any of them
compiles them all (that is, makes numba dispatchers, which compile or load from numba's
cache on their first call) and puts the dispatchers in the placeholders' places in their
modules, so that compiled code calling another function finds a dispatcher there.

numba's cache of the compiled code is keyed per loss and by contents
(:mod:`svmviz.core._compiled_cache`): editing one loss module recompiles that loss only,
and a cache file that cannot be read is compiled anew, never raised.

Compiling takes seconds once after installing, so nobody waits for it: :func:`compile_now`
(the solver's warm-up, run in a background thread by :func:`compile_in_background`) marks
the loops :func:`ready` when it is done, and until then callers run :func:`python_version`
of the modules, the same functions as plain Python (see :meth:`Solver.step
<svmviz.core.solvers.iterative.Solver.step>`). The thread that compiles uses the compiled
code meanwhile (:func:`use_compiled`).

numba's cache is a folder that other programs (or the user) may delete or make unwritable
while a compilation writes to it: the compilation is then done again in memory, for this
process only; if that fails too, the loops stay plain Python for the process. Either way
:func:`notice` says so once, and nothing is raised in the thread that compiles.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import types

from svmviz.core import _compiled_cache

HAVE_NUMBA = not os.environ.get("SVMVIZ_NO_NUMBA") and (
    importlib.util.find_spec("numba") is not None
)

# no 'nnan' nor 'ninf': the divergence guards (comparisons in _loop) must not be assumed away
FASTMATH = frozenset({"nsz", "arcp", "contract", "afn", "reassoc"})
_OPTIONS = dict(nogil=True, fastmath=set(FASTMATH))  # (cached: _njit)
_deferred: list = []
_on_compile: list = []  # hooks run once numba is imported (on_compile)
_functions: list = []  # (module name, function name, the plain function) of every one
_lock = threading.Lock()
_compiled = False

_ready = threading.Event()  # the compiled loops are compiled (or loaded from the cache)
_compile_lock = threading.Lock()  # one compilation at a time
_twin_lock = threading.Lock()  # (not _lock: that one is held while numba is imported)
_started = False  # a background compilation was started
_local = threading.local()  # .compiling: this thread compiles, and uses compiled code
_how = "preparing"  # what the compilation does, or did (preparing(): its values)
_ready_hooks: list = []  # called when preparing() changes (on_change)
_dispatchers: list = []  # every dispatcher made (_njit): their caches are dropped by _in_memory
_cached = True  # compiled code goes to numba's on-disk cache (False: in memory, _in_memory)
_notice = ""  # why the loops are compiled in memory, or are not compiled (notice)
_python: dict = {}  # module name → its plain-Python twin (python_version)
_per_loss: set = set()  # the plain functions of jit_per_loss
_entries: dict = {}  # (dispatcher, fingerprint of argument types) → compiled entry point
# set by the window (Solver.python_meanwhile): a solver runs the plain-Python loops while
# the compiled ones are prepared in the background. Otherwise (the command line, a script) a
# solver compiles first and waits: nothing is left compiling in a thread when it exits
python_meanwhile = False
# tests: True or False overrides ready() (simulates the compiled loops being, or not being,
# there without compiling anything); None: the real state
force_ready: bool | None = None


class _Deferred:
    """A function to be compiled with numba, standing in its module until the first call."""

    def __init__(self, func, options: dict):
        self.py_func = func
        self.options = options
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        self.__wrapped__ = func

    def __call__(self, *args):
        _compile_all()
        return getattr(sys.modules[self.__module__], self.__name__)(*args)


def _compile_all() -> None:
    """Replace every placeholder by its numba dispatcher (once, in any thread)."""
    global _compiled
    with _lock:
        if _compiled:
            return

        for d in _deferred:
            setattr(sys.modules[d.__module__], d.__name__, _njit(d.py_func, d.options))
        for hook in _on_compile:
            hook()
        _compiled = True


def _njit(func, options: dict):
    """numba's dispatcher of ``func`` (numba imported), its cache keyed per loss and by
    the compiled sources (:func:`svmviz.core._compiled_cache.keyed_cache`)."""
    import numba

    dispatcher = numba.njit(**options)(func)
    if _cached:
        try:
            # (what Dispatcher.enable_caching sets)
            dispatcher._cache = _compiled_cache.keyed_cache()(func)
        except Exception as error:  # (numba found no cache folder it can write)
            _in_memory(error)
    _dispatchers.append(dispatcher)
    return dispatcher


def _in_memory(error: BaseException) -> None:
    """From now on, compile without numba's on-disk cache (each dispatcher's is dropped),
    ``error`` the reason, said once by :func:`notice`."""
    global _cached, _notice
    from numba.core.caching import NullCache

    _cached = False
    for dispatcher in _dispatchers:
        dispatcher._cache = NullCache()
    if not _notice:
        _notice = (
            f"numba's cache is unavailable ({_said(error)}): the solver is compiled in "
            "memory, for this session only"
        )


def _said(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def notice() -> str:
    """What went wrong in making the compiled loops, in a line ("" when nothing did): numba's
    cache could not be used (they are compiled in memory), or compiling failed (they run as
    plain Python for the rest of the process)."""
    return _notice


def on_compile(hook) -> None:
    """Call ``hook()`` when numba is imported for the first compilation (at once if it
    was): where overloads that numba's typing needs are registered."""
    with _lock:
        if not _compiled:
            _on_compile.append(hook)
            return
    hook()


def plain(func):
    """A function compiled by the caller's specialisation (an ``overload`` that numba
    inlines, see :mod:`svmviz.core.solvers.losses`) rather than by a decorator: kept as it
    is, and given a plain-Python twin like the decorated ones."""
    _functions.append((func.__module__, func.__name__, func))
    return func


def compile_plain(func, inline):
    """numba's compiled version of a :func:`plain` function (numba imported), inlined
    into its callers or not."""
    return _njit(func, {**_OPTIONS, "inline": "always" if inline else "never"})


def _decorate(func, twin=None, **extra):
    _functions.append((func.__module__, func.__name__, twin or func))
    if not HAVE_NUMBA:
        return twin or func
    if _compiled:  # a module imported after the first compilation
        return _njit(func, {**_OPTIONS, **extra})
    d = _Deferred(func, {**_OPTIONS, **extra})
    _deferred.append(d)
    return d


def jit(func):
    """``numba.njit(nogil=True, fastmath=FASTMATH)``, cached (:func:`_njit`), when numba is
    importable (made at the first call of any such function), else the function itself."""
    return _decorate(func)


def jit_inline(func):
    """:func:`jit`, inlined into its callers at numba's level (small helpers called per
    element, which LLVM otherwise leaves as calls that stop vectorization), except into a
    :func:`jit_per_loss` function."""
    return _decorate(func, inline=_inlined_into)


def jit_per_loss(func):
    """:func:`jit` for the general loop, compiled once for each loss: the
    :func:`jit_inline` helpers it calls stay calls, which halves compiling each loss (the
    stochastic steps run as fast; a full batch pays a call per score)."""
    _per_loss.add(func)
    return _decorate(func)


def _inlined_into(call, caller, callee) -> bool:
    """numba's cost model of a :func:`jit_inline` helper: inlined unless the function
    being compiled (``caller``, its IR) is a :func:`jit_per_loss` one."""
    return caller.func_id.func not in _per_loss


def jit_elementwise(twin):
    """:func:`jit` for a loop of elementwise arithmetic written for the compiler to
    vectorize (a polynomial, say), whose plain-Python twin is ``twin``: the same values, up
    to rounding, by numpy's whole-array calls (the interpreter would run the loop an element
    at a time, milliseconds where numpy takes microseconds). Compiled without 'reassoc',
    which nothing elementwise needs, and which would sum away a split that carries a
    rounding error (Cody and Waite's x − n·ln2, in two parts)."""

    def decorate(func):
        return _decorate(func, twin=twin, fastmath=set(FASTMATH - {"reassoc"}))

    return decorate


# ---------------------------------------------------------------------- readiness
def ready() -> bool:
    """Whether the compiled loops are there to call without waiting for a compiler."""
    if not HAVE_NUMBA:
        return False
    if force_ready is not None:
        return force_ready
    return _ready.is_set()


def use_compiled() -> bool:
    """Whether this thread should call the compiled loops: they are :func:`ready`, or this
    thread is the one compiling them."""
    return HAVE_NUMBA and (ready() or getattr(_local, "compiling", False))


def preparing() -> str:
    """While the compiled loops are wanted and not ready (the plain-Python loop runs
    meanwhile), what makes them: "loading" (numba's cache has them), "compiling" (it has
    not: the first run after installing), "in memory" (compiling without numba's cache,
    which failed: :func:`notice`) or "preparing" (not known yet); "unavailable" when they
    could not be compiled (the plain-Python loop runs for good); "" otherwise."""
    return _how if HAVE_NUMBA and not ready() else ""


def on_change(hook) -> None:
    """Call ``hook()`` (in the thread that compiles) when :func:`preparing` changes: once it
    is known whether the loops load or compile, and once they are ready; never if they are
    ready already."""
    with _twin_lock:
        if not _ready.is_set():
            _ready_hooks.append(hook)


def _changed(last: bool = False) -> None:
    with _twin_lock:
        if last:
            _ready.set()
        hooks = _ready_hooks[:]
        if last:
            _ready_hooks.clear()
    for hook in hooks:
        try:
            hook()
        except RuntimeError:  # (its owner is gone, a window closed meanwhile: the others go on)
            pass


def _in_cache(entries) -> bool:
    """Whether numba's cache holds compiled code (of these sources and this numba) for each
    of ``entries``, (module, function name, loss module name or None) triples: then
    preparing them loads rather than compiles. numba's cache is internal: when it cannot be
    read, the answer is no."""
    _compile_all()
    try:
        return bool(entries) and all(
            getattr(module, name)._cache.holds(loss) for module, name, loss in entries
        )
    except Exception:
        return False


def compile_now(warm_up, entries=()) -> None:
    """Run ``warm_up`` (calls that compile every loop) in this thread, on compiled code, then
    mark the loops ready. A second caller waits for the first; once ready, returns at once.
    ``entries``: (module, function name, loss) of what ``warm_up`` calls, whose presence
    in numba's cache says whether this loads or compiles (:func:`preparing`). Never raises:
    a failure with numba's cache compiles again in memory, and a failure of that leaves the
    loops plain Python (:func:`notice` says which)."""
    global _how
    with _compile_lock:
        if not HAVE_NUMBA or _ready.is_set() or unavailable():
            return
        _how = "loading" if _in_cache(entries) else "compiling"
        _changed()
        _local.compiling = True
        try:
            compiled = _warmed_up(warm_up)
        finally:
            _local.compiling = False
        _changed(last=compiled)


def _warmed_up(warm_up) -> bool:
    """``warm_up()``, again without numba's cache if it failed with it; whether it ran."""
    global _how, _notice
    try:
        warm_up()
        return True
    except Exception as error:
        failed = error
    if _cached:  # (numba's cache folder vanished, or could not be written, say)
        _in_memory(failed)
        _how = "in memory"
        _changed()
        try:
            warm_up()
            return True
        except Exception as error:
            failed = error
    _how = "unavailable"
    _notice = (
        f"numba could not compile the solver ({_said(failed)}): it runs as plain Python, "
        "slower, for this session"
    )
    return False


def unavailable() -> bool:
    """The compiled loops could not be made: plain Python runs them for the process."""
    return _how == "unavailable"


def compiling() -> bool:
    """A compilation is under way (started and not done)."""
    return _compile_lock.locked() and not _ready.is_set()


def compile_in_background(warm_up, entries=()) -> None:
    """:func:`compile_now` in a daemon thread, once per process (a failure leaves the loops
    in plain Python, said by :func:`notice` and :func:`preparing`)."""
    global _started
    with _twin_lock:
        if _started or not HAVE_NUMBA or _ready.is_set():
            return
        _started = True
    threading.Thread(
        target=compile_now, args=(warm_up, entries), name="svmviz-compile", daemon=True
    ).start()


def python_version(module: types.ModuleType) -> types.ModuleType:
    """``module`` with its decorated functions as plain Python, calling each other (and
    those of the other such modules) as plain Python too: the same code, run by the
    interpreter, for use while the compiled loops are not ready. ``module`` itself when
    numba is absent (its functions are plain already)."""
    if not HAVE_NUMBA:
        return module
    with _twin_lock:
        if module.__name__ not in _python:  # (again when a module of loops came since)
            _build_python_twins()
    return _python[module.__name__]


def _build_python_twins() -> None:
    _python.clear()
    names = {mod for mod, _, _ in _functions}
    for name in names:
        twin = types.ModuleType(name)
        twin.__dict__.update(sys.modules[name].__dict__)
        _python[name] = twin
    for mod, name, func in _functions:
        g = _python[mod].__dict__
        g[name] = types.FunctionType(
            func.__code__, g, func.__name__, func.__defaults__, func.__closure__
        )
    for twin in _python.values():  # references to a module of loops: its twin
        for key, value in list(twin.__dict__.items()):
            if isinstance(value, types.ModuleType) and value.__name__ in _python:
                twin.__dict__[key] = _python[value.__name__]


def entry_point(func, args):
    """The compiled overload of ``func``, a numba dispatcher already called with arguments
    of the types of ``args``, for those types: calling it skips the dispatcher's typing of
    every argument at every call, which numba does in Python for tuples such as the loops'
    bundles. Kept per process by numba's fingerprint of the types (cheap, exact: dtypes,
    dimensions, layouts, the bundles' classes). None when ``func`` is not a dispatcher
    (plain Python, or a test's wrapper) or has no overload for these types yet."""
    overloads = getattr(func, "overloads", None)
    if overloads is None:
        return None
    from numba._dispatcher import compute_fingerprint

    key = (func, compute_fingerprint(args))
    entry = _entries.get(key)
    if entry is None:
        compiled = overloads.get(tuple(func.typeof_pyval(a) for a in args))
        if compiled is None:
            return None
        entry = _entries[key] = compiled.entry_point
    return entry
