"""LaTeX text commands as markdown-it inline rules.

``\\emph{…}`` and friends become open/close tokens around an argument that is
tokenized like any other inline content (so ``\\emph{a $x$ b}`` nests), in
the way markdown-it's own link rule handles a link label. Accents, symbols and
``\\url`` become text and link tokens; citations and footnotes are handled in
citations.py, math commands that lost their dollars in textmath.py. Anything
else is reported: an unknown command is never dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from generator import diagnostics as codes

from .builtins import TEXT_ABBREVIATIONS
from .citations import citation, footnote
from .guesses import guess, guessed_problem
from .math import MATH_ENVIRONMENTS, push_macro_math
from .model import MacroDef, TexProblem
from .problems import UNKNOWN_CLASS, push_error, push_unknown
from .repair import split_fused_edge, split_fused_text
from .symbols import (BREAKS, CONTROL_SYMBOLS, DOTLESS, IGNORED, LETTER_ACCENTS, LETTER_SYMBOLS,
                      SMALLCAPS, STYLE_COMMANDS, SWITCHES, SYMBOL_ACCENTS, WORD_SYMBOLS, accented)
from .textgroups import braced, group_end, textgroups_plugin, tokenize_range, wrap
from .textmath import math_run
from .texscan import is_letter, read_argument, read_command, skip_spaces

# Environments with a rule of their own (math.py, structure.py).
KNOWN_ENVIRONMENTS = frozenset((*MATH_ENVIRONMENTS, "itemize", "enumerate"))


def textmode_plugin(md: MarkdownIt, macros: Mapping[str, MacroDef] | None = None) -> None:
    """Install the rules; config ``macros`` used in text render as inline math."""
    md.inline.ruler.before("escape", "latex_command", partial(latex_command, macros=dict(macros or {})))
    textgroups_plugin(md)


def latex_command(state: StateInline, silent: bool, macros: Mapping[str, MacroDef]) -> bool:
    src, pos = state.src, state.pos
    if src[pos] != "\\" or pos + 1 >= state.posMax:
        return False
    if not is_letter(src[pos + 1]):
        return _control_symbol(state, silent)
    name, end = read_command(src, pos)
    if name in macros:
        return _macro(state, silent, name, macros[name].nargs, end)
    for handler in _HANDLERS:
        if handler(state, silent, name, end):
            return True
    return _undefined(state, silent, end)


# -- styles -------------------------------------------------------------------------

def _style(state: StateInline, silent: bool, name: str, end: int) -> bool:
    style = STYLE_COMMANDS.get(name)
    if style is None:
        return False
    arg = braced(state, end)
    if arg is not None:
        wrap(state, silent, *style, arg[0], arg[1], arg[1] + 1)
        return True
    # TeX also takes a single character as the argument: {\underline b}andits.
    start = skip_spaces(state.src, end, state.posMax)
    if start >= state.posMax or not state.src[start].isalnum():
        return _missing_argument(state, silent, name, end)
    wrap(state, silent, *style, start, start + 1, start + 1)
    return True


def _switch(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """``\\em`` styles the rest of its group, i.e. the rest of the current range."""
    style = SWITCHES.get(name)
    if style is None:
        return False
    wrap(state, silent, *style, skip_spaces(state.src, end, state.posMax), state.posMax, state.posMax)
    return True


# -- links ------------------------------------------------------------------------

_URL_ESCAPES = {"\\_": "_", "\\%": "%", "\\#": "#", "\\&": "&", "\\~": "~", "\\$": "$"}


def _link(state: StateInline, silent: bool, name: str, end: int) -> bool:
    if name not in ("url", "href"):
        return False
    url = braced(state, end)
    text = braced(state, url[1] + 1) if url and name == "href" else None
    if url is None or (name == "href" and text is None):
        return _missing_argument(state, silent, name, end)
    if not silent:
        _push_link(state, _unescape_url(state.src[url[0] : url[1]].strip()), text)
    state.pos = (text or url)[1] + 1
    return True


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
        state.linkLevel += 1
        tokenize_range(state, *text_range)
        state.linkLevel -= 1
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
            state.append_pending(CONTROL_SYMBOLS[char])
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
        close = group_end(state, pos)
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
        state.append_pending(accented(base, mark))
    state.pos = end
    return True


def _symbol(state: StateInline, silent: bool, name: str, end: int) -> bool:
    text = LETTER_SYMBOLS.get(name)
    if text is not None:
        end = skip_spaces(state.src, end, state.posMax)
    else:
        text = WORD_SYMBOLS.get(name) or TEXT_ABBREVIATIONS.get(name)
        if text is None:
            return False
    if not silent:
        state.append_pending(text)
    state.pos = _skip_empty_group(state, end)
    return True


def _layout(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """Spacing and layout commands (``\\noindent``, ``\\vspace{…}``) have no place in a web page."""
    if name in BREAKS:
        if not silent:
            state.push(BREAKS[name], "br" if BREAKS[name] == "hardbreak" else "", 0)
        state.pos = skip_spaces(state.src, end, state.posMax)
        return True
    nargs = IGNORED.get(name)
    if nargs is None:
        return False
    found = read_argument(state.src, end, state.posMax) if nargs else None
    state.pos = found[1] if found else skip_spaces(state.src, end, state.posMax)
    return True


def _fused_style(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """``\\emphclassification``: a style whose braces were lost styles the rest of the name."""
    split = split_fused_text(name)
    if split is None:
        return False
    wrap(state, silent, *STYLE_COMMANDS[split[0]], state.pos + 1 + split[1], end, end)
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


def _guessed(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """An author's conventional macro in text (``\\fhat``): inline math, where it is guessed and reported."""
    if guess(name) is None:
        return False
    if not silent:
        push_macro_math(state, state.src[state.pos : end])
    state.pos = _skip_empty_group(state, end)
    return True


# Quotation commands (csquotes' \enquote, dirtytalk's \say): the argument between curly quotes.
QUOTES = frozenset(("enquote", "say", "textquote"))


def _quote(state: StateInline, silent: bool, name: str, end: int) -> bool:
    if name not in QUOTES:
        return False
    arg = braced(state, end)
    if arg is None:
        return _missing_argument(state, silent, name, end)
    if not silent:
        state.push("text", "", 0).content = "“"
        tokenize_range(state, *arg)
        state.push("text", "", 0).content = "”"
    state.pos = arg[1] + 1
    return True


# Tried in order after the config macros; the first that takes the command wins.
# Cross-references point into the paper, which an abstract is not: shown as LaTeX shows a label
# it cannot find, "??", with the label in the title.
REFERENCES = frozenset("ref eqref cref Cref autoref pageref nameref vref".split())


def _reference(state: StateInline, silent: bool, name: str, end: int) -> bool:
    if name not in REFERENCES:
        return False
    arg = braced(state, end)
    if arg is None:
        return _missing_argument(state, silent, name, end)
    if not silent:
        opening = state.push("latex_style_open", "span", 1)
        opening.attrSet("class", "tex-ref")
        opening.attrSet("title", f"a reference to “{state.src[arg[0]:arg[1]].strip()}” in the paper")
        state.push("text", "", 0).content = "(??)" if name == "eqref" else "??"
        state.push("latex_style_close", "span", -1)
    state.pos = arg[1] + 1
    return True


_HANDLERS = (_style, _switch, _link, _letter_accent, _symbol, _layout, citation, footnote,
             math_run, _fused_style, _quote, _reference, _guessed)


# -- problems ---------------------------------------------------------------------

def _undefined(state: StateInline, silent: bool, end: int) -> bool:
    """An unknown command, reported; the reader sees its name (``\\nnc`` → nnc) or, when it has a
    braced argument, the last one (``\\snew{nearly}`` → nearly), in the text's own style. An unknown
    environment's edges show nothing: its body is ordinary text."""
    src, limit = state.src, state.posMax
    name_end = end
    argument: tuple[int, int] | None = None
    while end < limit and src[end] in "[{":
        close = group_end(state, end) if src[end] == "{" else src.find("]", end, limit)
        if close < 0:
            break
        if src[end] == "{" and src[end + 1 : close].strip():
            argument = (end + 1, close)
        end = close + 1
    if not silent:
        source = src[state.pos : end]
        name = src[state.pos + 1 : name_end]
        environment = _environment_problem(source)
        message = environment or f"undefined macro {src[state.pos : name_end]}"
        if environment:
            push_unknown(state, "", message, source, codes.LATEX_ENVIRONMENT)
        elif argument and argument[0] == name_end + 1 and argument[1] + 1 == end and _WORDS.search(src, *argument):
            _guessed_wrapper(state, name, argument)
        elif argument:
            _unknown_with_argument(state, name, message, argument)
        elif _WORD_MACRO.fullmatch(name):
            _guessed_word(state, name)
        else:
            push_unknown(state, name, message)
    state.pos = end
    return True


# Authors' text macros follow two conventions: a wrapper around words (``\\new{…}``, ``\\red{…}``,
# ``\\snew{nearly}``: edit marks and colours) shows its words; a lower-case word (``\\ouralg``,
# ``\\nnc``, ``\\appr{}``) names the paper's method or problem, which papers set in small capitals
# (``\\textsc{NNC}``). Both are guesses: reported with the ``macros:`` line that pins or corrects them.
_WORD_MACRO = re.compile(r"[a-z]{2,8}")
_WORDS = re.compile(r"[^\W\d_]{2}")


def _guessed_wrapper(state: StateInline, name: str, argument: tuple[int, int]) -> None:
    opening = state.push("latex_style_open", "", 1)
    opening.meta = {"guesses": [guessed_problem(name, r"\text{#1}")]}
    tokenize_range(state, *argument)
    state.push("latex_style_close", "", -1)


def _guessed_word(state: StateInline, name: str) -> None:
    opening = state.push("latex_style_open", SMALLCAPS[0], 1)
    for key, value in SMALLCAPS[1]:
        opening.attrSet(key, value)
    opening.meta = {"guesses": [guessed_problem(name, f"\\textsc{{{name}}}")]}
    state.push("text", "", 0).content = name
    state.push("latex_style_close", SMALLCAPS[0], -1)


def _unknown_with_argument(state: StateInline, name: str, message: str, argument: tuple[int, int]) -> None:
    """``\\snew{nearly}``: the argument, tokenized as text, in a span that names the macro."""
    opening = state.push("latex_style_open", "span", 1)
    opening.attrSet("class", UNKNOWN_CLASS)
    opening.attrSet("title", message)
    opening.meta = {"problem": TexProblem(message, "\\" + name, codes.LATEX_UNKNOWN_MACRO, name)}
    tokenize_range(state, *argument)
    state.push("latex_style_close", "span", -1)


_BEGIN_OR_END = re.compile(r"\\(begin|end)\s*\{([^{}]*)\}")


def _environment_problem(source: str) -> str | None:
    """What is wrong with a ``\\begin{…}`` or ``\\end{…}`` (or a fused ``\\enditemize``) that reached
    text mode: the math and list environments are taken whole by their own rules, so only their other
    half is missing."""
    found = _BEGIN_OR_END.match(source)
    fused = split_fused_edge(read_command(source, 0)[0], KNOWN_ENVIRONMENTS) if found is None else None
    if found is None and fused is None:
        return None
    edge, name = found.groups() if found else (fused or ("", ""))
    if name.rstrip("*") in KNOWN_ENVIRONMENTS:
        other = "end" if edge == "begin" else "begin"
        return f"\\{edge}{{{name}}} without a matching \\{other}{{{name}}}"
    return f"unknown environment {name!r}" if edge == "begin" else f"\\end{{{name}}} of an unknown environment"


def _missing_argument(state: StateInline, silent: bool, name: str, end: int) -> bool:
    if not silent:
        push_error(state, state.src[state.pos : end], f"missing argument for \\{name}", codes.LATEX_MISSING_ARGUMENT,
                   name)
    state.pos = end
    return True
