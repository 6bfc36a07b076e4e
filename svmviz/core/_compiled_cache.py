"""numba's on-disk cache of the compiled loops, keyed so that it can neither poison nor stall.

numba keys a function's cached code by its own file's time stamp, and keeps every
specialisation of it in one index that is unpickled before its stamp is checked. The loop
is specialised per loss (:mod:`svmviz.core.solvers.losses._dispatch`), so that index names
every loss module's classes: a loss module moved away (a branch switched, an upgrade) made
the index unreadable, and numba raised at every later run; and the loop's code holds every
function it inlines, so an edit of any of them had to invalidate all of it.

Here each function's cache is split by loss: a specialisation whose argument types hold a
loss's parameters (a class defined in a loss module) lives in files of its own, named
with the hash of that loss's module, of the shared compiled sources (:data:`COMPILED_SOURCES`
without the loss modules) and of the function's own file; any other specialisation in
files named with the hash of the shared sources and its own file. A stale index is then
never opened (its name is another: an older svmviz's files are never read), editing one
loss module recompiles that loss only (its stale files are removed when the new ones are
written), adding one compiles nothing else, and the hashes are of contents, not times. An
index or data file that cannot be read all the same is a miss: the function is compiled
anew and the file rewritten, said once on stderr, never raised. (numba's cache classes are
internal; this is their shape in numba 0.59 to 0.68.)
"""

from __future__ import annotations

import functools
import glob
import hashlib
import sys
from pathlib import Path

# the files (under svmviz/core) whose compiled code the loops hold: a cached function is
# stale when one it holds changed (a directory: every .py file in it, recursively)
COMPILED_SOURCES = ("_jit.py", "_compiled_cache.py", "_gram.py", "solvers")
LOSSES = Path("solvers", "losses")  # a file here not named "_…" is one loss's module
_LOSSES_PACKAGE = "svmviz.core." + ".".join(LOSSES.parts)
_CORE = Path(__file__).resolve().parent
_said: list = []  # the one line said about an unreadable cache file (say_once)


def is_loss_file(relative: Path) -> bool:
    """Whether ``relative`` (to svmviz/core) is a loss module: its own code is stamped on
    its own specialisations only."""
    return relative.parent == LOSSES and not relative.name.startswith("_")


@functools.cache
def stamps(core: Path = _CORE) -> tuple[str, dict[str, str]]:
    """(the hash of the shared compiled sources, {loss module name: the hash of its file}),
    once per process; paths and contents, never times."""
    shared = hashlib.sha256()
    losses: dict[str, str] = {}
    for name in COMPILED_SOURCES:
        path = core / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            relative = file.relative_to(core)
            text = relative.as_posix().encode() + b"\0" + file.read_bytes() + b"\0"
            if is_loss_file(relative):
                losses[file.stem] = hashlib.sha256(text).hexdigest()
            else:
                shared.update(text)
    return shared.hexdigest(), losses


def loss_of(signature) -> str | None:
    """The name of the loss module that defines a type among the numba types
    ``signature`` (its parameters, in a tuple or bundle, at any depth); None when none."""
    pending = list(signature)
    while pending:
        kind = pending.pop()
        module = getattr(getattr(kind, "instance_class", None), "__module__", None)
        package, _, name = (module or "").rpartition(".")
        if package == _LOSSES_PACKAGE and not name.startswith("_"):
            return name
        pending.extend(getattr(kind, "types", ()))
    return None


def say_once(path: str, error: BaseException) -> None:
    """Say on stderr, once per process, that a cache file could not be read."""
    if not _said:
        _said.append(path)
        print(
            f"svmviz: numba's cache file {path} could not be read "
            f"({type(error).__name__}: {error}); the solver is compiled anew",
            file=sys.stderr,
        )


@functools.cache
def keyed_cache():
    """The cache class (numba imported): numba's FunctionCache with one
    :func:`index_file` per loss and per stamp."""
    from numba.core.caching import FunctionCache

    class KeyedCache(FunctionCache):
        def __init__(self, py_func):
            super().__init__(py_func)
            self._own = hashlib.sha256(Path(self._impl.locator._py_file).read_bytes()).digest()
            self._files: dict = {}
            self._cache_file = self.file_for(None)

        def file_for(self, loss: str | None):
            """The index of the specialisations for ``loss`` (None: those without one)."""
            if loss not in self._files:
                shared, losses = stamps()
                stamp = hashlib.sha256(self._own + shared.encode())
                stamp.update(losses.get(loss, "-").encode() if loss else b"")
                base = f"{self._impl.filename_base}.{loss or 'shared'}"
                self._files[loss] = index_file()(
                    cache_path=self._cache_path,
                    filename_base=f"{base}.{stamp.hexdigest()[:16]}",
                    source_stamp=stamp.hexdigest(),
                )
                self._files[loss].stale = f"{base}."
            return self._files[loss]

        def holds(self, loss: str | None) -> bool:
            """Whether the index of ``loss``'s specialisations has any."""
            return bool(self.file_for(loss)._load_index())

        def _load_overload(self, sig, target_context):
            if not self._enabled:
                return None
            key = self._index_key(sig, target_context.codegen())
            file = self.file_for(loss_of(sig))
            data = file.load(key)
            try:
                return None if data is None else self._impl.rebuild(target_context, data)
            except Exception as error:  # (code of another build of the same names)
                say_once(file._index_path, error)
                return None

        def _save_overload(self, sig, data):
            if not self._enabled or not self._impl.check_cachable(data):
                return
            self._impl.locator.ensure_cache_path()
            key = self._index_key(sig, data.codegen)
            self.file_for(loss_of(sig)).save(key, self._impl.reduce(data))

    return KeyedCache


@functools.cache
def index_file():
    """numba's IndexDataCacheFile whose unreadable files are misses (:func:`say_once`),
    and which removes the files of its function and loss under other stamps (``stale``: the
    start of their names) when it writes a new index."""
    from numba.core.caching import IndexDataCacheFile

    class IndexFile(IndexDataCacheFile):
        stale = ""

        def _load_index(self):
            try:
                return super()._load_index()
            except Exception as error:  # (a class moved away, a truncated file)
                say_once(self._index_path, error)
                return {}

        def _save_index(self, overloads):
            if not Path(self._index_path).exists():
                for old in Path(self._cache_path).glob(f"{glob.escape(self.stale)}*.nb[ic]"):
                    old.unlink(missing_ok=True)
            super()._save_index(overloads)

        def load(self, key):
            try:
                return super().load(key)
            except Exception as error:  # (OSError is a miss in numba's already)
                say_once(self._index_path, error)
                return None

    return IndexFile
