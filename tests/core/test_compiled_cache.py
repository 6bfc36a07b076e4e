"""numba's cache of the compiled loops is keyed to every file they compile: after a loss
module is edited, the compiled code runs the edited loss, not the cached old one (numba
alone keys a function's cache by its own file: the loop's)."""

import importlib
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import svmviz
from svmviz.core import _jit

# the compiled objective of the loop (_loop._evaluate, which inlines the loss's value)
# at f = 0 for every example: the mean logistic loss, log 2
SCRIPT = """
import numpy as np
from svmviz.core import _jit
from svmviz.core.config import SolverConfig
from svmviz.core.solvers import _loop
from svmviz.core.solvers.losses import logistic

assert _jit.HAVE_NUMBA
loss = logistic.params(SolverConfig(loss="logistic"), np.zeros((2, 2)))
y = np.array([0, 1, 1, 0], dtype=np.int64)
t = np.where(y == 1, 1.0, -1.0)
F = np.zeros((1, 4))
objective, mean, error = _loop._evaluate(loss, y, t, F, 1.0, np.zeros(1), np.zeros(2), 0.1, 0.0)
assert hasattr(_loop._evaluate, "overloads")  # (compiled, not plain Python)
print(repr(mean))
"""
EDIT = (
    "    return np.log1p(np.exp(-z)) if z > 0.0 else -z + np.log1p(np.exp(z))",
    "    return 2.0 * (np.log1p(np.exp(-z)) if z > 0.0 else -z + np.log1p(np.exp(z)))",
)


def _run(root: Path, cache: Path) -> float:
    env = {k: v for k, v in os.environ.items() if k != "SVMVIZ_NO_NUMBA"}
    env.update(PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=root, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return float(done.stdout.strip().splitlines()[-1])


def test_an_edited_loss_module_is_compiled_anew(tmp_path):
    package = Path(svmviz.__file__).parent
    root = tmp_path / "tree"
    shutil.copytree(
        package, root / "svmviz", ignore=shutil.ignore_patterns("__pycache__", "*.nb[ic]")
    )
    cache = tmp_path / "numba-cache"
    assert np.isclose(_run(root, cache), np.log(2.0))  # compiled, and cached
    module = root / "svmviz" / "core" / "solvers" / "losses" / "logistic.py"
    text = module.read_text(encoding="utf-8")
    assert EDIT[0] in text
    module.write_text(text.replace(*EDIT), encoding="utf-8")
    assert np.isclose(_run(root, cache), 2.0 * np.log(2.0))  # the edited loss, compiled


def test_every_module_of_compiled_code_is_a_compiled_source():
    """The files the cache is keyed by (COMPILED_SOURCES) hold every module whose functions
    _jit compiles."""
    core = Path(_jit.__file__).resolve().parent
    for info in pkgutil.walk_packages([str(core)], "svmviz.core."):
        importlib.import_module(info.name)
    covered = [core / name for name in _jit.COMPILED_SOURCES]
    for module, _, _ in _jit._functions:
        path = Path(sys.modules[module].__file__).resolve()
        assert any(path == c or c in path.parents for c in covered), module
