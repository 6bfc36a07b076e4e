"""The words the window shows: where a point lies, said by its y f(x), and the source texts
named by author and title (svmviz.core.sources), never by the numbers the docstrings use."""

import re

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import Qt

from svmviz.core.kernels import Kernel
from svmviz.core.lesson.explain import StepRecord
from svmviz.ui.views.step_words import step_summary

BARE = re.compile(r"(?<![\d,.])00[0-4](?![\d])")  # "(002", "002;", not 1,000 or 0.001


def one_step(z: float, pushed: bool) -> StepRecord:
    """Step 7 of a binary model that sampled point 3 with y f(x) = z."""
    return StepRecord(
        t=7,
        eta=0.5,
        lam=0.1,
        samples=np.array([3]),
        margins=np.array([z]),
        violated=np.array([pushed]),
        binary=True,
        linear=True,
    )


@pytest.mark.parametrize(
    ("z", "words", "not_words"),
    [
        (-1.0, "misclassified, it pushes w", "inside"),
        (0.5, "inside the margin, it pushes w", "misclassified"),
        (1.5, "outside the margin, no push", "pushes"),
    ],
)
def test_the_presentation_line_says_where_the_point_lies(z, words, not_words):
    line = step_summary(one_step(z, pushed=z < 1), lambda i: "cats")
    assert f"point 3 (cats), y f(x) = {z:.3g}: {words}" in line
    assert not_words not in line


def test_the_presentation_line_of_a_step_in_the_window(qtbot, make_window, wait_frame):
    """Presentation mode, steps of the window's own training: the line names the case of
    the sampled point's y f(x)."""
    w = make_window(iterations=2000, active=True)
    w.advance(30)
    wait_frame(w, lambda s: s.t == 30)
    qtbot.keyClick(w, Qt.Key.Key_F11)
    seen = set()
    for t in range(31, 61):
        qtbot.keyClick(w, Qt.Key.Key_PageDown)
        snap = wait_frame(w, lambda s, t=t: s.t == t and s.step is not None)
        z = float(snap.step.margins[0])
        case = "misclassified" if z < 0 else "inside the margin" if z < 1 else "outside"
        qtbot.waitUntil(lambda t=t: w.presentation.bar.step.text().startswith(f"Step {t}:"))
        assert case in w.presentation.bar.step.text()
        seen.add(case)
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    assert len(seen) >= 2  # (more than one case was met)


def shown_texts(w) -> list[str]:
    """The texts and tooltips of every widget and action of the window."""
    texts = []
    for widget in w.findChildren(QtWidgets.QWidget):
        texts += [widget.toolTip(), widget.statusTip(), widget.whatsThis()]
        if isinstance(widget, (QtWidgets.QLabel, QtWidgets.QAbstractButton)):
            texts.append(widget.text())
        if isinstance(widget, QtWidgets.QComboBox):
            for k in range(widget.count()):
                texts.append(widget.itemText(k))
                texts.append(str(widget.itemData(k, Qt.ItemDataRole.ToolTipRole) or ""))
    for action in w.findChildren(QtGui.QAction):
        texts += [action.text(), action.toolTip(), action.statusTip()]
    return texts


def bare(texts) -> list[str]:
    return [text for text in texts if BARE.search(text)]


@pytest.mark.parametrize(
    ("data", "settings", "names"),
    [
        ("blobs2", dict(project=True), ("Bartlett, CS281B", "Lyu, Gradient descent")),
        ("blobs2", dict(algorithm="gd"), ("Goldwasser", "Lyu, Gradient descent")),
        ("blobs3", {}, ("Shalev-Shwartz &amp; Ben-David, UML §17.2", "Goldwasser")),
        ("blobs2", dict(kernel=Kernel("rbf")), ("Shalev-Shwartz &amp; Ben-David, UML §16.3",)),
    ],
)
def test_the_inspector_and_tooltips_name_their_sources(
    request, make_window, wait_frame, data, settings, names
):
    """Binary (Pegasos with its projection ball, full-batch GD), multiclass and kernel
    steps: the inspector names each source by author and title, and no text or tooltip of
    the window cites a bare number."""
    w = make_window(request.getfixturevalue(data), iterations=1000, **settings)
    for t in (1, 2, 3):
        w.advance(1)
        wait_frame(w, lambda s, t=t: s.t == t and s.step is not None)
        text = w.step_panel.text()
        assert not bare([text]), text
    for name in names:
        assert name in text
    assert bare(shown_texts(w)) == []


def test_the_theory_tab_names_its_sources(make_window, wait_frame):
    w = make_window(iterations=2000, show=True)
    w.docks["theory"].raise_()
    w.advance(2000)
    wait_frame(w, lambda s: s.t == 2000 and "Corollary 17.2" in w.theory.text.text())
    text = w.theory.text.text()
    assert "Corollary 17.2</b> (Shalev-Shwartz &amp; Ben-David, UML §17.2)" in text
    assert "Pegasos</b> (Bartlett, CS281B Lecture 23)" in text
    assert bare(shown_texts(w) + [text]) == []
