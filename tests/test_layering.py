"""Imports go down only: the core (and headless training) never load Qt; the app layer loads
QtCore only."""

import subprocess
import sys


def loaded_after(imports: str, prefixes: tuple) -> list:
    """Modules starting with ``prefixes`` that a fresh interpreter has after ``imports``."""
    code = (
        f"import sys\n{imports}\n"
        f"print(','.join(sorted(m for m in sys.modules if m.startswith({prefixes!r}))))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [m for m in r.stdout.strip().split(",") if m]


def test_core_and_train_do_not_import_qt():
    imports = (  # every module of the core, found by walking the package
        "import importlib, pkgutil, svmviz.core as c\n"
        "for m in pkgutil.walk_packages(c.__path__, 'svmviz.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "import svmviz.train, svmviz.cli"
    )
    assert loaded_after(imports, ("PySide6", "pyqtgraph")) == []


def test_app_layer_uses_qtcore_only():
    imports = "import svmviz.app.worker, svmviz.app.session, svmviz.app.window_state"
    bad = ("PySide6.QtWidgets", "PySide6.QtGui", "pyqtgraph", "svmviz.ui")
    assert loaded_after(imports, bad) == []


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
