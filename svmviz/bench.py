"""`svmviz bench`: the engine's speed figures, each beside its target and anchor.

Every figure is measured in this run, on this machine; comparisons are made in the same run.
"""

from __future__ import annotations

import json
import time

import numpy as np

TARGET_LINEAR = 500_000  # linear Pegasos updates/s with full telemetry, m = 1000
TARGET_KERNEL = 100_000  # kernel SGD updates/s with full telemetry, m = 1000


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


def _sklearn_rate(data, epochs: int, repeats: int) -> float:
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import SGDClassifier

    m = data.X.shape[0]
    best = 0.0
    for _ in range(repeats):
        clf = SGDClassifier(
            loss="hinge", alpha=0.01, learning_rate="optimal", max_iter=epochs, tol=None,
            shuffle=True, random_state=0, average=False,
        )  # fmt: skip
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(data.X, data.y)
        best = max(best, epochs * m / (time.perf_counter() - start))
    return best


def measure(quick: bool = False) -> list[dict]:
    from svmviz.core.config import SolverConfig
    from svmviz.core.kernels import Kernel
    from svmviz.core.solvers._jit import HAVE_NUMBA

    m = 1000
    data = _data(m)
    n = 50_000 if quick else 200_000
    reps = 2 if quick else 3
    rows = []
    base = SolverConfig(algorithm="pegasos", lam=0.01)
    lin = _rate(base, data, n, reps)
    skl = _sklearn_rate(data, epochs=max(1, n // m), repeats=reps)
    rows.append(
        dict(name="linear Pegasos, m=1000, full telemetry", value=lin, unit="updates/s",
             target=TARGET_LINEAR, anchor=f"sklearn SGDClassifier {skl:,.0f} updates/s "
             f"(no telemetry), ratio {lin / skl:.2f}", ok=lin >= TARGET_LINEAR)
    )  # fmt: skip
    for bias in ("none", "regularized"):
        r = _rate(base.replace(bias=bias), data, n, reps)
        rows.append(dict(name=f"linear Pegasos, bias {bias}", value=r, unit="updates/s",
                         target=TARGET_LINEAR, anchor="", ok=r >= TARGET_LINEAR))  # fmt: skip
    kern = _rate(base.replace(kernel=Kernel("rbf", gamma=1.0)), data, n // 2, reps)
    rows.append(
        dict(name="kernel (rbf) SGD, m=1000, full telemetry", value=kern, unit="updates/s",
             target=TARGET_KERNEL, anchor="", ok=kern >= TARGET_KERNEL)
    )  # fmt: skip
    data3 = _data(m, seed=1)
    y3 = np.where(data3.X[:, 1] > 0.6, 2, data3.y)
    from svmviz.core.data import Dataset

    data3 = Dataset.from_labels(data3.X, y3)
    mc = _rate(base, data3, n // 2, reps)
    rows.append(dict(name="linear multiclass (K=3) Pegasos, m=1000", value=mc,
                     unit="updates/s", target=None, anchor="", ok=True))  # fmt: skip
    gd = _rate(base.replace(algorithm="gd"), data, 2000, reps)
    rows.append(dict(name="linear full-batch GD, m=1000", value=gd, unit="iterations/s",
                     target=None, anchor="", ok=True))  # fmt: skip
    for r in rows:
        r["numba"] = HAVE_NUMBA
    return rows


def main(args) -> int:
    rows = measure(quick=getattr(args, "quick", False))
    if getattr(args, "json", False):
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        target = f"target ≥ {r['target']:,}" if r["target"] else "no target"
        flag = "" if r["target"] is None else ("  ok" if r["ok"] else "  BELOW TARGET")
        anchor = f"  [{r['anchor']}]" if r["anchor"] else ""
        print(f"{r['name']:45s} {r['value']:>12,.0f} {r['unit']:12s} {target}{flag}{anchor}")
    return 0
