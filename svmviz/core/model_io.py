"""The trained model and its file formats: MODEL.json and the same as ``.npz``.

MODEL.json (``format`` "svmviz-model", ``version`` 2):
``problem`` (svc | nu-svc | one-class | epsilon-svr | nu-svr), ``loss`` (svc: the binary
loss hinge | squared_hinge | logistic or the multiclass one crammer_singer | weston_watkins
| ovr | softmax; nu-svc: hinge; SVR: epsilon_insensitive; one-class: absent), ``classes``
(svc and nu-svc only: strings; binary: the positive class is classes[1]), ``kernel``
{name, gamma, degree, coef0}, ``lam``, ``bias`` (free | regularized | none), ``cost``
(K×K or null; svc only), ``epsilon`` (ε: epsilon-svr, and the learned one of nu-svr),
``nu`` (ν: nu-svc, one-class, nu-svr), ``rho`` (ρ: the margin of nu-svc, the offset of
one-class); linear: ``coef`` (K×d, K = 1 but for multiclass) and ``intercept`` (K);
kernel: ``support_vectors`` (n×d), ``dual_coef`` (K×n), ``intercept`` (K), with
f_k(x) = Σ_j dual_coef[k][j]·k(sv_j, x) + intercept[k] (one-class: intercept = −ρ).
Prediction: binary classes[1] if f(x) > 0 else classes[0]; multiclass
classes[argmax_k f_k(x)]; regression the value f(x); one-class "inlier" if f(x) ≥ 0 else
"outlier". Also ``objective``, ``iterations`` and whatever else the writer adds
(``solver``, ``status``, ``optimum``). Version 1 (no problem, loss, ε, ν, ρ) is read as
svc with the hinge (binary) or crammer_singer (multiclass) loss.
"""

from __future__ import annotations

import io
import json
import lzma
import tokenize
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from svmviz.core import problems as options
from svmviz.core.config import BIASES
from svmviz.core.data import check_cost_matrix
from svmviz.core.errors import InputError, finite_number, shown
from svmviz.core.file_io import (
    MAX_FILE_BYTES,
    atomic_write_bytes,
    check_format,
    json_bytes,
    parse_json,
    read_bytes,
    read_json,
)
from svmviz.core.kernels import Kernel
from svmviz.core.limits import (
    BLOCK_ENTRIES,
    BOUNDS,
    MAX_NAME,
    check_coordinates,
    check_text,
)

FORMAT = "svmviz-model"
VERSION = 2
# what one-class predicts, by f(x) < 0 and f(x) ≥ 0
OUTCOMES = ("outlier", "inlier")
# the loss of the problems other than svc (one-class has none)
PROBLEM_LOSS = {
    "nu-svc": "hinge",
    "one-class": None,
    "epsilon-svr": "epsilon_insensitive",
    "nu-svr": "epsilon_insensitive",
}
# the numbers each problem has (and no other)
PROBLEM_NUMBERS = {
    "svc": (),
    "nu-svc": ("nu", "rho"),
    "one-class": ("nu", "rho"),
    "epsilon-svr": ("epsilon",),
    "nu-svr": ("nu", "epsilon"),
}


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
    # the problem (SolverConfig.problem) and its loss: the svc loss, "epsilon_insensitive"
    # for SVR, None for one-class; ε, ν and ρ where the problem has them (ρ is folded into
    # the intercept for one-class: f = ⟨w, φ(x)⟩ − ρ)
    problem: str = "svc"
    loss: str | None = "hinge"
    epsilon: float | None = None
    nu: float | None = None
    rho: float | None = None
    # f computed by another library where no kernel sums give it (a scikit-learn one-vs-one
    # SVC: svmviz.core.files.foreign); such a model draws and predicts, and is not saved
    decision: Callable[[np.ndarray], np.ndarray] | None = field(
        default=None, compare=False, repr=False
    )

    def __post_init__(self):
        # the loss of the other problems is the problem's (nu-svc: the hinge, at margin ρ);
        # the default loss, hinge, of a multiclass svc is crammer_singer (as in version 1)
        if self.problem in PROBLEM_LOSS:
            object.__setattr__(self, "loss", PROBLEM_LOSS[self.problem])
        elif self.loss == "hinge" and len(self.intercept) > 1:
            object.__setattr__(self, "loss", "crammer_singer")

    @property
    def binary(self) -> bool:
        return len(self.classes) == 2 and self.intercept.shape[0] == 1

    @property
    def single_output(self) -> bool:
        """One decision value per point: binary, regression and one-class models."""
        return self.intercept.shape[0] == 1

    def decision_function(self, X) -> np.ndarray:
        """f(x): shape (n,) for binary, (n, K) for multiclass."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        if self.decision is not None:
            F = np.asarray(self.decision(X), dtype=float).reshape(len(X), -1)
        elif self.coef is not None:
            F = X @ self.coef.T + self.intercept
        elif len(self.support_vectors) == 0:  # (a file keeps no dimension for none)
            F = np.repeat(self.intercept[None, :], len(X), axis=0)
        else:  # in blocks of rows: a grid against thousands of support vectors
            rows = max(1, BLOCK_ENTRIES // max(1, len(self.support_vectors)))
            F = np.empty((len(X), self.dual_coef.shape[0]))
            for i in range(0, len(X), rows):
                G = self.kernel.gram(X[i : i + rows], self.support_vectors)
                F[i : i + rows] = G @ self.dual_coef.T + self.intercept
        return F[:, 0] if self.single_output else F

    @property
    def kind(self) -> str:
        """The kind: "svc" (binary, multiclass, ν-SVC), "regression" or "one-class"."""
        if self.problem in options.REGRESSION:
            return "regression"
        return "one-class" if self.problem == "one-class" else "svc"

    def predict_index(self, X) -> np.ndarray:
        """The class index of each point (one-class: the index into OUTCOMES)."""
        if self.kind == "regression":
            raise ValueError("a regression model predicts values, not classes")
        F = self.decision_function(X)
        if self.kind == "one-class":
            return (F >= 0).astype(np.int64)
        if self.binary:
            return (F > 0).astype(np.int64)
        return np.argmax(F, axis=1)

    def predict(self, X) -> np.ndarray:
        """Class names; regression: the values f(x); one-class: "inlier" or "outlier"."""
        if self.kind == "regression":
            return self.decision_function(X)
        names = OUTCOMES if self.kind == "one-class" else self.classes
        return np.asarray(names, dtype=object)[self.predict_index(X)]

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
        if self.decision is not None:
            raise InputError(
                "this model's f is another library's (a one-vs-one vote), not a model "
                "svmviz can write"
            )
        d = {"format": FORMAT, "version": VERSION, "problem": self.problem}
        if self.loss is not None:
            d["loss"] = self.loss
        if self.kind == "svc":
            d["classes"] = list(self.classes)
        d.update(kernel=self.kernel.to_dict(), lam=self.lam, bias=self.bias)
        if self.problem == "svc":
            d["cost"] = None if self.cost is None else self.cost.tolist()
        for name in PROBLEM_NUMBERS[self.problem]:
            d[name] = getattr(self, name)
        d["intercept"] = self.intercept.tolist()
        if self.coef is not None:
            d["coef"] = self.coef.tolist()
        else:
            d["support_vectors"] = self.support_vectors.tolist()
            d["dual_coef"] = self.dual_coef.tolist()
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d, where: str = "model") -> Model:
        check_format(d, where, FORMAT, VERSION, "model")
        try:
            problem, loss, numbers = _problem(d, where)
            classified = problem in ("svc", "nu-svc")
            if classified:
                if not isinstance(d["classes"], list):
                    raise InputError(f"{where}: classes must be a list of class names")
                classes = tuple(str(c) for c in d["classes"])
                for k, name in enumerate(classes):
                    check_text(name, MAX_NAME, f"{where}: class {k + 1}'s name")
            elif "classes" in d:
                raise InputError(f"{where}: a {problem} model has no classes")
            else:
                classes = ()
            if not isinstance(d["kernel"], dict):
                raise InputError(f"{where}: kernel must be an object (name, gamma, …)")
            try:
                kernel = Kernel(**d["kernel"])
            except InputError as exc:
                raise InputError(f"{where}: kernel: {exc}") from None
            intercept = _array(d["intercept"], 1, "intercept", where)
            K = intercept.shape[0]
            if not classified and K != 1:
                raise InputError(f"{where}: a {problem} model has one intercept, not {K}")
            if classified and (
                len(classes) < 2 or K not in (len(classes), 1 if len(classes) == 2 else -1)
            ):
                raise InputError(
                    f"{where}: {len(classes)} classes and {K} intercepts; a model has two "
                    "classes and one intercept, or K ≥ 2 classes and K intercepts"
                )
            if problem == "svc":
                losses = options.BINARY_LOSSES if K == 1 else options.MULTICLASS_LOSSES
                if d["version"] == 1:
                    loss = losses[0]  # hinge or crammer_singer: the losses of version 1
                elif loss not in losses:
                    what = "a binary" if K == 1 else "a multiclass"
                    raise InputError(
                        f"{where}: loss must be {what} loss ({', '.join(losses)}), "
                        f"not {shown(loss)}"
                    )
            if problem == "nu-svc" and K != 1:
                raise InputError(f"{where}: a nu-svc model has two classes and one intercept")
            lam, bias = d["lam"], d["bias"]
            if not finite_number(lam) or lam < 0:
                raise InputError(f"{where}: lam must be a finite number ≥ 0")
            BOUNDS["lam"].check(lam, where)
            if bias not in BIASES:
                raise InputError(f"{where}: bias must be one of {', '.join(BIASES)}")
            cost = None
            if d.get("cost") is not None:
                if problem != "svc":
                    raise InputError(f"{where}: a {problem} model has no cost matrix")
                cost = _array(d["cost"], 2, "cost", where)
                check_cost_matrix(cost, len(classes), f"{where}: cost")
            known = {
                "format",
                "version",
                "problem",
                "loss",
                "classes",
                "kernel",
                "lam",
                "bias",
                "cost",
                "epsilon",
                "nu",
                "rho",
                "intercept",
                "coef",
                "support_vectors",
                "dual_coef",
            }
            common = dict(
                classes=classes,
                kernel=kernel,
                lam=float(lam),
                bias=bias,
                intercept=intercept,
                cost=cost,
                extra={k: v for k, v in d.items() if k not in known},
                problem=problem,
                loss=loss,
                **numbers,
            )
            if "coef" in d:
                coef = _array(d["coef"], 2, "coef", where)
                if coef.shape[0] != K:
                    raise InputError(f"{where}: coef has {coef.shape[0]} rows, intercept {K}")
                return cls(coef=coef, **common)
            sv = _array(d["support_vectors"], 2, "support_vectors", where, empty=True)
            check_coordinates(sv, lambda i: f"{where}: support vector {i + 1}")
            dual = _array(d["dual_coef"], 2, "dual_coef", where)
            if dual.shape != (K, sv.shape[0]):
                raise InputError(
                    f"{where}: dual_coef has shape {dual.shape}, expected ({K}, {sv.shape[0]})"
                )
            return _drawable(cls(support_vectors=sv, dual_coef=dual, **common), where)
        except KeyError as exc:
            raise InputError(f"{where}: the field {exc.args[0]!r} is missing") from None
        except (TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"{where}: {exc}") from None


# the support vectors of largest norm at which a kernel model's f is checked on reading
DRAWN_CHECKS = 64


def _drawable(model: Model, where: str) -> Model:
    """``model`` when its f is a finite number at its support vectors of largest norm (where
    a kernel's values are largest); else an InputError. Each of γ, c₀ and the degree may be
    within its range while the polynomial kernel (γ⟨x, x′⟩ + c₀)^d overflows, and a model of
    no finite f cannot be drawn."""
    sv = model.support_vectors
    if not len(sv):
        return model
    largest = sv[np.argsort(-np.einsum("ij,ij->i", sv, sv), kind="stable")[:DRAWN_CHECKS]]
    with np.errstate(all="ignore"):
        f = model.decision_function(largest)
    if not np.isfinite(f).all():
        k = model.kernel
        raise InputError(
            f"{where}: f(x) is not a finite number at its support vectors: its {k.name} kernel "
            f"(gamma {shown(k.gamma)}, coef0 {shown(k.coef0)}, degree {k.degree}) or its "
            "dual_coef overflows; lower them"
        )
    return model


def _problem(d: dict, where: str) -> tuple[str, str | None, dict]:
    """The problem of a model file, its loss as written (checked here but for svc, whose
    loss depends on the classes) and its numbers ε, ν, ρ (each checked, only those the
    problem has). Version 1 is svc."""
    if d.get("version") == 1:
        extra = [n for n in ("problem", "loss", "epsilon", "nu", "rho") if n in d]
        if extra:
            raise InputError(f"{where}: {extra[0]} is a field of version 2, not 1")
        return "svc", None, {}
    problem = d["problem"]
    if problem not in options.PROBLEMS:
        raise InputError(
            f"{where}: problem must be one of {', '.join(options.PROBLEMS)}, not {shown(problem)}"
        )
    if problem == "svc":
        loss = d["loss"]  # (checked by the caller, which knows binary from multiclass)
    else:
        loss = PROBLEM_LOSS[problem]
        if d.get("loss") != loss:
            expected = "no loss" if loss is None else f"the loss {loss}"
            found = shown(d.get("loss"))
            raise InputError(f"{where}: a {problem} model has {expected}, not {found}")
    numbers = {}
    for name in ("epsilon", "nu", "rho"):
        if name not in PROBLEM_NUMBERS[problem]:
            if name in d:
                raise InputError(f"{where}: a {problem} model has no {name}")
            continue
        value = d[name]
        if not finite_number(value):
            raise InputError(f"{where}: {name} must be a finite number, not {shown(value)}")
        if name in ("epsilon", "nu"):  # (ε: the tube the plane draws)
            BOUNDS[name].check(value, where)
        numbers[name] = float(value)
    return problem, loss, numbers


def _array(value, ndim, name, where, empty=False) -> np.ndarray:
    """``value`` as a float array of ``ndim`` dimensions; with ``empty``, [] is a 0×0 one
    (no support vectors: a JSON list keeps no dimension)."""
    try:
        a = np.array(value, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{where}: {name} is not an array of numbers") from None
    except RecursionError:
        raise InputError(f"{where}: {name} is nested too deeply") from None
    if empty and a.size == 0 and a.ndim < ndim:
        a = a.reshape((0,) * ndim)
    if a.ndim != ndim or not np.all(np.isfinite(a)):
        raise InputError(f"{where}: {name} must be a {ndim}-D array of finite numbers")
    return a


def with_provenance(model: Model, config, status: str, optimum: float | None) -> Model:
    """The model with what made it (``solver`` settings, ``status``, the exact ``optimum``):
    `svmviz train` and the window write the same fields. For a hard margin the settings'
    λ is the one used (the model's, set from the data), not the λ setting, which it ignores."""
    extra = dict(model.extra)
    settings = config.to_dict()
    if config.margin == "hard":
        settings["lam"] = model.lam
    extra.update(solver=settings, status=status, optimum=optimum)
    return replace(model, extra=extra)


def write_model(path, model: Model) -> None:
    atomic_write_bytes(path, model_file_bytes(path, model))


def model_file_bytes(path, model: Model) -> bytes:
    """The model as ``path`` names it: an ``.npz`` (:func:`model_npz_bytes`), else
    MODEL.json."""
    if str(path).lower().endswith(".npz"):
        return model_npz_bytes(model)
    return json_bytes(model.to_dict())


def read_model(path) -> Model:
    return Model.from_dict(read_json(path), str(path))


# ---------------------------------------------------------------- NPZ
_ARRAYS = ("intercept", "coef", "support_vectors", "dual_coef", "cost")


def model_npz_bytes(model: Model) -> bytes:
    """The model as an ``.npz``: its arrays as float64 arrays, everything else as a JSON
    text in ``meta`` (a unicode array: no pickle is needed to read it back)."""
    d = model.to_dict()
    arrays = {k: np.asarray(d.pop(k), dtype=float) for k in _ARRAYS if d.get(k) is not None}
    d.pop("cost", None)
    out = io.BytesIO()
    np.savez(out, meta=np.array(json.dumps(d, ensure_ascii=False)), **arrays)
    return out.getvalue()


def write_model_npz(path, model: Model) -> None:
    atomic_write_bytes(path, model_npz_bytes(model))


def read_model_npz(path) -> Model:
    """Read a model ``.npz`` with ``allow_pickle=False`` (an object array is refused)."""
    raw = read_bytes(path)
    if not raw.startswith((b"PK\x03\x04", b"PK\x05\x06")):  # np.load takes the rest for a pickle
        raise InputError(f"{path}: not an .npz file (not a zip archive)")
    name = "meta"  # the array being read, for the messages
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:  # (a zip bomb: refused before inflating)
            if sum(i.file_size for i in z.infolist()) > MAX_FILE_BYTES:
                raise InputError(
                    f"{path}: its arrays take more than {MAX_FILE_BYTES // 2**20} MiB unpacked"
                )
        with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
            if "meta" not in npz.files:
                raise InputError(f"{path}: not an svmviz model (no 'meta' array)")
            meta = _member(npz, "meta", path)
            if meta.dtype.kind != "U" or meta.ndim != 0:
                raise InputError(f"{path}: 'meta' must be a text")
            d = parse_json(str(meta), f"{path}: 'meta'")
            if not isinstance(d, dict):
                raise InputError(f"{path}: 'meta' must be a JSON object")
            for name in _ARRAYS:
                if name in npz.files:
                    a = _member(npz, name, path)
                    if a.dtype.kind not in "biuf":
                        raise InputError(f"{path}: '{name}' must be an array of numbers")
                    with np.errstate(all="ignore"):  # (a long double NaN, 1e4000: not finite)
                        d[name] = a.astype(float).tolist()
    except InputError:
        raise
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        EOFError,
        OSError,
        zlib.error,
        lzma.LZMAError,
        NotImplementedError,
        RuntimeError,
    ):
        # (a damaged archive, or one compressed or encrypted in a way zipfile cannot read)
        raise InputError(f"{path}: not an .npz file (a damaged zip archive)") from None
    except (MemoryError, OverflowError):  # (a header that claims 2**40 or 2**63 numbers)
        raise InputError(f"{path}: '{name}' is too large to read") from None
    except (ValueError, SyntaxError, tokenize.TokenError) as exc:  # (a garbled .npy header)
        if "allow_pickle" in str(exc):  # object arrays: "cannot be loaded when allow_pickle…"
            raise InputError(f"{path}: '{name}' cannot be read without pickle") from None
        raise InputError(f"{path}: '{name}' is not a valid NumPy array (a damaged .npy)") from None
    return Model.from_dict(d, str(path))


def _member(npz, name: str, path) -> np.ndarray:
    """An array of the archive (np.load gives the bytes of a member that is not one)."""
    value = npz[name]
    if not isinstance(value, np.ndarray):
        raise InputError(f"{path}: '{name}' is not a NumPy array")
    return value
