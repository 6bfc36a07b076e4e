"""The solver panel chooses the problem, the losses, ε and ν (issue 24): each reaches the
configuration, the controls a problem has no use for are hidden or disabled, no invalid
combination is offered, and each option's tooltip is its module's objective."""

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6.QtCore import Qt

from svmviz.core.config import BINARY_LOSSES, MULTICLASS_LOSSES, PROBLEMS, SolverConfig
from svmviz.core.problems import words
from svmviz.core.solvers.losses import MODULES
from svmviz.ui.panels.solver_panel import SolverPanel


@pytest.fixture
def panel(qtbot):
    p = SolverPanel(SolverConfig(), n_points=100)
    qtbot.addWidget(p)
    return p


def edited(qtbot, panel, action):
    with qtbot.waitSignal(panel.config_edited, timeout=2000) as sig:
        action()
    return sig.args[0]


def visible(panel, widget) -> bool:
    return panel.form.isRowVisible(widget)


@pytest.mark.parametrize(
    ("name", "options"),
    [("problem", PROBLEMS), ("loss", BINARY_LOSSES), ("multiclass", MULTICLASS_LOSSES)],
)
def test_the_options_and_their_objectives_come_from_the_modules(panel, name, options):
    """Each option of the registry, its name the value and its words shown."""
    combo = panel.combos[name]
    assert [combo.itemData(i) for i in range(combo.count())] == list(options)
    assert [combo.itemText(i) for i in range(combo.count())] == [words(o) for o in options]
    for i, option in enumerate(options):
        tip = combo.itemData(i, Qt.ItemDataRole.ToolTipRole)
        if option in MODULES:
            assert MODULES[option].TITLE in tip and MODULES[option].FORMULA in tip
        else:  # svc: its losses are the two combos below
            assert "loss below" in tip


@pytest.mark.parametrize("loss", BINARY_LOSSES)
def test_each_binary_loss_reaches_the_config(qtbot, panel, loss):
    if loss == "hinge":
        panel.combos["loss"].set_value("logistic")
    assert edited(qtbot, panel, lambda: panel.combos["loss"].set_value(loss)).loss == loss


@pytest.mark.parametrize("loss", MULTICLASS_LOSSES[1:])
def test_each_multiclass_loss_reaches_the_config(qtbot, panel, loss):
    cfg = edited(qtbot, panel, lambda: panel.combos["multiclass"].set_value(loss))
    assert cfg.multiclass == loss


def test_each_problem_shows_its_own_controls(qtbot, panel):
    shown = {}
    for problem in PROBLEMS[1:] + PROBLEMS[:1]:
        cfg = edited(qtbot, panel, lambda p=problem: panel.combos["problem"].set_value(p))
        assert cfg.problem == problem
        shown[problem] = (
            visible(panel, panel.combos["loss"]),
            visible(panel, panel.nu_fields["epsilon"]),
            visible(panel, panel.nu_fields["nu"]),
            visible(panel, panel.lam_field),
            panel.combos["bias"].isEnabled(),
        )
    #               losses  ε      ν      λ      bias
    assert shown == {
        "svc": (True, False, False, True, True),
        "nu-svc": (False, False, True, False, True),
        "one-class": (False, False, True, False, False),
        "epsilon-svr": (False, True, False, True, True),
        "nu-svr": (False, False, True, True, True),
    }


def test_epsilon_and_nu_reach_the_config_and_bad_values_are_refused(qtbot, panel):
    panel.combos["problem"].set_value("epsilon-svr")
    panel.nu_fields["epsilon"].setText("0.35")
    assert edited(qtbot, panel, panel.nu_fields["epsilon"].editingFinished.emit).epsilon == 0.35
    panel.combos["problem"].set_value("nu-svr")
    panel.nu_fields["nu"].setText("0.25")
    assert edited(qtbot, panel, panel.nu_fields["nu"].editingFinished.emit).nu == 0.25
    panel.nu_fields["nu"].setText("1.5")
    panel.nu_fields["nu"].editingFinished.emit()
    assert panel.config().nu == 0.25
    assert "ν" in panel.message(panel.nu_fields["nu"])


def test_a_hard_margin_is_offered_for_a_hinge_svc_only(qtbot, panel):
    hard = panel.combos["margin"].model().item(1)
    assert hard.isEnabled()
    for name, value in (("loss", "squared_hinge"), ("multiclass", "ovr"), ("problem", "nu-svr")):
        panel.set_config(SolverConfig(**{name: value}))
        assert not hard.isEnabled(), value
    panel.set_config(SolverConfig(margin="hard"))
    cfg = edited(qtbot, panel, lambda: panel.combos["problem"].set_value("one-class"))
    assert (cfg.problem, cfg.margin) == ("one-class", "soft")
    assert panel.combos["margin"].value() == "soft"


def test_a_switch_back_to_svc_keeps_its_losses(qtbot, panel):
    panel.combos["loss"].set_value("logistic")
    panel.combos["multiclass"].set_value("softmax")
    cfg = edited(qtbot, panel, lambda: panel.combos["problem"].set_value("one-class"))
    assert (cfg.loss, cfg.multiclass) == ("hinge", "crammer_singer")  # (the problem's own)
    cfg = edited(qtbot, panel, lambda: panel.combos["problem"].set_value("svc"))
    assert (cfg.loss, cfg.multiclass) == ("logistic", "softmax")


def test_the_problem_line_says_what_the_points_make(panel):
    panel.set_problem(3)
    assert panel.problem.text().startswith("multiclass, " + MODULES["crammer_singer"].TITLE)
    panel.set_config(SolverConfig(multiclass="softmax"))
    assert MODULES["softmax"].TITLE in panel.problem.text()
    assert not panel.cost_button.isEnabled()  # softmax takes no Δ
    panel.set_config(SolverConfig(problem="epsilon-svr"))
    panel.set_problem(0, targets=True)
    assert "2-D inputs" in panel.problem.text()


@pytest.mark.parametrize(
    ("n_classes", "binary", "multiclass"), [(2, True, False), (3, False, True)]
)
def test_only_the_loss_in_force_is_enabled(panel, n_classes, binary, multiclass):
    """Three classes train the multiclass loss: the binary one ("hinge" beside softmax) is
    greyed, and the other way round with two."""
    panel.set_problem(n_classes)
    assert panel.combos["loss"].isEnabled() is binary
    assert panel.combos["multiclass"].isEnabled() is multiclass
