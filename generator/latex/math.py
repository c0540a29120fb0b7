"""Math in abstracts: markdown-it rules for ``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``
and the ``\\begin{equation}``-style environments that get pasted into abstracts.

The inline rules only find the spans; they sit before ``escape`` in the chain,
so ``$a*b*c$`` and ``$x_1$`` never reach the emphasis or escape rules. A core
rule then expands the config macros and converts each span to MathML once, so
the HTML and plain-text renderings share the result.

Dollars follow pandoc's rule, which is what keeps prices out of math: the
opening ``$`` must be followed by a non-space, and the first unescaped ``$``
after it must be preceded by a non-space and not followed by a digit, or the
``$`` is just a dollar sign. LaTeX itself is laxer, and real abstracts rely on
it (``$ x \\in S $``, ``p$<$0.05``), so a span that breaks pandoc's rule is
still math when it reads as math and not as prose between two prices.

Config macros and the built-in author macros (builtins.py) are expanded in
every span; config macros win. A name that nothing defines but that follows an authors'
convention (``\\fhat``) is expanded by its guessed meaning (guesses.py), and the guess is
listed on the token (``meta["guesses"]``) to be reported.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from generator import diagnostics as codes

from .builtins import MATH_MACROS
from .guesses import guess_macros, guessed_problem
from .macros import MacroError, expand
from .mathml import MathResult, to_mathml
from .model import MacroDef, TexProblem
from .problems import mark_error
from .repair import repair_math
from .texscan import find_unescaped

MATH_TYPES = ("math_inline", "math_display")

# Each renderer caches conversions: abstracts repeat `$k$` and `$\epsilon$` a lot.
_CACHE_SIZE = 4096


def math_plugin(md: MarkdownIt, macros: Mapping[str, MacroDef] | None = None) -> None:
    """Install the math rules; ``macros`` are expanded inside every span."""
    md.inline.ruler.before("escape", "math_dollar", dollar_math)
    md.inline.ruler.before("escape", "math_bracket", bracket_math)
    md.inline.ruler.before("escape", "math_environment", environment_math)
    convert = functools.lru_cache(maxsize=_CACHE_SIZE)(
        functools.partial(convert_math, macros={**MATH_MACROS, **(macros or {})}))
    md.core.ruler.after("inline", "math_convert", make_convert_rule(convert))
    md.add_render_rule("math_inline", render_math)
    md.add_render_rule("math_display", render_math)


# -- inline rules -------------------------------------------------------------

def dollar_math(state: StateInline, silent: bool) -> bool:
    src, pos, end = state.src, state.pos, state.posMax
    if src[pos] != "$":
        return False
    if src.startswith("$$", pos) and pos + 2 <= end:
        return _display_dollars(state, silent)
    start = pos + 1
    if start >= end:
        return False
    close = closes_math(src, start, end, functools.partial(find_closer, state))
    if close < 0:
        return False
    if not silent:
        _push_math(state, "math_inline", src[start:close], "$", "$")
    state.pos = close + 1
    return True


_TEX_MARKER = re.compile(r"\\[A-Za-z]|[\^_{}]")
_COMMAND_OR_BRACE = re.compile(r"\\[A-Za-z]+|[{}]")
_PROSE = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}")


def closes_math(src: str, start: int, end: int,
                find: Callable[[str, int, int], int] | None = None) -> int:
    """Position of the ``$`` closing inline math opened before ``start``, or -1."""
    close = find("$", start, end) if find else find_unescaped(src, "$", start, end)
    if close < 0:
        return -1
    # Only the first dollar may close (pandoc); if it cannot, there is no math.
    content = src[start:close]
    if not content or content.isspace():
        return -1
    if (content[0].isspace() or content[-1].isspace()) and not _reads_as_math(content):
        return -1
    after = src[close + 1] if close + 1 < end else ""
    if after.isdigit() and (content[0].isdigit() or any(char.isspace() for char in content)):
        return -1  # "$5 and $10": the second dollar opens a price; "p$<$0.05" is fine
    return close


def _reads_as_math(content: str) -> bool:
    """TeX markup and no run of words: ``$ \\mathcal{S} \\in \\mathbb{R}^p $``, not ``$5 and $``."""
    return bool(_TEX_MARKER.search(content)) and not _PROSE.search(_COMMAND_OR_BRACE.sub("", content))


def _display_dollars(state: StateInline, silent: bool) -> bool:
    src, start = state.src, state.pos + 2
    close = find_closer(state, "$$", start, state.posMax)
    if close < 0:
        # An unclosed `$$` is two literal dollars, not an opening `$` for what follows.
        if not silent:
            state.append_pending("$$")
        state.pos = start
        return True
    if not silent:
        _push_math(state, "math_display", src[start:close], "$$", "$$")
    state.pos = close + 2
    return True


_BRACKETS = {"(": ("math_inline", "\\)"), "[": ("math_display", "\\]")}


def bracket_math(state: StateInline, silent: bool) -> bool:
    """``\\(…\\)`` inline and ``\\[…\\]`` display; unclosed ones fall through to escape."""
    src, pos = state.src, state.pos
    if src[pos] != "\\" or pos + 1 >= state.posMax or src[pos + 1] not in _BRACKETS:
        return False
    kind, closer = _BRACKETS[src[pos + 1]]
    close = find_closer(state, closer, pos + 2, state.posMax)
    if close < 0:
        return False
    if not silent:
        _push_math(state, kind, src[pos + 2 : close], src[pos : pos + 2], closer)
    state.pos = close + 2
    return True


MATH_ENVIRONMENTS = ("equation", "displaymath", "align", "gather", "multline", "eqnarray")
# With its braces, or fused by a conversion that lost them: \beginequation … \endequation.
_ENVIRONMENT = re.compile(r"\\begin(\{)?(" + "|".join(MATH_ENVIRONMENTS) + r")(\*?)(?(1)\}|(?![A-Za-z]))")
# Environments whose body is the formula; the others are tables that
# latex2mathml builds from the whole environment.
_BODY_ONLY = ("equation", "displaymath")


def environment_math(state: StateInline, silent: bool) -> bool:
    """``\\begin{equation}…\\end{equation}`` and friends, pasted into abstracts as display math."""
    src, pos = state.src, state.pos
    if not src.startswith("\\begin", pos):
        return False
    found = _ENVIRONMENT.match(src, pos)
    if not found:
        return False
    name = found.group(2) + found.group(3)
    closers = [(find_closer(state, tag, found.end(), state.posMax), tag)
               for tag in ("\\end{" + name + "}", "\\end" + name)]
    close, end_tag = min(((at, tag) for at, tag in closers if at >= 0), default=(-1, ""))
    if close < 0:
        return False
    after = close + len(end_tag)
    if not silent:
        if found.group(2) in _BODY_ONLY:
            _push_math(state, "math_display", src[found.end() : close], found.group(0), end_tag)
        else:
            _push_math(state, "math_display", _braced_edges(src[pos:after], found, end_tag, name), "", "")
    state.pos = after
    return True


def _braced_edges(source: str, begin: re.Match[str], end_tag: str, name: str) -> str:
    """The environment as latex2mathml reads it: ``\\beginalign … \\endalign`` with its braces back."""
    if begin.group(1) and end_tag.startswith("\\end{"):
        return source
    body = source[begin.end() - begin.start() : len(source) - len(end_tag)]
    return f"\\begin{{{name}}}{body}\\end{{{name}}}"


_CLOSERS_KEY = "math_closers"


def find_closer(state: StateInline, needle: str, start: int, end: int) -> int:
    """``find_unescaped`` for closing delimiters, remembered per paragraph.

    Text with many openers and no closer (``$$ a $$ b``… cut short, ``\\( \\( \\(``) would
    otherwise search to its end once per opener: the next closer after a position is
    still the next one after any later position before it.
    """
    memo = state.env.setdefault(_CLOSERS_KEY, {})
    known = memo.get(needle)
    if known is not None and known[0] is state.src and known[1] <= start and (known[2] < 0 or known[2] >= start):
        found = known[2]
    else:
        found = find_unescaped(state.src, needle, start, len(state.src))
        memo[needle] = (state.src, start, found)
    return found if 0 <= found and found + len(needle) <= end else -1


def _push_math(state: StateInline, kind: str, latex: str, opener: str, closer: str) -> Token:
    token = state.push(kind, "math", 0)
    token.content = latex
    token.markup = opener
    token.meta = {"source": opener + latex + closer}
    return token


def push_macro_math(state: StateInline, source: str) -> Token:
    """Inline math for LaTeX found in running text: a config macro, or math that lost its dollars."""
    token = state.push("math_inline", "math", 0)
    token.content = source
    token.meta = {"source": source}
    return token


# -- conversion (core rule) ---------------------------------------------------

Guesses = tuple[tuple[str, str], ...]  # (name, body) of each macro guessed in a formula


def convert_math(latex: str, display: str, macros: Mapping[str, MacroDef]) -> tuple[MathResult, str, Guesses]:
    """Repair fused names, guess conventional macros, expand macros, then convert; returns the result,
    the expanded LaTeX and the guesses.

    A guess that breaks its formula (``\\effdim_{\\alpha}``: d_{eff}, then a second subscript) is
    dropped: the formula renders without it, the macro shown as its name and reported as undefined.
    A formula TeX itself refuses for a double script (``x_1_2``) renders with the scripts apart.
    """
    repaired = repair_math(latex, macros)
    guessed = guess_macros(repaired, macros)
    attempts = [({**macros, **guessed}, tuple((name, m.body) for name, m in guessed.items()))] if guessed else []
    result, expanded = MathResult(error="no conversion"), latex
    for definitions, guesses in [*attempts, (macros, ())]:
        try:
            expanded = expand(repaired, definitions)
        except MacroError as exc:
            result, expanded = MathResult(error=str(exc)), latex
            continue
        result = _convert(expanded, display, latex)
        if not result.error:
            return result, expanded, guesses
    return result, expanded, ()


def _convert(expanded: str, display: str, source: str) -> MathResult:
    result = to_mathml(expanded, display)
    if result.error in _DOUBLE_SCRIPTS:
        # TeX refuses x_1_2; a reader is better served by x₁ followed by ₂ than by the source.
        separated = to_mathml(_SCRIPT.sub(r"{}\1", expanded), display)
        if not separated.error:
            marked = (codes.LATEX_MATH_MARKED, result.error, source)
            return MathResult(separated.mathml, marks=separated.marks + (marked,))
    return result


_DOUBLE_SCRIPTS = ("double subscript", "double superscript")
_SCRIPT = re.compile(r"(?<![\\{\s])([_^])")  # a script after its base (not \_ nor one that opens a group)


# latex2mathml takes some 25–60 µs per character of math, and more for long formulas: the
# limits keep any abstract's math to about a second. The budget counts distinct formulas
# (a repeated one is converted once); real abstracts stay far below both (NeurIPS 2010–2018
# and ICLR 2020: formulas up to 180 characters, 515 characters of math in one abstract).
MAX_FORMULA = 2_000
MATH_BUDGET = 20_000


def make_convert_rule(convert: Callable[[str, str], tuple[MathResult, str, Guesses]]) -> Callable[[StateCore], None]:
    def math_convert(state: StateCore) -> None:
        budget = MATH_BUDGET
        seen: set[tuple[str, str]] = set()
        for block in state.tokens:
            for token in block.children or ():
                if token.type not in MATH_TYPES:
                    continue
                if (token.type, token.content) not in seen:
                    seen.add((token.type, token.content))
                    budget -= len(token.content)
                if len(token.content) > MAX_FORMULA:
                    mark_error(token, token.meta["source"],
                               f"formula too long ({len(token.content):,} characters); shown as written",
                               codes.LATEX_TOO_MUCH)
                elif budget < 0:
                    mark_error(token, token.meta["source"], "too much math in one abstract; shown as written",
                               codes.LATEX_TOO_MUCH)
                else:
                    _convert_token(token, convert)

    return math_convert


def _convert_token(token: Token, convert: Callable[[str, str], tuple[MathResult, str, Guesses]]) -> None:
    display = "block" if token.type == "math_display" else "inline"
    result, expanded, guessed = convert(token.content, display)
    if result.error:
        mark_error(token, token.meta["source"], result.error, result.code, result.subject)
        return
    token.meta["mathml"] = result.mathml
    token.meta["latex"] = _plain_source(expanded, result.marks)
    if result.marks:
        token.meta["problems"] = [TexProblem(message, source, code, _macro(code, source))
                                  for code, message, source in result.marks]
    if guessed:
        token.meta["guesses"] = [guessed_problem(name, body) for name, body in guessed]


def _macro(code: str, source: str) -> str:
    """The name of the undefined macro a mark is about (its source is ``\\name``), else ""."""
    return source[1:] if code == codes.LATEX_UNKNOWN_MACRO else ""


def _plain_source(latex: str, marks: tuple[tuple[str, str, str], ...]) -> str:
    """The LaTeX the plain text is made from: an undefined macro is its name, as on the page (pylatexenc
    would drop it)."""
    undefined = {source[1:] for code, _message, source in marks if code == codes.LATEX_UNKNOWN_MACRO}
    if not undefined:
        return latex
    names = "|".join(sorted(undefined, key=len, reverse=True))
    return re.sub(r"\\(" + names + r")(?![A-Za-z])", r"\\mathrm{\1}", latex)


# An inline formula showing more characters than this may be wider than a phone's column (about
# 36 characters of math at 390 px): it goes in a box that scrolls sideways on its own (style.css
# .math-wide). Shorter ones stay plain inline math, on the text's baseline.
WIDE_INLINE = 24
_TAG = re.compile(r"<[^>]*>")


def render_math(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:  # markdown-it's rule
    token = tokens[idx]
    mathml: str = token.meta["mathml"]
    if token.type == "math_inline" and len(html.unescape(_TAG.sub("", mathml))) > WIDE_INLINE:
        return f'<span class="math-wide">{mathml}</span>'
    return mathml
