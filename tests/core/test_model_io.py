import json

import numpy as np
import pytest

from svmviz.core.config import SolverConfig
from svmviz.core.errors import InputError
from svmviz.core.kernels import Kernel
from svmviz.core.model_io import (
    read_model,
    read_model_npz,
    with_provenance,
    write_model,
    write_model_npz,
)
from svmviz.core.solvers import Solver
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
