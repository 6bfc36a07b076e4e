"""Errors the core raises for bad input, their message meant for the user as it is; and the
tests of a value read from a file that every reader shares."""

from typing import Any, TypeGuard

import numpy as np


class InputError(ValueError):
    """Bad user input (a file, a parameter, a data set): the message names the problem."""


class NotSeparableError(InputError):
    """A hard-margin SVM was asked for on data that no (kernel) hyperplane separates."""


def shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut to about ``limit`` characters (a file may hold a
    text of a million characters, or a number of thousands of digits, where a value was
    expected)."""
    try:
        text = repr(value)
    except ValueError:  # an int of more digits than Python prints
        return "a number of thousands of digits"
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def counted(n: int, noun: str) -> str:
    """ "1 point", "2 points": a count and its noun, singular for one (a regular plural)."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def finite_number(x: Any) -> bool:
    """A finite real number: an int, a float or a numpy number (not a bool, a text, a list,
    NaN, ±inf or 10**400)."""
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        return False
    try:
        return bool(np.isfinite(float(x)))
    except OverflowError:
        return False


def whole_number(x: Any) -> TypeGuard[float]:
    """A finite number with no fraction (2 or 2.0)."""
    return finite_number(x) and int(x) == x
