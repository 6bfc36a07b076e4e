"""The trained model and its file format (MODEL.json), with atomic writes.

MODEL.json (``format`` "svmviz-model", ``version`` 1):
``classes`` (strings; binary: the positive class is classes[1]), ``kernel`` {name, gamma,
degree, coef0}, ``lam``, ``bias`` (free | regularized | none), ``cost`` (K×K or null),
linear: ``coef`` (K×d, K = 1 for binary) and ``intercept`` (K); kernel: ``support_vectors``
(n×d), ``dual_coef`` (K×n), ``intercept`` (K), with
f_k(x) = Σ_j dual_coef[k][j]·k(sv_j, x) + intercept[k]. Prediction: binary classes[1] if
f(x) > 0 else classes[0]; multiclass classes[argmax_k f_k(x)]. Also ``objective``,
``iterations`` and whatever else the writer adds (``solver``, ``status``, ``optimum``).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel

FORMAT = "svmviz-model"
VERSION = 1


@dataclass(frozen=True)
class Model:
    """A trained SVM: enough to evaluate f(x) and to predict, in any thread."""

    classes: tuple[str, ...]
    kernel: Kernel
    lam: float
    bias: str
    intercept: np.ndarray  # (K,)
    coef: np.ndarray | None = None  # (K, d) linear
    support_vectors: np.ndarray | None = None  # (n, d) kernel
    dual_coef: np.ndarray | None = None  # (K, n) kernel
    cost: np.ndarray | None = None
    extra: dict = field(default_factory=dict)

    @property
    def binary(self) -> bool:
        return len(self.classes) == 2 and self.intercept.shape[0] == 1

    def decision_function(self, X) -> np.ndarray:
        """f(x): shape (n,) for binary, (n, K) for multiclass."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        if self.coef is not None:
            F = X @ self.coef.T + self.intercept
        else:
            F = self.kernel.gram(X, self.support_vectors) @ self.dual_coef.T + self.intercept
        return F[:, 0] if self.binary else F

    def predict_index(self, X) -> np.ndarray:
        F = self.decision_function(X)
        if self.binary:
            return (F > 0).astype(np.int64)
        return np.argmax(F, axis=1)

    def predict(self, X) -> np.ndarray:
        return np.asarray(self.classes, dtype=object)[self.predict_index(X)]

    def norm2(self) -> float:
        """‖w‖² as the objective counts it (b² included in ``regularized`` mode)."""
        if self.coef is not None:
            total = float(np.sum(self.coef**2))
            if self.bias == "regularized":
                total += float(np.sum(self.intercept**2))
        else:
            G = self.kernel.gram(self.support_vectors, self.support_vectors)
            total = float(np.einsum("ki,ij,kj->", self.dual_coef, G, self.dual_coef))
            if self.bias == "regularized":
                # f(x) = Σ_j a_j (k(x_j, x) + 1): the constant feature's weight is Σ_j a_j
                total += float(np.sum(self.dual_coef.sum(axis=1) ** 2))
        return total

    def to_dict(self) -> dict:
        d = {
            "format": FORMAT,
            "version": VERSION,
            "classes": list(self.classes),
            "kernel": self.kernel.to_dict(),
            "lam": self.lam,
            "bias": self.bias,
            "cost": None if self.cost is None else self.cost.tolist(),
            "intercept": self.intercept.tolist(),
        }
        if self.coef is not None:
            d["coef"] = self.coef.tolist()
        else:
            d["support_vectors"] = self.support_vectors.tolist()
            d["dual_coef"] = self.dual_coef.tolist()
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d, where: str = "model") -> Model:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise InputError(f'{where}: not an svmviz model (no "format": "{FORMAT}")')
        if not isinstance(d.get("version"), int) or d["version"] > VERSION:
            raise InputError(
                f"{where}: model version {d.get('version')!r}; this svmviz reads up to {VERSION}"
            )
        try:
            classes = tuple(str(c) for c in d["classes"])
            kernel = Kernel(**d["kernel"])
            intercept = _array(d["intercept"], 1, "intercept", where)
            K = intercept.shape[0]
            known = {
                "format",
                "version",
                "classes",
                "kernel",
                "lam",
                "bias",
                "cost",
                "intercept",
                "coef",
                "support_vectors",
                "dual_coef",
            }
            common = dict(
                classes=classes,
                kernel=kernel,
                lam=float(d["lam"]),
                bias=str(d["bias"]),
                intercept=intercept,
                cost=None if d.get("cost") is None else _array(d["cost"], 2, "cost", where),
                extra={k: v for k, v in d.items() if k not in known},
            )
            if "coef" in d:
                coef = _array(d["coef"], 2, "coef", where)
                if coef.shape[0] != K:
                    raise InputError(f"{where}: coef has {coef.shape[0]} rows, intercept {K}")
                return cls(coef=coef, **common)
            sv = _array(d["support_vectors"], 2, "support_vectors", where)
            dual = _array(d["dual_coef"], 2, "dual_coef", where)
            if dual.shape != (K, sv.shape[0]):
                raise InputError(
                    f"{where}: dual_coef has shape {dual.shape}, expected ({K}, {sv.shape[0]})"
                )
            return cls(support_vectors=sv, dual_coef=dual, **common)
        except KeyError as exc:
            raise InputError(f"{where}: the field {exc.args[0]!r} is missing") from None
        except (TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"{where}: {exc}") from None


def _array(value, ndim, name, where) -> np.ndarray:
    try:
        a = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"{where}: {name} is not an array of numbers") from None
    if a.ndim != ndim or not np.all(np.isfinite(a)):
        raise InputError(f"{where}: {name} must be a {ndim}-D array of finite numbers")
    return a


def write_model(path, model: Model) -> None:
    atomic_write_text(path, json.dumps(model.to_dict(), indent=1) + "\n")


def read_model(path) -> Model:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read ({exc})") from None
    try:
        d = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}, line {exc.lineno}, column {exc.colno}: not JSON ({exc.msg})"
        ) from None
    return Model.from_dict(d, str(path))


def atomic_write_text(path, text: str) -> None:
    """Write to a temporary file in the same folder, then rename over ``path``."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
