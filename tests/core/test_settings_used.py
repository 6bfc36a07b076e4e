"""The settings a configuration ignores are those that change nothing it trains: for every
algorithm and step schedule, a setting named ignored leaves the run's model as it was, and
every other one changes it (the panel disables the first: tests/ui)."""

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.training.settings_used import ignored, step_rule
from svmviz.core.training.setup import run_to_end

OTHER = {  # each setting moved off its default, to a value that a run reading it feels
    "schedule": lambda c: "inv_t" if c.schedule == "inv_sqrt_t" else "inv_sqrt_t",
    "eta": lambda c: 0.37,
    "radius": lambda c: 0.2,  # (below ‖w‖ of every run here: a projection onto B bites)
    "seed": lambda c: 5,
    "batch": lambda c: 3,
    "sampling": lambda c: "shuffle",
}


def trained(config, data):
    m = run_to_end(config, data, record=False).model()
    return np.concatenate([np.ravel(m.coef), np.ravel(m.intercept)])


def test_a_setting_is_ignored_exactly_when_it_changes_nothing(blobs2, training_choices):
    seen = set()
    for config in training_choices:
        base = trained(config, blobs2)
        skipped = ignored(config)
        for name, other in OTHER.items():
            changed = config.replace(**{name: other(config)})
            same = np.array_equal(trained(changed, blobs2), base)
            assert same == (name in skipped), (config, name)
            seen.add((name, same))
    assert len(seen) == 2 * len(OTHER)  # each setting both read and ignored somewhere


@pytest.mark.parametrize(
    "settings, words",
    [
        (dict(algorithm="pegasos"), "1/(λt), Pegasos' step"),
        (dict(algorithm="sgd"), "auto = 1/(λt)"),
        (dict(algorithm="sgd", lam=0.0), "auto = η₀ constant"),
        (dict(algorithm="gd", schedule="inv_sqrt_t"), "η₀/√t"),
    ],
)
def test_the_step_in_force_is_said(settings, words):
    assert words in step_rule(SolverConfig(**settings))
