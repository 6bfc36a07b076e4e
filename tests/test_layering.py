"""Imports go down only: the core (and headless training) never load Qt; the app layer loads
QtCore only; the core's tests run without Qt; no module imports itself through others.
(`lint-imports` checks the layers statically, pyproject.toml [tool.importlinter].)"""

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent


def loaded_after(imports: str, prefixes: tuple) -> list:
    """Modules starting with ``prefixes`` that a fresh interpreter has after ``imports``."""
    code = (
        f"import sys\n{imports}\n"
        f"print(','.join(sorted(m for m in sys.modules if m.startswith({prefixes!r}))))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [m for m in r.stdout.strip().split(",") if m]


def test_core_and_the_cli_do_not_import_qt():
    imports = (  # every module of the core, found by walking the package
        "import importlib, pkgutil, svmviz.core as c\n"
        "for m in pkgutil.walk_packages(c.__path__, 'svmviz.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "import svmviz.cli"
    )
    assert loaded_after(imports, ("PySide6", "pyqtgraph")) == []


def test_the_package_and_its_estimators_do_not_import_qt():
    """``import svmviz`` and the estimators load no Qt: ``svmviz.plot`` and
    ``svmviz.animate`` (svmviz.ui.notebook.pictures) are loaded when first asked for."""
    imports = "import svmviz, svmviz.estimators\nassert {'plot', 'animate'} <= set(dir(svmviz))"
    assert loaded_after(imports, ("PySide6", "pyqtgraph", "shiboken6", "svmviz.ui")) == []
    asked = "import svmviz\nsvmviz.plot"
    assert "svmviz.ui.notebook.pictures" in loaded_after(asked, ("svmviz.ui",))


def test_training_runner_does_not_import_qt():
    """The runner and what it passes around are plain Python: tests drive it without Qt."""
    imports = (
        "import svmviz.app.runner, svmviz.app.snapshot, svmviz.app.controls, "
        "svmviz.app.play_loop, svmviz.app.split, svmviz.app.threads"
    )
    assert loaded_after(imports, ("PySide6", "pyqtgraph", "shiboken6")) == []


def test_app_layer_uses_qtcore_only():
    imports = "import svmviz.app.worker, svmviz.app.session, svmviz.app.window_state"
    bad = ("PySide6.QtWidgets", "PySide6.QtGui", "pyqtgraph", "svmviz.ui")
    assert loaded_after(imports, bad) == []


def test_core_tests_import_without_qt():
    """The core's tests (and the conftest they use) import with PySide6 and pyqtgraph absent
    (an environment that has neither installed can run them)."""
    files = [TESTS / "conftest.py", *sorted((TESTS / "core").glob("test_*.py"))]
    assert len(files) > 20
    code = (
        "import importlib.util, sys\n"
        "for name in ('PySide6', 'pyqtgraph', 'pytestqt'):\n"
        "    sys.modules[name] = None  # importing it raises ImportError\n"
        f"for i, path in enumerate({[str(f) for f in files]!r}):\n"
        "    spec = importlib.util.spec_from_file_location(f'core_test_{i}', path)\n"
        "    spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
        "print('ok')\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=TESTS.parent
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_core_trains_where_qt_cannot_be_imported():
    """The core without Qt (CI's proof, in place of a second environment without PySide6):
    in a process where importing PySide6, shiboken6, pyqtgraph or pytest-qt fails, every
    module of the core and the estimators import, and a linear and a kernel run train to
    within 0.05 of their exact optimum."""
    code = (
        "import importlib, importlib.abc, pkgutil, sys\n"
        "class NoQt(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'pytestqt'):\n"
        "            raise ImportError(f'no Qt here: {name}')\n"
        "sys.meta_path.insert(0, NoQt())\n"
        "import numpy as np, svmviz.core as c\n"
        "for m in pkgutil.walk_packages(c.__path__, 'svmviz.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "import svmviz.estimators\n"
        "from svmviz.core.config import SolverConfig\n"
        "from svmviz.core.data import Dataset\n"
        "from svmviz.core.fit import train\n"
        "from svmviz.core.kernels import Kernel\n"
        "rng = np.random.default_rng(0)\n"
        "X = np.vstack([rng.normal(-1, 0.6, (20, 2)), rng.normal(1, 0.6, (20, 2))])\n"
        "data = Dataset.from_labels(X, [0] * 20 + [1] * 20)\n"
        "for kernel in (Kernel(), Kernel('rbf')):\n"
        "    r = train(SolverConfig(iterations=500, kernel=kernel), data)\n"
        "    gap = r.objective - r.reference.objective\n"
        "    assert -1e-9 <= gap < 0.05, (kernel, gap)\n"
        "qt = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')]\n"
        "print('ok' if not qt else qt)\n"
    )
    env = {**os.environ, "SVMVIZ_NO_NUMBA": "1"}  # (what is proven needs no compiled loop)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_no_import_cycles():
    """No module imports itself through others, counting imports inside functions (which
    hide a cycle until they run): each import is (importer, imported), and nothing imported
    leads back to its importer."""
    import grimp

    graph = grimp.build_graph("svmviz", cache_dir=None)
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back:
                cycles.append(" -> ".join((importer, *back)))
    assert cycles == [], "\n".join(cycles)


def test_no_pickle_anywhere():
    """No module reads or writes pickles: no pickle import, and every np.load refuses them."""
    import re
    from pathlib import Path

    import svmviz

    sources = sorted(Path(svmviz.__file__).parent.rglob("*.py"))
    assert len(sources) > 40
    for path in sources:
        text = path.read_text(encoding="utf-8")
        imports = re.search(r"^\s*(import|from)\s+(c?pickle|joblib|shelve|dill)\b", text, re.M)
        assert not imports, path
        assert "allow_pickle=True" not in text, path
        for call in re.findall(r"np\.load\(.*", text):  # (each call on one line)
            assert "allow_pickle=False" in call, (path, call)
