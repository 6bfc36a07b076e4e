"""One frame of the plane: the decision values on a 200×200 grid, the region image, the
f = 0 and f = ±1 curves and the points, computed (as the worker does) and drawn and painted
(as the window does), for a linear model and an RBF model with 1,000 support vectors."""

from __future__ import annotations

import time

import numpy as np

from svmviz.bench.report import row

TARGET_FRAME_MS = 16.0
GRID = 200


def _models(X):
    from svmviz.core.kernels import Kernel
    from svmviz.core.model_io import Model

    rng = np.random.default_rng(1)
    linear = Model(("0", "1"), Kernel(), 0.01, "free", np.array([0.1]), coef=np.array([[1.0, 0.5]]))
    rbf = Model(
        ("0", "1"),
        Kernel("rbf", gamma=1.0),
        0.01,
        "free",
        np.array([0.1]),
        support_vectors=X,
        dual_coef=rng.normal(size=(1, len(X))) * 0.05,
    )
    return {"linear": linear, "rbf, 1000 support vectors": rbf}


def measure(quick: bool = False) -> list[dict]:
    from svmviz.bench.window import qt_app, quiet_config

    config = quiet_config()
    qt_app()
    from svmviz.app.session import Session
    from svmviz.bench.engine import _data
    from svmviz.core.pictures.frame import make_frame
    from svmviz.ui.plane.decision_plot import DecisionPlot

    data = _data(1000)
    session = Session(data)
    plot = DecisionPlot(session)
    plot.resize(900, 700)
    plot.show()
    plot.draw_points()
    colors = plot.region_colors(session.present_classes())
    rows = []
    repeats = 15 if quick else 40
    for name, model in _models(data.X).items():
        values = model.decision_function(data.X)  # the solver keeps these (training_values)
        alpha = None if model.coef is not None else np.abs(model.dual_coef[0])
        times = []
        for k in range(repeats):
            s = 3.0 + 0.01 * (k % 5)  # a view that moves a little: nothing is reused
            start = time.perf_counter()
            frame = make_frame(model, data, (-s, s, -s, s), GRID, train_values=values)
            plot.draw_frame(frame, colors, alpha)
            plot.viewport().repaint()  # painted now, not at the next event-loop turn
            times.append(time.perf_counter() - start)
        ms = 1000 * float(np.median(times))
        rows.append(
            row(
                f"frame {GRID}×{GRID}, {name}: computed, drawn, painted",
                ms,
                "ms",
                TARGET_FRAME_MS,
                f"p90 {1000 * np.percentile(times, 90):.1f} ms",
                lower_is_better=True,
            )
        )
    plot.close()
    config.cleanup()
    return rows
