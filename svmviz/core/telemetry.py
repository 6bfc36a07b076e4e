"""Per-iteration history: column buffers, cheap to append and to hand to another thread,
bounded in memory.

Every iteration is kept up to the first DENSE rows; beyond a budget of MEMORY_BYTES, the
later rows are thinned (every other one dropped, the newest always kept), so that a run of
20 million iterations holds MEMORY_BYTES, not a gigabyte. The buffers are allocated at
their full size once (the system gives memory pages as rows are written, so an unused
budget costs nothing), never grown by copying; thinning copies the rows it keeps into new
arrays, a few milliseconds. Column ``t`` says which iteration (counted from the history's
start, 1, 2, ...) each row is. The curves are drawn on a log axis, where the thinned rows
are far denser than the pixels.
"""

from __future__ import annotations

import numpy as np

COLUMNS = ("objective", "loss", "error", "norm", "violations")
OFFSETS = ("rho", "epsilon")  # kept only for the problems that learn them (History)
DENSE = 65_536  # the first rows, always every iteration
MEMORY_BYTES = 16 * 2**20  # the budget of a history's rows (16 MiB: 290,000 rows for SGD)
MAX_CHUNK = 65_536  # rows reserved at a time, at most
CURVE_POINTS = 400  # samples per drawn curve: log-spaced, since the iteration axis is logarithmic


class History:
    """One row per iteration: objective, mean loss, 0-1 error, ‖w‖ of the output model,
    number of violating examples in the step, and the sampled examples with their flags
    (``sampled`` and ``violated`` are (n, k); k = 0 for full-batch GD), and the iteration
    ``t`` of the row (see the module: rows are thinned beyond the memory budget)."""

    def __init__(self, batch: int, offsets: tuple[str, ...] = ()):
        self.n = 0
        self._batch = batch
        self.names = COLUMNS + tuple(offsets)  # the columns kept (OFFSETS: ρ, ε where learned)
        row_bytes = 8 * (len(self.names) + 1) + 9 * batch
        self.max_rows = max(1024, MEMORY_BYTES // row_bytes)
        self.dense = min(DENSE, self.max_rows // 2)
        # what one reserve may ask for (the solver cuts its steps to this)
        self.chunk_rows = max(1, min(MAX_CHUNK, self.max_rows // 4))
        capacity = self.max_rows + self.chunk_rows
        self._cols = {c: np.empty(capacity) for c in self.names}
        self._cols["t"] = np.empty(capacity, dtype=np.int64)
        self._sampled = np.empty((capacity, batch), dtype=np.int64)
        self._violated = np.empty((capacity, batch), dtype=bool)
        self._t = 0  # the iteration of the last row

    def reserve(self, extra: int) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
        """Views for the next ``extra`` ≤ chunk_rows rows (the caller writes them, then
        commits)."""
        if extra > self.chunk_rows:
            raise ValueError(f"at most {self.chunk_rows} rows at a time, not {extra}")
        sl = slice(self.n, self.n + extra)
        self._violated[sl] = False
        cols = {c: a[sl] for c, a in self._cols.items() if c != "t"}
        return cols, self._sampled[sl], self._violated[sl]

    def commit(self, count: int) -> None:
        """The next ``count`` reserved rows are written: number them, thin if over budget."""
        self._cols["t"][self.n : self.n + count] = np.arange(self._t + 1, self._t + count + 1)
        self._t += count
        self.n += count
        if self.n > self.max_rows:
            self._thin()

    def _thin(self):
        """Drop every other row after the first ``dense``, keeping the newest, into new
        arrays (views handed out before stay as they were: no row is ever written twice)."""
        keep = np.arange(self.n)
        d = self.dense
        while len(keep) > self.max_rows:
            keep = np.concatenate([keep[:d], keep[len(keep) - 1 : d - 1 : -2][::-1]])
        rows = self._sampled.shape[0]
        for c, a in self._cols.items():
            self._cols[c] = _taken(a, rows, keep)
        self._sampled = _taken(self._sampled, rows, keep)
        self._violated = _taken(self._violated, rows, keep)
        self.n = len(keep)

    def __len__(self):
        return self.n

    def __getitem__(self, name: str) -> np.ndarray:
        if name == "sampled":
            return self._sampled[: self.n]
        if name == "violated":
            return self._violated[: self.n]
        return self._cols[name][: self.n]

    def views(self) -> dict:
        """The columns (and ``t``) so far as read-only views, for another thread: the rows
        they hold are never written again (new rows go after them; thinning copies)."""
        out = {c: self[c] for c in (*self.names, "t")}
        for v in out.values():
            v.flags.writeable = False
        return out

    def copy(self) -> dict:
        """An independent copy of every column (for another thread)."""
        out = {c: a[: self.n].copy() for c, a in self._cols.items()}
        out["sampled"] = self._sampled[: self.n].copy()
        out["violated"] = self._violated[: self.n].copy()
        return out

    def to_csv_text(self) -> str:
        return history_csv(self.copy())


def _taken(a: np.ndarray, rows: int, keep: np.ndarray) -> np.ndarray:
    """A new array of ``rows`` rows starting with a's rows ``keep``."""
    out = np.empty((rows, *a.shape[1:]), dtype=a.dtype)
    np.take(a, keep, axis=0, out=out[: len(keep)])
    return out


def held(columns: dict) -> dict:
    """The rows of a history's columns that hold the exact objective (all of them when it
    was recorded at every step; the checkpoints' and the last one otherwise): its ``t``
    column says which iterations they are."""
    keep = ~np.isnan(np.asarray(columns["objective"], dtype=float))
    if len(keep):
        keep[-1] = True
    return {name: np.asarray(values)[keep] for name, values in columns.items()}


def history_csv(columns: dict, start: int = 1, offsets: tuple[str, ...] = ()) -> str:
    """One CSV row per row of a history's columns (a History's ``copy()`` or a snapshot's
    views), numbered by iteration from ``start`` (column t, or the row when there is none),
    with the ``offsets`` columns ("rho", "epsilon") of the problems that have them: what
    `svmviz train --history` and the window's export write."""
    c = columns
    n = len(c["objective"])
    t = c["t"] if "t" in c else np.arange(1, n + 1)
    lines = ["iteration," + ",".join(COLUMNS + offsets)]
    for j in range(n):
        extra = "".join(f",{float(c[name][j])!r}" for name in offsets)
        lines.append(
            f"{int(t[j]) + start - 1},{float(c['objective'][j])!r},{float(c['loss'][j])!r},"
            f"{float(c['error'][j])!r},{float(c['norm'][j])!r},{int(c['violations'][j])}" + extra
        )
    return "\n".join(lines) + "\n"


def held_samples(t: np.ndarray, objective: np.ndarray) -> np.ndarray:
    """:func:`log_samples` of the rows that hold the exact objective (all of them when it
    was recorded at every step; the checkpoints' and the frames' in the window)."""
    return HeldRows().samples(t, objective)


class HeldRows:
    """:func:`held_samples` of one growing history, drawn again at each redraw of its curve:
    the rows that hold the objective are found among the rows new since the last call only
    (a history hands out views of its buffers whose rows are never written again; a new
    buffer, thinned or of another run, is scanned anew)."""

    def __init__(self):
        self._base = None  # the buffer of the objective column scanned
        self._n = 0  # its rows scanned
        self._held: np.ndarray | None = None  # the rows held (None: every row scanned)

    def samples(self, t: np.ndarray, objective: np.ndarray) -> np.ndarray:
        n, base = len(objective), objective.base
        if base is None or base is not self._base or n < self._n:
            self._base, self._n, self._held = base, 0, None
        if n > self._n:
            missing = np.isnan(objective[self._n :])
            if self._held is not None or missing.any():
                held = np.arange(self._n) if self._held is None else self._held
                self._held = np.concatenate([held, np.flatnonzero(~missing) + self._n])
            self._n = n
        if self._held is None:
            return log_samples(t)
        return self._held[log_samples(t[self._held])]


def log_samples(t: np.ndarray) -> np.ndarray:
    """About CURVE_POINTS row indices of the increasing iterations ``t``, evenly spaced on a
    log axis of t, the last row included (the rows of a history a curve draws)."""
    n = len(t)
    if n <= CURVE_POINTS:
        return np.arange(n)
    targets = np.geomspace(t[0], t[-1], CURVE_POINTS)
    if np.issubdtype(t.dtype, np.integer):  # (the same rows: t >= x is t >= ceil(x))
        targets = np.ceil(targets).astype(t.dtype)  # (float ones cast all of t, a copy)
    idx = np.unique(np.minimum(np.searchsorted(t, targets), n - 1))
    return idx if idx[-1] == n - 1 else np.append(idx, n - 1)
