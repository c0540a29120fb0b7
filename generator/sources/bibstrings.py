"""BibTeX values as BibTeX resolves them: ``{…}`` and ``"…"`` pieces, numbers, ``@string`` macros
(their names in any case, defined from earlier ones), BibTeX's own month macros (``jun`` is
"June") and ``#`` joining them.

Expansion is capped: an ``@string`` bomb (each string twice the one before, or a chain of
100,000) would otherwise take every byte of memory. Past ``MAX_EXPANSION`` characters copied from
macros in one file, the value being resolved and every later one that uses a macro are left as
written, with one warning naming the line.
"""

from __future__ import annotations

from collections.abc import Callable
from generator import diagnostics as codes

MONTHS = {"jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May",
          "jun": "June", "jul": "July", "aug": "August", "sep": "September", "oct": "October",
          "nov": "November", "dec": "December"}
MAX_EXPANSION = 10_000_000  # characters; a real file's macros (venue names, months) copy a few thousand
# What ends a bare word: BibTeX's own delimiters.
_DELIMITERS = frozenset('#{}"=,() \t\r\n')


def month_macro(value: str) -> str | None:
    """The month macro a written month is (``June``, ``jun``, ``JUN`` → ``jun``), else None."""
    key = value.strip().lower()
    return next((macro for macro, name in MONTHS.items() if key in (macro, name.lower())), None)


class Strings:
    """One file's macros; ``warn(message, line)`` hears of the cap, once."""

    def __init__(self, warn: Callable[..., None]):
        self._macros = dict(MONTHS)
        self._left = MAX_EXPANSION
        self._warn = warn

    def define(self, key: str, raw: str, line: int) -> None:
        self._macros[key.strip().lower()] = self.resolve(raw, line)

    def resolve(self, raw: str, line: int) -> str:
        """``raw`` as written after ``=`` → its text; a value that cannot be split stays as written."""
        pieces = _pieces(raw.strip())
        if pieces is None:
            return raw
        out = []
        for kind, text in pieces:
            if kind != "word" or text.isdigit():
                out.append(text)
                continue
            value = self._macros.get(text.lower())
            if value is None:  # an undefined macro stays as written (BibTeX would print nothing)
                out.append(text)
            elif not self._spend(len(value), line):
                return raw
            else:
                out.append(value)
        return "".join(out)

    def _spend(self, size: int, line: int) -> bool:
        if self._left < 0:
            return False
        self._left -= size
        if self._left < 0:
            self._warn(f"@string macros here expand past {MAX_EXPANSION:,} characters (an @string bomb?); "
                       "this value and every later one that uses a macro are left as written", line,
                       code=codes.BIB_STRING_BOMB)
            return False
        return True


def _pieces(raw: str) -> list[tuple[str, str]] | None:
    """``"a" # b # {c}`` → [("quoted", "a"), ("word", "b"), ("braced", "c")]; None when it is not
    such a list (bibtexparser has already refused what BibTeX would)."""
    pieces, at = [], 0
    while True:
        piece, at = _piece(raw, at)
        if piece is None:
            return None
        pieces.append(piece)
        at = _skip_space(raw, at)
        if at == len(raw):
            return pieces
        if raw[at] != "#":
            return None
        at = _skip_space(raw, at + 1)


def _piece(raw: str, at: int) -> tuple[tuple[str, str] | None, int]:
    if at >= len(raw):
        return None, at
    if raw[at] == "{":
        end = _group_end(raw, at + 1, "}")
        return (None, at) if end is None else (("braced", raw[at + 1:end]), end + 1)
    if raw[at] == '"':
        end = _group_end(raw, at + 1, '"')
        return (None, at) if end is None else (("quoted", raw[at + 1:end]), end + 1)
    end = at
    while end < len(raw) and raw[end] not in _DELIMITERS:
        end += 1
    return (None, at) if end == at else (("word", raw[at:end]), end)


def _group_end(raw: str, at: int, close: str) -> int | None:
    """Where the group opened before ``at`` closes: a quote inside braces does not close it."""
    depth = 0
    for index in range(at, len(raw)):
        char = raw[index]
        if char == close and depth == 0:
            return index
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return None
    return None


def _skip_space(raw: str, at: int) -> int:
    while at < len(raw) and raw[at].isspace():
        at += 1
    return at
