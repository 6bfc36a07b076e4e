"""Palette, markers and fonts: colorblind-safe (Okabe–Ito) and readable on a projector."""

from __future__ import annotations

# Okabe & Ito (2008), without black (used for lines) and yellow (weak on white) first
CLASS_COLORS = [
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",  # black
]
# pyqtgraph symbols: a different shape per class, since projectors wash colours out
CLASS_SYMBOLS = ["o", "s", "t", "d", "+", "star", "h", "x"]
ERROR_COLOR = "#B00020"  # misclassified marks and the training error curve
POINT_SIZE = 11
LINE_WIDTH = 3
FONT_POINT_SIZE = 12
REGION_ALPHA = 60  # of 255


def class_color(k: int) -> str:
    return CLASS_COLORS[k % len(CLASS_COLORS)]


def class_symbol(k: int) -> str:
    return CLASS_SYMBOLS[k % len(CLASS_SYMBOLS)]
