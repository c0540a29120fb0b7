"""Authors' conventional macros, guessed from their names when nothing defines them.

Abstracts lose their preamble, and many of the macros left undefined follow naming
conventions the literature shares: ``\\vx`` is a bold vector x, ``\\fhat`` is f̂, ``\\wstar``
is w*, ``\\cuF`` a calligraphic F. Such a name is rendered by its convention instead of being
marked as undefined, but it is a guess: every guess is reported (``RenderedAbstract.guesses``)
with the ``macros:`` line that pins or corrects it. A config macro always wins over a guess,
and so do the built-in macros (builtins.py) and every command latex2mathml knows.

The conventions, tried in this order on a name (x a letter or a Greek letter's name):

- a few names of their own: ``\\spn`` (span), ``\\hyp`` (a hypothesis class ℋ), ``\\e`` (ε), and
  the spellings of soft-O (``\\tO``, ``\\tOO``, ``\\Otil``: Õ, and likewise Ω̃, Θ̃);
- ``\\v<x>``: bold, as ``\\b<x>`` (built in) is;
- ``\\<x>hat``, ``\\<x>bar``, ``\\<x>tilde``, ``\\<x>dot``: the accent; ``\\<x>star``: x*;
  ``\\<x>prime``: x′;
- ``\\cu<X>`` (a capital): calligraphic, as ``\\c<X>`` (built in) is;
- ``\\d<in|out|eff|…>`` and ``\\<word>dim`` (``\\effdim``): a dimension, d with the word as subscript;
- a lone capital, ``\\X``: calligraphic (a space or a class: 𝒳, 𝒜); a lone small letter, ``\\w``: bold;
- the deep-learning book's letters (``math_commands.tex``): ``\\m<X>`` a bold matrix, ``\\g<X>``
  calligraphic, ``\\s<X>`` blackboard;
- a Greek letter and a letter, ``\\kappax``: the letter as subscript (κ_x); ``\\<x>min``, ``\\<x>max``,
  ``\\<x>inf``, ``\\<x>sup`` (``\\lambdamin``, ``\\gapmin``, ``\\xmax``): the operator as subscript;
- ``\\sum<i>``, ``\\prod<i>``: the index under the operator (``\\sumt``); ``\\R<d>``: ℝ^d;
- ``\\bigo``, ``\\bigomega``, ``\\bigtheta``: O, Ω, Θ; ``\\lp``/``\\rp``: ``\\left(``/``\\right)``;
- an acronym, two capitals or more (``\\PTF``, ``\\ReLU``): the name set upright;
- a name one typing slip from a Greek letter or a font command (``\\epilon``, ``\\mathb``): that one.

With a braced argument (``\\rbr{x}``, ``\\mc{D}``): a delimiter pair (``\\rbr``, ``\\Paren``, ``\\pa``,
``\\lr``, ``\\lprp``, ``\\del`` parentheses; ``\\sbr``, ``\\brk`` brackets; ``\\cbr`` braces) or a font shorthand
(``\\mc``/``\\mcal`` calligraphic, ``\\mb``/``\\mbb`` blackboard, ``\\mbf`` bold, ``\\mrm`` upright,
``\\mf`` Fraktur); with two, an inner product (``\\inp{x}{y}`` → ⟨x, y⟩).
A guess that breaks its formula is dropped (math.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from generator import diagnostics as codes

from .model import MacroDef, TexProblem
from .repair import GREEK
from .texscan import find_group_end
from .undefined import DEFINED

GUESSED_MESSAGE = "guessed \\{name} as {body}"
# Words that follow d in a dimension's name: \din, \dout, \deff, \dhid.
_DIMENSIONS = frozenset("in out eff hid hidden model emb latent obs act".split())
_NAMED = {
    "spn": r"\operatorname{span}", "hyp": r"\mathcal{H}", "e": r"\epsilon",
    # Soft-O, the one accented letter with a dozen spellings: \tO, \tOO, \Otil, \tildeO…
    **dict.fromkeys("tO tOO Ot Otil otil tilO tildeO Otild softO".split(), r"\tilde{O}"),
    **dict.fromkeys("tOmega tilOmega Omegatil".split(), r"\tilde{\Omega}"),
    **dict.fromkeys("tTheta tilTheta Thetatil".split(), r"\tilde{\Theta}"),
}
_ACCENTS = {"hat": r"\hat{{{0}}}", "bar": r"\bar{{{0}}}", "tilde": r"\tilde{{{0}}}", "dot": r"\dot{{{0}}}",
            "star": r"{{{0}}}^{{\star}}", "prime": r"{{{0}}}'"}
_ACCENTED = re.compile(r"([A-Za-z]+?)(" + "|".join(_ACCENTS) + r")$")
_WORD_DIMENSION = re.compile(r"([a-z]{2,4})dim$")
_CONTROL_WORD = re.compile(r"(?<!\\)(?:\\\\)*\\([A-Za-z]+)")


_DELIMITERS = {
    **dict.fromkeys("rbr paren Paren parens pa prn lr lprp del".split(), (r"\left(", r"\right)")),
    **dict.fromkeys("sbr brk brack Brack bracket sqbr".split(), (r"\left[", r"\right]")),
    **dict.fromkeys("cbr brace Brace braces curly".split(), (r"\left\{", r"\right\}")),
}
_FONTS = {**dict.fromkeys(("mc", "mcal", "cal"), "mathcal"), **dict.fromkeys(("mb", "mbb", "bbm"), "mathbb"),
          **dict.fromkeys(("mbf", "bfm"), "mathbf"), "mrm": "mathrm", "mf": "mathfrak", "mfrak": "mathfrak",
          "msf": "mathsf"}
_MORE_NAMED = {"bigo": "O", "bigO": "O", "bigomega": r"\Omega", "bigOmega": r"\Omega", "bigtheta": r"\Theta",
               "bigTheta": r"\Theta", "lp": r"\left(", "rp": r"\right)"}
_LETTER_FONTS = {"m": r"\boldsymbol{{{0}}}", "g": r"\mathcal{{{0}}}", "s": r"\mathbb{{{0}}}"}
_GREEK_INDEX = re.compile(r"(" + "|".join(sorted(GREEK, key=len, reverse=True)) + r")([A-Za-z])$")
_EXTREME = re.compile(r"([A-Za-z]+?)(min|max|inf|sup)$")
_BIG_OPERATOR = re.compile(r"(sum|prod)([A-Za-z])$")
_ACRONYM = re.compile(r"[A-Z][A-Za-z]{1,7}$")
# What a slip of one letter is checked against: names long enough that one letter off is no other word.
_SLIP_TARGETS = frozenset(name for name in GREEK | {"mathbb", "mathcal", "mathbf", "mathrm", "mathsf", "mathfrak",
                                                    "operatorname", "boldsymbol"} if len(name) >= 5)


_INNER_PRODUCTS = frozenset("inp inprod iprod innerprod dotprod".split())  # \\inp{x}{y}: ⟨x, y⟩


def guess_argument(name: str, arguments: int = 1) -> str | None:
    """The LaTeX (with ``#1``…) an undefined ``\\name{…}`` followed by ``arguments`` braced groups
    conventionally stands for, or None."""
    if name in _INNER_PRODUCTS and arguments >= 2:
        return r"\langle #1, #2 \rangle"
    if name in _DELIMITERS:
        opening, closing = _DELIMITERS[name]
        return f"{opening} #1 {closing}"
    return f"\\{_FONTS[name]}{{#1}}" if name in _FONTS else None


def guess(name: str) -> str | None:
    """The LaTeX an undefined ``\\name`` conventionally stands for, or None."""
    if name in _NAMED:
        return _NAMED[name]
    return _letter_guess(name) or _word_guess(name)


def _letter_guess(name: str) -> str | None:
    if name.startswith("v") and (base := _base(name[1:])):
        return f"\\boldsymbol{{{base}}}" if base.startswith("\\") else f"\\mathbf{{{base}}}"
    accented = _ACCENTED.match(name)
    if accented and _base(accented.group(1)):
        return _ACCENTS[accented.group(2)].format(_base(accented.group(1)))
    if len(name) == 3 and name.startswith("cu") and name[2].isupper():
        return f"\\mathcal{{{name[2]}}}"
    dimension = name[1:] if name.startswith("d") and name[1:] in _DIMENSIONS else None
    word = _WORD_DIMENSION.match(name)
    if dimension or word:
        return f"d_{{\\mathrm{{{dimension or (word.group(1) if word else '')}}}}}"
    if len(name) == 1 and name.isascii() and name.isalpha():
        return f"\\mathcal{{{name}}}" if name.isupper() else f"\\mathbf{{{name}}}"
    if len(name) == 2 and name[0] in _LETTER_FONTS and name[1].isupper():
        return _LETTER_FONTS[name[0]].format(name[1])
    if len(name) == 2 and name[0] == "R" and name[1].islower():
        return f"\\mathbb{{R}}^{{{name[1]}}}"
    return None


def _word_guess(name: str) -> str | None:
    if name in _MORE_NAMED:
        return _MORE_NAMED[name]
    greek = _GREEK_INDEX.match(name)
    if greek:
        return f"\\{greek.group(1)}_{{{greek.group(2)}}}"
    extreme = _EXTREME.match(name)
    if extreme:
        word = extreme.group(1)
        base = f"\\{word}" if word in GREEK else word if len(word) == 1 else f"\\mathrm{{{word}}}"
        return f"{base}_{{\\{extreme.group(2)}}}"
    operator = _BIG_OPERATOR.match(name)
    if operator:
        return f"\\{operator.group(1)}_{{{operator.group(2)}}}"
    if _ACRONYM.match(name) and sum(char.isupper() for char in name) >= 2 and not any(g in name for g in GREEK):
        return f"\\mathrm{{{name}}}"
    slip = next((target for target in sorted(_SLIP_TARGETS) if _one_slip(name, target)), None)
    return f"\\{slip}" if slip else None


def _one_slip(name: str, target: str) -> bool:
    """Whether ``name`` is ``target`` with one letter dropped, added, changed, or two swapped."""
    if abs(len(name) - len(target)) > 1 or name == target or len(name) < 5:
        return False
    if len(name) == len(target):
        diff = [i for i, (a, b) in enumerate(zip(name, target)) if a != b]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and name[diff[0]] == target[diff[1]] and name[diff[1]] == target[diff[0]])
    short, long = sorted((name, target), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def _base(word: str) -> str | None:
    """``x`` → ``x``, ``theta`` → ``\\theta``; anything else None."""
    if len(word) == 1 and word.isascii() and word.isalpha():
        return word
    return "\\" + word if word in GREEK else None


def guess_macros(latex: str, macros: Mapping[str, MacroDef]) -> dict[str, MacroDef]:
    """A definition for each control word of ``latex`` that nothing defines and a convention explains."""
    found: dict[str, MacroDef] = {}
    if "\\" not in latex:
        return found
    for match in _CONTROL_WORD.finditer(latex):
        name = match.group(1)
        if name in found or name in macros or name in DEFINED:
            continue
        with_argument = guess_argument(name, _braced_groups(latex, match.end()))
        body = with_argument or guess(name)
        if body is not None:
            found[name] = MacroDef(body, body.count("#") if with_argument else 0)
    return found


def _braced_groups(latex: str, pos: int) -> int:
    """How many braced groups (up to two) follow ``pos`` directly."""
    count = 0
    while count < 2 and latex.startswith("{", pos):
        close = find_group_end(latex, pos)
        if close < 0:
            break
        count, pos = count + 1, close + 1
    return count


def pin_line(name: str, body: str) -> str:
    """The ``macros:`` line that pins a guess: ``fhat: '\\hat{f}'`` (YAML single quotes keep backslashes),
    ``rbr: {body: '\\left( #1 \\right)', args: 1}`` for one that takes an argument."""
    quoted = "'" + body.replace("'", "''") + "'"
    arguments = body.count("#")
    return f"{name}: {{body: {quoted}, args: {arguments}}}" if arguments else f"{name}: {quoted}"


def advice(problem: TexProblem) -> str:
    """What to do about a guess, for a warning: the line to add under ``macros:``."""
    return f"to pin or correct it, add under macros: {pin_line(problem.subject, problem.value)}"


def guessed_problem(name: str, body: str) -> TexProblem:
    """How a guess is reported: the message names the guess, the source the macro."""
    return TexProblem(GUESSED_MESSAGE.format(name=name, body=body), "\\" + name, codes.LATEX_MACRO_GUESSED, name, body)
