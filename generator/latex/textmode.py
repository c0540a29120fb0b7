"""LaTeX text commands as markdown-it inline rules.

``\\emph{…}`` and friends become open/close tokens around an argument that is
tokenized like any other inline content (so ``\\emph{a $x$ b}`` nests), in
the way markdown-it's own link rule handles a link label. Accents, symbols and
``\\url`` become text and link tokens. Anything else is reported: an unknown
command is never dropped silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from .math import push_macro_math
from .model import MacroDef
from .problems import push_error
from .symbols import (CONTROL_SYMBOLS, DOTLESS, LETTER_ACCENTS, LETTER_SYMBOLS, STYLE_COMMANDS,
                      SWITCHES, SYMBOL_ACCENTS, WORD_SYMBOLS, accented)
from .texscan import is_letter, match_braces, read_argument, read_command, skip_spaces

Attrs = tuple[tuple[str, str], ...]

_BRACES_KEY = "latex_braces"


def textmode_plugin(md: MarkdownIt, macros: Mapping[str, MacroDef] | None = None) -> None:
    """Install the rules; config ``macros`` used in text render as inline math."""
    md.inline.ruler.before("escape", "latex_command", partial(latex_command, macros=dict(macros or {})))
    md.inline.ruler.before("escape", "latex_group", latex_group)
    md.add_render_rule("latex_style_open", render_style)
    md.add_render_rule("latex_style_close", render_style)


def latex_command(state: StateInline, silent: bool, macros: Mapping[str, MacroDef]) -> bool:
    src, pos = state.src, state.pos
    if src[pos] != "\\" or pos + 1 >= state.posMax:
        return False
    if not is_letter(src[pos + 1]):
        return _control_symbol(state, silent)
    name, end = read_command(src, pos)
    if name in macros:
        return _macro(state, silent, name, macros[name].nargs, end)
    for handler in (_style, _switch, _link, _letter_accent, _symbol):
        if handler(state, silent, name, end):
            return True
    return _undefined(state, silent, end)


# -- groups and styles ----------------------------------------------------------

def latex_group(state: StateInline, silent: bool) -> bool:
    """A brace group that starts with a command (``{\\em x}``, ``{\\"o}``) is LaTeX.

    Other braces stay literal: abstracts write sets and ``{n+d choose d}`` in
    plain text far more often than bare TeX grouping.
    """
    src, pos = state.src, state.pos
    if src[pos] != "{" or pos + 1 >= state.posMax or src[pos + 1] != "\\":
        return False
    close = _group_end(state, pos)
    if close < 0:
        return False
    _wrap(state, silent, "", (), pos + 1, close, close + 1)
    return True


def _style(state: StateInline, silent: bool, name: str, end: int) -> bool:
    style = STYLE_COMMANDS.get(name)
    if style is None:
        return False
    arg = _braced(state, end)
    if arg is not None:
        _wrap(state, silent, *style, arg[0], arg[1], arg[1] + 1)
        return True
    # TeX also takes a single character as the argument: {\underline b}andits.
    start = skip_spaces(state.src, end, state.posMax)
    if start >= state.posMax or not state.src[start].isalnum():
        return _missing_argument(state, silent, name, end)
    _wrap(state, silent, *style, start, start + 1, start + 1)
    return True


def _switch(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """``\\em`` styles the rest of its group, i.e. the rest of the current range."""
    style = SWITCHES.get(name)
    if style is None:
        return False
    _wrap(state, silent, *style, skip_spaces(state.src, end, state.posMax), state.posMax, state.posMax)
    return True


def _wrap(state: StateInline, silent: bool, tag: str, attrs: Attrs,
          start: int, stop: int, after: int) -> None:
    """Tokenize ``src[start:stop]`` between a style's open and close tokens, then go on at ``after``."""
    if not silent:
        old_max = state.posMax
        opening = state.push("latex_style_open", tag, 1)
        for key, value in attrs:
            opening.attrSet(key, value)
        state.pos, state.posMax = start, stop
        state.md.inline.tokenize(state)
        state.posMax = old_max
        state.push("latex_style_close", tag, -1)
    state.pos = after


def render_style(self, tokens, idx, options, env) -> str:  # noqa: ANN001 (markdown-it signature)
    """Plain groups have no tag and render as nothing; styles render as their tag."""
    return self.renderToken(tokens, idx, options, env) if tokens[idx].tag else ""


# -- links ------------------------------------------------------------------------

_URL_ESCAPES = {"\\_": "_", "\\%": "%", "\\#": "#", "\\&": "&", "\\~": "~", "\\$": "$"}


def _link(state: StateInline, silent: bool, name: str, end: int) -> bool:
    if name not in ("url", "href"):
        return False
    url = _braced(state, end)
    text = _braced(state, url[1] + 1) if url and name == "href" else None
    if url is None or (name == "href" and text is None):
        return _missing_argument(state, silent, name, end)
    if not silent:
        _push_link(state, _unescape_url(state.src[url[0] : url[1]].strip()), text)
    state.pos = (text or url)[1] + 1
    return True


def _group_end(state: StateInline, pos: int) -> int:
    """The ``}`` matching the ``{`` at ``pos`` within the current range, or -1.

    The brace table of each paragraph is computed once per render, in ``env``.
    """
    tables = state.env.setdefault(_BRACES_KEY, {})
    table = tables.get(state.src)
    if table is None:
        table = tables[state.src] = match_braces(state.src)
    close = table.get(pos, -1)
    return close if close < state.posMax else -1


def _braced(state: StateInline, pos: int) -> tuple[int, int] | None:
    """(start, close) of the ``{…}`` argument at ``pos`` (after blanks), or None."""
    start = skip_spaces(state.src, pos, state.posMax)
    if state.src[start : start + 1] != "{":
        return None
    close = _group_end(state, start)
    return None if close < 0 else (start + 1, close)


def _push_link(state: StateInline, url: str, text_range: tuple[int, int] | None) -> None:
    """A link only if markdown-it's own validation accepts it (no javascript: etc.)
    and we are not already inside a link (HTML cannot nest them)."""
    href = state.md.normalizeLink(url)
    valid = state.md.validateLink(href) and state.linkLevel == 0
    if valid:
        state.push("link_open", "a", 1).attrSet("href", href)
    if text_range is None:
        state.push("text", "", 0).content = state.md.normalizeLinkText(url) if valid else url
    else:
        old_pos, old_max = state.pos, state.posMax
        state.pos, state.posMax = text_range
        state.linkLevel += 1
        state.md.inline.tokenize(state)
        state.linkLevel -= 1
        state.pos, state.posMax = old_pos, old_max
    if valid:
        state.push("link_close", "a", -1)


def _unescape_url(url: str) -> str:
    for escaped, char in _URL_ESCAPES.items():
        url = url.replace(escaped, char)
    return url


# -- accents, symbols, macros -----------------------------------------------------

def _control_symbol(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    char = src[pos + 1]
    if char == "\\":
        if not silent:
            state.push("hardbreak", "br", 0)
        state.pos = pos + 2
        return True
    if char in SYMBOL_ACCENTS:
        return _accent(state, silent, SYMBOL_ACCENTS[char], pos + 2)
    if char in CONTROL_SYMBOLS:
        if not silent:
            state.pending += CONTROL_SYMBOLS[char]
        state.pos = pos + 2
        return True
    return False


def _letter_accent(state: StateInline, silent: bool, name: str, end: int) -> bool:
    mark = LETTER_ACCENTS.get(name)
    if mark is None:
        return False
    return _accent(state, silent, mark, end, spaces=True) or _missing_argument(state, silent, name, end)


def _accent(state: StateInline, silent: bool, mark: str, pos: int, spaces: bool = False) -> bool:
    """Accent the next letter, ``{letter}`` or ``{\\i}``; False if there is none."""
    src, limit = state.src, state.posMax
    if spaces:
        pos = skip_spaces(src, pos, limit)
    if pos >= limit:
        return False
    if src[pos] == "{":
        close = _group_end(state, pos)
        if close < 0:
            return False
        base, end = src[pos + 1 : close].strip(), close + 1
    elif src[pos] == "\\":
        base, end = read_command(src, pos)
        base = "\\" + base
    elif src[pos].isalpha():
        base, end = src[pos], pos + 1
    else:
        return False
    base = DOTLESS.get(base, base)
    if "\\" in base or "{" in base:
        return False
    if not silent:
        state.pending += accented(base, mark)
    state.pos = end
    return True


def _symbol(state: StateInline, silent: bool, name: str, end: int) -> bool:
    text = LETTER_SYMBOLS.get(name)
    if text is not None:
        end = skip_spaces(state.src, end, state.posMax)
    else:
        text = WORD_SYMBOLS.get(name)
        if text is None:
            return False
    if not silent:
        state.pending += text
    state.pos = _skip_empty_group(state, end)
    return True


def _macro(state: StateInline, silent: bool, name: str, nargs: int, end: int) -> bool:
    """A config macro in text: inline math of the command and its arguments."""
    pos = end
    for _ in range(nargs):
        found = read_argument(state.src, pos, state.posMax)
        if found is None:
            return _missing_argument(state, silent, name, end)
        pos = found[1]
    if not silent:
        push_macro_math(state, state.src[state.pos : pos])
    state.pos = _skip_empty_group(state, pos) if nargs == 0 else pos
    return True


def _skip_empty_group(state: StateInline, pos: int) -> int:
    """``\\LaTeX{}``: the empty group only protects a following space."""
    return pos + 2 if state.src.startswith("{}", pos) and pos + 2 <= state.posMax else pos


# -- problems ---------------------------------------------------------------------

def _undefined(state: StateInline, silent: bool, end: int) -> bool:
    """Show an unknown command with its arguments (``\\cite{key}``) as one error."""
    src, limit = state.src, state.posMax
    name_end = end
    while end < limit and src[end] in "[{":
        close = _group_end(state, end) if src[end] == "{" else src.find("]", end, limit)
        if close < 0:
            break
        end = close + 1
    if not silent:
        push_error(state, src[state.pos : end], f"undefined macro {src[state.pos : name_end]}")
    state.pos = end
    return True


def _missing_argument(state: StateInline, silent: bool, name: str, end: int) -> bool:
    if not silent:
        push_error(state, state.src[state.pos : end], f"missing argument for \\{name}")
    state.pos = end
    return True
