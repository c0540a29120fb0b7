"""Repairs to damaged math source, before it is expanded and converted.

Names fused with an argument whose braces were lost (``\\sqrtT``,
``\\mathbbR``, ``\\emphclassification``) are split at the known command they
start with; a backslash typed as ``¥`` (a Japanese code page's backslash) is
restored. Only clear cases are repaired: anything else stays as it is and is
reported as an undefined macro.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .mathnames import arity, is_math_command
from .model import MacroDef

# Commands whose lost braces we restore: \sqrtT → \sqrt{T}, \mathbbR → \mathbb{R}.
FUSABLE_MATH = sorted("""sqrt mathbb mathcal mathbf mathrm mathsf mathfrak mathit boldsymbol
    hat tilde bar widetilde widehat vec dot ddot overline check""".split(), key=len, reverse=True)
# Text styles whose argument is a word: \emphclassification → \emph{classification}.
FUSABLE_TEXT = sorted("emph textbf textit texttt textsc underline".split(), key=len, reverse=True)

_WORD_OR_YEN = re.compile(r"\\([A-Za-z]+)|¥(?=[A-Za-z])")
# latex2mathml reads \mathrm{d} as the letter d, which browsers set in italic;
# with a space it takes the font path and keeps mathvariant="normal".
_UPRIGHT_LETTER = re.compile(r"\\mathrm\{([A-Za-z])\}")


def split_fused_math(name: str) -> tuple[str, str] | None:
    """``sqrtT`` → (``sqrt``, ``T``); ``vectheta`` → (``vec``, ``\\theta``); else None."""
    for prefix in FUSABLE_MATH:
        rest = name[len(prefix):]
        if name.startswith(prefix) and rest:
            if len(rest) == 1:
                return prefix, rest
            if is_math_command(rest) and arity(rest) == 0:
                return prefix, "\\" + rest
    return None


def split_fused_text(name: str) -> tuple[str, int] | None:
    """``emphclassification`` → (``emph``, 4): the style and where its argument starts."""
    for prefix in FUSABLE_TEXT:
        if name.startswith(prefix) and len(name) > len(prefix) + 1:
            return prefix, len(prefix)
    return None


def repair_math(latex: str, macros: Mapping[str, MacroDef]) -> str:
    """Restore fused names, and a backslash typed as ``¥`` (a Japanese code page's backslash)."""
    if "\\" not in latex and "¥" not in latex:
        return latex
    if "\\mathrm{" in latex:
        latex = _UPRIGHT_LETTER.sub(r"\\mathrm {\1}", latex)

    def fix(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return "\\"
        if name in macros or is_math_command(name):
            return match.group(0)
        split = split_fused_math(name)
        return match.group(0) if split is None else f"\\{split[0]}{{{split[1]}}}"

    return _WORD_OR_YEN.sub(fix, latex)
