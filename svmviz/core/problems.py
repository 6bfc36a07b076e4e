"""The problems and losses the engine solves, by name, and what each is: the registry that
every option list is derived from.

One light table, read both by :mod:`svmviz.core.config` (which checks a configuration
against it and hands the lists on under their old names) and by the loss modules of
:mod:`svmviz.core.solvers.losses` (each takes its ``KIND`` from its entry): the modules
import what imports config, so config cannot import them, and both read this instead (as
scikit-learn's ``loss_functions`` table feeds ``StrOptions``). A module's parts (its
words, levels, loop functions and the loop's flags) stay in the module;
tests/core/test_loss_conformance.py checks that the table and the modules agree.
"""

from __future__ import annotations

from typing import NamedTuple

KINDS = ("binary", "multiclass", "regression", "one-class")
# the SolverConfig field whose value names the module
OPTIONS = ("loss", "multiclass", "problem")


class Declared(NamedTuple):
    """What a loss or problem is."""

    kind: str  # one of KINDS
    option: str  # one of OPTIONS: chosen by SolverConfig.loss, .multiclass or .problem
    cost: bool = False  # takes a cost matrix Δ(y, y′)
    nu_scaled: bool = False  # its objective has ½‖w‖² with ν in λ's place (no λ)
    hard_margin: bool = False  # a hard margin (001 "Hard SVM") solves it
    # its name in scikit-learn's SGDClassifier (None: none there), for svmviz.core.files.foreign
    sklearn: str | None = None
    proba: bool = False  # its module gives P(y | x) (probability): the estimators' predict_proba
    words: str = ""  # its name in the window's words (default: the name, "_" as " ")


# in the order the options are listed; each its module of svmviz.core.solvers.losses (the
# name with "-" as "_"): a new loss is its module and its line here
DECLARED = {
    "hinge": Declared("binary", "loss", hard_margin=True, sklearn="hinge"),
    "squared_hinge": Declared("binary", "loss", sklearn="squared_hinge"),
    "logistic": Declared("binary", "loss", sklearn="log_loss", proba=True),
    "modified_huber": Declared(
        "binary", "loss", sklearn="modified_huber", proba=True, words="modified Huber"
    ),
    "crammer_singer": Declared(
        "multiclass", "multiclass", cost=True, hard_margin=True, words="Crammer–Singer"
    ),
    "weston_watkins": Declared("multiclass", "multiclass", cost=True, words="Weston–Watkins"),
    "ovr": Declared("multiclass", "multiclass"),
    "softmax": Declared("multiclass", "multiclass", proba=True),
    "nu-svc": Declared("binary", "problem", nu_scaled=True),
    "one-class": Declared("one-class", "problem", nu_scaled=True),
    "epsilon-svr": Declared("regression", "problem"),
    "nu-svr": Declared("regression", "problem"),
}


def module_name(name: str) -> str:
    """The module of svmviz.core.solvers.losses that solves ``name``."""
    return name.replace("-", "_")


def words(name: str) -> str:
    """How the window names the loss or problem ``name``: its declared words, else the name
    with "_" as " " (e.g. "squared hinge", not squared_hinge); another option as it is."""
    declared = DECLARED.get(name)
    if declared is None:
        return name
    return declared.words or name.replace("_", " ")


def from_sklearn(loss: str) -> str | None:
    """The binary loss that scikit-learn's SGD loss ``loss`` is here (None: none)."""
    return next((n for n, d in DECLARED.items() if d.sklearn == loss), None)


def _names(keep) -> tuple[str, ...]:
    return tuple(name for name, d in DECLARED.items() if keep(d))


# "svc" is the problem whose loss SolverConfig.loss (two classes) or .multiclass chooses
PROBLEMS = ("svc", *_names(lambda d: d.option == "problem"))
BINARY_LOSSES = _names(lambda d: d.option == "loss")
MULTICLASS_LOSSES = _names(lambda d: d.option == "multiclass")
REGRESSION = _names(lambda d: d.kind == "regression")
NU_SCALED = _names(lambda d: d.nu_scaled)
COST_LOSSES = _names(lambda d: d.cost)
HARD_MARGIN_LOSSES = _names(lambda d: d.hard_margin)
