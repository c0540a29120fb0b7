"""Expansion of the config's LaTeX macros inside math, before MathML conversion.

latex2mathml has its own ``\\newcommand`` support, but we expand config macros
ourselves so that the plain-text rendering (pylatexenc) sees the same expanded
source, and so that a runaway definition becomes a reported problem rather
than a crash or a hang.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .model import MacroDef
from .texscan import read_argument, read_command

# Deep enough for any sane nesting of definitions; shallow enough to stop
# ``\a -> \a`` quickly. The expansion budget stops ``\a -> \a\a`` (which stays
# shallow on each branch but doubles in size) long before it eats memory.
MAX_DEPTH = 16
MAX_EXPANSIONS = 500

_PARAM = re.compile(r"#([1-9#])")
_ENDS_IN_WORD = re.compile(r"\\[A-Za-z]+$")


class MacroError(Exception):
    """A macro could not be expanded; the message names the macro."""


class _Runaway(Exception):
    """Expansion past the depth or the budget; ``chain`` is the macros from the one the text used inwards."""

    def __init__(self, name: str):
        super().__init__(name)
        self.chain = [name]


def substitute(body: str, args: list[str]) -> str:
    """Replace ``#1``..``#9`` by the arguments and ``##`` by ``#``, as TeX does."""

    def param(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == "#":
            return "#"
        index = int(key) - 1
        return args[index] if index < len(args) else ""

    return _PARAM.sub(param, body) if "#" in body else body


def expand(latex: str, macros: Mapping[str, MacroDef]) -> str:
    """Return ``latex`` with every config macro expanded, recursively.

    Raises MacroError when a macro lacks its arguments or expands without end.
    """
    if not macros or "\\" not in latex:
        return latex
    try:
        return _expand(latex, macros, depth=0, budget=[MAX_EXPANSIONS])
    except _Runaway as runaway:  # blame the macro the text used, not the one the budget ran out in
        names = list(dict.fromkeys(runaway.chain))
        if len(names) == 1:
            raise MacroError(f"macro \\{names[0]} expands without end (does it use itself?)") from None
        shown = " → ".join(f"\\{name}" for name in names[:3]) + (f" → … → \\{names[-1]}" if len(names) > 3 else "")
        raise MacroError(f"macro \\{names[0]} expands without end, through {shown} (does one of them use "
                         "itself, or another twice at every step?)") from None


def _expand(src: str, macros: Mapping[str, MacroDef], depth: int, budget: list[int]) -> str:
    out: list[str] = []
    pos = 0
    while True:
        slash = src.find("\\", pos)
        if slash < 0:
            out.append(src[pos:])
            return "".join(out)
        out.append(src[pos:slash])
        name, pos = read_command(src, slash)
        macro = macros.get(name)
        if macro is None:
            out.append(src[slash:pos])
            continue
        args, pos = _read_args(src, pos, name, macro.nargs)
        body = _expand_one(name, macro, args, macros, depth, budget)
        out.append(body)
        # Plain token substitution, as in TeX (no added braces, so \lp -> \left(
        # still pairs with its \right). Only guard against a body ending in a
        # control word fusing with a letter that followed the arguments.
        if pos < len(src) and src[pos].isalpha() and _ENDS_IN_WORD.search(body):
            out.append(" ")


def _expand_one(name: str, macro: MacroDef, args: list[str],
                macros: Mapping[str, MacroDef], depth: int, budget: list[int]) -> str:
    budget[0] -= 1
    if depth >= MAX_DEPTH or budget[0] < 0:
        raise _Runaway(name)
    try:
        return _expand(substitute(macro.body, args), macros, depth + 1, budget)
    except _Runaway as runaway:
        runaway.chain.insert(0, name)
        raise


def _read_args(src: str, pos: int, name: str, nargs: int) -> tuple[list[str], int]:
    args = []
    for _ in range(nargs):
        found = read_argument(src, pos)
        if found is None:
            raise MacroError(f"macro \\{name} expects {nargs} argument{'s' if nargs > 1 else ''}")
        arg, pos = found
        args.append(arg)
    return args, pos
