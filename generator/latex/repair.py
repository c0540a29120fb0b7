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
# amsmath environments latex2mathml does not know (it prints their `&` and loses their rows),
# written as ones it turns into tables: `aligned` and `alignat` align as `align*` does
# (right, left, right…), `gathered` and `multline` centre one column, `eqnarray` is r c l.
_ENVIRONMENTS = {
    "aligned": ("align*", ""), "alignat": ("align*", ""), "alignat*": ("align*", ""),
    "alignedat": ("align*", ""), "flalign": ("align*", ""), "flalign*": ("align*", ""),
    "gather": ("array", "{c}"), "gather*": ("array", "{c}"), "gathered": ("array", "{c}"),
    "multline": ("array", "{c}"), "multline*": ("array", "{c}"),
    "eqnarray": ("array", "{rcl}"), "eqnarray*": ("array", "{rcl}"), "dcases": ("cases", ""),
}
_ENVIRONMENT_EDGE = re.compile(r"\\(begin|end)\s*\{(" + "|".join(re.escape(name) for name in _ENVIRONMENTS)
                               + r")\}(\s*\{\d+\})?")
# `d_\rm TV`: a font switch as a script lost the script (latex2mathml sets an empty one). The
# author meant the word after it: d_{\mathrm{TV}}.
_SWITCH_FONTS = {"rm": "mathrm", "bf": "mathbf", "it": "mathit", "sf": "mathsf", "tt": "mathtt", "cal": "mathcal"}
_SCRIPT_SWITCH = re.compile(r"([_^])\s*\\(rm|bf|it|sf|tt|cal)(?![A-Za-z])\s*([A-Za-z0-9]+)")
# latex2mathml applies a font switch to letters only: {\bf 1} came out as a plain 1.
_SWITCHED_NUMBER = re.compile(r"\\(bf|sf|tt)(?![A-Za-z])\s*(\d+(?:\.\d+)?)")
# latex2mathml reads \mathrm{d} as the letter d, which browsers set in italic;
# with a space it takes the font path and keeps mathvariant="normal".
_UPRIGHT_LETTER = re.compile(r"\\mathrm\{([A-Za-z])\}")


def split_fused_math(name: str) -> tuple[str, str] | None:
    """``sqrtT`` → (``sqrt``, ``T``); ``vectheta`` → (``vec``, ``\\theta``); else None.

    Two letters are one argument and a letter after it, as TeX reads ``\\sqrt dT``: ``sqrtdT`` →
    (``sqrt``, ``d``) and the ``T`` stays where it was (see ``repair_math``).
    """
    for prefix in FUSABLE_MATH:
        rest = name[len(prefix):]
        if name.startswith(prefix) and rest:
            if len(rest) <= 2:
                return prefix, rest[0]
            if is_math_command(rest) and arity(rest) == 0:
                return prefix, "\\" + rest
    return None


def split_fused_text(name: str) -> tuple[str, int] | None:
    """``emphclassification`` → (``emph``, 4): the style and where its argument starts.
    A one-letter argument counts too: PMLR's ``\\emphO(√\\emphn)``."""
    for prefix in FUSABLE_TEXT:
        if name.startswith(prefix) and len(name) > len(prefix):
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
        if split is None:
            return match.group(0)
        rest = name[len(split[0]) + 1 :] if not split[1].startswith("\\") else ""
        return f"\\{split[0]}{{{split[1]}}}{rest}"

    latex = _WORD_OR_YEN.sub(fix, latex)
    if "_\\" in latex or "^\\" in latex:
        latex = _SCRIPT_SWITCH.sub(_script_font, latex)
    if "\\bf" in latex or "\\sf" in latex or "\\tt" in latex:
        latex = _SWITCHED_NUMBER.sub(r"\\\1 \\math\1{\2}", latex)
    return _ENVIRONMENT_EDGE.sub(_environment, latex) if "\\begin" in latex else latex


def _script_font(found: re.Match[str]) -> str:
    script, switch, word = found.groups()
    return f"{script}{{\\{_SWITCH_FONTS[switch]}{{{word}}}}}"


def _environment(edge: re.Match[str]) -> str:
    kind, name, count = edge.groups()
    target, columns = _ENVIRONMENTS[name]
    if kind == "end":
        return f"\\end{{{target}}}" + (count or "")
    if count and not name.startswith("align"):  # only alignat takes a column count
        columns += count
    return f"\\begin{{{target}}}{columns}"
