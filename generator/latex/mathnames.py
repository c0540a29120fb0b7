"""What latex2mathml knows: the math commands and how many arguments each takes.

Used where we must recognise math without ``$``: a damaged abstract that says
``\\sqrt{T}`` in running text, or a name fused with its argument (``\\mathbbR``).
The tables come from latex2mathml itself, so they stay in step with the
converter that will render the math.
"""

from __future__ import annotations

from collections.abc import Iterable

from latex2mathml import commands
from latex2mathml.symbols_parser import SYMBOLS


def _names(*groups: Iterable[str]) -> frozenset[str]:
    """Command names without the backslash (control words only)."""
    names = set()
    for group in groups:
        for command in group:
            if command.startswith("\\") and command[1:].isalpha():
                names.add(command[1:])
    return frozenset(names)


# Commands followed by one delimiter token: \left( \bigl\{ \right.
DELIMITED = _names([commands.LEFT, commands.MIDDLE, commands.RIGHT], commands.BIG, commands.BIG_OPEN_CLOSE)

TWO_ARGUMENTS = _names(commands.COMMANDS_WITH_TWO_PARAMETERS)

ONE_ARGUMENT = _names(
    commands.COMMANDS_WITH_ONE_PARAMETER, commands.LOCAL_FONTS,
    [commands.SQRT, commands.OPERATORNAME, commands.MATHRM, commands.MATHSF, commands.MATHTT,
     commands.MATHSCR, commands.MATHSFIT, commands.MATHNORMAL, commands.TEXT, commands.MBOX],
)

# Symbols, functions, operators and font switches (\\bf): no argument. \not takes the next token,
# which the run scanner reads like any other token.
NO_ARGUMENT = _names(
    SYMBOLS, commands.FUNCTIONS, commands.LIMIT, commands.EXTENSIBLE_ARROWS, commands.GLOBAL_FONTS,
    [commands.ARGMAX, commands.ARGMIN, commands.DETERMINANT, commands.GCD, commands.LIMINF,
     commands.LIMSUP, commands.PR, commands.SUMMATION, commands.PRODUCT, commands.INTEGRAL,
     commands.NOT, commands.QUAD, commands.QQUAD, commands.INJLIM, commands.PROJLIM],
) - ONE_ARGUMENT - TWO_ARGUMENTS - DELIMITED

# Names that take the operand after them as a function does (\log n, \max(a, b)).
FUNCTIONS = _names(commands.FUNCTIONS, commands.LIMIT,
                   [commands.ARGMAX, commands.ARGMIN, commands.DETERMINANT, commands.GCD, commands.PR])

KNOWN = DELIMITED | TWO_ARGUMENTS | ONE_ARGUMENT | NO_ARGUMENT


def arity(name: str) -> int:
    """Arguments of a known math command (a delimiter counts as one)."""
    if name in TWO_ARGUMENTS:
        return 2
    return 1 if name in ONE_ARGUMENT or name in DELIMITED else 0


def is_math_command(name: str) -> bool:
    return name in KNOWN
