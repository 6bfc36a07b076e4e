"""Errors the core raises for bad input; their message is meant for the user as it is."""


class InputError(ValueError):
    """Bad user input (a file, a parameter, a data set): the message names the problem."""


class NotSeparableError(InputError):
    """A hard-margin SVM was asked for on data that no (kernel) hyperplane separates."""
