"""numba's cache of the compiled loops is keyed per loss and by contents
(svmviz.core._compiled_cache): an edited loss module is compiled anew, alone; a revert gives
the old numbers; a cache file that cannot be read (a loss module moved away, a cache left by
an older svmviz) is a miss, said once, never a traceback.

Each run is a fresh process on a copy of the package with its own cache folder, which
compiles only the loop's objective (_loop._evaluate, which inlines the loss's value) for
the losses it is given: at f = 0 the mean loss is ℓ(0), log 2 for the logistic loss, 1
for the squared hinge and the modified Huber."""

import importlib
import os
import pickle
import pkgutil
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import svmviz
from svmviz.core import _compiled_cache, _jit

pytestmark = pytest.mark.skipif(not _jit.HAVE_NUMBA, reason="numba's cache needs numba")

SCRIPT = """
import sys
import numpy as np
from svmviz.core import _jit
from svmviz.core.config import SolverConfig
from svmviz.core.solvers import _loop, losses

assert _jit.HAVE_NUMBA
y = np.array([0, 1, 1, 0], dtype=np.int64)
t = np.where(y == 1, 1.0, -1.0)
for name in sys.argv[1:]:
    loss = losses.MODULES[name].params(SolverConfig(loss=name), np.zeros((2, 2)))
    args = (loss, y, t, np.zeros((1, 4)), 1.0, np.zeros(1), np.zeros(2), 0.1, 0.0)
    objective, mean, error = _loop._evaluate(*args)
    assert hasattr(_loop._evaluate, "overloads")  # (compiled, not plain Python)
    print(name, repr(mean))
"""
LOSSES = Path("svmviz", "core", "solvers", "losses")
EDIT = (
    "    return np.log1p(np.exp(-z)) if z > 0.0 else -z + np.log1p(np.exp(z))",
    "    return 2.0 * (np.log1p(np.exp(-z)) if z > 0.0 else -z + np.log1p(np.exp(z)))",
)
# a pickle that imports a module nobody has (as an index naming a loss module moved away)
GONE = b"csvmviz_gone_module\nThing\n."


def _run(root: Path, cache: Path, *names: str) -> tuple[dict[str, float], str]:
    """({loss: its mean loss at f = 0}, stderr) of the script run on the tree ``root``."""
    env = {k: v for k, v in os.environ.items() if k != "SVMVIZ_NO_NUMBA"}
    env.update(PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *names], cwd=root, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    means = dict(line.split() for line in done.stdout.strip().splitlines())
    return {name: float(mean) for name, mean in means.items()}, done.stderr


def _indices(cache: Path) -> dict[str, tuple[bytes, int]]:
    """{index file name: (its bytes, its modification time)} of the cache."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in cache.rglob("*.nbi")}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """A copy of the package and a cache holding its logistic and squared hinge objectives."""
    root = tmp_path_factory.mktemp("compiled") / "tree"
    shutil.copytree(
        Path(svmviz.__file__).parent,
        root / "svmviz",
        ignore=shutil.ignore_patterns("__pycache__", "*.nb[ic]"),
    )
    means, said = _run(root, root.parent / "cache", "logistic", "squared_hinge")
    assert means == pytest.approx({"logistic": np.log(2.0), "squared_hinge": 1.0})
    assert said == ""
    return root


@pytest.fixture
def tree(compiled):
    """(the package copy, its filled cache) for one test to change; put back afterwards.
    (The same folder for every test: numba's cache folder is named after the source's.)"""
    cache = compiled.parent / "cache"
    saved = compiled.parent / "saved"
    shutil.copytree(compiled, saved / "tree")
    shutil.copytree(cache, saved / "cache")
    yield compiled, cache
    for folder in (compiled, cache):
        shutil.rmtree(folder)
        shutil.copytree(saved / folder.name, folder)
    shutil.rmtree(saved)


def test_editing_a_loss_recompiles_that_loss_alone_and_a_revert_is_exact(tree):
    root, cache = tree
    module = root / LOSSES / "logistic.py"
    text = module.read_text(encoding="utf-8")
    assert EDIT[0] in text
    before = _indices(cache)
    module.write_text(text.replace(*EDIT), encoding="utf-8")
    means, said = _run(root, cache, "logistic", "squared_hinge")
    assert means == pytest.approx({"logistic": 2.0 * np.log(2.0), "squared_hinge": 1.0})
    after = _indices(cache)
    changed = {name for name in after if after[name] != before.get(name)}
    assert changed and all(".logistic." in name for name in changed), changed
    assert all(".logistic." in name for name in set(before) - set(after))  # (stale: gone)
    assert said == ""
    module.write_text(text, encoding="utf-8")  # the exact revert
    means, said = _run(root, cache, "logistic", "squared_hinge")
    assert means == pytest.approx({"logistic": np.log(2.0), "squared_hinge": 1.0})
    assert said == ""


def test_a_new_loss_compiles_alone_and_its_removal_leaves_the_others(tree):
    root, cache = tree
    before = _indices(cache)
    means, _ = _run(root, cache, "modified_huber", "logistic")
    assert means == pytest.approx({"modified_huber": 1.0, "logistic": np.log(2.0)})
    after = _indices(cache)
    assert {n for n in before if after[n] != before[n]} == set()  # (logistic: loaded)
    assert any(".modified_huber." in name for name in after)
    (root / LOSSES / "modified_huber.py").unlink()  # the module and its line, gone
    problems = root / "svmviz" / "core" / "problems.py"
    text = problems.read_text(encoding="utf-8")
    entry = re.search(r'\n    "modified_huber": Declared\(.*?\),\n(?=    "|\})', text, re.S)
    problems.write_text(text.replace(entry.group(0), "\n"), "utf-8")
    means, said = _run(root, cache, "logistic", "squared_hinge")
    assert means == pytest.approx({"logistic": np.log(2.0), "squared_hinge": 1.0})
    assert said == ""


def test_a_cache_that_cannot_be_read_is_compiled_anew_and_said_once(tree):
    """Every index replaced by one whose entries name a module gone (a loss moved away), and
    one beside each where an older svmviz kept it (numba's own name), whose entries do too:
    the numbers are right, one line says so, and the indices are rewritten."""
    root, cache = tree
    for index in cache.rglob("*.nbi"):
        with open(index, "rb") as f:
            poisoned = pickle.dumps(pickle.load(f)) + GONE  # (numba's version, then entries)
        index.write_bytes(poisoned)
        function, python = index.name.split(".py3")[0], index.name.split(".")[-4]
        index.with_name(f"{function}.{python}.nbi").write_bytes(poisoned)
    means, said = _run(root, cache, "logistic", "squared_hinge")
    assert means == pytest.approx({"logistic": np.log(2.0), "squared_hinge": 1.0})
    assert said.count("could not be read") == 1 and "compiled anew" in said, said
    assert _run(root, cache, "logistic")[1] == ""  # (the indices rewritten)


def test_every_module_of_compiled_code_is_a_compiled_source():
    """The files the cache is keyed by (COMPILED_SOURCES) hold every module whose functions
    _jit compiles."""
    core = Path(_jit.__file__).resolve().parent
    for info in pkgutil.walk_packages([str(core)], "svmviz.core."):
        importlib.import_module(info.name)
    covered = [core / name for name in _compiled_cache.COMPILED_SOURCES]
    for module, _, _ in _jit._functions:
        path = Path(sys.modules[module].__file__).resolve()
        assert any(path == c or c in path.parents for c in covered), module
