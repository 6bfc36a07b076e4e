"""Per-iteration history: growable column buffers, cheap to append and to copy."""

from __future__ import annotations

import numpy as np

COLUMNS = ("objective", "loss", "error", "norm", "violations")


class History:
    """One row per iteration: objective, mean loss, 0-1 error, ‖w‖ of the output model,
    number of violating examples in the step, and the sampled examples with their flags
    (``sampled`` and ``violated`` are (n, k); k = 0 for full-batch GD)."""

    def __init__(self, batch: int, capacity: int = 1024):
        self.n = 0
        self._batch = batch
        self._cols = {c: np.empty(capacity) for c in COLUMNS}
        self._sampled = np.empty((capacity, batch), dtype=np.int64)
        self._violated = np.empty((capacity, batch), dtype=bool)

    def ensure(self, extra: int):
        """Room for ``extra`` more rows (at least doubling when it grows)."""
        need = self.n + extra
        cap = self._sampled.shape[0]
        if need > cap:
            new = max(need, 2 * cap)
            n = self.n
            for c, a in self._cols.items():
                self._cols[c] = _grown(a, new, n)
            self._sampled = _grown(self._sampled, new, n)
            self._violated = _grown(self._violated, new, n)

    def reserve(self, extra: int):
        """Views for the next ``extra`` rows."""
        self.ensure(extra)
        sl = slice(self.n, self.n + extra)
        self._violated[sl] = False
        return {c: a[sl] for c, a in self._cols.items()}, self._sampled[sl], self._violated[sl]

    def commit(self, count: int):
        self.n += count

    def __len__(self):
        return self.n

    def __getitem__(self, name) -> np.ndarray:
        if name == "sampled":
            return self._sampled[: self.n]
        if name == "violated":
            return self._violated[: self.n]
        return self._cols[name][: self.n]

    def copy(self) -> dict:
        """An independent copy of every column (for another thread)."""
        out = {c: a[: self.n].copy() for c, a in self._cols.items()}
        out["sampled"] = self._sampled[: self.n].copy()
        out["violated"] = self._violated[: self.n].copy()
        return out

    def to_csv_text(self) -> str:
        return history_csv(self.copy())


def _grown(a: np.ndarray, rows: int, n: int) -> np.ndarray:
    """``a`` with room for ``rows`` rows, its first ``n`` rows copied (np.resize would copy
    and tile all of them, 5× slower)."""
    out = np.empty((rows, *a.shape[1:]), dtype=a.dtype)
    out[:n] = a[:n]
    return out


def history_csv(columns: dict, start: int = 1) -> str:
    """One CSV row per iteration (numbered from ``start``) of a history's columns (a
    History's ``copy()`` or a snapshot's views): what `svmviz train --history` and the
    window's export write."""
    c = columns
    lines = ["iteration," + ",".join(COLUMNS)]
    for t in range(len(c["objective"])):
        lines.append(
            f"{t + start},{float(c['objective'][t])!r},{float(c['loss'][t])!r},"
            f"{float(c['error'][t])!r},{float(c['norm'][t])!r},{int(c['violations'][t])}"
        )
    return "\n".join(lines) + "\n"
