"""A race as the session keeps it: run 1 is the session's own configuration, runs 2–4 are
variations of it, each a dict of the settings it overrides ({"algorithm": "sgd"},
{"lam": 10}), so that an edit of the base (λ in the solver panel) changes every run but the
ones that override it. Plain data, checked here for the session file, the editor and the
runner alike; the race offered by default; the runs' names in a legend.
"""

from __future__ import annotations

from svmviz.core.config import SolverConfig
from svmviz.core.errors import InputError
from svmviz.core.training import settings_used
from svmviz.core.training.race import MAX_RUNS, MIN_RUNS

MAX_VARIATIONS = MAX_RUNS - 1
# what a variation cannot change: Δ goes with the classes (the problem may change within
# its kind: svc and nu-svc race, svc and a regression do not)
FIXED = ("cost",)


def race_configs(base: SolverConfig, variations) -> list[SolverConfig]:
    """The companion runs' configurations (runs 2…), each ``base`` with a variation's
    settings; an InputError says which run and why when one cannot race ``base``."""
    check_variations(variations)
    return [run_config(base, change, f"race run {i + 2}") for i, change in enumerate(variations)]


def run_config(base: SolverConfig, change: dict, where: str) -> SolverConfig:
    """One companion run: ``base`` with ``change``'s settings; an InputError, prefixed
    ``where``, says why when it cannot race ``base``."""
    config = SolverConfig.from_dict({**base.to_dict(), **change}, where)
    if config.kind != base.kind:  # (a loss or kernel setting of another problem)
        raise InputError(f"{where}: a race's runs solve problems of one kind")
    if config.margin == "hard" or base.margin == "hard":
        raise InputError(f"{where}: a hard margin runs alone (its λ comes from the exact solution)")
    return config


def default_race(base: SolverConfig) -> list[dict]:
    """The race offered when View ▸ Race is turned on without runs: run 2 is ``base`` with
    one change, the first of Pegasos, SGD (plain SGD, η₀/√t, where SGD would take Pegasos'
    step), full-batch GD and the other output (averaged or last iterate) that trains
    differently from ``base`` and can race it; an InputError says why none can."""
    sgd = {"algorithm": "sgd"}
    if _trained(base.replace(**sgd))["schedule"] == "pegasos":
        sgd["schedule"] = "inv_sqrt_t"
    average = {"average": "uniform" if base.average == "last" else "last"}
    reason = InputError("run 2: no run trains differently from run 1")
    for change in ({"algorithm": "pegasos"}, sgd, {"algorithm": "gd"}, average):
        try:
            config = run_config(base, change, "run 2")
        except InputError as exc:
            reason = exc
            continue
        if not trains_alike(base, config):
            return [{k: v for k, v in change.items() if getattr(base, k) != v}]
    raise reason


def trains_alike(a: SolverConfig, b: SolverConfig) -> bool:
    """Whether ``a`` and ``b`` train the same iterates: equal but in the settings their
    training ignores (svmviz.core.training.settings_used), Pegasos being SGD on Pegasos' step."""
    return _trained(a) == _trained(b)


def _trained(config: SolverConfig) -> dict:
    d = config.to_dict()
    for name in settings_used.ignored(config):
        d.pop(name)
    if d.get("radius", 0) is None:  # (no radius read and none given: no ball either way)
        del d["radius"]
    if config.algorithm == "pegasos":
        d["algorithm"] = "sgd"
    if settings_used.steps_as_pegasos(config):
        d["schedule"] = "pegasos"
    return d


def check_variations(variations) -> None:
    """That ``variations`` is a list of 1–3 dicts of known settings (not Δ)."""
    if not isinstance(variations, (list, tuple)):
        raise InputError("a race is a list of the runs' changed settings")
    if not MIN_RUNS - 1 <= len(variations) <= MAX_VARIATIONS:
        raise InputError(
            f"a race has {MIN_RUNS} to {MAX_RUNS} runs: the solver panel's and 1 to "
            f"{MAX_VARIATIONS} more, not {len(variations) + 1}"
        )
    names = set(SolverConfig.__dataclass_fields__)
    for i, change in enumerate(variations):
        where = f"race run {i + 2}"
        if not isinstance(change, dict) or not change:
            raise InputError(f"{where}: give the settings that differ from run 1")
        unknown = sorted(set(change) - names)
        if unknown:
            raise InputError(f"{where}: unknown setting(s) {', '.join(unknown[:5])}")
        fixed = sorted(set(change) & set(FIXED))
        if fixed:
            raise InputError(f"{where}: {', '.join(fixed)} is the same for every run")


# a setting's value in a legend's words (the rest: "name value")
SCHEDULE_WORDS = {
    "constant": "constant η",
    "inv_t": "η ∝ 1/t",
    "inv_sqrt_t": "η ∝ 1/√t",
    "pegasos": "η = 1/(λt)",
    "auto": "η auto",
}
ALGORITHM_WORDS = {"gd": "full-batch GD", "sgd": "SGD", "pegasos": "Pegasos"}
AVERAGE_WORDS = {
    "last": "last iterate",
    "uniform": "uniform average",
    "weighted": "weighted average",
}
SYMBOLS = {"lam": "λ", "eta": "η₀", "nu": "ν", "epsilon": "ε", "gamma": "γ", "coef0": "c₀"}


def legend_label(base: SolverConfig, config: SolverConfig) -> str:
    """What ``config`` changes of ``base``, in a legend's words: "SGD, η ∝ 1/√t", "λ = 1",
    "last iterate", "logistic loss" ("same settings" when nothing)."""
    return ", ".join(_words(base, config).values()) or "same settings"


# a legend's words made shorter for a narrow column (short_label; a loss drops " loss")
SHORT_WORDS = {
    ("algorithm", "gd"): "GD",
    ("average", "uniform"): "averaged",
    ("average", "weighted"): "t-weighted",
}


def short_label(base: SolverConfig, config: SolverConfig) -> str:
    """legend_label in a narrow column's words: its first change (the algorithm first),
    "SGD, …" when there are more."""
    words = _words(base, config)
    if not words:
        return "same settings"
    first = "algorithm" if "algorithm" in words else next(iter(words))
    value = getattr(config, first, None)
    word = SHORT_WORDS.get((first, value), words[first].removesuffix(" loss"))
    return word + (", …" if len(words) > 1 else "")


def _words(base: SolverConfig, config: SolverConfig) -> dict[str, str]:
    a, b = _flat(base), _flat(config)
    return {name: _word(name, b[name]) for name in b if b[name] != a[name]}


def _flat(config: SolverConfig) -> dict:
    d = config.to_dict()
    kernel = d.pop("kernel")
    d["kernel"] = kernel.get("name")
    d.update({k: v for k, v in kernel.items() if k != "name"})
    return d


def _word(name: str, value) -> str:
    shown = f"{value:g}" if isinstance(value, float) else str(value)
    if name == "schedule":
        return SCHEDULE_WORDS.get(value, f"schedule {value}")
    if name == "algorithm":
        return ALGORITHM_WORDS.get(value, str(value))
    if name == "average":
        return AVERAGE_WORDS.get(value, f"average {value}")
    if name in ("loss", "multiclass"):
        return f"{str(value).replace('_', ' ')} loss"
    if name == "kernel":
        return f"{value} kernel"
    if name in SYMBOLS:
        return f"{SYMBOLS[name]} = {shown}"
    return f"{name} {shown}"


def describe(change: dict) -> str:
    """A variation's settings as "name=value" pairs, "eta=10, project=True": those the race
    editor has no column for."""
    return ", ".join(f"{k}={v}" for k, v in change.items())
