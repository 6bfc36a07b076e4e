"""Beyond the sizes svmviz takes on, a message naming the size and the limit (no
out-of-memory crash), and kernel values evaluated in bounded blocks."""

import numpy as np
import pytest

from svmviz.core import limits
from svmviz.core.config import SolverConfig
from svmviz.core.data import Dataset, write_csv
from svmviz.core.errors import InputError
from svmviz.core.files.session_file import read_document
from svmviz.core.kernels import Kernel
from svmviz.core.solvers import Solver
from svmviz.core.training.reference import exact_optimum


def data(m, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 2))
    return Dataset.from_labels(X, (X[:, 0] > 0).astype(int))


def test_a_kernel_model_refuses_more_points_than_its_matrix_may_hold(monkeypatch):
    big = data(limits.MAX_KERNEL_POINTS + 1)
    cfg = SolverConfig(kernel=Kernel("rbf"))
    with pytest.raises(
        InputError,
        match=r"5,001 points are too many .* takes 191 MiB; the "
        r"limit is 5,000 points\). Use the linear kernel",
    ):
        Solver(cfg).reset(big)  # refused before the matrix is made
    with pytest.raises(InputError, match="too many for a kernel model"):
        exact_optimum(cfg, big)
    Solver(SolverConfig()).reset(big).step(10)  # a linear model takes them


def test_the_window_refuses_files_with_more_points_than_it_takes(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_POINTS", 100)
    path = tmp_path / "big.csv"
    write_csv(path, data(101))
    with pytest.raises(InputError, match=r"big.csv: 101 points; the window takes up to 100"):
        read_document(path)
    write_csv(path, data(100))
    assert len(read_document(path).y) == 100


def test_kernel_values_in_blocks_equal_the_whole(monkeypatch):
    from svmviz.core.model_io import Model

    rng = np.random.default_rng(1)
    sv = rng.normal(size=(50, 2))
    model = Model(
        classes=("a", "b"),
        kernel=Kernel("rbf", gamma=0.5),
        lam=0.1,
        bias="free",
        support_vectors=sv,
        dual_coef=rng.normal(size=(1, 50)),
        intercept=np.array([0.3]),
    )
    X = rng.normal(size=(1000, 2))
    whole = model.kernel.gram(X, sv) @ model.dual_coef[0] + 0.3
    monkeypatch.setattr("svmviz.core.model_io.BLOCK_ENTRIES", 50 * 7)  # blocks of 7 rows
    np.testing.assert_allclose(model.decision_function(X), whole, rtol=1e-13)
