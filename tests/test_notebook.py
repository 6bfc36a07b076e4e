"""The example notebook runs headless, as CI runs it (nbclient, a python3 kernel of this
environment), without an error, and shows what it says it shows."""

import os
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).parents[1] / "examples" / "svmviz-in-a-notebook.ipynb"


@pytest.mark.early
def test_example_notebook_runs_headless(tmp_path, monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.delenv("DISPLAY", raising=False)
    # the kernel imports this tree's svmviz, as the tests do: its loops' numba cache (CI
    # fills it before the tests; an installed copy's is empty and compiled them again)
    root = str(NOTEBOOK.parents[1])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (root, os.getenv("PYTHONPATH")))))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code")  # (stripped)
    nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "svmviz Pegasos  accuracy 0.9" in text and "libsvm SVC      accuracy 0.9" in text
    assert "t = 50,000: F − F* =" in text
    agree = re.search(r"Pegasos and libsvm agree on ([\d.]+)% of the points", text)
    assert agree and float(agree.group(1)) >= 95
    data = [o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert sum("image/png" in d for d in data) == 2  # svmviz.plot, inline
    assert any("data:image/gif;base64," in d.get("text/html", "") for d in data)  # animate
