"""Every ν statement on screen is true: the status line gives the model's own share beside
the optimum's shares that ν bounds (the exact solver's, which keep the bound), never that
ν bounds the model shown (nor does the presenter's line, which has room for ν alone); the
ν words are not cut at 1366×768."""

import re
from dataclasses import replace

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset
from svmviz.core.training.reference import exact_optimum
from svmviz.ui.panels.status import nu_words
from svmviz.ui.window.presentation import short_status

RNG = np.random.default_rng(5)
X = RNG.normal(size=(40, 2))
DATA = {
    "nu-svc": Dataset.from_labels(X, (X[:, 0] + 0.7 * RNG.normal(size=40) > 0).astype(int)),
    "one-class": Dataset.points(X),
    "nu-svr": Dataset.regression(X[:, :1], np.sin(2 * X[:, 0]) + 0.3 * RNG.normal(size=40)),
}
BEYOND = {"nu-svc": "margin errors", "one-class": "outliers", "nu-svr": "outside the tube"}
BOUNDS = r"at the optimum (\d+\.\d)% ≤ ν = 0\.3 ≤ (\d+\.\d)%"


def beyond_share(snap, problem: str) -> float:
    """The model shown: its share of the points beyond its margin, as the plane marks them
    (ν-SVC: y f < ρ; one-class: f < 0; ν-SVR: outside the tube)."""
    if problem == "nu-svc":
        return float(np.mean(snap.frame.margins < snap.model.rho))
    return float(np.mean(snap.frame.wrong))


@pytest.mark.parametrize("problem", list(DATA))
def test_the_status_says_what_nu_bounds_at_the_optimum(make_window, wait_frame, problem):
    w = make_window(DATA[problem], SolverConfig(problem=problem, nu=0.3, iterations=200))
    w.resize(1366, 768)
    w.show()
    wait_frame(w, lambda s: s.generation == w.controller.generation)
    w.run_to_budget()
    snap = wait_frame(w, lambda s: s.status == "budget" and s.reference is not None)
    text = w.status.text()
    assert "bounds both" not in text
    assert f"{BEYOND[problem]} {100 * beyond_share(snap, problem):.1f}%" in text
    exact = exact_optimum(w.session.job_config(), w.session.dataset()).nu_shares
    found = re.search(BOUNDS, text)
    assert found is not None, text
    low, high = float(found[1]), float(found[2])
    assert low == pytest.approx(100 * exact.beyond, abs=0.05)
    assert high == pytest.approx(100 * exact.support, abs=0.05)
    assert low <= 30 <= high
    assert found[0] in w.status.shown_text(), w.status.shown_text()  # not cut
    short = short_status(snap, w.session.config)  # the presenter's: ν, and no bound
    assert "ν = 0.3" in short and "≤" not in short and "bounds" not in short
    assert nu_words(replace(snap, reference=None), w.session.config) == "ν = 0.3"  # pending
