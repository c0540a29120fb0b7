"""Macros that authors define for themselves, built in.

Abstracts are cut from papers whose preamble is lost, so ``$\\eps$`` or
``$\\R^d$`` arrive without their ``\\newcommand``. These tables hold the
definitions that are near-universal in the ML and theory literature; they were
chosen by counting undefined macros in the NeurIPS 2010–2018 and ICLR 2020
abstract lists. A proceedings' config macros override them.

Math macros expand inside math (and start inline math when used in text);
text abbreviations (``\\eg``) become text. Names that mean something else in
LaTeX text mode (``\\O`` is Ø, ``\\u`` a breve) keep that meaning in text:
the text-mode tables are consulted first.
"""

from __future__ import annotations

import string

from .mathnames import is_math_command
from .model import MacroDef


def _operator(name: str) -> MacroDef:
    return MacroDef(f"\\operatorname{{{name}}}")


_BLACKBOARD = MacroDef(r"\mathbb{R}")
_BIG_O = MacroDef(r"\mathcal{O}")
_SOFT_O = MacroDef(r"\widetilde{O}")

_NAMED: dict[str, MacroDef] = {
    # epsilon and friends
    "eps": MacroDef(r"\epsilon"), "ep": MacroDef(r"\epsilon"), "veps": MacroDef(r"\varepsilon"),
    "vareps": MacroDef(r"\varepsilon"), "de": MacroDef(r"\delta"),
    # number sets and expectation
    "R": _BLACKBOARD, "RR": _BLACKBOARD, "Real": _BLACKBOARD, "Reals": _BLACKBOARD,
    "real": _BLACKBOARD, "reals": _BLACKBOARD, "bbR": _BLACKBOARD,
    "N": MacroDef(r"\mathbb{N}"), "NN": MacroDef(r"\mathbb{N}"), "Z": MacroDef(r"\mathbb{Z}"),
    "ZZ": MacroDef(r"\mathbb{Z}"), "Q": MacroDef(r"\mathbb{Q}"), "QQ": MacroDef(r"\mathbb{Q}"),
    "CC": MacroDef(r"\mathbb{C}"),
    "E": MacroDef(r"\mathbb{E}"), "EE": MacroDef(r"\mathbb{E}"), "Exp": MacroDef(r"\mathbb{E}"),
    "PP": MacroDef(r"\mathbb{P}"), "Prob": MacroDef(r"\Pr"),
    # asymptotics
    "O": _BIG_O, "order": _BIG_O, "bigO": _BIG_O,
    "Ot": _SOFT_O, "tO": _SOFT_O, "Otil": _SOFT_O, "Otilde": _SOFT_O, "otilde": _SOFT_O,
    "tlO": _SOFT_O, "softO": _SOFT_O, "tildeO": _SOFT_O,
    "Omegat": MacroDef(r"\widetilde{\Omega}"), "Thetat": MacroDef(r"\widetilde{\Theta}"),
    "poly": _operator("poly"), "polylog": _operator("polylog"),
    "OPT": MacroDef(r"\mathrm{OPT}"), "opt": MacroDef(r"\mathrm{opt}"),
    # operators
    "tr": _operator("tr"), "Tr": _operator("Tr"), "trace": _operator("trace"),
    "rank": _operator("rank"), "diag": _operator("diag"), "sign": _operator("sign"),
    "sgn": _operator("sgn"), "supp": _operator("supp"), "Var": _operator("Var"),
    "Cov": _operator("Cov"), "dist": _operator("dist"), "vol": _operator("vol"),
    "dom": _operator("dom"), "conv": _operator("conv"), "KL": _operator("KL"),
    "arg": _operator("arg"),
    # delimiters
    "norm": MacroDef(r"\lVert #1 \rVert", 1), "abs": MacroDef(r"\lvert #1 \rvert", 1),
    "set": MacroDef(r"\{ #1 \}", 1), "ceil": MacroDef(r"\lceil #1 \rceil", 1),
    "floor": MacroDef(r"\lfloor #1 \rfloor", 1), "paren": MacroDef(r"\left( #1 \right)", 1),
    "inner": MacroDef(r"\langle #1, #2 \rangle", 2), "ip": MacroDef(r"\langle #1, #2 \rangle", 2),
    # fractions, relations, fonts
    "nicefrac": MacroDef(r"{#1}/{#2}", 2), "half": MacroDef(r"\frac{1}{2}"),
    "defeq": MacroDef(r"\coloneqq"), "eqdef": MacroDef(r"\eqqcolon"),
    "independent": MacroDef("\u2aeb"), "indep": MacroDef("\u2aeb"), "iid": MacroDef(r"\text{i.i.d.}"),
    "textsc": MacroDef(r"\text{#1}", 1), "mathbbm": MacroDef(r"\mathbb{#1}", 1),
    "math": MacroDef(r"{#1}", 1),  # an old shorthand for $…$: \math{O(n)}
    "mat": MacroDef(r"\mathbf{#1}", 1), "vct": MacroDef(r"\mathbf{#1}", 1),
    "vect": MacroDef(r"\mathbf{#1}", 1), "bs": MacroDef(r"\boldsymbol{#1}", 1),
    # accents and breaks; \AC^0 is the circuit class, not latex2mathml's alternating-current sign
    "Tilde": MacroDef(r"\widetilde{#1}", 1), "wt": MacroDef(r"\widetilde{#1}", 1),
    "wh": MacroDef(r"\widehat{#1}", 1), "allowbreak": MacroDef(""),
    "AC": MacroDef(r"\mathsf{AC}"), "NC": MacroDef(r"\mathsf{NC}"), "TC": MacroDef(r"\mathsf{TC}"),
    "ACC": MacroDef(r"\mathsf{ACC}"),
    # TeX that is no author's macro: the mleftright package's delimiters, and \em (emphasis is
    # italics, which math letters already are) as math's own \it
    "mleft": MacroDef(r"\left"), "mright": MacroDef(r"\right"), "em": MacroDef(r"\it"),
    "x": MacroDef(r"\mathbf{x}"), "y": MacroDef(r"\mathbf{y}"), "u": MacroDef(r"\mathbf{u}"),
}

_GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma "
          "tau upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega").split()


def _families() -> dict[str, MacroDef]:
    """Letter families: \\cA (calligraphic), \\bx, \\xbf and \\bfx (bold), \\bbR (blackboard),
    \\vecx and \\vectheta (bold vectors), \\matA (bold matrices)."""
    table: dict[str, MacroDef] = {}
    for letter in string.ascii_uppercase:
        for name in ("c" + letter, "cal" + letter, letter + "cal"):
            table[name] = MacroDef(f"\\mathcal{{{letter}}}")
        table["bb" + letter] = MacroDef(f"\\mathbb{{{letter}}}")
        table["mat" + letter] = MacroDef(f"\\mathbf{{{letter}}}")
    for letter in string.ascii_letters:
        # \bfx: PMLR's conversion fused {\bf x} into one name
        table["b" + letter] = table[letter + "bf"] = table["bf" + letter] = MacroDef(f"\\mathbf{{{letter}}}")
        table["vec" + letter] = MacroDef(f"\\mathbf{{{letter}}}")
    for name in _GREEK:
        table["vec" + name] = table["b" + name] = MacroDef(f"\\boldsymbol{{\\{name}}}")
    return table


# A family name that is a real command (\bm, \bf, \cdot…) keeps its meaning.
MATH_MACROS: dict[str, MacroDef] = {
    **{name: macro for name, macro in _families().items() if not is_math_command(name)},
    **_NAMED,
}

# Latin abbreviations authors define as macros; in text they are just text.
TEXT_ABBREVIATIONS = {
    "eg": "e.g.", "ie": "i.e.", "etc": "etc.", "etal": "et al.", "wrt": "w.r.t.",
    "cf": "cf.", "vs": "vs.", "iid": "i.i.d.", "aka": "a.k.a.", "resp": "resp.",
}
