"""The source texts as the window names them: author, short title and section.

Docstrings and comments cite a text by its number (``(002)``, docs/references.md gives each
in full); a student reads the words the window shows, where a number means nothing, so every
citation shown goes through :func:`cite` and this one table.
"""

from __future__ import annotations

import html

SOURCES = {
    "000": "Shalev-Shwartz & Ben-David, UML §17.2",
    "001": "Goldwasser, Max-margin classification slides",
    "002": "Bartlett, CS281B Lecture 23",
    "003": "Shalev-Shwartz & Ben-David, UML §16.3",
    "004": "Lyu, Gradient descent on classification",
}


def cite(*refs: str) -> str:
    """A citation to show, in parentheses: each ref is a number of :data:`SOURCES`,
    optionally followed by ": " and the part meant (``cite("002: Pegasos", "003")`` is
    "(Bartlett, CS281B Lecture 23: Pegasos; Shalev-Shwartz & Ben-David, UML §16.3)")."""
    parts = []
    for ref in refs:
        number, _, part = ref.partition(": ")
        parts.append(SOURCES[number] + (f": {part}" if part else ""))
    return "(" + "; ".join(parts) + ")"


def cite_html(*refs: str) -> str:
    """:func:`cite` for rich text (the "&" escaped)."""
    return html.escape(cite(*refs), quote=False)
