"""The status bar's line: where the run is (iteration, objective, errors, the gap to the exact
optimum) and what is going on (a divergence, the compiled solver being prepared); and the
scenario's caption above the plane.

The readings are in the words of the problem in force (``readings``): a classifier's
training error; a regression's share of points outside the tube and its mean absolute error
(a tube is not a margin), with the ε ν-SVR learns; one-class's shares of outliers and of
support vectors (nothing is "misclassified"; its ρ is in the curves); ν-SVC's share of
margin errors, ρ and margin 2ρ/‖w‖; beside ν, the optimum's shares that it bounds (an
iterate may break them). They read the frame's margins as svmviz.core.pictures.frame defines them
per kind (a regression's residuals, one-class's f)."""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from svmviz.app.hand_snapshot import HAND
from svmviz.core.config import SolverConfig
from svmviz.core.lesson.support import has_support, training_count
from svmviz.core.solvers import STATUS_TEXT, feasible
from svmviz.ui import style


class OneLine(QtWidgets.QLabel):
    """A line of plain text that never changes the layout around it: it takes the width it
    is given (a longer text does not widen its row, nor the window) and one line's height.
    A text that does not fit is drawn smaller, down to ``shrink`` times the font's size;
    beyond that, a text of parts (joined by ``sep``) shows its first parts whole and "…"
    for the rest (none is cut in the middle), any other text is cut with "…"; then the
    tooltip holds it whole, and a click shows it."""

    def __init__(self, text: str = "", shrink: float = 1.0, parent=None, sep: str = ""):
        self._fitted = None  # (text, width, font) → (font, text) drawn: fitted once each
        self.sep = sep
        super().__init__(text, parent)
        self.shrink = shrink
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
        self.setTextFormat(QtCore.Qt.TextFormat.PlainText)

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(0, super().minimumSizeHint().height())

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def _drawn(self) -> tuple[QtGui.QFont, str]:
        """The font and the text drawn in the label's width."""
        key = (self.text(), self.contentsRect().width(), self.font().key())
        if self._fitted is None or self._fitted[0] != key:
            self._fitted = (key, self._fit_font())
        return self._fitted[1]

    def _fit_font(self) -> tuple[QtGui.QFont, str]:
        font, width = QtGui.QFont(self.font()), self.contentsRect().width()
        least = font.pointSizeF() * self.shrink
        while width > 0 and font.pointSizeF() > least:  # (text sizes are not linear in points)
            need = QtGui.QFontMetricsF(font).horizontalAdvance(self.text())
            if need <= width:
                break
            font.setPointSizeF(
                max(least, min(font.pointSizeF() - 0.25, font.pointSizeF() * width / need))
            )
        metrics = QtGui.QFontMetricsF(font)
        text, sep = self.text(), self.sep
        if sep and sep in text and metrics.horizontalAdvance(text) > width:
            parts = text.split(sep)
            for k in range(len(parts) - 1, 0, -1):  # the first parts whole, then "…"
                shown = sep.join(parts[:k]) + sep + "…"
                if metrics.horizontalAdvance(shown) <= width:
                    return font, shown
        shown = QtGui.QFontMetrics(font).elidedText(text, QtCore.Qt.TextElideMode.ElideRight, width)
        return font, shown

    def shown_font(self) -> QtGui.QFont:
        """The font the text is drawn in (down to ``shrink`` times the label's)."""
        return self._drawn()[0]

    def shown_text(self) -> str:
        """What is drawn: the text, or its beginning and "…" where it does not fit."""
        return self._drawn()[1]

    def is_cut(self) -> bool:
        """Whether some of the text is not drawn (then the tooltip holds it)."""
        return self.shown_text() != self.text()

    def cut_within(self) -> bool:
        """Whether a part is cut in the middle (not only the last parts left to "…")."""
        shown = self.shown_text()
        if shown == self.text():
            return False
        return not (self.sep and shown.endswith(self.sep + "…"))

    def _fit(self) -> None:
        whole = f"<p>{html.escape(self.text())}</p>"  # (rich text: a tooltip wraps it)
        self.setToolTip(whole if self.is_cut() else "")
        self.update()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._fit()

    def mousePressEvent(self, event) -> None:
        if self.is_cut():
            QtWidgets.QToolTip.showText(event.globalPosition().toPoint(), self.toolTip(), self)
        super().mousePressEvent(event)

    def paintEvent(self, event) -> None:
        font, shown = self._drawn()
        painter = QtGui.QPainter(self)
        painter.setFont(font)
        painter.setPen(self.palette().color(QtGui.QPalette.ColorRole.WindowText))
        align = QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter
        painter.drawText(self.contentsRect(), align, shown)


class StatusLine(OneLine):
    """The status bar's text: one line that never makes the status bar taller nor the window
    wider; a message longer than the bar is drawn a little smaller, then shows its first
    parts (the readings come first, the notes after them) and "…", and its tooltip (or a
    click) shows it whole."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(text, shrink=STATUS_SHRINK, parent=parent, sep=SEP)


class Caption(QtWidgets.QLabel):
    """A scenario's caption, what to look for, above the plane: the ``session``'s; and below
    it what a switch of the problem did to the points (the session's notice, until the next
    edit of the points). Hidden when there is neither. Presentation mode caps its lines
    (``fit_lines``): a long caption is drawn smaller rather than taking the plane's room."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self._lines: int | None = None  # at most this many lines, or as many as it takes
        self._shrink = 1.0
        self.setWordWrap(True)
        self.setMargin(6)
        style.tint(self, background=style.CAPTION_BACKGROUND)
        self.hide()
        session.caption_changed.connect(self._show)
        session.notice_changed.connect(self._show)

    @QtCore.Slot()
    def _show(self) -> None:
        caption, notice = self.session.caption, self.session.notice
        lines = []
        if caption is not None:
            lines.append(f"<b>{html.escape(caption[0])}</b> — {html.escape(caption[1])}")
        if notice:
            lines.append(f"<i>{html.escape(notice)}</i>")
        if not lines:
            self.hide()
            return
        self.setText("<br>".join(lines))
        self._fit()
        self.show()

    def fit_lines(self, lines: int | None, shrink: float = 1.0) -> None:
        """At most ``lines`` lines, the font drawn down to ``shrink`` times its size to fit
        them (beyond that the caption takes more); None: the window's font, any lines."""
        self._lines, self._shrink = lines, shrink
        self._fit()

    def line_count(self, font: QtGui.QFont | None = None) -> int:
        """The lines the caption takes in its width (in ``font``, or its own)."""
        doc = QtGui.QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(self.font() if font is None else font)
        doc.setHtml(self.text())
        doc.setTextWidth(max(1, self.contentsRect().width() - 2 * self.margin()))
        doc.size()  # (lays it out)
        block, count = doc.begin(), 0
        while block.isValid():
            count += block.layout().lineCount()
            block = block.next()
        return count

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit()

    def _fit(self) -> None:
        parent = self.parentWidget()
        font = QtGui.QFont(parent.font() if parent is not None else QtWidgets.QApplication.font())
        if self._lines is not None and self.text():
            least = font.pointSizeF() * self._shrink
            while self.line_count(font) > self._lines and font.pointSizeF() > least:
                font.setPointSizeF(max(least, font.pointSizeF() - 0.5))
        if font.pointSizeF() == self.font().pointSizeF():
            return
        inherit = parent is not None and font.pointSizeF() == parent.font().pointSizeF()
        self.setFont(QtGui.QFont() if inherit else font)  # (an empty font: the parent's)


# how the compiled solver is being prepared (svmviz.core.solvers.Solver.preparing)
PREPARING = {
    "loading": "loading the compiled solver",
    "compiling": "compiling the solver (the first run after installing: up to a minute)",
    "preparing": "preparing the compiled solver",
    "in memory": "numba's cache is unavailable: compiling the solver in memory",
    "unavailable": "numba could not compile the solver",
}


SEP = "   "  # between the status line's parts
STATUS_SHRINK = 0.85  # the least the status line is drawn at (of its size) before "…"
SHORT_SEP = " · "  # between the presenter's


def _last(history, name: str) -> float | None:
    column = history.get(name) if hasattr(history, "get") else None
    return float(column[-1]) if column is not None and len(column) else None


def readings(snap, config: SolverConfig, short: bool = False, parts=None) -> list[str]:
    """How well the model does, in the words of ``config``'s problem (``short``: the
    presenter's few words; ``parts``: the split, None: every point trains)."""
    kind, model, frame = config.kind, snap.model, snap.frame
    m = training_count(parts, frame)
    margins = np.asarray(frame.margins, dtype=float)
    error = 100 * float(snap.history["error"][-1])
    sep = SHORT_SEP if short else SEP
    if kind == "regression":
        words = [f"outside the tube {error:.1f}%"]
        if len(margins):
            words.append(
                f"{'MAE' if short else 'mean absolute error'} {np.abs(margins).mean():.3g}"
            )
        if not short:
            words.append(support_count(frame, m))
        if config.problem == "nu-svr":
            eps = model.epsilon if model.epsilon is not None else _last(snap.history, "epsilon")
            learned = [] if eps is None else [f"ε = {eps:.3g} (learned)"]
            words[1:1] = [nu_words(snap, config, short), *learned]
        return [sep.join(_nu_first(words) if short else words)]
    if kind == "one-class":
        # (ρ, the offset, is in the curves and the step's words: the shares ν bounds fill
        # the line at 1366 px, and the gap to the optimum must stay on it)
        support = 100 * len(frame.support) / max(m, 1)
        words = [f"outliers {error:.1f}%", f"{support_count(frame, m)} ({support:.1f}%)"]
        words.append(nu_words(snap, config, short))
        return [sep.join(words)]
    words = [f"{'error' if short else 'training error'} {error:.1f}%"]
    norm = margin_norm(snap, config)
    if config.problem == "nu-svc":
        rho = model.rho if model.rho is not None else _last(snap.history, "rho")
        if rho is not None:
            if len(margins):
                share = 100 * float(np.mean(margins < rho))
                words += [f"margin errors {share:.1f}%", nu_words(snap, config, short)]
            if norm:
                words.append(_margin("2ρ/‖w‖", 2.0 * rho / norm, short))
            words.append(f"ρ = {rho:.4g}")
    elif norm:
        words.append(_margin("2/‖w‖", 2.0 / norm, short))
    if has_support(frame) and not short:  # (after the margin: the first to give way)
        words.append(support_count(frame, m))
    return [sep.join(_nu_first(words) if short else words)]


def nu_words(snap, config: SolverConfig, short: bool = False) -> str:
    """What ν bounds, at the optimum only (svmviz.core.training.nu_bounds): the optimum's share of
    the points beyond the margin ≤ ν ≤ its share of support vectors, in the order the
    readings give the model's own; ν alone while the optimum is not known, and in the
    presenter's few words (``short``: its line has no room for both numbers)."""
    shares = None if snap.reference is None else snap.reference.nu_shares
    if shares is None or short:
        return f"ν = {config.nu:g}"
    low, high = f"{100 * shares.beyond:.1f}%", f"{100 * shares.support:.1f}%"
    return f"at the optimum {low} ≤ ν = {config.nu:g} ≤ {high}"


def _margin(name: str, width: float, short: bool) -> str:
    """The margin's width: "margin 2/‖w‖ = 0.5019"; the presenter's "margin 0.502"."""
    return f"margin {width:.3g}" if short else f"margin {name} = {width:.4g}"


def margin_norm(snap, config: SolverConfig) -> float | None:
    """‖w‖ of a linear model of two classes whose plane draws its margins (f = ±1, ±ρ):
    the margin's width between them is 2/‖w‖ (2ρ/‖w‖ for ν-SVC, as its curve says); None
    for any other (a kernel, 3+ classes, or a loss without margins: logistic)."""
    coef, frame = snap.model.coef, snap.frame
    if config.kind != "svc" or coef is None or len(coef) != 1 or not frame.level > 0:
        return None
    norm = float(np.linalg.norm(coef[0]))
    return norm if np.isfinite(norm) and norm > 0 else None


def _nu_first(words: list[str]) -> list[str]:
    """The presenter's order: the first reading, the margin's width, then what ν bounds (a
    lesson on ν), then the rest, the first to be cut on a narrow screen."""
    margin = [w for w in words[1:] if w.startswith("margin ") and "errors" not in w]
    rest = [w for w in words[1:] if w not in margin]
    return words[:1] + margin + [w for w in rest if "ν" in w] + [w for w in rest if "ν" not in w]


def hand_text(snap, short: bool = False) -> str:
    """A boundary moved by hand (svmviz.app.hand_snapshot): its objective F(w), the gap to
    the exact optimum, the margin 2/‖w‖ in the plane and the training error; ``short``: the
    presenter's few words."""
    e, model = snap.model.extra, snap.model
    width = 2.0 / max(float(np.linalg.norm(model.coef[0])), 1e-300)
    gap = None if snap.reference is None else e["objective"] - snap.reference.objective
    error = 100 * e["error"]
    if short:
        words = [f"F = {e['objective']:.4g}"]
        words += [] if gap is None else [f"gap {gap:.2g}"]
        return " · ".join([*words, f"margin {width:.3g}", f"error {error:.1f}%"])
    text = f"your line: F(w) = {e['objective']:.6g}"
    if gap is not None:
        text += f"   gap to the optimum {gap:.3g}"
    return text + (
        f"   margin 2/‖w‖ = {width:.4g}   training error {error:.1f}%"
        "   — Train from here (Enter) trains from this w; H returns to the run"
    )


def support_count(frame, m: int) -> str:
    """The support vectors of ``frame`` (as ringed) among the ``m`` training points."""
    return f"support vectors {len(frame.support)} of {m}"


def shown_objective(snap) -> tuple[float, float | None]:
    """(the objective of the model shown, the history's last one when they differ): after a
    hard margin's exact final step the model's ½‖w‖² (what its file says), else None
    (the history's last row is the output before the step, its curve's end)."""
    last = float(snap.history["objective"][-1])
    extra = snap.model.extra
    if "exact_step" in extra and "objective" in extra:
        return float(extra["objective"]), last
    return last, None


def status_text(snap, n_points: int, config: SolverConfig, parts=None) -> str:
    """The status line: iteration, objective, training error and the gap to the optimum
    (``parts``: the split, None: every point trains)."""
    if snap.status == HAND:
        return hand_text(snap)
    obj = snap.history["objective"]
    preparing = (
        f"   — {PREPARING[snap.preparing]}: "
        + ("Play trains" if not len(obj) else "training")
        + " in plain Python meanwhile"
        if snap.preparing and snap.status in ("ready", "running")
        else ""
    )
    start = (
        ""
        if snap.start is None
        else f" from your w (steps sized as at t = {snap.t0:,}, one pass over the points)"
    )
    if not len(obj):
        return (
            f"{n_points} points, {config.algorithm}{start}: press Play (Space) or Step (→)"
            + preparing
        )
    if snap.status == "diverged":  # what to change first (the numbers mean nothing now)
        return f"Stopped at t = {snap.t}: {snap.status_text}"
    F, before = shown_objective(snap)
    after = "" if before is None else " after the exact step"  # (the curve ends before it)
    text = f"iteration {snap.t}   objective {F:.6g}{after}   "
    text += readings(snap, config, parts=parts)[0]
    if config.kind == "svc" and snap.test_error is not None and len(snap.test_error[1]):
        text += f"   test error {100 * snap.test_error[1][-1]:.1f}%"
    if snap.reference is not None:
        text += f"   gap to the optimum {F - snap.reference.objective:.3g}"
    elif snap.reference_error:
        text += f"   (no exact optimum: {snap.reference_error})"
    elif snap.reference_pending:
        text += "   (computing the exact optimum…)"
    if snap.notice:
        text += f"   — {snap.notice}"
    if snap.start is not None:
        text += f"   (from your w, steps sized as at t = {snap.t0:,})"
    elif snap.t0:
        text += f"   (warm start at t = {snap.t0})"
    if snap.iterate and config.average != "last":
        text += "   (plane: the last iterate w_t)"
    if snap.status not in ("ready", "running"):
        text += f"   — {snap.status_text or STATUS_TEXT[snap.status]}"
    if "exact_step" in snap.model.extra:  # a hard margin's output, made feasible
        text += f"   — last exact step: {feasible.WORDS}"
    return text + preparing
