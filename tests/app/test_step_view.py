"""The step inspector's text: every change it prints can be seen."""

import re

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.explain import step_and_explain
from svmviz.core.solvers import Solver
from svmviz.ui.views.rich_text import change
from svmviz.ui.views.step_view import describe

VALUE = r"\([^)]*\)|[-+0-9.e]+"
CHANGE = re.compile(rf"({VALUE}) → ({VALUE})")


def test_a_small_change_prints_with_the_digits_that_show_it():
    assert change(np.array([0.65312]), np.array([0.65288])) == "0.6531 → 0.6529"
    assert change(np.array([0.653]), np.array([0.653])) == "0.653 (unchanged)"
    assert change(np.array([1.0, 2.0]), np.array([1.0, 2.00004])) == "(1, 2) → (1, 2.00004)"


def test_kernel_steps_never_print_a_change_to_the_same_number(blobs2):
    """Issue 16: late in kernel Pegasos an α shrinks by t/(t+1) and printed as
    "(0.653) → (0.653)"."""
    config = SolverConfig(kernel=Kernel("rbf"), iterations=5000, seed=1)
    s = Solver(config).reset(blobs2)
    s.step(2000)
    labels = [blobs2.classes[k] for k in blobs2.y]
    small = 0
    for _ in range(60):
        record = step_and_explain(s)
        text = describe(record, config, labels, blobs2.X, blobs2.classes)
        for a, b in CHANGE.findall(text):
            assert a != b, text
        rows = [row for row in text.split("<br>") if row.startswith("α<sub>")]
        for row in rows:
            assert not row.split(": ")[1].startswith("(")  # one number: no parentheses
            a, b = (float(v) for v in CHANGE.search(row).groups())
            small += abs(a - b) < 1e-3 * abs(a)
    assert small > 0  # (the case of the issue was met)


@pytest.mark.parametrize(
    ("config", "pegasos"),
    [
        (SolverConfig(lam=0.1), True),  # auto with λ > 0: 1/(λt)
        (SolverConfig(algorithm="sgd", schedule="constant", eta=0.2), False),
        (SolverConfig(algorithm="sgd", schedule="auto", lam=0.0, eta=0.2), False),
    ],
)
def test_the_panel_names_the_schedule_the_solver_chose(blobs2, config, pegasos):
    """The step size line follows the solver's choice of schedule (rules.choose_schedule),
    not a second derivation of it from the configuration."""
    s = Solver(config).reset(blobs2)
    record = step_and_explain(s)
    assert (record.schedule == "pegasos") == pegasos == (s.schedule == "pegasos")
    labels = [blobs2.classes[k] for k in blobs2.y]
    text = describe(record, config, labels, blobs2.X, blobs2.classes)
    assert ("Pegasos" in text.split("<br>")[1]) == pegasos
    assert f"{record.eta:.4g}" in text.split("<br>")[1]
