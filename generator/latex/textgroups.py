"""Brace groups and scripts in running text, as markdown-it inline rules.

TeX grouping braces are invisible, but abstracts also write sets in plain text
(``{0,1}^n``, ``{x : f(x) > c}``). So a group is dropped only where it reads as
TeX: it starts with a command (``{\\em x}``), is glued to a word
(``H{o}lder``, ``2{,}000``) or holds prose (``{margin-based active learning}``);
set-like groups stay literal. A ``}`` with no ``{`` (or a ``{`` before a word,
with no ``}``) is what is left of a group whose other end was lost, and is
dropped. ``T^{2/3}`` and ``x_{ij}`` outside math become superscripts and
subscripts, as the author meant.

Also the helpers other text rules share: the brace table of a paragraph and
``wrap``, which tokenizes a range between an open and a close token.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from generator import diagnostics as codes

from .builtins import MATH_MACROS
from .mathnames import is_math_command
from .problems import push_error
from .texscan import match_braces, read_command, skip_spaces

Attrs = tuple[tuple[str, str], ...]

_BRACES_KEY = "latex_braces"
_DEPTH_KEY = "latex_depth"
# Arguments nested deeper than this (\href in \href in …, \emph{\emph{…}}, {{{…}}}) are shown as
# written and reported. Below markdown-it's maxNesting (20), past which it would show them silently.
MAX_INLINE_DEPTH = 16
INLINE_DEPTH_MESSAGE = "commands nested too deeply; shown as written"
# What a set or a binomial written in plain text contains: {1, ..., n}, {x : f(x) > c}.
_SET_CHARS = re.compile(r"[,:;|+=<>…\d]")
_LONG_WORD = re.compile(r"[A-Za-z]{3,}")
_WORD = re.compile(r"[A-Za-z]{2,}")


def textgroups_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.at("text", bounded_text)
    md.inline.ruler.before("escape", "latex_group", latex_group)
    md.inline.ruler.before("escape", "latex_stray_brace", stray_brace)
    md.inline.ruler.before("escape", "latex_script", script)
    md.add_render_rule("latex_style_open", render_style)
    md.add_render_rule("latex_style_close", render_style)


# -- shared helpers ---------------------------------------------------------------

# The characters some enabled inline rule starts at: markdown-it's terminators less those no rule
# of ours takes (: = % + ! > # @; images, linkify and HTML are off). Text stops only at these, so
# a run of ">" or "=" is one text token, not one pass through every rule per character. A hyphen
# starts a rule only as a dash (``--``): c10k's 24,000 lone hyphens each took every rule's turn. One
# class first, the hyphen's condition after it: the engine skips to the class's characters in C.
_TERMINATOR = re.compile(r"[\n$&*<\[\\\]^_`{}~\-](?:(?<!-)|(?=-))")


def bounded_text(state: StateInline, silent: bool) -> bool:
    """markdown-it's text rule, but stopping at ``posMax`` and only where a rule may start.

    The stock rule looks for the next special character in the whole source, so
    inside a range that ends mid-text (``\\emph alone``, ``x_1, y}``) it swallows
    the text after the range. ``wrap`` tokenizes such ranges.
    """
    pos, limit = state.pos, state.posMax
    found = _TERMINATOR.search(state.src, pos, limit)
    stop = found.start() if found else limit
    if stop == pos:
        return False
    if not silent:
        state.append_pending(state.src[pos:stop])
    state.pos = stop
    return True


def _tables(state: StateInline) -> tuple[dict[int, int], set[int]]:
    """The brace pairs of the paragraph (and their closers), computed once per render in ``env``."""
    tables: dict[str, tuple[dict[int, int], set[int]]] = state.env.setdefault(_BRACES_KEY, {})
    table = tables.get(state.src)
    if table is None:
        pairs = match_braces(state.src)
        table = tables[state.src] = (pairs, set(pairs.values()))
    return table


def group_end(state: StateInline, pos: int) -> int:
    """The ``}`` matching the ``{`` at ``pos`` within the current range, or -1."""
    close = _tables(state)[0].get(pos, -1)
    return close if close < state.posMax else -1


def braced(state: StateInline, pos: int) -> tuple[int, int] | None:
    """(start, close) of the ``{…}`` argument at ``pos`` (after blanks), or None."""
    start = skip_spaces(state.src, pos, state.posMax)
    if state.src[start : start + 1] != "{":
        return None
    close = group_end(state, start)
    return None if close < 0 else (start + 1, close)


def wrap(state: StateInline, silent: bool, tag: str, attrs: Attrs,
         start: int, stop: int, after: int, plain: str = "") -> None:
    """Tokenize ``src[start:stop]`` between a style's open and close tokens, then go on at ``after``.

    ``plain`` is what the plain-text rendering writes for the opening (``^`` for a superscript).
    """
    if not silent:
        opening = state.push("latex_style_open", tag, 1)
        for key, value in attrs:
            opening.attrSet(key, value)
        if plain:
            opening.meta = {"plain": plain}
        tokenize_range(state, start, stop)
        state.push("latex_style_close", tag, -1)
    state.pos = after


def tokenize_range(state: StateInline, start: int, stop: int) -> None:
    """Tokenize ``src[start:stop]`` as inline content in place, then restore the range.

    The one place where arguments nest, so the one guard against nesting without end: past
    ``MAX_INLINE_DEPTH`` the range is shown as written, as one error.
    """
    depth = state.env.get(_DEPTH_KEY, 0)
    old_pos, old_max = state.pos, state.posMax
    if depth >= MAX_INLINE_DEPTH or state.level >= MAX_INLINE_DEPTH:
        push_error(state, state.src[start:stop], INLINE_DEPTH_MESSAGE, codes.LATEX_TOO_DEEP)
        return
    state.env[_DEPTH_KEY] = depth + 1
    state.pos, state.posMax = start, stop
    try:
        state.md.inline.tokenize(state)
    finally:
        state.env[_DEPTH_KEY] = depth
        state.pos, state.posMax = old_pos, old_max


def render_style(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:  # markdown-it's rule
    """Plain groups have no tag and render as nothing; styles render as their tag."""
    return self.renderToken(tokens, idx, options, env) if tokens[idx].tag else ""


# -- rules --------------------------------------------------------------------------

def latex_group(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if src[pos] != "{" or pos + 1 >= state.posMax:
        return False
    close = group_end(state, pos)
    if close < 0 or not _reads_as_tex(src, pos, close):
        return False
    wrap(state, silent, "", (), pos + 1, close, close + 1)
    return True


# How much of a group is read to judge it: a set written in plain text is short, and reading
# every group whole made text of nested braces quadratic.
_JUDGED = 200


def _reads_as_tex(src: str, pos: int, close: int) -> bool:
    content = src[pos + 1 : min(close, pos + 1 + _JUDGED)]
    if content.startswith("\\") or (pos > 0 and src[pos - 1].isalnum()):
        return True
    set_like = bool(_SET_CHARS.search(content)) and len(_LONG_WORD.findall(content)) <= 1
    return not set_like and bool(_WORD.search(content))


def stray_brace(state: StateInline, silent: bool) -> bool:
    """A ``}`` that closes nothing ends a group whose opening command was lost; a ``{``
    that is never closed, before a word, opens a group whose end was lost. Both go."""
    src, pos = state.src, state.pos
    char = src[pos]
    if char not in "{}":  # (before the table: every other character that no earlier rule took comes here)
        return False
    pairs, closers = _tables(state)
    if char == "}" and pos not in closers:
        state.pos += 1
        return True
    if char == "{" and pos not in pairs and _LONG_WORD.match(src, pos + 1):
        state.pos += 1
        return True
    if not silent:
        # A brace that is neither a TeX group nor a stray is text, and no later rule takes a
        # brace: take it here rather than let every other rule try it (text of braces stays linear).
        state.append_pending(char)
        state.pos += 1
        return True
    return False


_SCRIPTS = {"^": ("sup", "^"), "_": ("sub", "_")}


def script(state: StateInline, silent: bool) -> bool:
    """``T^{2/3}``, ``x_{ij}``, ``n^2``, ``k^\\epsilon`` in text: a superscript or subscript."""
    src, pos, limit = state.src, state.pos, state.posMax
    if src[pos] not in _SCRIPTS or pos == 0 or pos + 1 >= limit:
        return False
    tag, mark = _SCRIPTS[src[pos]]
    start = pos + 1
    if src[start] == "{":
        close = group_end(state, start)
        if close < 0:
            return False
        wrap(state, silent, tag, (), start + 1, close, close + 1, plain=mark)
        return True
    if not (src[pos - 1].isalnum() or src[pos - 1] == ")"):
        return False  # "^" or "_" on its own, or Markdown emphasis
    stop = _script_end(src, start, limit)
    if stop < 0:
        return False
    wrap(state, silent, tag, (), start, stop, stop, plain=mark)
    return True


def _script_end(src: str, start: int, limit: int) -> int:
    """End of a one-token script: a single letter or digit, or a math command."""
    if src[start] == "\\":
        name, end = read_command(src, start)
        return end if is_math_command(name) or name in MATH_MACROS else -1
    after = start + 1
    if src[start].isalnum() and (after >= limit or not src[after].isalnum()):
        return after
    return -1
