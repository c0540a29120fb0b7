"""Plain Unicode text from the same token stream the HTML comes from.

Used for <title>, meta descriptions, search and feeds: markup is dropped,
links keep their text, math becomes readable text (pylatexenc), and a snippet
we could not render keeps its source.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from markdown_it.token import Token
from pylatexenc import latexwalker
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latex2text._defaultspecs import make_accented_char

from .math import MATH_TYPES
from .spaces import collapse

# pylatexenc logs a warning for every malformed formula it meets; we report those
# ourselves, so keep them off stderr (a NullHandler still lets an application's
# own logging configuration see them).
logging.getLogger("pylatexenc").addHandler(logging.NullHandler())

_COMMAND_OR_BRACE = re.compile(r"\\[A-Za-z]+|[{}]")
_TEXT_TYPES = frozenset(("text", "text_special", "code_inline"))
_BREAK_TYPES = frozenset(("softbreak", "hardbreak"))


def _accent(mark: str) -> Callable:
    return lambda node, l2tobj: make_accented_char(node, mark, l2tobj)


# What pylatexenc drops or runs together: \widetilde{O} is Õ, not O; \|x\| keeps its bars.
_EXTRA_MACROS = [
    MacroTextSpec("widetilde", simplify_repl=_accent("\u0303")),
    MacroTextSpec("widehat", simplify_repl=_accent("\u0302")),
    MacroTextSpec("|", "‖"),
    *(MacroTextSpec(name, name) for name in ("Pr", "argmin", "argmax", "det", "gcd")),
]


@functools.cache  # read-only once made; making them was a millisecond and a half of every build (two a build)
def _contexts() -> tuple[Any, Any]:
    """pylatexenc's macro tables: the text converter's, with ours first, and the parser's (pylatexenc rebuilds
    its parser tables for every formula unless given them)."""
    context = get_default_latex_context_db()
    context.add_context_category("proceedings", prepend=True, macros=_EXTRA_MACROS)
    return context, latexwalker.get_default_latex_context_db()


class MathText:
    """Math → plain text with pylatexenc; the object holds configuration only."""

    def __init__(self) -> None:
        context, self._parser_context = _contexts()
        # A space after a macro stays ("\log n" is "log n", not "logn"), and so does one
        # between two constructs ("d_{VC} \log" is "d_VC log").
        spaces = {"between-macro-and-chars": False, "between-latex-constructs": True,
                  "after-comment": False, "in-equations": None}
        self._converter = LatexNodes2Text(latex_context=context, math_mode="text",
                                          strict_latex_spaces=spaces)

    def __call__(self, latex: str) -> str:
        try:
            walker = latexwalker.LatexWalker(latex, latex_context=self._parser_context)
            return collapse(self._converter.nodelist_to_text(walker.get_latex_nodes()[0]))
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
        elif kind == "latex_style_open" and token.meta:
            parts.append(token.meta.get("plain", ""))
    return "".join(parts)
