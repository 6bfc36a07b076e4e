"""From a model to what a frame draws: decision values on a grid, regions and contours.

Pure numpy (and contourpy, matplotlib's contouring engine); no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svmviz.core.model_io import Model

# a point counts as on the margin within this much of y f = 1 (an iterate near the optimum
# puts the support vectors at 1.00x, and they should be marked)
MARGIN_TOLERANCE = 0.01
CONTOUR_STEP = 2  # the curves are traced on every CONTOUR_STEP-th line of the region grid
SIMPLIFY_CELLS = 0.2  # vertices of the curves are dropped within this many region cells


@dataclass(frozen=True)
class Frame:
    """Everything the decision plot needs, immutable and ready to hand to another thread."""

    extent: tuple[float, float, float, float]  # x0, x1, y0, y1
    region: np.ndarray  # (ny, nx) predicted class index (uint8)
    contours: dict  # level name -> list of (n, 2) polylines
    support: np.ndarray  # indices of the points with margin y f ≤ 1 (support vectors)
    margins: np.ndarray  # y_i f(x_i) (binary) or f_{y_i} − max_{k≠y_i} f_k (multiclass)
    # the points the model misclassifies, as the training error counts them and the regions
    # paint them: a tie (f = 0, at w = 0 every point) goes to the first class
    wrong: np.ndarray | None = None


def prepare_contours() -> None:
    """Make contourpy's first call in this thread (the GUI thread, before any training
    thread contours). pybind11 sets its internals up at its first call in a process; made
    in PySide6's training QThread, that set-up deleted a thread state that was not its own:
    a segmentation fault at the first kernel frame of a window that started linear (4 runs
    in 4; none after this). It is pybind11's known fault: pybind/pybind11#1920."""
    import contourpy

    z = np.array([[0.0, 1.0], [1.0, np.nan]])  # (a masked cell: the array<bool> path too)
    contourpy.contour_generator(np.arange(2.0), np.arange(2.0), z).lines(0.5)


ROLES = (
    "outside the margin",
    "support vector (on the margin)",
    "inside the margin",
    "misclassified",
)


def point_roles(margins: np.ndarray) -> np.ndarray:
    """Each point's role by its margin z = y f(x) (binary) or f_y − max_{k≠y} f_k: 0 outside
    the margin (z > 1), 1 on it (z = 1, within MARGIN_TOLERANCE: a support vector of the
    optimum), 2 inside it (0 ≤ z < 1), 3 misclassified (z < 0); indices into ROLES."""
    roles = np.zeros(len(margins), dtype=np.int64)
    roles[np.abs(margins - 1.0) <= MARGIN_TOLERANCE] = 1
    roles[(margins >= 0) & (margins < 1.0 - MARGIN_TOLERANCE)] = 2
    roles[margins < 0] = 3
    return roles


def slack_segments(coef: np.ndarray, intercept: float, X: np.ndarray, y_sign: np.ndarray):
    """For a linear binary model: from each point with slack ξ_i = max(0, 1 − y_i f(x_i)) > 0
    to the nearest point of its own margin line f = y_i (a segment of length ξ_i/‖w‖):
    (starts, ends), each n×2."""
    w = np.asarray(coef, dtype=float)
    n2 = float(w @ w)
    if n2 == 0.0:
        return np.zeros((0, 2)), np.zeros((0, 2))
    f = X @ w + intercept
    slack = np.maximum(0.0, 1.0 - y_sign * f)
    idx = np.flatnonzero(slack > 0)
    ends = X[idx] + ((y_sign[idx] - f[idx]) / n2)[:, None] * w
    return X[idx], ends


def grid_values(model: Model, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """f on the grid xs × ys, shape (len(ys)·len(xs),) or (…, K), row-major in y.

    The Gaussian kernel factorizes over the axes of a regular grid:
    exp(−γ‖p − s‖²) = exp(−γ(p_x − s_x)²)·exp(−γ(p_y − s_y)²), so the values of an RBF model
    are one matrix product E_y diag(α) E_xᵀ per output instead of a kernel evaluation per grid
    point and support vector. It is computed in single precision, seven digits where a
    pixel needs three (numpy's float32 exp is vectorized, its float64 exp often is not); the
    training points' values, margins and the objective stay
    in double precision (they come from the solver).
    """
    kernel = model.kernel
    if model.coef is None and kernel.name == "rbf" and model.support_vectors.shape[1] == 2:
        Ex = _gauss_factor(xs, model.support_vectors[:, 0], kernel.gamma)  # (nx, n_sv)
        Ey = _gauss_factor(ys, model.support_vectors[:, 1], kernel.gamma)  # (ny, n_sv)
        # (double precision for α beyond float32's range: a run on its way to diverging)
        small = np.abs(model.dual_coef).max(initial=0.0) < 1e30
        dtype = np.float32 if small else np.float64
        out = np.stack([(Ey * a.astype(dtype)) @ Ex.T for a in model.dual_coef], axis=-1)
        out = out.reshape(len(ys) * len(xs), -1).astype(float) + model.intercept
        return out[:, 0] if out.shape[1] == 1 else out  # (one output: binary, SVR, one-class)
    gx, gy = np.meshgrid(xs, ys)
    inputs = model.coef.shape[1] if model.coef is not None else model.support_vectors.shape[1]
    if inputs == 1:  # a regression on 1-D inputs: f of the plane's x
        return model.decision_function(gx.ravel()[:, None])
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


def simplify_lines(lines: list, tol: float, passes: int = 3) -> list:
    """Drop the vertices of the polylines that are not needed to stay within ``tol`` of them.

    Each pass removes interior vertices within tol/passes of the segment joining their two
    neighbours, never two neighbours in one pass, so every dropped vertex ends within tol of
    the result (a vectorized cousin of Ramer–Douglas–Peucker, over all lines at once: it
    runs per frame in the worker, where Python-level work holds up the GUI). Ends stay, so a
    closed line stays closed. Traced contours of a smooth f are near straight over many grid
    cells, and every vertex costs the GUI stroking time."""
    if not lines:
        return lines
    P = np.vstack(lines)
    ids = np.repeat(np.arange(len(lines)), [len(line) for line in lines])
    keep = np.ones(len(P), dtype=bool)
    limit = tol / passes
    for _ in range(passes):
        idx = np.flatnonzero(keep)
        if idx.size < 3:
            break
        q, lid = P[idx], ids[idx]
        a, m, b = q[:-2], q[1:-1], q[2:]
        interior = (lid[1:-1] == lid[:-2]) & (lid[1:-1] == lid[2:])
        interior[1::2] = False  # every other candidate: the neighbours of a dropped one stay
        ab = b - a
        t = np.clip(((m - a) * ab).sum(axis=1) / np.maximum((ab**2).sum(axis=1), 1e-300), 0, 1)
        gap = m - (a + t[:, None] * ab)
        drop = interior & (np.hypot(gap[:, 0], gap[:, 1]) < limit)
        if not drop.any():
            break
        keep[idx[1:-1][drop]] = False
    counts = np.bincount(ids[keep], minlength=len(lines))
    return np.split(P[keep], np.cumsum(counts)[:-1])


def level_line(w, b: float, c: float, extent) -> list:
    """The segment of the line ⟨w, x⟩ + b = c inside the rectangle ``extent``, as a list of
    one (2, 2) array (empty when the line misses the rectangle or w = 0)."""
    x0, x1, y0, y1 = extent
    w1, w2 = float(w[0]), float(w[1])
    r = c - b
    points = []
    if w2 != 0.0:  # crossings of the vertical sides
        for x in (x0, x1):
            y = (r - w1 * x) / w2
            if y0 <= y <= y1:
                points.append((x, y))
    if w1 != 0.0:  # crossings of the horizontal sides
        for y in (y0, y1):
            x = (r - w2 * y) / w1
            if x0 <= x <= x1:
                points.append((x, y))
    if len(points) < 2:
        return []
    P = np.array(points)
    # the two crossings farthest apart (a corner can be found twice)
    d = ((P[:, None, :] - P[None, :, :]) ** 2).sum(axis=-1)
    i, j = np.unravel_index(np.argmax(d), d.shape)
    if d[i, j] == 0.0:
        return []
    return [P[[i, j]]]


def make_frame(
    model: Model, X: np.ndarray, y: np.ndarray, extent, n: int = 160, train_values=None
) -> Frame:
    """Decision regions and the f = 0 and f = ±1 curves of ``model`` over ``extent``.

    Binary: f = 0 is the boundary, f = ±1 the margins. Multiclass: the boundaries are where
    the two largest f_k are equal (the zero level of f_first − f_second).
    """
    import contourpy

    x0, x1, y0, y1 = extent
    xs, ys = np.linspace(x0, x1, n), np.linspace(y0, y1, n)
    # curves from every other grid line: a quarter of the contouring, and of the vertices
    # to stroke (~8 px apart on screen, where a smooth f is near linear)
    step = CONTOUR_STEP if n >= 100 else 1
    F = grid_values(model, xs, ys)
    contours = {}
    if F.ndim == 1 and model.coef is not None and model.coef.shape[1] == 2:
        # a linear model's levels are straight lines: exact, and two vertices each
        region = (F.reshape(n, n) > 0).astype(np.uint8)
        w, b = model.coef[0], float(model.intercept[0])
        contours["boundary"] = level_line(w, b, 0.0, extent)
        contours["margin"] = level_line(w, b, 1.0, extent) + level_line(w, b, -1.0, extent)
    elif F.ndim == 1:
        Z = F.reshape(n, n)
        region = (Z > 0).astype(np.uint8)
        gen = contourpy.contour_generator(xs[::step], ys[::step], Z[::step, ::step])
        contours["boundary"] = gen.lines(0.0)
        contours["margin"] = [*gen.lines(1.0), *gen.lines(-1.0)]
    else:
        region = np.argmax(F, axis=1).reshape(n, n).astype(np.uint8)
        contours = {"boundary": [], "margin": []}
        for k in range(F.shape[1]):
            # D_k = f_k − max_{j≠k} f_j: > 0 inside region k, 0 on its boundary, 1 on its margin
            others = np.delete(F, k, axis=1).max(axis=1)
            D = (F[:, k] - others).reshape(n, n)[::step, ::step]
            gen = contourpy.contour_generator(xs[::step], ys[::step], D)
            contours["boundary"] += gen.lines(0.0)
            contours["margin"] += gen.lines(1.0)
    tol = SIMPLIFY_CELLS * min(x1 - x0, y1 - y0) / n
    contours = {k: simplify_lines(v, tol) for k, v in contours.items()}
    # f at the training points: the solver keeps them (Solver.training_values); evaluating a
    # kernel model there again would cost more than the whole grid
    Fx = model.decision_function(X) if train_values is None else train_values
    if Fx.ndim == 1:
        margins = np.where(y == 1, 1.0, -1.0) * Fx
        wrong = (Fx > 0) != (y == 1)
    else:
        wrong = np.argmax(Fx, axis=1) != y
        fy = Fx[np.arange(len(y)), y]
        Fo = Fx.copy()
        Fo[np.arange(len(y)), y] = -np.inf
        margins = fy - Fo.max(axis=1)
    support = np.flatnonzero(margins <= 1.0 + MARGIN_TOLERANCE)
    return Frame(tuple(extent), region, contours, support, margins, wrong)


def data_extent(X: np.ndarray, pad: float = 0.15):
    lo = X[:, :2].min(axis=0)
    hi = X[:, :2].max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    lo, hi = lo - pad * span, hi + pad * span
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])
