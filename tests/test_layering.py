"""Imports go down only: the core (and headless training) never load Qt."""

import subprocess
import sys


def test_core_and_train_do_not_import_qt():
    code = (
        "import sys\n"
        "import svmviz.core.data, svmviz.core.kernels, svmviz.core.reference\n"
        "import svmviz.core.solvers, svmviz.core.model_io, svmviz.train, svmviz.cli\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph')))\n"
        "print(','.join(bad))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == ""


def test_app_layer_uses_qtcore_only():
    code = (
        "import sys\n"
        "import svmviz.app.worker\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('PySide6.QtWidgets', "
        "'PySide6.QtGui', 'pyqtgraph', 'svmviz.ui')))\n"
        "print(','.join(bad))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == ""
