"""The engine's figures: updates per second with full per-iteration telemetry (linear
Pegasos as a ratio to scikit-learn's SGDClassifier, which records nothing per iteration, on
the same data in the same run; kernel SGD), and the time to reach 1% of the optimum as a
ratio to scikit-learn's exact SVC fit of the same problem."""

from __future__ import annotations

import time

import numpy as np

from svmviz.bench.report import row

TARGET_LINEAR_RATIO = 0.3  # linear Pegasos updates/s over SGDClassifier's, m = 1000
TARGET_KERNEL = 300_000  # kernel SGD updates/s with full telemetry, m = 1000
TARGET_GAP_RATIO = 2.0  # time to 1% of the optimum over SVC's exact fit, m = 1000


def _data(m: int, seed: int = 0):
    from svmviz.core.data import Dataset

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 2))
    y = (X[:, 0] + 0.5 * X[:, 1] + 0.4 * rng.normal(size=m) > 0).astype(int)
    return Dataset.from_labels(X, y)


def _rate(config, data, n: int, repeats: int) -> float:
    """Best-of-``repeats`` updates/s of ``n`` iterations (after one warm-up call)."""
    from svmviz.core.solvers import Solver

    Solver(config.replace(iterations=10)).reset(data).step(10)  # compile / warm caches
    best = 0.0
    for _ in range(repeats):
        s = Solver(config.replace(iterations=n)).reset(data)
        start = time.perf_counter()
        s.step(n)
        best = max(best, n / (time.perf_counter() - start))
    return best


def _sklearn_rate(data, epochs: int, repeats: int, intercept: bool) -> float:
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import SGDClassifier

    m = data.X.shape[0]
    best = 0.0
    for rep in range(repeats + 1):  # the first fit warms up and is not counted
        clf = SGDClassifier(
            loss="hinge",
            alpha=0.01,
            learning_rate="optimal",
            max_iter=epochs,
            tol=None,
            shuffle=True,
            random_state=0,
            average=False,
            fit_intercept=intercept,
        )
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(data.X, data.y)
        if rep:
            best = max(best, epochs * m / (time.perf_counter() - start))
    return best


def _time_to_gap(config, data, optimum: float, gap: float = 0.01) -> tuple[float, int]:
    """Seconds (and iterations) from a fresh solver (data in, kernel matrix made) to an
    iterate whose objective is within ``gap`` of the optimum, relatively. The iteration is
    found in a first, untimed run (the objective of every iterate is in the history); the
    timed run stops there, in one call (no checks in between), with the telemetry of
    `svmviz train`: the exact objective at the checkpoints (the same iterates)."""
    from svmviz.core.solvers import Solver

    s = Solver(config).reset(data)
    s.step(config.iterations)
    within = np.flatnonzero(s.history_["objective"] - optimum <= gap * abs(optimum))
    if not len(within):
        return float("inf"), s.t_
    t = int(s.history_["t"][within[0]])
    start = time.perf_counter()
    Solver(config, record="checkpoints").reset(data).step(t)
    return time.perf_counter() - start, t


def _svc_seconds(config, data, repeats: int) -> float:
    from sklearn.svm import SVC

    C = 1.0 / (config.lam * len(data.y))
    k = config.kernel
    best = float("inf")
    for _ in range(repeats):
        clf = SVC(C=C, kernel=k.name, gamma=k.gamma, degree=k.degree, coef0=k.coef0, tol=1e-3)
        start = time.perf_counter()
        clf.fit(data.X, data.y)
        best = min(best, time.perf_counter() - start)
    return best


def measure(quick: bool = False) -> list[dict]:
    from svmviz.core._jit import HAVE_NUMBA
    from svmviz.core.config import SolverConfig
    from svmviz.core.data import Dataset
    from svmviz.core.kernels import Kernel
    from svmviz.core.solvers import Solver
    from svmviz.core.training.reference import exact_optimum

    Solver.warm_up()  # compiled now: solvers would otherwise run plain Python until then
    m = 1000
    data = _data(m)
    n = 50_000 if quick else 200_000
    reps = 3 if quick else 5
    rows = []
    base = SolverConfig(algorithm="pegasos", lam=0.01)
    epochs = max(1, n // m)
    # Pegasos as 002 writes it: no bias, the averaged iterate; SGDClassifier without an
    # intercept, so that both solve the same problem
    # taken in turns, so that both see the same state of a shared machine
    lin = skl = 0.0
    for _ in range(reps):
        lin = max(lin, _rate(base.replace(bias="none"), data, n, 1))
        skl = max(skl, _sklearn_rate(data, epochs, 1, intercept=False))
    rows.append(
        row(
            "linear Pegasos (002: no bias) m=1000, full telemetry / SGDClassifier",
            lin / skl,
            "ratio",
            TARGET_LINEAR_RATIO,
            f"{lin:,.0f} updates/s vs sklearn SGDClassifier {skl:,.0f}, no intercept, no telemetry",
        )
    )
    # the window's default: a free bias, exact at every step
    free = skl_b = 0.0
    for _ in range(reps):
        free = max(free, _rate(base, data, n, 1))
        skl_b = max(skl_b, _sklearn_rate(data, epochs, 1, intercept=True))
    rows.append(
        row(
            "linear Pegasos, exact free bias, m=1000 / SGDClassifier",
            free / skl_b,
            "ratio",
            None,
            f"{free:,.0f} updates/s vs sklearn SGDClassifier {skl_b:,.0f} with an intercept",
        )
    )
    r = _rate(base.replace(bias="regularized"), data, n, reps)
    rows.append(row("linear Pegasos m=1000, bias regularized", r, "updates/s"))
    rbf = base.replace(kernel=Kernel("rbf", gamma=1.0))
    kern = _rate(rbf, data, n // 2, reps)
    rows.append(
        row("kernel (rbf) Pegasos m=1000, full telemetry", kern, "updates/s", TARGET_KERNEL)
    )
    y3 = np.where(data.X[:, 1] > 0.6, 2, data.y)
    mc = _rate(base, Dataset.from_labels(data.X, y3), n // 2, reps)
    rows.append(row("linear multiclass (K=3) Pegasos m=1000", mc, "updates/s"))
    gd = _rate(base.replace(algorithm="gd"), data, 2000, reps)
    rows.append(row("linear full-batch GD m=1000", gd, "iterations/s"))
    for name, config in (("linear", base), ("rbf", rbf)):
        config = config.replace(iterations=20_000)
        optimum = exact_optimum(config, data).objective
        seconds, t, svc = float("inf"), 0, float("inf")
        for _ in range(reps):  # in turns, as above
            seconds, t = min((seconds, t), _time_to_gap(config, data, optimum))
            svc = min(svc, _svc_seconds(config, data, 1))
        rows.append(
            row(
                f"{name} m=1000: time to 1% of the optimum / SVC fit",
                seconds / svc,
                "ratio",
                TARGET_GAP_RATIO,
                f"{1000 * seconds:,.0f} ms ({t:,} iterations) vs sklearn SVC {1000 * svc:,.0f} ms",
                lower_is_better=True,
            )
        )
    for r in rows:
        r["numba"] = HAVE_NUMBA
    return rows
