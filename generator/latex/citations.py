"""Citations and footnotes in abstracts, as text-mode command handlers.

An abstract has no bibliography, so a citation is shown from its key, never as the key
itself: a key that follows a common convention (citekeys.py) reads as its authors and year,
any other key as a number, [1], [2]…, in order of first appearance within the abstract (the
same key keeps its number). So, with any page note:

- ``\\cite``, ``\\citep`` and the other parenthetical commands: "[Smith et al. 2020; 1, p. 5]";
- ``\\citet``, ``\\textcite`` and the other textual ones: "Smith et al. (2020, § 9.2)", or "[1]";
- ``\\citeauthor``: "Smith et al."; ``\\citeyear``: "2020"; ``\\citenum``: "[1]";
- a command fused with its key by a conversion that lost the braces (``\\citeProc``): the same.

A footnote has no page foot either: ``\\footnote{…}`` becomes parenthesised text.
"""

from __future__ import annotations

import re

from markdown_it.rules_inline import StateInline

from generator import diagnostics as codes

from .citekeys import CiteMark, read_key
from .problems import push_error
from .textgroups import braced, wrap
from .texscan import skip_spaces

CITE_COMMANDS = frozenset("""cite citep citet citealp citealt citeauthor citeyear citeyearpar
    parencite textcite autocite footcite Cite Citep Citet Citealp citeN citenum""".split())
TEXTUAL = frozenset("citet citealt textcite Citet".split())
_NUMBERS_KEY = "cite_numbers"  # env: key → its number in this abstract


def citation(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """Text-mode handler for ``\\cite[pre][post]{a,b}`` → "[pre a, b, post]"."""
    if name not in CITE_COMMANDS:
        return _fused_citation(state, silent, name, end)
    notes, pos = _options(state, end)
    keys = braced(state, pos) if notes is not None else None
    if keys is None or notes is None:
        return _missing(state, silent, name, _cut_short(state, pos, end))
    if not silent:
        _cite(state, name, notes, keys)
    state.pos = keys[1] + 1
    return True


_FUSED_PREFIXES = sorted(CITE_COMMANDS, key=len, reverse=True)
_KEY_TAIL = re.compile(r"[A-Za-z0-9:_-]*")


def _fused_citation(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """``\\citeProc``, ``\\citepSmith2020``: a citation whose key lost its braces in a conversion (PMLR).
    The key is the rest of the name, up to the next character a key cannot hold."""
    prefix = next((command for command in _FUSED_PREFIXES if name.startswith(command)), None)
    if prefix is None or not name[len(prefix)].isupper() or state.src.startswith("{", end):
        return False
    key_end = tail.end() if (tail := _KEY_TAIL.match(state.src, end, state.posMax)) else end
    if not silent:
        _cite(state, prefix, [], (state.pos + 1 + len(prefix), key_end))
    state.pos = key_end
    return True


def _cite(state: StateInline, name: str, notes: list[tuple[int, int]], keys: tuple[int, int]) -> None:
    # natbib: a single option is the note after the keys, two are "before" and "after".
    pre, post = (None, notes[0]) if len(notes) == 1 else (notes[0], notes[1]) if notes else (None, None)
    marks = [_mark(state, key.strip()) for key in state.src[keys[0] : keys[1]].split(",") if key.strip()]
    readable = all(isinstance(mark, CiteMark) for mark in marks) and not pre
    if readable and name in TEXTUAL:
        _textual(state, marks, post)
        return
    if readable and name in ("citeauthor", "citeyear"):  # words of a sentence: no brackets
        state.append_pending(", ".join(_shown(mark, name) for mark in marks))
        return
    state.append_pending("[")
    if pre and pre[1] > pre[0]:
        _text(state, pre)
        state.append_pending(" ")
    state.append_pending("; ".join(_shown(mark, name) for mark in marks))
    if post and post[1] > post[0]:
        state.append_pending(", ")
        _text(state, post)
    state.append_pending("]")


def _textual(state: StateInline, marks: list, post: tuple[int, int] | None) -> None:
    """``\\citet[§ 2]{a,b}`` → "A (2019), B (2020, § 2)": the note goes with the last year."""
    for index, mark in enumerate(marks):
        state.append_pending(f"{', ' if index else ''}{mark.authors} ({mark.year}")
        if post and post[1] > post[0] and index == len(marks) - 1:
            state.append_pending(", ")
            _text(state, post)
        state.append_pending(")")


def _mark(state: StateInline, key: str) -> CiteMark | int:
    """The key's readable mark, or its number in this abstract."""
    mark = read_key(key)
    if mark is not None:
        return mark
    numbers: dict[str, int] = state.env.setdefault(_NUMBERS_KEY, {})
    return numbers.setdefault(key, len(numbers) + 1)


def _shown(mark: CiteMark | int, name: str) -> str:
    if not isinstance(mark, CiteMark):
        return str(mark)
    if name == "citeauthor":
        return mark.authors
    return mark.year if name.startswith("citeyear") else f"{mark.authors} {mark.year}"


def footnote(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """Text-mode handler for ``\\footnote{…}`` → " (…)"."""
    if name != "footnote":
        return False
    content = braced(state, end)
    if content is None:
        return _missing(state, silent, name, end)
    if not silent:
        before = state.src[state.pos - 1] if state.pos else " "
        state.append_pending("(" if before in " \t\n~" else " (")
        _text(state, content)
        state.append_pending(")")
    state.pos = content[1] + 1
    return True


def _options(state: StateInline, pos: int) -> tuple[list[tuple[int, int]] | None, int]:
    """The ``[…]`` options before the keys: their (start, stop) ranges and the position after."""
    src, limit = state.src, state.posMax
    notes: list[tuple[int, int]] = []
    pos = skip_spaces(src, pos, limit)
    while pos < limit and src[pos] == "[" and len(notes) < 2:
        close = src.find("]", pos, limit)
        if close < 0:
            return None, pos
        notes.append((pos + 1, close))
        pos = skip_spaces(src, close + 1, limit)
    return notes, pos


def _text(state: StateInline, span: tuple[int, int]) -> None:
    """Tokenize a note or footnote as ordinary inline content (it may hold math or \\S)."""
    wrap(state, False, "", (), span[0], span[1], state.pos)


def _cut_short(state: StateInline, pos: int, end: int) -> int:
    """Where the source of a citation with an unclosed ``{keys`` ends: ``\\cite{tpami`` (a
    list cut mid-citation) is shown whole, up to the next blank."""
    src, limit = state.src, state.posMax
    if not src.startswith("{", pos):
        return end
    stop = pos
    while stop < limit and not src[stop].isspace():
        stop += 1
    return stop


def _missing(state: StateInline, silent: bool, name: str, end: int) -> bool:
    if not silent:
        push_error(state, state.src[state.pos : end], f"missing argument for \\{name}", codes.LATEX_MISSING_ARGUMENT,
                   name)
    state.pos = end
    return True
