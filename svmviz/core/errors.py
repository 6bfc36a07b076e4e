"""Errors the core raises for bad input; their message is meant for the user as it is."""


class InputError(ValueError):
    """Bad user input (a file, a parameter, a data set): the message names the problem."""


class NotSeparableError(InputError):
    """A hard-margin SVM was asked for on data that no (kernel) hyperplane separates."""


def shown(value, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut to about ``limit`` characters (a file may hold a
    text of a million characters, or a number of thousands of digits, where a value was
    expected)."""
    try:
        text = repr(value)
    except ValueError:  # an int of more digits than Python prints
        return "a number of thousands of digits"
    return text if len(text) <= limit else f"{text[: limit - 1]}…"
