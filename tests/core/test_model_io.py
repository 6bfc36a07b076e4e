import json
import re
from dataclasses import replace

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import (
    Model,
    read_model,
    read_model_npz,
    with_provenance,
    write_model,
    write_model_npz,
)
from svmviz.core.solvers import Solver
from svmviz.core.solvers.losses import offset_columns
from svmviz.core.telemetry import history_csv


@pytest.mark.parametrize("bias", ["free", "regularized", "none"])
@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=0.7)])
@pytest.mark.parametrize("data_name", ["blobs2", "blobs3"])
def test_round_trip_gives_identical_predictions(tmp_path, request, data_name, kernel, bias):
    data = request.getfixturevalue(data_name)
    s = Solver(SolverConfig(kernel=kernel, bias=bias, iterations=2000)).reset(data)
    s.step(2000)
    model = s.model()
    path = tmp_path / "model.json"
    write_model(path, model)
    again = read_model(path)
    rng = np.random.default_rng(0)
    Xt = rng.normal(size=(50, 2)) * 2
    np.testing.assert_array_equal(again.decision_function(Xt), model.decision_function(Xt))
    np.testing.assert_array_equal(again.predict(Xt), model.predict(Xt))
    assert again.norm2() == pytest.approx(model.norm2(), rel=1e-12)


def test_documented_fields(tmp_path, blobs2):
    s = Solver(SolverConfig(kernel=Kernel("rbf"), iterations=100)).reset(blobs2)
    s.step(100)
    path = tmp_path / "m.json"
    write_model(path, s.model())
    d = json.loads(path.read_text())
    assert d["format"] == "svmviz-model"
    assert d["version"] == 2
    assert d["classes"] == list(blobs2.classes)
    assert set(d["kernel"]) == {"name", "gamma", "degree", "coef0"}
    sv = np.array(d["support_vectors"])
    dual = np.array(d["dual_coef"])
    # f(x) = Σ_j dual_coef[0][j]·k(sv_j, x) + intercept[0], computed by hand
    x = np.array([0.3, -0.2])
    f = dual[0] @ np.exp(-1.0 * np.sum((sv - x) ** 2, axis=1)) + d["intercept"][0]
    assert f == pytest.approx(s.model().decision_function(x[None])[0], rel=1e-12)


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not JSON"),
        ('{"format": "something-else"}', "not an svmviz model"),
        ('{"format": "svmviz-model", "version": 3}', "version 3, written by a newer svmviz"),
        ('{"format": "svmviz-model", "version": 1, "classes": ["a", "b"]}', "is missing"),
        (
            '{"format": "svmviz-model", "version": 1, "classes": ["a","b"], "kernel": '
            '{"name": "linear"}, "lam": 0.1, "bias": "free", "intercept": [0], "coef": [["x"]]}',
            "coef",
        ),
    ],
)
def test_bad_model_files(tmp_path, text, message):
    p = tmp_path / "m.json"
    p.write_text(text)
    with pytest.raises(InputError, match=message):
        read_model(p)


def test_failed_write_leaves_nothing_behind(tmp_path, blobs2):
    s = Solver(SolverConfig(iterations=10)).reset(blobs2)
    s.step(10)
    target = tmp_path / "missing-folder" / "m.json"
    with pytest.raises(InputError, match="cannot write"):
        write_model(target, s.model())
    assert not target.parent.exists()


@pytest.mark.parametrize("kernel", [Kernel(), Kernel("rbf", gamma=0.7), Kernel("poly")])
@pytest.mark.parametrize("data_name", ["blobs2", "blobs3"])
def test_npz_round_trip_gives_identical_predictions(tmp_path, request, data_name, kernel):
    data = request.getfixturevalue(data_name)
    config = SolverConfig(kernel=kernel, iterations=1500)
    s = Solver(config).reset(data)
    s.step(1500)
    model = with_provenance(s.model(), config, s.status_, 0.25)
    path = tmp_path / "model.npz"
    write_model_npz(path, model)
    again = read_model_npz(path)
    Xt = np.random.default_rng(1).normal(size=(60, 2)) * 2
    np.testing.assert_array_equal(again.decision_function(Xt), model.decision_function(Xt))
    np.testing.assert_array_equal(again.predict(Xt), model.predict(Xt))
    assert again.extra["solver"] == config.to_dict()
    assert again.extra["optimum"] == 0.25
    with np.load(path, allow_pickle=False) as npz:  # plain arrays only
        assert all(npz[k].dtype.kind in "fU" for k in npz.files)


def test_npz_with_an_object_array_is_refused_without_unpickling(tmp_path):
    path = tmp_path / "evil.npz"
    np.savez(
        path,
        meta=np.array('{"format": "svmviz-model", "version": 1}'),
        intercept=np.array([object()], dtype=object),
    )
    with pytest.raises(InputError, match="without pickle"):
        read_model_npz(path)
    path.write_bytes(b"not a zip")
    with pytest.raises(InputError, match="not an .npz"):
        read_model_npz(path)


def test_history_csv_matches_the_history(blobs2):
    s = Solver(SolverConfig(iterations=30)).reset(blobs2)
    s.step(30)
    lines = history_csv(s.history_.copy(), start=11).splitlines()
    assert lines[0] == "iteration,objective,loss,error,norm,violations"
    assert len(lines) == 31
    row = lines[5].split(",")
    assert int(row[0]) == 15
    assert float(row[1]) == s.history_["objective"][4]
    assert s.history_.to_csv_text() == history_csv(s.history_.copy())


# ---------------------------------------------------------------- version 2: every problem
RBF = Kernel("rbf", gamma=0.5)
SV = np.array([[0.0, 1.0], [1.0, -1.0], [-1.0, 0.5]])


def _model(linear, **fields):
    """A model built directly, with K outputs (default 1): linear or on three support
    vectors."""
    K = fields.pop("K", 1)
    rng = np.random.default_rng(K)
    if linear:
        shape = dict(kernel=Kernel(), coef=rng.normal(size=(K, 2)))
    else:
        shape = dict(kernel=RBF, support_vectors=SV, dual_coef=rng.normal(size=(K, 3)))
    return Model(lam=0.1, bias="free", intercept=rng.normal(size=K), **shape, **fields)


PROBLEM_MODELS = {
    "svc-binary": lambda lin: _model(lin, classes=("a", "b"), loss="logistic"),
    "svc-weston_watkins": lambda lin: _model(
        lin,
        K=3,
        classes=("a", "b", "c"),
        loss="weston_watkins",
        cost=np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0.0]]),
    ),
    "nu-svc": lambda lin: _model(
        lin, classes=("-1", "1"), problem="nu-svc", loss="hinge", nu=0.3, rho=0.7
    ),
    "one-class": lambda lin: replace(
        _model(lin, classes=(), problem="one-class", loss=None, nu=0.2, rho=0.4),
        intercept=np.array([-0.4]),
        bias="none",
    ),
    "epsilon-svr": lambda lin: _model(
        lin,
        classes=(),
        problem="epsilon-svr",
        loss="epsilon_insensitive",
        epsilon=0.25,
    ),
    "nu-svr": lambda lin: _model(
        lin,
        classes=(),
        problem="nu-svr",
        loss="epsilon_insensitive",
        nu=0.4,
        epsilon=0.15,
    ),
}


@pytest.mark.parametrize("linear", [True, False], ids=["linear", "kernel"])
@pytest.mark.parametrize("name", PROBLEM_MODELS)
@pytest.mark.parametrize("npz", [False, True], ids=["json", "npz"])
def test_every_problem_round_trips(tmp_path, name, linear, npz):
    model = PROBLEM_MODELS[name](linear)
    path = tmp_path / ("m.npz" if npz else "m.json")
    (write_model_npz if npz else write_model)(path, model)
    again = (read_model_npz if npz else read_model)(path)
    for field_name in ("problem", "loss", "classes", "lam", "bias", "epsilon", "nu", "rho"):
        assert getattr(again, field_name) == getattr(model, field_name), field_name
    Xt = np.random.default_rng(2).normal(size=(40, 2)) * 2
    np.testing.assert_array_equal(again.decision_function(Xt), model.decision_function(Xt))
    np.testing.assert_array_equal(again.predict(Xt), model.predict(Xt))
    if model.cost is not None:
        np.testing.assert_array_equal(again.cost, model.cost)


def test_version_2_fields_and_predictions(tmp_path):
    path = tmp_path / "m.json"
    write_model(path, PROBLEM_MODELS["one-class"](True))
    d = json.loads(path.read_text())
    assert d["version"] == 2 and d["problem"] == "one-class"
    assert "classes" not in d and "loss" not in d and "cost" not in d
    assert d["intercept"] == [-d["rho"]]
    one_class = read_model(path)
    F = one_class.decision_function(SV)
    assert list(one_class.predict(SV)) == ["inlier" if f >= 0 else "outlier" for f in F]
    svr = PROBLEM_MODELS["epsilon-svr"](False)
    write_model(path, svr)
    d = json.loads(path.read_text())
    assert d["loss"] == "epsilon_insensitive" and d["epsilon"] == 0.25 and "nu" not in d
    np.testing.assert_array_equal(svr.predict(SV), svr.decision_function(SV))
    multi = Model(
        classes=("a", "b", "c"),
        kernel=Kernel(),
        lam=0.1,
        bias="free",
        intercept=np.zeros(3),
        coef=np.eye(3, 2),
    )
    assert multi.loss == "crammer_singer"  # the default loss of a multiclass svc


def test_a_version_1_file_still_loads(tmp_path):
    path = tmp_path / "m.json"
    for classes, intercept, coef, loss in (
        (["a", "b"], [0.5], [[1.0, -1.0]], "hinge"),
        (["a", "b", "c"], [0, 1, 2], [[1, 0], [0, 1], [1, 1]], "crammer_singer"),
    ):
        v1 = {
            "format": "svmviz-model",
            "version": 1,
            "classes": classes,
            "kernel": {"name": "linear"},
            "lam": 0.1,
            "bias": "free",
            "cost": None,
            "intercept": intercept,
            "coef": coef,
            "iterations": 7,
        }
        path.write_text(json.dumps(v1))
        model = read_model(path)
        assert (model.problem, model.loss) == ("svc", loss)
        assert model.extra == {"iterations": 7}
        write_model(path, model)
        assert json.loads(path.read_text())["version"] == 2


def _v2(**changes):
    d = PROBLEM_MODELS[changes.pop("name", "svc-binary")](True).to_dict()
    d.update(changes)
    return {k: v for k, v in d.items() if v != "DROP"}


@pytest.mark.parametrize(
    "d, message",
    [
        (_v2(problem="lasso"), "problem must be one of svc"),
        (_v2(problem="DROP"), "'problem' is missing"),
        (_v2(loss="crammer_singer"), "loss must be a binary loss"),
        (_v2(name="svc-weston_watkins", loss="hinge"), "loss must be a multiclass loss"),
        (_v2(name="epsilon-svr", loss="hinge"), "has the loss epsilon_insensitive, not 'hinge'"),
        (_v2(name="one-class", loss="hinge"), "one-class model has no loss"),
        (_v2(name="epsilon-svr", classes=["a", "b"]), "epsilon-svr model has no classes"),
        (
            _v2(name="epsilon-svr", epsilon=-1),
            "ε (epsilon) must be a number from 0 to 1e+15, not -1",
        ),
        (_v2(name="epsilon-svr", epsilon="DROP"), "'epsilon' is missing"),
        (_v2(name="nu-svr", nu=1.5), "ν (nu) must be a number in (0, 1], not 1.5"),
        (_v2(name="nu-svc", rho="x"), "rho must be a finite number"),
        (_v2(epsilon=0.1), "a svc model has no epsilon"),
        (_v2(name="one-class", intercept=[0, 1], coef=[[1, 0], [0, 1]]), "one intercept, not 2"),
        (_v2(name="nu-svr", cost=[[0, 1], [1, 0]]), "has no cost matrix"),
        ({"format": "svmviz-model", "version": 1, "problem": "svc"}, "a field of version 2"),
    ],
)
def test_bad_version_2_fields_are_refused(tmp_path, d, message):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(d))
    with pytest.raises(InputError, match=re.escape(message)):
        read_model(path)


def test_history_csv_carries_the_offsets_of_the_problem(blobs2):
    s = Solver(SolverConfig(iterations=5)).reset(blobs2)
    s.step(5)
    columns = s.history_.copy()
    assert "rho" not in columns and "epsilon" not in columns  # (the hinge learns neither)
    columns["rho"] = np.full(5, 0.5)
    columns["epsilon"] = np.full(5, 0.25)
    for problem, header, last in (
        ("svc", "violations", None),
        ("epsilon-svr", "violations", None),
        ("nu-svc", "violations,rho", 0.5),
        ("one-class", "violations,rho", 0.5),
        ("nu-svr", "violations,epsilon", 0.25),
    ):
        lines = history_csv(columns, offsets=offset_columns(problem)).splitlines()
        assert lines[0].endswith(header)
        if last is not None:
            assert float(lines[3].split(",")[-1]) == last
