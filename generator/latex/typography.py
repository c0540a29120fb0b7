"""LaTeX typography in text: quotes, dashes and ties.

Dashes, ties and opening quotes are inline rules, so they never touch code
spans, math or URLs (those are other tokens). Closing quotes are characters the
text rule swallows (``'`` and ``"`` do not stop it), so they are paired by a
core rule over the text tokens, like markdown-it's own smartquotes.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline

_SINGLE_BACKTICK = re.compile(r"(?<!`)`(?!`)")
# After a closing quote comes a space or punctuation: `greater than,' or `predict 0'.
_AFTER_CLOSING_QUOTE = frozenset(" \t\n.,;:!?)")
# A tilde that means "about": "(~3%", "by ~20%", "~$10^6$" at the start of a word. Every other
# tilde in text is TeX's tie (Fig.~3, $f$~\citep{…}, ---~all): a no-break space.
_ABOUT_BEFORE = frozenset(" \t\n([{")
_ABOUT_AFTER = re.compile(r"[\d$.]")
# A tilde inside a web address written as plain text (http://x.org/~user, /~jojic) is part of it.
_URL_START = re.compile(r"(?:[a-z][a-z0-9+.-]*://|www\.)\S*\Z", re.IGNORECASE)

# An apostrophe inside a word (HEL's) is matched first so that it never closes a quote (its group is empty).
# Every alternative starts with its quote mark, a literal (the apostrophe's lookbehind follows it; no group, no
# class first), so the engine skips to quote marks instead of trying every position.
_QUOTES = re.compile(r"''|‘‘|’’|'(?P<apostrophe>(?<=\w')(?=\w))|“|”|\"|‘|'")
_QUOTE_MARKS = "'‘’“”\""  # the characters a match of _QUOTES starts with


def typography_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("backticks", "html_comment", html_comment)
    md.inline.ruler.before("backticks", "latex_open_quotes", open_quotes)
    md.inline.ruler.before("backticks", "latex_dashes", dashes)
    md.inline.ruler.before("backticks", "latex_tie", tie)
    md.core.ruler.after("inline", "latex_close_quotes", close_quotes)


def html_comment(state: StateInline, silent: bool) -> bool:
    """``<!-- … -->`` is shown as written, like all HTML in an abstract: its dashes stay dashes.
    An unclosed one keeps its opening ``<!--``; what follows is ordinary text."""
    src, pos = state.src, state.pos
    if not src.startswith("<!--", pos):
        return False
    close = src.find("-->", pos + 4, state.posMax)
    end = close + 3 if close >= 0 else pos + 4
    if not silent:
        state.append_pending(src[pos:end])
    state.pos = end
    return True


def open_quotes(state: StateInline, silent: bool) -> bool:
    """Two backticks open a double quote (“). One opens a single quote (‘) when it
    reads as LaTeX (`word') rather than as a Markdown code span (`code`)."""
    src, pos, limit = state.src, state.pos, state.posMax
    if src[pos] != "`":
        return False
    run = pos
    while run < limit and src[run] == "`":
        run += 1
    count = run - pos
    if count == 1 and not _opens_single_quote(src, pos, limit):
        return False  # a code span: the backticks rule takes it
    if not silent:
        # Abstracts use code spans with single backticks only; longer runs are literal.
        state.append_pending({1: "‘", 2: "“"}.get(count, src[pos:run]))
    state.pos = run
    return True


def _opens_single_quote(src: str, pos: int, limit: int) -> bool:
    closing = _SINGLE_BACKTICK.search(src, pos + 1, limit)
    if closing is None:
        return True  # cannot be a code span
    for i in range(pos + 1, closing.start()):
        if src[i] == "'" and i + 1 < closing.start() and src[i + 1] in _AFTER_CLOSING_QUOTE:
            return True
    return False


def dashes(state: StateInline, silent: bool) -> bool:
    """``--`` is an en dash, ``---`` an em dash (as in LaTeX text)."""
    src, pos = state.src, state.pos
    if not src.startswith("--", pos) or pos + 2 > state.posMax:
        return False
    length = 3 if src.startswith("---", pos) and pos + 3 <= state.posMax else 2
    if not silent:
        state.append_pending("—" if length == 3 else "–")
    state.pos = pos + length
    return True


def tie(state: StateInline, silent: bool) -> bool:
    """``Fig.~3``, ``$f$~\\citep{…}``: a tilde is a no-break space, unless it means "about"
    (``by ~20%``) or is part of a web address."""
    src, pos = state.src, state.pos
    if src[pos] != "~":
        return False
    before = src[pos - 1] if pos > 0 else " "
    after = src[pos + 1] if pos + 1 < len(src) else ""
    if before in _ABOUT_BEFORE and _ABOUT_AFTER.match(after):
        return False
    if before == "/" or (before not in _ABOUT_BEFORE and _URL_START.search(src, max(0, pos - 300), pos)):
        return False  # a path: /~jojic, http://x.org/~user
    if not silent and pos + 1 < state.posMax:  # a tie that ends the text ties nothing
        state.append_pending("\u00a0" if not after.isspace() else " ")
    state.pos = pos + 1
    return True


def close_quotes(state: StateCore) -> None:
    """Core rule: two apostrophes (or ’’) close a double quote; a straight ``"``
    closes one only after an opening “, and ``'`` closes a single quote only
    after an opening ‘. Outside quotes, straight quotes stay straight."""
    for block in state.tokens:
        if block.type == "inline" and block.children:
            _pair_quotes(block.children)


def _pair_quotes(tokens: list) -> None:
    open_double = open_single = False

    def replace(match: re.Match[str]) -> str:
        nonlocal open_double, open_single
        mark = match.group(0)
        if match.group("apostrophe") is not None:
            return mark
        if mark in ("‘‘", "“"):
            open_double = True
            return "“"
        if mark in ("''", "’’", "”") or (mark == '"' and open_double):
            open_double = False
            return "”"
        if mark == "‘":
            open_single = True
        elif mark == "'" and open_single:
            open_single = False
            return "’"
        return mark

    for token in tokens:
        # Substring scans in C find the tokens with a quote mark sooner than the pattern's search does.
        if token.type == "text" and any(map(token.content.__contains__, _QUOTE_MARKS)):
            token.content = _QUOTES.sub(replace, token.content)
