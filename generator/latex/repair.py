"""Repairs to damaged math source, before it is expanded and converted.

Names fused with an argument whose braces were lost (``\\sqrtT``,
``\\mathbbR``, ``\\emphclassification``) are split at the known command they
start with; a backslash typed as ``¥`` (a Japanese code page's backslash) is
restored. Only clear cases are repaired: anything else stays as it is and is
reported as an undefined macro.

PMLR's conversion lost more braces, and the same rules take them generally:

- a word font fused with a word takes the word (``\\mathrmpoly`` → ``\\mathrm{poly}``,
  ``\\textnnz`` → ``\\text{nnz}``), unless a brace follows (``\\textcolor{red}`` is a command
  of its own) or the name is a textcomp symbol (``\\texttimes``);
- an operator fused with a capital, a Greek letter, another operator or a macro is the operator
  applied to it (``\\logN`` → ``\\log N``, ``\\logdet`` → ``\\log \\det``); a lower-case letter
  only after ``log``, ``ln``, ``lg``, ``exp`` (``\\logn``), since ``\\sinc``, ``\\info``, ``\\kern`` or
  ``\\mini`` are names of their own;
- an environment edge fused with an environment latex2mathml knows (``\\beginpmatrix``) gets
  its braces back (lists and math environments in text: structure.py, math.py).

A name that is a known command or a macro (the config's or a built-in) is never split.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .mathnames import FUNCTIONS, arity, is_math_command
from .model import MacroDef
from .undefined import DEFINED

# Commands whose lost braces we restore: \sqrtT → \sqrt{T}, \mathbbR → \mathbb{R}.
FUSABLE_MATH = sorted("""sqrt mathbb mathcal mathbf mathrm mathsf mathfrak mathit boldsymbol
    hat tilde bar widetilde widehat vec dot ddot overline check""".split(), key=len, reverse=True)
# Text styles whose argument is a word: \emphclassification → \emph{classification}.
FUSABLE_TEXT = sorted("emph textbf textit texttt textsc underline".split(), key=len, reverse=True)
# Fonts whose argument is often a word: \mathrmpoly → \mathrm{poly} (the others take a letter).
WORD_FONTS = sorted("""mathrm mathbf mathsf mathtt mathit text textrm textbf textit textsf texttt
    operatorname""".split(), key=len, reverse=True)
# textcomp's symbols: \texttimes is ×, not "times" in a text font.
TEXTCOMP = frozenset("""textasteriskcentered textbigcircle textblank textbraceleft textbraceright textcelsius
    textcent textcircled textcolor textdiv textdollar textdong textestimated textexclamdown textflorin
    textfraction textheight textlangle textlbrackdbl textleftarrow textlnot textminus textmusicalnote
    textnaira textnumero textohm textonehalf textonequarter textonesuperior textordfeminine
    textordmasculine textparagraph textpm textquestiondown textrangle textrbrackdbl textrightarrow
    textsection textthreequarters textthreesuperior texttimes texttwosuperior textuparrow textvisiblespace
    textwidth textyen textquotesingle textquotedbl texttildelow textbardbl textbrokenbar textcopyleft
    textasciigrave textasciiacute textasciibreve textasciicaron textasciidieresis textasciimacron textinterrobang
    textperthousand textpertenthousand textreferencemark textsurd textborn textdied textmarried textdivorced
    textleaf textdiscount textrecipe textbaht textwon textlira textpeso textcurrency textfractionsolidus
    textdblhyphen textopenbullet textmho textpilcrow textlquill textrquill textcent textcentoldstyle
    textservicemark textdownarrow textcircledP textgravedbl textacutedbl""".split())
# Operators fused with their operand: \logN. Before a lower-case letter only those that make no word or
# primitive with it (\info, \kern, \mini, \sinc are names of their own): \logn, \expx.
_LOWER_OPERAND = frozenset(("log", "ln", "lg", "exp"))
# What an operator may be fused with besides a letter: another operator, a Greek letter, a macro.
GREEK = frozenset("""alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu
    xi pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega
    ell""".split())
OPERATORS = sorted(FUNCTIONS - {"argmax", "argmin", "ch", "sh", "th", "cth"}, key=len, reverse=True)
# Environments latex2mathml builds (_ENVIRONMENTS below adds the ones rewritten into them).
MATH_TABLES = frozenset("""matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix array cases split align
    align* substack""".split())

_WORD_OR_YEN = re.compile(r"\\([A-Za-z]+)(\*?)|¥(?=[A-Za-z])")  # the star of a fused \beginalign*
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


def split_fused_word(name: str, following: str = "") -> tuple[str, str] | None:
    """``mathrmpoly`` → (``mathrm``, ``poly``): a word font fused with a word of 3+ letters."""
    if following == "{" or name in TEXTCOMP:
        return None
    for prefix in WORD_FONTS:
        rest = name[len(prefix):]
        if name.startswith(prefix) and len(rest) >= 3 and (not is_math_command(rest) or rest in FUNCTIONS):
            return prefix, rest  # \textmax: \text{max}, as the author wrote it
    return None


def split_fused_operator(name: str, macros: Mapping[str, MacroDef]) -> tuple[str, str] | None:
    """``logN`` → (``log``, ``N``); ``logdet`` → (``log``, ``\\det``); else None."""
    for operator in OPERATORS:
        rest = name[len(operator):]
        if not name.startswith(operator) or not rest:
            continue
        if len(rest) == 1 and rest.isalpha() and (rest.isupper() or operator in _LOWER_OPERAND):
            return operator, rest
        if rest in FUNCTIONS or rest in GREEK or (rest in macros and macros[rest].nargs == 0):
            return operator, "\\" + rest
    return None


def unfuse(name: str, macros: Mapping[str, MacroDef], following: str = "") -> str | None:
    """The LaTeX a fused math name stands for (``\\sqrt{T}``, ``\\mathrm{poly}``, ``\\log N``), or None.

    ``following`` is the character after the name: ``\\sqrtdT`` leaves ``T`` after ``\\sqrt{d}``."""
    if name in macros or name in DEFINED:
        return None
    split = split_fused_math(name)
    if split is not None:
        rest = name[len(split[0]) + 1 :] if not split[1].startswith("\\") else ""
        return f"\\{split[0]}{{{split[1]}}}{rest}"
    word = split_fused_word(name, following)
    if word is not None:
        return f"\\{word[0]}{{{word[1]}}}"
    operator = split_fused_operator(name, macros)
    if operator is not None:
        return f"\\{operator[0]} {operator[1]}"
    return None


def split_fused_edge(name: str, environments: frozenset[str] = MATH_TABLES) -> tuple[str, str] | None:
    """``beginpmatrix`` → (``begin``, ``pmatrix``), ``enditemize`` → (``end``, ``itemize``) when
    the environment is one of ``environments``; else None."""
    for edge in ("begin", "end"):
        if name.startswith(edge) and name[len(edge):] in environments:
            return edge, name[len(edge):]
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
        name, star = match.groups()
        if name is None:
            return "\\"
        edge = split_fused_edge(name + star, _FUSED_EDGES) or split_fused_edge(name, _FUSED_EDGES)
        if edge is not None:
            return f"\\{edge[0]}{{{edge[1]}}}" + ("" if edge[1].endswith("*") else star)
        following = star or latex[match.end() : match.end() + 1]
        return (unfuse(name, macros, following) or f"\\{name}") + star

    latex = _WORD_OR_YEN.sub(fix, latex)
    if "_\\" in latex or "^\\" in latex:
        latex = _SCRIPT_SWITCH.sub(_script_font, latex)
    if "\\bf" in latex or "\\sf" in latex or "\\tt" in latex:
        latex = _SWITCHED_NUMBER.sub(r"\\\1 \\math\1{\2}", latex)
    return _ENVIRONMENT_EDGE.sub(_environment, latex) if "\\begin" in latex else latex


# Fused edges of the environments latex2mathml builds and of those _ENVIRONMENTS rewrites.
_FUSED_EDGES = MATH_TABLES | frozenset(_ENVIRONMENTS)


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
