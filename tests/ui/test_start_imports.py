"""What `svmviz` imports before its first frame: a fresh process (this one has imported
everything), so it takes a start's time, about 1.5 s."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("PySide6.QtWidgets")

FIRST_FRAME_MODULES = """
import sys
from svmviz.core.command_line import window_parser
from svmviz.ui.window.launch import start

app, w = start(window_parser().parse_args([]))
w.controller.snapshot_ready.connect(lambda _: app.quit())
app.exec()
print(" ".join(sorted(m for m in sys.modules if m in set(sys.argv[1:]))))
w.files.saved = w.session.content()
w.close()
"""

# modules of the views a start does not show, and of the exports it does not make
NOT_AT_START = [
    "svmviz.ui.views.generalization_panel",
    "svmviz.ui.views.gram_view",
    "svmviz.ui.views.margin_histogram",
    "svmviz.ui.views.point_table",
    "svmviz.ui.views.surface_view",
    "svmviz.ui.views.theory_panel",
    "svmviz.ui.views.weight_space",
    "pyqtgraph.exporters",
]


def test_a_start_imports_no_module_of_a_view_it_does_not_show(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SVMVIZ_CONFIG_DIR": str(tmp_path)}
    r = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME_MODULES, *NOT_AT_START, "svmviz.ui.views.curves"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.split() == ["svmviz.ui.views.curves"]  # (the Curves, shown at start)
