"""From a model to what a frame draws: decision values on a grid, regions and contours.

Pure numpy (and contourpy, matplotlib's contouring engine); no Qt. The points' margins and
roles are in :mod:`.margins`, the straight lines and the thinning of curves in :mod:`.lines`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from svmviz.core.data import Dataset
from svmviz.core.model_io import Model
from svmviz.core.pictures.lines import level_line, simplify_lines
from svmviz.core.pictures.margins import (
    margin_level,
    margin_lines,
    margin_unit,
    point_margins,
    problem_module,
    support_mask,
)

CONTOUR_STEP = 2  # the curves are traced on every CONTOUR_STEP-th line of the region grid
SIMPLIFY_CELLS = 0.2  # vertices of the curves are dropped within this many region cells


KINDS = ("svc", "regression", "regression2d", "one-class")


@dataclass(frozen=True)
class Frame:
    """Everything the decision plot needs, immutable and ready to hand to another thread.

    What the fields hold depends on ``kind`` (one of KINDS):

    * svc: ``region`` the predicted class index per grid cell; ``contours`` "boundary"
      (f = 0, or where the two largest f_k tie) and "margin" (f = ±level, or
      f_y − max f_k = level); ``margins`` y f(x) or f_y − max_{k≠y} f_k; ``level`` 1 for the
      hinge family, ρ for ν-SVC, 0 for a loss without margin lines (logistic, softmax).
    * regression (1-D inputs; the plane's x is the input, y the target): ``curve`` the
      polyline (x, f(x)) across the extent, "boundary" that curve, "margin" the tube's
      edges f(x) ± ε, ``region`` empty; ``margins`` the residuals t − f(x); ``level`` ε.
    * regression2d: ``region`` f quantized to 0…255 over ``value_range`` (a colour map),
      "levels" its contours at ``value_levels``, ``margins`` the residuals, ``level`` ε.
    * one-class: ``region`` 1 where f ≥ 0 (inliers), 0 elsewhere; "boundary" f = 0;
      ``margins`` f(x) = ⟨w, φ(x)⟩ − ρ; ``level`` 0.
    """

    extent: tuple[float, float, float, float]  # x0, x1, y0, y1
    region: np.ndarray  # (ny, nx) uint8, by kind (above)
    contours: dict  # level name -> list of (n, 2) polylines
    support: np.ndarray  # indices of the support vectors (by kind: support_mask)
    margins: np.ndarray  # by kind (above)
    # the points the model gets wrong: svc misclassified (as the training error counts
    # them and the regions paint them: a tie, f = 0 at w = 0, goes to the first class);
    # regression outside the tube; one-class the outliers (f < 0)
    wrong: np.ndarray | None = None
    kind: str = "svc"
    level: float = 1.0  # the margin level in the units of ``margins`` (above)
    curve: np.ndarray | None = None  # 1-D regression: (n, 2) the points (x, f(x))
    target: np.ndarray | None = None  # regression: each point's target
    value_range: tuple[float, float] | None = None  # regression2d: the colour map's ends
    value_levels: tuple = ()  # regression2d: the values of the "levels" contours
    loss: str = "hinge"  # the loss module in force (svmviz.core.solvers.losses.MODULES)
    unit: float = 1.0  # one-class: ρ, the scale of f its tolerance is a share of


def prepare_contours() -> None:
    """Make contourpy's first call in this thread (the GUI thread, before any training
    thread contours). pybind11 sets its internals up at its first call in a process; made
    in PySide6's training QThread, that set-up deleted a thread state that was not its own:
    a segmentation fault at the first kernel frame of a window that started linear (4 runs
    in 4; none after this). It is pybind11's known fault: pybind/pybind11#1920."""
    import contourpy

    z = np.array([[0.0, 1.0], [1.0, np.nan]])  # (a masked cell: the array<bool> path too)
    contourpy.contour_generator(np.arange(2.0), np.arange(2.0), z).lines(0.5)


def frame_kind(model: Model, data: Dataset) -> str:
    """One of KINDS: the model's kind, regression split by its inputs' dimension."""
    if model.kind == "regression":
        return "regression" if data.X.shape[1] == 1 else "regression2d"
    return model.kind


def plane_points(data: Dataset) -> np.ndarray:
    """The points of ``data`` where the plane draws them: regression on 1-D inputs at (x,
    target), everything else at its first two coordinates."""
    if data.target is not None and data.X.shape[1] == 1:
        return np.column_stack((data.X[:, 0], data.target))
    return data.X[:, :2]


def point_alpha(model: Model, X: np.ndarray) -> np.ndarray | None:
    """|α| summed over the outputs for each point of ``X`` that is a support vector of the
    kernel ``model`` (the point itself: the same coordinates), 0 for the others; None for
    a linear model. The size of each support vector's ring when no solver is at hand (a
    model drawn on its points: what a solver's ``training_alpha`` gives its own)."""
    if model.coef is not None:
        return None
    weight: dict[bytes, float] = {}
    sv = np.ascontiguousarray(model.support_vectors, dtype=float)
    for row, a in zip(sv, np.abs(model.dual_coef).sum(axis=0), strict=True):
        weight[row.tobytes()] = weight.get(row.tobytes(), 0.0) + float(a)
    X = np.ascontiguousarray(X, dtype=float)
    if not weight or X.shape[1:] != sv.shape[1:]:
        return np.zeros(len(X))
    return np.array([weight.get(row.tobytes(), 0.0) for row in X])


def input_dim(model: Model) -> int:
    """The dimension of ``model``'s inputs (1 for regression on 1-D inputs)."""
    return int(model.coef.shape[1] if model.coef is not None else model.support_vectors.shape[1])


def grid_values(model: Model, xs: np.ndarray, ys: np.ndarray | None = None) -> np.ndarray:
    """f on the grid xs × ys, shape (len(ys)·len(xs),) or (…, K), row-major in y; a model of
    1-D inputs needs only the x grid: f(xs), shape (len(xs),).

    The Gaussian kernel factorizes over the axes of a regular grid:
    exp(−γ‖p − s‖²) = exp(−γ(p_x − s_x)²)·exp(−γ(p_y − s_y)²), so the values of an RBF model
    are one matrix product E_y diag(α) E_xᵀ per output instead of a kernel evaluation per grid
    point and support vector. It is computed in single precision, seven digits where a
    pixel needs three (numpy's float32 exp is vectorized, its float64 exp often is not); the
    training points' values, margins and the objective stay
    in double precision (they come from the solver).
    """
    if input_dim(model) == 1:
        return model.decision_function(np.asarray(xs, dtype=float)[:, None])
    kernel = model.kernel
    factored = model.coef is None and model.decision is None and kernel.name == "rbf"
    if factored and model.support_vectors.shape[1] == 2:
        Ex = _gauss_factor(xs, model.support_vectors[:, 0], kernel.gamma)  # (nx, n_sv)
        Ey = _gauss_factor(ys, model.support_vectors[:, 1], kernel.gamma)  # (ny, n_sv)
        # (double precision for α beyond float32's range: a run on its way to diverging)
        small = np.abs(model.dual_coef).max(initial=0.0) < 1e30
        dtype = np.float32 if small else np.float64
        out = np.stack([(Ey * a.astype(dtype)) @ Ex.T for a in model.dual_coef], axis=-1)
        out = out.reshape(len(ys) * len(xs), -1).astype(float) + model.intercept
        return out[:, 0] if model.single_output else out
    gx, gy = np.meshgrid(xs, ys)
    return model.decision_function(np.column_stack([gx.ravel(), gy.ravel()]))


def _gauss_factor(grid: np.ndarray, centers: np.ndarray, gamma: float) -> np.ndarray:
    """exp(−γ(g_i − c_j)²) in float32, (len(grid), len(centers)), without temporaries.

    When γ·(g − c)² may pass float32's range (a view zoomed far out, or a huge γ), the
    exponent is formed in double precision and clipped first (exp(−1e4) is 0 anyway)."""
    reach = 2.0 * float(max(np.abs(grid).max(initial=0.0), np.abs(centers).max(initial=0.0)))
    if float(gamma) * reach * reach > 1e30:  # (Python floats: inf, never a warning)
        with np.errstate(over="ignore"):
            d = np.subtract.outer(grid, centers)
            d *= d
            d *= gamma
        return np.exp(-np.minimum(d, 1e4).astype(np.float32))
    d = grid.astype(np.float32)[:, None] - centers.astype(np.float32)[None, :]
    d *= d
    d *= np.float32(-gamma)
    return np.exp(d, out=d)


def make_frame(model: Model, data: Dataset, extent, n: int = 160, train_values=None) -> Frame:
    """The frame of ``model`` on the job's ``data`` (X, y, target) over ``extent``: the grid
    parts (regions, curves, by its kind: see :class:`Frame`) and the points' margins,
    support vectors and errors.

    ``train_values``: f at the points when known (the solver keeps them: evaluating a kernel
    model there again would cost more than the whole grid).
    """
    kind = frame_kind(model, data)
    level = margin_level(model)
    value_range = _value_range(data.target) if kind == "regression2d" else None
    F = model.decision_function(data.X) if train_values is None else train_values
    margins, wrong = point_margins(F, data, kind, level)
    target = None if kind not in ("regression", "regression2d") else np.asarray(data.target, float)
    unit = margin_unit(model)
    support = np.flatnonzero(support_mask(margins, kind, level, unit))
    frame = Frame(
        tuple(extent),
        np.zeros((0, 0), dtype=np.uint8),
        {},
        support,
        margins,
        wrong,
        kind=kind,
        level=level,
        target=target,
        value_range=value_range,
        loss=problem_module(model).NAME,
        unit=unit,
    )
    return reframe(frame, model, extent, n)


def reframe(frame: Frame, model: Model, extent, n: int = 160) -> Frame:
    """``frame``'s grid parts (regions, curves, contours) drawn anew for ``model`` over
    ``extent`` at ``n`` cells a side; the points' parts (margins, support, errors) kept.
    For a picture of another size, and for the exact optimum's curves over a frame."""
    import contourpy

    x0, x1, y0, y1 = extent
    xs, ys = np.linspace(x0, x1, n), np.linspace(y0, y1, n)
    # curves from every other grid line: a quarter of the contouring, and of the vertices
    # to stroke (~8 px apart on screen, where a smooth f is near linear)
    step = CONTOUR_STEP if n >= 100 else 1
    kind = frame.kind
    parts: dict = {}
    contours: dict = {"boundary": [], "margin": []}
    if kind == "regression":
        eps = margin_level(model)
        curve = np.column_stack((xs, grid_values(model, xs)))
        parts["curve"] = curve
        region = np.zeros((0, 0), dtype=np.uint8)
        contours["boundary"] = [curve]
        contours["margin"] = [curve + (0.0, eps), curve - (0.0, eps)]
        return replace(frame, extent=tuple(extent), region=region, contours=contours, **parts)
    F = grid_values(model, xs, ys)
    lines = margin_lines(model) if kind == "svc" else []
    if kind == "regression2d":
        lo, hi = frame.value_range or _value_range(frame.target)
        Z = F.reshape(n, n)
        region = np.round(255 * np.clip((Z - lo) / (hi - lo), 0.0, 1.0)).astype(np.uint8)
        levels = nice_levels(lo, hi)
        gen = contourpy.contour_generator(xs[::step], ys[::step], Z[::step, ::step])
        contours["levels"] = [line for v in levels for line in gen.lines(v)]
        parts["value_levels"] = tuple(levels)
    elif F.ndim == 1 and model.coef is not None and model.coef.shape[1] == 2:
        # a linear model's levels are straight lines: exact, and two vertices each
        region = (F.reshape(n, n) >= 0 if kind == "one-class" else F.reshape(n, n) > 0).astype(
            np.uint8
        )
        w, b = model.coef[0], float(model.intercept[0])
        contours["boundary"] = level_line(w, b, 0.0, extent)
        contours["margin"] = [seg for c in lines for seg in level_line(w, b, c, extent)]
    elif F.ndim == 1:
        Z = F.reshape(n, n)
        region = (Z >= 0 if kind == "one-class" else Z > 0).astype(np.uint8)
        gen = contourpy.contour_generator(xs[::step], ys[::step], Z[::step, ::step])
        contours["boundary"] = gen.lines(0.0)
        contours["margin"] = [line for c in lines for line in gen.lines(c)]
    else:
        # class-major (K, n, n): reductions over the classes run along whole rows
        Fk = np.ascontiguousarray(F.T).reshape(-1, n, n)
        region = np.argmax(Fk, axis=0).astype(np.uint8)
        Fs = Fk[:, ::step, ::step]  # the contours' grid
        for k in range(len(Fk)):
            # D_k = f_k − max_{j≠k} f_j: > 0 inside region k, 0 on its boundary, the margin
            # level on its margin
            D = Fs[k] - np.max(np.delete(Fs, k, axis=0), axis=0)
            gen = contourpy.contour_generator(xs[::step], ys[::step], D)
            contours["boundary"] += gen.lines(0.0)
            contours["margin"] += [line for c in lines if c > 0 for line in gen.lines(c)]
    tol = SIMPLIFY_CELLS * min(x1 - x0, y1 - y0) / n
    contours = {k: simplify_lines(v, tol) for k, v in contours.items()}
    return replace(frame, extent=tuple(extent), region=region, contours=contours, **parts)


def _value_range(target) -> tuple[float, float]:
    """The colour map's ends for the targets: their smallest and largest (a constant
    target: ±0.5 around it)."""
    t = np.asarray(target, dtype=float)
    t = t[np.isfinite(t)]
    if not t.size:
        return -0.5, 0.5
    lo, hi = float(t.min()), float(t.max())
    if hi - lo < 1e-12 * max(1.0, abs(lo)):
        return lo - 0.5, hi + 0.5
    return lo, hi


def nice_levels(lo: float, hi: float, count: int = 8) -> list[float]:
    """About ``count`` round values strictly inside (lo, hi), a step of 1, 2 or 5 × 10^k
    apart: the contours of a colour map."""
    raw = (hi - lo) / count
    power = 10.0 ** np.floor(np.log10(raw))
    step = power * min((m for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw), default=10.0)
    first = np.floor(lo / step) * step + step
    values = np.arange(first, hi, step)
    return [float(round(v / step) * step) for v in values if lo < v < hi]


def data_extent(X: np.ndarray, pad: float = 0.15):
    lo = X[:, :2].min(axis=0)
    hi = X[:, :2].max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    lo, hi = lo - pad * span, hi + pad * span
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])
