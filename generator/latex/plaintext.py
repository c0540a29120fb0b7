"""Plain Unicode text from the same token stream the HTML comes from.

Used for <title>, meta descriptions, search and feeds: markup is dropped,
links keep their text, math becomes readable text (pylatexenc), and a snippet
we could not render keeps its source.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable

from markdown_it.token import Token
from pylatexenc.latex2text import LatexNodes2Text

from .math import MATH_TYPES

# pylatexenc logs a warning for every malformed formula it meets; we report those
# ourselves, so keep them off stderr (a NullHandler still lets an application's
# own logging configuration see them).
logging.getLogger("pylatexenc").addHandler(logging.NullHandler())

_SPACE = re.compile(r"\s+")
_COMMAND_OR_BRACE = re.compile(r"\\[A-Za-z]+|[{}]")
_TEXT_TYPES = frozenset(("text", "text_special", "code_inline"))
_BREAK_TYPES = frozenset(("softbreak", "hardbreak"))


def collapse(text: str) -> str:
    """Single spaces (no-break spaces included), no leading or trailing blanks."""
    return _SPACE.sub(" ", text).strip()


class MathText:
    """Math → plain text with pylatexenc; the object holds configuration only."""

    def __init__(self) -> None:
        self._converter = LatexNodes2Text(math_mode="text")

    def __call__(self, latex: str) -> str:
        try:
            return collapse(self._converter.latex_to_text(latex))
        except Exception:  # pylatexenc has crashed on odd input (\href in math)
            return collapse(_COMMAND_OR_BRACE.sub(" ", latex))


def plain_text(tokens: Iterable[Token], math_text: Callable[[str], str]) -> str:
    """Plain text of a parsed document; blocks are separated by a space."""
    parts: list[str] = []
    for token in tokens:
        if token.type == "inline":
            parts.append(inline_text(token.children or (), math_text))
        elif token.block and token.nesting != 0:
            parts.append(" ")
    return collapse("".join(parts))


def inline_text(children: Iterable[Token], math_text: Callable[[str], str]) -> str:
    parts: list[str] = []
    for token in children:
        kind = token.type
        if kind in _TEXT_TYPES or kind == "tex_error":
            parts.append(token.content)
        elif kind in _BREAK_TYPES:
            parts.append(" ")
        elif kind in MATH_TYPES:
            parts.append(math_text(token.meta["latex"]))
    return "".join(parts)
