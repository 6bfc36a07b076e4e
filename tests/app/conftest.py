"""The training runner driven synchronously, with a fake GUI and fake optima
(tests/app/test_runner.py's FakeGui and FakeReferences)."""

import pytest

from svmviz.app.runner import TrainingRunner
from tests.app.test_runner import FakeGui, FakeReferences


@pytest.fixture
def gui():
    return FakeGui()


@pytest.fixture
def references():
    return FakeReferences()


@pytest.fixture
def runner(gui, references):
    return TrainingRunner(gui.controls, references)
