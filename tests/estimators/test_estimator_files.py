"""svmviz.estimators.load checks the estimator's fields of a model file one by one: a field
missing, of the wrong type or disagreeing with the model is an InputError of one line that
names it (never a KeyError, TypeError or IndexError, nor a model that loads and predicts
wrong)."""

import copy
import json

import numpy as np
import pytest

from svmviz.core.errors import InputError
from svmviz.estimators import OneClassSVM, SVMClassifier, SVMRegressor, load

RNG = np.random.default_rng(0)
X = RNG.normal(size=(40, 2))
FITS = {
    "binary": lambda: SVMClassifier(iterations=30, random_state=0).fit(X, X[:, 0] > 0),
    "three": lambda: SVMClassifier(iterations=30, random_state=0).fit(
        X, np.digitize(X[:, 0], [-0.5, 0.5])
    ),
    "rbf": lambda: SVMClassifier(kernel="rbf", iterations=30, random_state=0).fit(
        X, np.where(X[:, 1] > 0, "up", "down")
    ),
    "regression": lambda: SVMRegressor(iterations=30, random_state=0).fit(X, X[:, 0]),
    "one-class": lambda: OneClassSVM(iterations=30, random_state=0).fit(X),
}
FIELDS = ("class", "params", "n_features_in", "n_iter")


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """name → the JSON document that each fitted estimator's save wrote."""
    folder = tmp_path_factory.mktemp("saved")
    docs = {}
    for name, fit in FITS.items():
        path = folder / f"{name}.json"
        fit().save(path)
        docs[name] = json.loads(path.read_text(encoding="utf-8"))
    return docs


def loaded(tmp_path, doc, change):
    """load() of ``doc`` with its estimator block changed by ``change(block)``."""
    doc = copy.deepcopy(doc)
    change(doc["estimator"])
    path = tmp_path / "model.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return load(path)


def refused(tmp_path, doc, change, match):
    with pytest.raises(InputError, match=match) as caught:
        loaded(tmp_path, doc, change)
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_the_saved_files_load_and_predict_as_before(tmp_path, saved):
    for doc in saved.values():
        est = loaded(tmp_path, doc, lambda block: None)
        assert est.predict(X).shape == (len(X),)


@pytest.mark.parametrize("name", ["binary", "regression", "one-class"])
@pytest.mark.parametrize("field", FIELDS + ("classes",))
def test_every_field_missing_is_named(tmp_path, saved, name, field):
    doc = saved[name]
    if field not in doc["estimator"]:
        return  # (classes: a classifier's only)
    match = "not an svmviz estimator's model" if field == "class" else f"{field} is missing"
    refused(tmp_path, doc, lambda block: block.pop(field), match)


WRONG = [
    ("params", [], "params must be an object"),
    ("params", "pegasos", "params must be an object"),
    ("params", {"nope": 1}, "params: .*unexpected keyword argument 'nope'"),
    ("params", {"kernel": 5}, "params: The 'kernel' parameter"),
    ("params", {"iterations": -3}, "params: The 'iterations' parameter"),
    ("n_features_in", "2", "n_features_in must be a whole number ≥ 1, not '2'"),
    ("n_features_in", 2.5, "n_features_in must be a whole number"),
    ("n_features_in", 0, "n_features_in must be a whole number ≥ 1"),
    ("n_features_in", True, "n_features_in must be a whole number"),
    ("n_features_in", 1e300, "n_features_in must be a whole number"),
    ("n_features_in", 3, "n_features_in is 3, and the model takes 2 coordinates"),
    ("n_iter", None, "n_iter must be a whole number ≥ 0, not None"),
    ("n_iter", -1, "n_iter must be a whole number ≥ 0"),
    ("random_state", "seed", "random_state must be a whole number ≥ 0 or null"),
    ("class", "SVMRegressor", "class is SVMRegressor, and a svc model is SVMClassifier's"),
    ("class", "LinearSVC", "not an svmviz estimator's model"),
]


@pytest.mark.parametrize(("field", "value", "match"), WRONG)
def test_a_field_of_the_wrong_type_is_named(tmp_path, saved, field, value, match):
    refused(tmp_path, saved["binary"], lambda block: block.update({field: value}), match)


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ({"0": False, "1": True}, "classes must be a list of labels"),
        ("ab", "classes must be a list of labels"),
        ([[0], [1]], "classes must be a list of labels"),
        ([None, True], "classes must be a list of labels"),
        ([True, True], "classes holds a label twice"),
        ([False, True, "other"], "classes holds 3 labels, and the model's classes are 2"),
        ([False], "classes holds 1 label, and the model's classes are 2"),
    ],
)
def test_classes_that_are_not_the_model_s_are_refused(tmp_path, saved, value, match):
    """A dict of classes loaded, and predict raised an IndexError; three classes on a
    binary model loaded, and predicted among the first two."""
    refused(tmp_path, saved["binary"], lambda block: block.update(classes=value), match)


EXTREMES = [
    None,
    True,
    False,
    -1,
    0,
    1,
    2**64,
    -(2**70),
    1e308,
    -1e-308,
    0.5,
    "",
    "x" * 5000,
    [],
    [1] * 1000,
    {},
    {"a": {"b": []}},
]


def test_any_extreme_value_of_any_field_loads_or_is_named(tmp_path, saved):
    """A small fuzzer: every field of the estimator's block, and every parameter, set to
    each extreme value: the file loads (and predicts), or is refused with a line that
    names the field; nothing else is raised."""
    for name in ("binary", "three", "rbf", "regression", "one-class"):
        doc = saved[name]
        block = doc["estimator"]
        fields = [(key,) for key in block] + [("params", key) for key in block["params"]]
        for path in fields:
            for value in EXTREMES:

                def change(b, path=path, value=value):
                    (b if len(path) == 1 else b[path[0]])[path[-1]] = value

                try:
                    est = loaded(tmp_path, doc, change)
                except InputError as exc:
                    text = str(exc)
                    assert "\n" not in text and len(text) < 400, (path, value, text)
                    named = "not an svmviz estimator's model" in text or path[-1] in text
                    assert named or path[0] == "params", (path, value, text)
                    continue
                assert est.predict(X).shape == (len(X),), (name, path, value)
