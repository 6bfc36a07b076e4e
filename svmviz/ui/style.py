"""Pens, markers and fonts: colorblind-safe (Okabe–Ito) and readable on a projector."""

from __future__ import annotations

from svmviz.core.palette import CLASS_COLORS, CLASS_SYMBOLS

SYMBOL_NAMES = {"o": "circle", "s": "square", "t": "triangle down", "d": "diamond",
                "t1": "triangle up", "star": "star", "h": "hexagon", "p": "pentagon",
                "+": "plus"}  # fmt: skip
ERROR_COLOR = "#B00020"  # misclassified marks and the training error curve
POINT_SIZE = 11
LINE_WIDTH = 3
FONT_POINT_SIZE = 12
REGION_ALPHA = 60  # of 255


def class_color(k: int) -> str:
    return CLASS_COLORS[k % len(CLASS_COLORS)]


def class_symbol(k: int) -> str:
    return CLASS_SYMBOLS[k % len(CLASS_SYMBOLS)]
