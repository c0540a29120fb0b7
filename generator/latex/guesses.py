"""Authors' conventional macros, guessed from their names when nothing defines them.

Abstracts lose their preamble, and many of the macros left undefined follow naming
conventions the literature shares: ``\\vx`` is a bold vector x, ``\\fhat`` is f̂, ``\\wstar``
is w*, ``\\cuF`` a calligraphic F. Such a name is rendered by its convention instead of being
marked as undefined, but it is a guess: every guess is reported (``RenderedAbstract.guesses``)
with the ``macros:`` line that pins or corrects it. A config macro always wins over a guess,
and so do the built-in macros (builtins.py) and every command latex2mathml knows.

The conventions, tried in this order on a name (x a letter or a Greek letter's name):

- a few names of their own: ``\\spn`` (span), ``\\hyp`` (a hypothesis class ℋ), ``\\e`` (ε);
- ``\\v<x>``: bold, as ``\\b<x>`` (built in) is;
- ``\\<x>hat``, ``\\<x>bar``, ``\\<x>tilde``, ``\\<x>dot``: the accent; ``\\<x>star``: x*;
  ``\\<x>prime``: x′;
- ``\\cu<X>`` (a capital): calligraphic, as ``\\c<X>`` (built in) is;
- ``\\d<in|out|eff|…>`` and ``\\<word>dim`` (``\\effdim``): a dimension, d with the word as subscript;
- a lone capital, ``\\X``: calligraphic (a space or a class: 𝒳, 𝒜).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .model import MacroDef, TexProblem
from .repair import GREEK
from .undefined import DEFINED

GUESSED_MESSAGE = "guessed \\{name} as {body}"
# Words that follow d in a dimension's name: \din, \dout, \deff, \dhid.
_DIMENSIONS = frozenset("in out eff hid hidden model emb latent obs act".split())
_NAMED = {
    "spn": r"\operatorname{span}", "hyp": r"\mathcal{H}", "e": r"\epsilon",
}
_ACCENTS = {"hat": r"\hat{{{0}}}", "bar": r"\bar{{{0}}}", "tilde": r"\tilde{{{0}}}", "dot": r"\dot{{{0}}}",
            "star": r"{{{0}}}^{{\star}}", "prime": r"{{{0}}}'"}
_ACCENTED = re.compile(r"([A-Za-z]+?)(" + "|".join(_ACCENTS) + r")$")
_WORD_DIMENSION = re.compile(r"([a-z]{2,4})dim$")
_CONTROL_WORD = re.compile(r"(?<!\\)(?:\\\\)*\\([A-Za-z]+)")


def guess(name: str) -> str | None:
    """The LaTeX an undefined ``\\name`` conventionally stands for, or None."""
    if name in _NAMED:
        return _NAMED[name]
    if name.startswith("v") and _base(name[1:]):
        base = _base(name[1:])
        return f"\\boldsymbol{{{base}}}" if base.startswith("\\") else f"\\mathbf{{{base}}}"
    accented = _ACCENTED.match(name)
    if accented and _base(accented.group(1)):
        return _ACCENTS[accented.group(2)].format(_base(accented.group(1)))
    if len(name) == 3 and name.startswith("cu") and name[2].isupper():
        return f"\\mathcal{{{name[2]}}}"
    dimension = name[1:] if name.startswith("d") and name[1:] in _DIMENSIONS else None
    word = _WORD_DIMENSION.match(name)
    if dimension or word:
        return f"d_{{\\mathrm{{{dimension or word.group(1)}}}}}"
    if len(name) == 1 and name.isupper():
        return f"\\mathcal{{{name}}}"
    return None


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
        body = guess(name)
        if body is not None:
            found[name] = MacroDef(body)
    return found


def pin_line(name: str, body: str) -> str:
    """The ``macros:`` line that pins a guess: ``fhat: '\\hat{f}'`` (YAML single quotes keep backslashes)."""
    quoted = body.replace("'", "''")
    return f"{name}: '{quoted}'"


def advice(problem: TexProblem) -> str:
    """What to do about a guess, for a warning: the line to add under ``macros:``."""
    name = problem.source[1:]
    body = problem.message.split(" as ", 1)[1]
    return f"to pin or correct it, add under macros: {pin_line(name, body)}"


def guessed_problem(name: str, body: str) -> TexProblem:
    """How a guess is reported: the message names the guess, the source the macro."""
    return TexProblem(GUESSED_MESSAGE.format(name=name, body=body), "\\" + name)
