"""Small scanners for LaTeX source, shared by the macro expander and the text-mode rules.

They work on a string and a position and return the new position, in the style of
markdown-it's own helpers, so that rules can use them without copying substrings.
"""

from __future__ import annotations

import re

_BRACE_OR_ESCAPE = re.compile(r"\\.|[{}]", re.DOTALL)


def is_letter(ch: str) -> bool:
    """TeX control words are made of ASCII letters only (``\\é`` is not one)."""
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z")


def read_command(src: str, pos: int) -> tuple[str, int]:
    """Read the control sequence at ``src[pos] == "\\"``; return (name, end).

    A control word is a run of letters; anything else after the backslash is a
    one-character control symbol. A lone trailing backslash gives name ``""``.
    """
    end = pos + 1
    while end < len(src) and is_letter(src[end]):
        end += 1
    if end == pos + 1 and end < len(src):
        end += 1
    return src[pos + 1 : end], end


# From this length on, a source's braces are paired once (match_braces) and looked up:
# text full of unclosed groups (\sqrt{a \sqrt{a …) would otherwise be rescanned per group.
_TABLE_FROM = 4_096


def find_group_end(src: str, pos: int, limit: int | None = None) -> int:
    """Index of the ``}`` matching the ``{`` at ``src[pos]``, or -1 if unbalanced.

    Backslash escapes (``\\{``, ``\\}``, ``\\\\``) do not count as braces.
    """
    if len(src) >= _TABLE_FROM:
        close = _brace_table(src).get(pos, -1)
        return close if close >= 0 and (limit is None or close < limit) else -1
    depth = 0
    # The regex skips ordinary text in C; only braces and escapes reach Python.
    for match in _BRACE_OR_ESCAPE.finditer(src, pos, len(src) if limit is None else limit):
        char = match.group()
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return match.start()
    return -1


# The last source and its brace pairs, matched by identity: a lookup by equality would compare
# the whole source on every call once an equal copy of it exists (a title rendered after its page).
_last_table: tuple[str | None, dict[int, int]] = (None, {})


def _brace_table(src: str) -> dict[int, int]:
    global _last_table
    cached = _last_table  # one read: another thread may replace it, never half of it
    if cached[0] is not src:
        cached = _last_table = (src, match_braces(src))
    return cached[1]


def match_braces(src: str) -> dict[int, int]:
    """Every balanced ``{`` position → its ``}``, in one pass (escapes skipped).

    A brace's partner depends only on the text after it, so this table answers
    find_group_end for any position, without rescanning the rest of the text
    for each unbalanced ``{`` of a long abstract.
    """
    pairs: dict[int, int] = {}
    opened: list[int] = []
    for match in _BRACE_OR_ESCAPE.finditer(src):
        char = match.group()
        if char == "{":
            opened.append(match.start())
        elif char == "}" and opened:
            pairs[opened.pop()] = match.start()
    return pairs


def find_unescaped(src: str, needle: str, start: int, end: int) -> int:
    """First ``needle`` in ``src[start:end]`` that no backslash escapes, or -1."""
    found = src.find(needle, start, end)
    while found >= 0:
        slashes = found
        while slashes > start and src[slashes - 1] == "\\":
            slashes -= 1
        if (found - slashes) % 2 == 0:
            return found
        found = src.find(needle, found + 1, end)
    return -1


def skip_spaces(src: str, pos: int, limit: int | None = None) -> int:
    """Skip blanks (not newlines: a blank line would end the paragraph anyway)."""
    limit = len(src) if limit is None else limit
    while pos < limit and src[pos] in " \t\n":
        pos += 1
    return pos


def read_argument(src: str, pos: int, limit: int | None = None) -> tuple[str, int] | None:
    """Read one TeX macro argument at ``pos``: a ``{group}``, a control sequence or a character.

    Returns (argument without its braces, end) or None when there is nothing to read.
    """
    limit = len(src) if limit is None else limit
    pos = skip_spaces(src, pos, limit)
    if pos >= limit:
        return None
    if src[pos] == "{":
        end = find_group_end(src, pos, limit)
        return None if end < 0 else (src[pos + 1 : end], end + 1)
    if src[pos] == "\\":
        name, end = read_command(src, pos)
        return src[pos:end], end
    if src[pos] == "}":
        return None
    return src[pos], pos + 1
