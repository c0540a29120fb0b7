"""Corrections to latex2mathml's element tree, so browsers typeset math as LaTeX does.

Compared in Chromium (MathML Core) with how LaTeX sets the same input:

* operators tagged as identifiers (``\\pm``, ``\\sim``, ``\\leqslant``) lose their
  spacing, and ordinary symbols tagged as operators (``\\infty``) gain some;
* ``\\cdot`` and ``*`` came out as the middle dot and the ASCII asterisk;
* capital Greek is upright in LaTeX, italic in a single-letter ``<mi>``;
* ``\\log m`` ran together as "logm": a function name needs U+2061 FUNCTION
  APPLICATION after it, and the thin spaces TeX puts around an operator name;
* ``\\max_x`` and ``\\operatorname*`` need ``movablelimits`` under-scripts to
  take their limits below in display math;
* accents need ``accent="true"`` to sit on their base, and only the wide ones
  (``\\widetilde``, ``\\widehat``) stretch;
* ``\\langle``, ``\\lfloor`` are fences; ``\\big\\{`` came out as a literal ``\\{``;
* Chromium ignores ``mathvariant`` other than "normal", so ``\\mathbf{x}`` and
  ``\\boldsymbol{\\theta}`` are written with Unicode's mathematical alphanumerics.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from xml.etree.ElementTree import Element

_CHAR_REF = re.compile(r"&#(x[0-9A-Fa-f]+|[0-9]+);")

FENCES = frozenset("⟨⟩⌊⌋⌈⌉")
OPENING = frozenset("([{⟨⌊⌈")
CLOSING = frozenset(")]}⟩⌋⌉|‖")
# Symbols LaTeX treats as ordinary (no space around them) though Unicode calls them operators.
ORDINARY = frozenset("∞∂∇∅⊤⊥¬′")
# Binary operators latex2mathml leaves as identifiers (outside U+2190–U+22FF).
EXTRA_OPERATORS = frozenset("±÷·⋅⧵•")
# Characters latex2mathml writes for a TeX symbol that has one of its own: \cdot is the dot
# operator (not the middle dot), ``*`` and \ast the asterisk operator (as KaTeX writes them).
_TEX_CHARACTERS = {"·": "⋅", "*": "∗"}
# Operator names with limits (\max_x puts x below in display math, as a subscript inline).
LIMITS = frozenset("max min lim sup inf det gcd Pr".split())
THIN = "0.1667em"

ROWS = frozenset("math mrow mstyle mtd msqrt mpadded mphantom menclose merror".split())
SCRIPTS = frozenset("msub msup msubsup munder mover munderover".split())

# The marks latex2mathml writes for \hat, \tilde, \bar, \vec, \dot, \overline and the like.
ACCENTS = frozenset("´¯˘ˇ˙¨⃛⃜`^˚~→―")

_VARIANTS = {
    "bold": "BOLD", "italic": "ITALIC", "bold-italic": "BOLD ITALIC", "double-struck": "DOUBLE-STRUCK",
    "script": "SCRIPT", "bold-script": "BOLD SCRIPT", "fraktur": "FRAKTUR", "bold-fraktur": "BOLD FRAKTUR",
    "sans-serif": "SANS-SERIF", "bold-sans-serif": "SANS-SERIF BOLD",
    "sans-serif-italic": "SANS-SERIF ITALIC", "sans-serif-bold-italic": "SANS-SERIF BOLD ITALIC",
    "monospace": "MONOSPACE",
}
# Letters that Unicode had before the mathematical block, which leaves holes for them.
_HOLES = {"SCRIPT": "SCRIPT", "DOUBLE-STRUCK": "DOUBLE-STRUCK", "FRAKTUR": "BLACK-LETTER"}


def polish(root: Element) -> None:
    """Correct the tree in place."""
    elements = list(root.iter())
    for element in elements:
        _token(element)
    for element in elements:
        if element.tag in SCRIPTS:
            _scripts(element)
    for element in elements:
        if element.tag in ROWS:
            _colon_equals(element)
            _unary_signs(element)
            _function_application(element)


def text_of(element: Element) -> str:
    """Element text with latex2mathml's ``&#x…;`` references decoded."""
    text = element.text or ""
    return _CHAR_REF.sub(_char, text) if "&#" in text else text


def _char(match: re.Match[str]) -> str:
    ref = match.group(1)
    try:
        code = int(ref[1:], 16) if ref[0] == "x" else int(ref)
        return chr(code) if code and not 0xD800 <= code <= 0xDFFF else "\ufffd"
    except (ValueError, OverflowError):
        return "\ufffd"


# -- single elements ------------------------------------------------------------------

def _token(element: Element) -> None:
    tag = element.tag
    if tag not in ("mi", "mo", "mn", "mtext"):
        return
    text = text_of(element)
    if tag == "mo" and len(text) == 2 and text[0] == "\\":
        text = "‖" if text[1] == "|" else text[1]  # \big\{ and \Big\| kept their backslash
    text = _TEX_CHARACTERS.get(text, text) if tag in ("mi", "mo") else text
    element.text = text
    if tag == "mi" and text == "~":  # \sim came out as a tilde identifier
        element.tag, element.text = "mo", "∼"
    elif text == "/" and tag == "mo":
        element.set("lspace", "0")  # TeX's solidus is ordinary: k/ε, not k / ε
        element.set("rspace", "0")
    elif len(text) == 1:
        _symbol(element, text)
    variant = element.get("mathvariant")
    if variant in _VARIANTS:
        styled = "".join(_styled(char, variant) for char in text)
        if styled != text:
            element.text = styled
            del element.attrib["mathvariant"]


def _symbol(element: Element, char: str) -> None:
    if char in FENCES:
        element.tag = "mo"
        element.set("stretchy", element.get("stretchy", "false"))
    elif element.tag == "mi" and (char in EXTRA_OPERATORS or _is_operator(char)):
        element.tag = "mo"
    elif element.tag == "mo" and char in ORDINARY and not element.attrib:
        element.tag = "mi"
        if char == "∇":
            element.set("mathvariant", "normal")
    elif element.tag == "mi" and "\u0391" <= char <= "\u03a9" and "mathvariant" not in element.attrib:
        element.set("mathvariant", "normal")  # LaTeX sets capital Greek upright


@functools.lru_cache(maxsize=512)
def _is_operator(char: str) -> bool:
    if char in ORDINARY:
        return False
    code = ord(char)
    return unicodedata.category(char) == "Sm" or 0x27F0 <= code <= 0x27FF or 0x2A00 <= code <= 0x2AFF


@functools.lru_cache(maxsize=2048)
def _styled(char: str, variant: str) -> str:
    """``x`` in ``bold`` → 𝐱 (MATHEMATICAL BOLD SMALL X); the character itself if there is none."""
    try:
        name = unicodedata.name(char)
    except ValueError:
        return char
    for prefix in ("LATIN ", "GREEK "):
        if name.startswith(prefix):
            name = name[len(prefix):].replace("LETTER ", "")
            break
    else:
        if not name.startswith("DIGIT "):
            return char
    style = _VARIANTS[variant]
    if name.startswith("DIGIT ") and "ITALIC" in style:  # digits have no italic forms: \bm{108} is bold
        style = style.replace(" ITALIC", "").replace("ITALIC", "")
        if not style:
            return char
    for candidate in (f"MATHEMATICAL {style} {name}", f"{_HOLES.get(style, '?')} {name}",
                      "PLANCK CONSTANT" if (style, name) == ("ITALIC", "SMALL H") else ""):
        try:
            return unicodedata.lookup(candidate)
        except KeyError:
            continue
    return char


# -- scripts and accents ---------------------------------------------------------------

def _scripts(element: Element) -> None:
    base = element[0] if len(element) else None
    if base is None:
        return
    if element.tag in ("mover", "munder") and len(element) == 2:
        _accent(element, element[1])
    if base.tag == "mo" and element.tag in ("msub", "msubsup") and _takes_limits(base):
        # \max_x: limits below in display math; movablelimits makes them scripts inline.
        element.tag = "munder" if element.tag == "msub" else "munderover"
        base.set("movablelimits", "true")


def _accent(element: Element, mark: Element) -> None:
    char = mark.text or ""
    if mark.tag != "mo" or char not in ACCENTS:
        return
    # Told apart by what latex2mathml sets: \hat has accent="true" and \widehat not,
    # \tilde and \widecheck set stretchy, \vec sets stretchy where \overrightarrow does not.
    stretchy = mark.get("stretchy")
    wide = ((char == "^" and "accent" not in element.attrib) or (char in "~→" and stretchy is None)
            or (char == "ˇ" and stretchy == "true") or char == "―")
    element.set("accentunder" if element.tag == "munder" else "accent", "true")
    if not wide:
        mark.set("stretchy", "false")
    elif char == "^":
        mark.text = "\u0302"  # math fonts carry the wide variants of \widehat on the combining mark


def _takes_limits(base: Element) -> bool:
    return base.get("movablelimits") == "true" or (base.text or "") in LIMITS


# -- relations and signs --------------------------------------------------------------

_COLON_PAIRS = {(":", "="): ":=", ("=", ":"): "=:"}


def _colon_equals(row: Element) -> None:
    """``:=`` is one relation (MathML's operator dictionary spaces ``:=`` as such), not a colon
    identifier followed by an equals sign."""
    index = 0
    while index + 1 < len(row):
        first, second = row[index], row[index + 1]
        pair = (first.text or "", second.text or "")
        if pair in _COLON_PAIRS and first.tag in ("mi", "mo") and second.tag in ("mi", "mo") and not first.tail:
            first.tag, first.text = "mo", _COLON_PAIRS[pair]
            first.attrib.clear()
            first.tail = second.tail
            row.remove(second)
        index += 1


_SIGNS = frozenset("−+±∓")
_NOT_BEFORE_UNARY = CLOSING | {"\u2061", "!", "′", "″"}


def _unary_signs(row: Element) -> None:
    """A minus after ``(``, ``{``, ``,`` or a relation is a sign, as in TeX: ``f(-x)``, ``\\{-1, 1\\}``,
    ``a = -b``. Browsers infer a prefix form only for the first child of a row, so say it."""
    for index in range(1, len(row)):
        sign, before = row[index], row[index - 1]
        if (sign.tag == "mo" and (sign.text or "") in _SIGNS and "form" not in sign.attrib
                and before.tag == "mo" and (before.text or "") not in _NOT_BEFORE_UNARY
                and before.get("form") != "postfix"):
            sign.set("form", "prefix")


# -- function application -------------------------------------------------------------

def _function_application(row: Element) -> None:
    """``\\log m`` → log, U+2061, a thin space, m; and a thin space before the name after an operand."""
    index = 0
    while index < len(row):
        name = _function_name(row[index])
        if name is not None:
            _as_operator_name(name)
            following = row[index + 1] if index + 1 < len(row) else None
            if following is not None and _applies_to(following):
                apply = Element("mo")
                apply.text = "\u2061"
                if not _opens(following):
                    apply.set("rspace", THIN)
                row.insert(index + 1, apply)
            if index > 0 and _ordinary(row[index - 1]):
                row.insert(index, Element("mspace", width=THIN))
                index += 1
        index += 1


def _function_name(element: Element) -> Element | None:
    """The name element of a function, alone or with scripts: ``log``, ``log_2``, ``max_x``, ``poly``."""
    if element.tag in SCRIPTS and len(element):
        element = element[0]
    text = (element.text or "").replace("\u2009", "").replace("\u2006", "")  # "arg min", "lim inf"
    if len(text) < 2 or not text.isalpha() or text == "mod":  # \bmod is a binary operator
        return None
    if element.tag == "mo" or (element.tag == "mi" and "mathvariant" not in element.attrib):
        return element
    return None


def _as_operator_name(name: Element) -> None:
    """An ``\\operatorname`` (an ``<mo>`` to latex2mathml) is an identifier; a name that takes
    limits stays an operator, with its spacing left to us."""
    if name.tag != "mo":
        return
    if _takes_limits(name):
        name.set("lspace", "0")
        name.set("rspace", "0")
    else:
        name.tag = "mi"
        name.attrib.pop("movablelimits", None)


def _applies_to(element: Element) -> bool:
    """An operand follows (not a binary operator, relation or punctuation)."""
    return element.tag != "mo" or _opens(element)


def _opens(element: Element) -> bool:
    return element.tag == "mo" and (element.text or "") in OPENING


def _ordinary(element: Element) -> bool:
    """An operand or a closing fence before a function name (TeX puts a thin space after it)."""
    if element.tag == "mo":
        return (element.text or "") in CLOSING and element.get("form") != "prefix"
    return element.tag not in ("mspace",)
