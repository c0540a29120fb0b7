"""LaTeX math → safe MathML, via latex2mathml.

latex2mathml is not a sanitizer: its string output un-escapes text, so
``\\text{<script>}`` would come out as a live tag, ``\\href`` becomes an
``href`` attribute, and unknown commands silently become ``<mi>\\foo</mi>``.
So we take its element tree and serialise that ourselves, keeping only MathML
elements and a small set of presentation attributes, escaping all text, and
reporting any command it did not know. Before that, mathfix.py corrects the
tree where browsers would typeset it differently from LaTeX.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from latex2mathml.converter import Converter

from generator import diagnostics as codes

from .mathfix import polish
from .mathml_tags import ALLOWED_ATTRS, ALLOWED_TAGS
from .undefined import UNKNOWN_CLASS, mark_tree, mark_undefined

MATHML_NS = "http://www.w3.org/1998/Math/MathML"


# Only our own marks (undefined.py) carry these: an merror (latex2mathml never writes one) and an
# unknown macro's mi, whose class no converted input can give it (no \class in latex2mathml).
_MARK_ATTRS = frozenset(("class", "title"))
# latex2mathml writes characters as numeric references inside element text.
_CHAR_REF = re.compile(r"&#(x[0-9A-Fa-f]+|[0-9]+);")
_UNKNOWN_COMMAND = re.compile(r"\\[A-Za-z]+")

_EXCEPTION_MESSAGES = {
    "ExtraLeftOrMissingRightError": "\\left without a matching \\right",
    "NoAvailableTokensError": "incomplete math (a command is missing its argument)",
    "RecursionError": "math nested too deeply",
    "MissingEndError": "\\begin without a matching \\end",
    "DoubleSubscriptsError": "double subscript",
    "DoubleSuperscriptsError": "double superscript",
    "MissingSuperScriptOrSubscriptError": "^ or _ without an argument",
    "NumeratorNotFoundError": "\\frac without a numerator",
    "DenominatorNotFoundError": "\\frac without a denominator",
}


@dataclass(frozen=True)
class MathResult:
    """Either ``mathml`` (safe markup) or ``error`` (a human-readable message).

    ``marks`` are the (code, message, source) of what is marked in place in ``mathml``: undefined
    macros, an empty numerator. The formula still renders. ``code`` and ``subject``: the error's
    kind (generator/diagnostics.py) and the macro it names, if any.
    """

    mathml: str = ""
    error: str | None = None
    marks: tuple[tuple[str, str, str], ...] = ()
    code: str = codes.LATEX_MATH_ERROR
    subject: str = ""


def to_mathml(latex: str, display: str) -> MathResult:
    """Convert one math span; ``display`` is ``"inline"`` or ``"block"``."""
    if not latex.strip():
        return MathResult(f'<math xmlns="{MATHML_NS}" display="{display}"></math>')
    marked, undefined = mark_undefined(latex)
    try:
        tree = Converter(display=display).convert_to_element(marked)
    except Exception as exc:  # latex2mathml raises many kinds; none may crash a build
        name = type(exc).__name__
        return MathResult(error=_EXCEPTION_MESSAGES.get(name, f"cannot convert math ({name})"))
    polish(tree)
    marks = mark_tree(tree)
    lost = sorted(set(undefined) - {source[1:] for _code, _message, source in marks})
    unknown = _first_unknown_command(tree) or ("\\" + lost[0] if lost else None)
    if unknown:  # a mark latex2mathml did not carry through: never drop a macro silently
        return MathResult(error=f"undefined macro {unknown}", code=codes.LATEX_UNKNOWN_MACRO, subject=unknown[1:])
    return MathResult("".join(_serialise(tree)), marks=marks)


def _first_unknown_command(tree: Element) -> str | None:
    """latex2mathml passes commands it does not know through as text: find one."""
    marks = {id(child) for element in tree.iter("merror") for child in element}
    for element in tree.iter():
        if id(element) in marks:
            continue  # our own mark of an undefined macro shows its name on purpose
        for text in (element.text, element.tail):
            if text and "\\" in text:
                found = _UNKNOWN_COMMAND.search(text)
                if found:
                    return found.group(0)
    return None


def _serialise(element: Element) -> list[str]:
    out: list[str] = []
    _write(element, out)
    return out


def _write(element: Element, out: list[str]) -> None:
    tag = element.tag
    keep = tag in ALLOWED_TAGS
    if keep:
        out.append("<" + tag)
        for name, value in element.attrib.items():
            if name in ALLOWED_ATTRS or (name in _MARK_ATTRS and _is_mark(element)):
                out.append(f' {name}="{html.escape(_decode(value))}"')
        out.append(">")
    if element.text:
        out.append(html.escape(_decode(element.text), quote=False))
    for child in element:
        _write(child, out)
    if keep:
        out.append(f"</{tag}>")
    if element.tail:
        out.append(html.escape(_decode(element.tail), quote=False))


def _is_mark(element: Element) -> bool:
    return element.tag == "merror" or (element.tag == "mi" and element.get("class") == UNKNOWN_CLASS)


def _decode(text: str) -> str:
    """Turn latex2mathml's ``&#x…;`` references into characters (escaped again on output)."""
    return _CHAR_REF.sub(_char, text) if "&#" in text else text


def _char(match: re.Match[str]) -> str:
    ref = match.group(1)
    try:
        code = int(ref[1:], 16) if ref[0] == "x" else int(ref)
        if code == 0 or 0xD800 <= code <= 0xDFFF:
            raise ValueError(code)
        return chr(code)
    except (ValueError, OverflowError):
        return "\ufffd"
