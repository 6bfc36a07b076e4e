"""What the README says of the package that a file listing can check."""

from pathlib import Path

from svmviz.core.scenario import list_scenarios

NUMBERS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
).split()


def test_the_readme_counts_the_scenarios_there_are():
    """Issue 43: the README said fourteen scenarios; there were seventeen."""
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    n = len(list_scenarios())
    assert f"Scenarios** (File ▸ Scenarios): {NUMBERS[n]} ready demos" in readme
