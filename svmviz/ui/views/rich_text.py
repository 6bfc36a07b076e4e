"""Numbers and a loss module's words as the step inspector's rich text (HTML): vectors,
changes "before → after" with the digits it takes to tell them apart, indices as subscripts."""

from __future__ import annotations

import html
import re

import numpy as np


def vec(v, digits: int = 3) -> str:
    """A vector as "(a, b)"; one number without parentheses."""
    parts = [f"{float(c):.{digits}g}" for c in np.atleast_1d(v)]
    return parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"


def change(before, after) -> str:
    """The change "before → after", with as many digits as it takes to tell the two apart
    (a step of kernel SGD changes α by little: 3 digits printed "(0.653) → (0.653)");
    "unchanged" when they are equal."""
    if np.array_equal(before, after):
        return f"{vec(before)} (unchanged)"
    for digits in range(3, 18):
        a, b = vec(before, digits), vec(after, digits)
        if a != b:
            break
    return f"{a} → {b}"


def rich(words: str) -> str:
    """A loss module's plain words (FORMULA, STEP) as rich text: "f_y′" with its index as a
    subscript, "e^(…)" with its exponent as a superscript, the rest escaped."""
    text = html.escape(words, quote=False)
    text = re.sub(r"\^\(((?:[^()]|\([^()]*\))*)\)", r"<sup>\1</sup>", text)
    return re.sub(r"_([^\s(),<>|/]+)", r"<sub>\1</sub>", text)


def num(v) -> str:
    """A number as the panel prints it (the tests format theirs the same way)."""
    return f"{float(v):.4g}"


def term(v) -> str:
    """A number as a term after an operator: a negative one in parentheses."""
    return f"({num(v)})" if float(v) < 0 else num(v)
