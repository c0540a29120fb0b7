"""Citations and footnotes in abstracts, as text-mode command handlers.

An abstract has no bibliography, so ``\\cite{key}`` (and natbib's and
biblatex's variants) becomes the plain citation "[key]", with any page note:
``\\citet[\\S 9.2]{key}`` is "[key, § 9.2]". A footnote has no page foot
either: ``\\footnote{…}`` becomes parenthesised text.
"""

from __future__ import annotations

from markdown_it.rules_inline import StateInline

from .problems import push_error
from .textgroups import braced, wrap
from .texscan import skip_spaces

CITE_COMMANDS = frozenset("""cite citep citet citealp citealt citeauthor citeyear citeyearpar
    parencite textcite autocite footcite Cite Citep Citet Citealp citeN citenum""".split())


def citation(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """Text-mode handler for ``\\cite[pre][post]{a,b}`` → "[pre a, b, post]"."""
    if name not in CITE_COMMANDS:
        return False
    notes, pos = _options(state, end)
    keys = braced(state, pos) if notes is not None else None
    if keys is None:
        return _missing(state, silent, name, _cut_short(state, pos, end))
    if not silent:
        _cite(state, notes, keys)
    state.pos = keys[1] + 1
    return True


def _cite(state: StateInline, notes: list[tuple[int, int]], keys: tuple[int, int]) -> None:
    # natbib: a single option is the note after the keys, two are "before" and "after".
    pre, post = (None, notes[0]) if len(notes) == 1 else (notes[0], notes[1]) if notes else (None, None)
    state.append_pending("[")
    if pre and pre[1] > pre[0]:
        _text(state, pre)
        state.append_pending(" ")
    state.append_pending(", ".join(key.strip() for key in state.src[keys[0] : keys[1]].split(",") if key.strip()))
    if post and post[1] > post[0]:
        state.append_pending(", ")
        _text(state, post)
    state.append_pending("]")


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
        push_error(state, state.src[state.pos : end], f"missing argument for \\{name}")
    state.pos = end
    return True
