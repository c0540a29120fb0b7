"""Math that lost its dollars: math commands in running text.

Lists produced by earlier conversions carry ``\\frac{a}{b}``, ``\\log n`` or
``\\epsilon`` in running text, and names whose braces were lost (``\\sqrtT``).
Where the intent is clear we render what the author meant: a run of math
commands with their arguments and scripts becomes inline math (a fused name
counts, see repair.py). A ``$`` right after the run that opens no math is the
run's own closing dollar, whose opening was lost. Anything else stays an
undefined macro.
"""

from __future__ import annotations

import re

from markdown_it.rules_inline import StateInline

from generator import diagnostics as codes

from .builtins import MATH_MACROS
from .math import closes_math, push_macro_math
from .mathnames import DELIMITED, FUNCTIONS, arity, is_math_command
from .problems import push_error
from .repair import unfuse
from .texscan import read_argument, read_command

# A run of math that lost its dollars is a formula, not a page: scanning at most this far keeps
# text full of unclosed \\left( or \\sqrt{ linear.
MAX_RUN = 300
_LEFT_RIGHT = re.compile(r"\\m?(left|right)(?![A-Za-z])")  # mleftright's \mleft is a \left


def math_run(state: StateInline, silent: bool, name: str, end: int) -> bool:
    """Text-mode handler: a math command (or built-in math macro) starts inline math."""
    if _arguments(name, state.src[end : end + 1]) is None:
        return False
    stop = scan_run(state.src, state.pos, min(state.posMax, state.pos + MAX_RUN))
    if stop < 0:
        if not silent:
            message = ("\\left without a matching \\right" if name == "left"
                       else f"missing argument for \\{name}")
            push_error(state, state.src[state.pos : end], message, codes.LATEX_MISSING_ARGUMENT, name)
        state.pos = end
        return True
    if not silent:
        push_macro_math(state, state.src[state.pos : stop])
    if state.src.startswith("$", stop) and closes_math(state.src, stop + 1, state.posMax) < 0:
        stop += 1
    state.pos = stop
    return True


def _arguments(name: str, following: str) -> int | None:
    """How many arguments a math name takes in text, or None if it is no math name.
    ``following`` is the character after the name (see ``repair.unfuse``)."""
    if is_math_command(name):
        return arity(name)
    if name in MATH_MACROS:
        return MATH_MACROS[name].nargs
    return 0 if unfuse(name, MATH_MACROS, following) else None


def scan_run(src: str, pos: int, limit: int) -> int:
    """End of the run of math items starting at ``pos``, or -1 if the first is incomplete."""
    end = _item(src, pos, limit)
    while end >= 0:
        following = end
        while following < limit and src[following] == " ":
            following += 1
        if following >= limit or src[following] != "\\":
            break
        name, after = read_command(src, following)
        if _arguments(name, src[after : after + 1]) is None:
            break
        after = _item(src, following, limit)
        if after < 0:
            break
        end = after
    return end


def _item(src: str, pos: int, limit: int) -> int:
    """A command with its arguments and scripts (``\\frac{a}{b}``, ``\\epsilon^{2}``), or -1."""
    name, end = read_command(src, pos)
    count = _arguments(name, src[end : end + 1])
    if count is None:
        return -1
    if name in ("left", "mleft"):
        end = _matching_right(src, end, limit)
        name = "right"
    if name in DELIMITED:
        found = read_argument(src, end, limit) if end >= 0 else None
        end = found[1] if found and found[0] not in "{}" else -1
    else:
        if name == "sqrt" and src.startswith("[", end):
            close = src.find("]", end, limit)
            end = close + 1 if close > 0 else -1
        for _ in range(count if end >= 0 else 0):
            found = read_argument(src, end, limit)
            end = found[1] if found else -1
            if end < 0:
                break
    if end < 0 or "$" in src[pos:end]:
        return -1
    end = _scripts(src, end, limit)
    return _operand(src, end, limit) if name in FUNCTIONS else end


def _matching_right(src: str, pos: int, limit: int) -> int:
    """Position just after the ``\\right`` that closes the ``\\left`` before ``pos``."""
    if src.find("right", pos, limit) < 0:
        return -1  # the common case of a lost \right, found without walking every \left
    depth = 1
    for match in _LEFT_RIGHT.finditer(src, pos, limit):
        depth += 1 if match.group(1) == "left" else -1
        if depth == 0:
            return match.end()
    return -1


def _scripts(src: str, end: int, limit: int) -> int:
    """Subscripts, superscripts and primes after an item."""
    while end < limit and src[end] in "^_'":
        if src[end] == "'":
            end += 1
            continue
        if src.startswith("\\", end + 1):
            after = _item(src, end + 1, limit)
        else:
            found = read_argument(src, end + 1, limit)
            after = found[1] if found else -1
        if after < 0:
            break
        end = after
    return end


def _operand(src: str, end: int, limit: int) -> int:
    """The operand of a function: ``\\log n``, ``\\log(1/\\epsilon)``."""
    start = end + 1 if src.startswith(" ", end) else end
    if start >= limit:
        return end
    if src[start] == "(":
        close = _matching_paren(src, start, limit)
        return close + 1 if close > 0 else end
    after = start + 1
    if src[start].isalnum() and (after >= limit or not src[after].isalnum()):
        return after
    return end


def _matching_paren(src: str, pos: int, limit: int) -> int:
    depth = 0
    for index in range(pos, min(limit, pos + 200)):
        char = src[index]
        if char in "$\n":
            return -1
        depth += (char == "(") - (char == ")")
        if depth == 0:
            return index
    return -1
