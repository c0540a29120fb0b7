"""Regular expressions compiled when first used, not when their module is imported.

Python compiles a character class spanning much of Unicode (the CJK ranges, "a letter that is not CJK")
slowly: the phrase finder's, the taxonomy's and the CJK helpers' patterns took a fifth of the time a
command spends importing the generator, on every run, though a warm build or ``--version`` uses few or
none of them. ``lazy(pattern)`` stands for ``re.compile(pattern)``: the pattern is compiled by the first
call of one of its methods, which then are the compiled pattern's own (no cost after the first call).
"""

from __future__ import annotations

import re
from typing import Any, cast

_METHODS = ("search", "match", "fullmatch", "findall", "finditer", "split", "sub", "subn")


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern, self.flags = pattern, flags  # read without compiling (a pattern made from another's)

    def __getattr__(self, name: str) -> Any:  # only for what the instance does not hold yet
        compiled = re.compile(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, compiled when one of its methods is first called."""
    return cast(re.Pattern[str], _LazyPattern(pattern, flags))
