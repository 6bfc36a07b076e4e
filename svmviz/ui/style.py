"""Pens, markers and fonts: colorblind-safe (Okabe–Ito) and readable on a projector."""

from __future__ import annotations

from svmviz.core.palette import CLASS_COLORS, CLASS_SYMBOLS

SYMBOL_NAMES = {
    "o": "circle",
    "s": "square",
    "t": "triangle down",
    "d": "diamond",
    "t1": "triangle up",
    "star": "star",
    "h": "hexagon",
    "p": "pentagon",
    "+": "plus",
}
ERROR_COLOR = "#B00020"  # misclassified marks and the training error curve
LIT_COLOR = "#E7298A"  # a hovered point: its ring in the plane, its line in weight space
POINT_SIZE = 11
LINE_WIDTH = 3
FONT_POINT_SIZE = 12
REGION_ALPHA = 60  # of 255
CAPTION_BACKGROUND = "#FFF6D5"  # a scenario's caption: what to look for


def tint(widget, background: str | None = None, text: str | None = None) -> None:
    """Colours through the palette, not a style sheet (a widget with a style sheet stops
    inheriting its parent's font, so it would stay small in presentation mode)."""
    from PySide6 import QtGui

    palette = widget.palette()
    if background is not None:
        palette.setColor(QtGui.QPalette.ColorRole.Window, QtGui.QColor(background))
        widget.setAutoFillBackground(True)
    if text is not None:
        palette.setColor(QtGui.QPalette.ColorRole.WindowText, QtGui.QColor(text))
    widget.setPalette(palette)


def class_color(k: int) -> str:
    return CLASS_COLORS[k % len(CLASS_COLORS)]


def class_symbol(k: int) -> str:
    return CLASS_SYMBOLS[k % len(CLASS_SYMBOLS)]


def plot_options() -> None:
    """pyqtgraph's settings for every picture, the window's and the notebook's: antialiased,
    black on white."""
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=True, background="w", foreground="k")
