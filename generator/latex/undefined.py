"""Undefined macros inside math, marked in place, and text inside math set as LaTeX sets it.

An author's own macro (``\\wstar``, ``\\cuF``) used to sink its whole formula: latex2mathml
passes it through as ``<mi>\\wstar</mi>`` or drops it (``\\mathb{R}`` came out as a bare R).
Like MathJax's *noundefined*, we now render the formula and mark only the macro: before
conversion, each control word latex2mathml does not know is replaced by a marker it carries
through as text; after it, the marker becomes an identifier of the macro's name
(``<mi class="tex-unknown">effdim</mi>``): no error box in the reader's sentence.
Arguments that followed the macro render as ordinary math.

The argument of ``\\text`` and friends is text mode: ``\\,`` is a thin space, ``--`` an en dash,
``\\ldots`` an ellipsis; an unknown command there is marked the same way.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from latex2mathml import commands

from generator import diagnostics as codes

from .mathnames import KNOWN
from .symbols import LETTER_SYMBOLS, SWITCHES, WORD_SYMBOLS
from .texscan import find_group_end

MARK = "\ue000"  # a private-use character: never in an abstract's math, carried through as text


def _latex2mathml_names() -> frozenset[str]:
    names = set()
    for value in vars(commands).values():
        values = (value,) if isinstance(value, str) else (
            value if isinstance(value, (list, tuple, set, frozenset, dict)) else ())
        for item in values:
            if isinstance(item, str) and item.startswith("\\") and item[1:].isalpha():
                names.add(item[1:])
    return frozenset(names)


DEFINED = KNOWN | _latex2mathml_names()
# Commands whose argument latex2mathml keeps as text (see its tokenizer).
TEXT_COMMANDS = frozenset("""text textbf textit textmd textnormal textrm textsf texttt textup mbox hbox
    emph fbox""".split())

_WORD = re.compile(r"\\([A-Za-z]+)")
UNDEFINED_MESSAGE = "undefined macro \\{}"


def mark_undefined(latex: str) -> tuple[str, tuple[str, ...]]:
    """``latex`` with each undefined control word in math mode replaced by a marker, and their names.

    Text-command arguments are skipped whole: their commands are dealt with after conversion.
    """
    latex = latex.replace(MARK, "")
    if "\\" not in latex:
        return latex, ()
    out: list[str] = []
    names: list[str] = []
    pos = 0
    for found in _WORD.finditer(latex):
        if found.start() < pos or _escaped(latex, found.start()):
            continue
        name = found.group(1)
        if name in TEXT_COMMANDS:
            brace = _skip_blanks(latex, found.end())
            if latex.startswith("{", brace):
                close = find_group_end(latex, brace)
                if close > 0:
                    out.append(latex[pos : close + 1])
                    pos = close + 1
            continue
        if name in DEFINED:
            continue
        out.append(latex[pos : found.start()])
        out.append("{\\text{" + MARK + name + "}}")
        names.append(name)
        pos = found.end()
    out.append(latex[pos:])
    return "".join(out), tuple(names)


def _escaped(latex: str, pos: int) -> bool:
    """Whether the backslash at ``pos`` is the second half of ``\\\\``."""
    slashes = 0
    while pos - slashes - 1 >= 0 and latex[pos - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def _skip_blanks(latex: str, pos: int) -> int:
    while pos < len(latex) and latex[pos] in " \t\n":
        pos += 1
    return pos


# -- after conversion -----------------------------------------------------------------

# Text-mode LaTeX inside \text{…}: spaces, escaped characters, dashes and quotes.
_TEXT_MODE = re.compile(r"\\[,;:! >]|\\[%&$#_{}]|---|--|``|''|\\([A-Za-z]+)\s?")
_TEXT_CHARS = {"\\,": "\u2009", "\\;": "\u2005", "\\:": "\u2005", "\\>": "\u2005", "\\!": "", "\\ ": " ",
               "---": "—", "--": "–", "``": "“", "''": "”"}
_TOKENS = ("mi", "mo", "mn", "mtext")


def mark_tree(root: Element) -> tuple[tuple[str, str, str], ...]:
    """Replace the markers (and unknown commands left in text) by ``merror``, and mark an empty
    numerator or denominator; return each mark's (code, message, source)."""
    found: list[str] = []
    marks: list[tuple[str, str, str]] = []
    for parent in list(root.iter()):
        if parent.tag == "mfrac" and len(parent) == 2:
            _mark_empty_parts(parent, marks)
        for index, child in enumerate(list(parent)):
            if child.tag in _TOKENS and child.text and ("\\" in child.text or MARK in child.text
                                                         or (child.tag == "mtext" and _TEXT_HINT.search(child.text))):
                replacement = _split(child, found)
                if replacement is not child:
                    replacement.tail = child.tail
                    parent[index] = replacement
    return tuple(marks) + tuple((codes.LATEX_UNKNOWN_MACRO, UNDEFINED_MESSAGE.format(name), "\\" + name)
                                for name in found)


def _mark_empty_parts(fraction: Element, marks: list[tuple[str, str, str]]) -> None:
    """``\\frac{}{n}``: an empty part is shown as a marked gap, never as nothing."""
    for index, part in enumerate(("numerator", "denominator")):
        child = fraction[index]
        if len(child) == 0 and not (child.text or "").strip():
            message = f"fraction without a {part}"
            mark = Element("merror", {"class": "tex-error", "title": message})
            gap = Element("mtext")
            gap.text = "?"
            mark.append(gap)
            fraction[index] = mark
            marks.append((codes.LATEX_MATH_MARKED, message, "\\frac{}" if index == 0 else "\\frac{…}{}"))


_TEXT_HINT = re.compile(r"--|``|''")


def _split(element: Element, found: list[str]) -> Element:
    """The element, or an ``mrow`` of text pieces and ``merror`` marks in its place."""
    text = element.text or ""
    if text.startswith(MARK) and element.tag == "mtext":
        found.append(text[1:])
        return error_mark(text[1:])
    if element.tag != "mtext":
        name = text[1:] if text.startswith("\\") and text[1:].isalpha() else None
        if name is None:
            return element
        found.append(name)
        return error_mark(name)
    pieces: list[Element] = []
    buffer: list[str] = []
    pos = 0
    for match in _TEXT_MODE.finditer(text):
        buffer.append(text[pos : match.start()])
        pos = match.end()
        token = match.group(0)
        name = match.group(1)
        if name is None:
            buffer.append(_TEXT_CHARS.get(token, token[-1]))
        elif name in WORD_SYMBOLS or name in LETTER_SYMBOLS:
            buffer.append(WORD_SYMBOLS.get(name) or LETTER_SYMBOLS[name])
            if token[-1].isspace() and name in WORD_SYMBOLS:
                buffer.append(" ")
        elif name in SWITCHES:  # \text{\em word}: a font switch MathML text cannot carry
            continue
        else:
            _flush(buffer, pieces, element)
            found.append(name)
            pieces.append(error_mark(name))
            if token[-1].isspace():
                buffer.append(" ")
    buffer.append(text[pos:])
    if not pieces:
        element.text = "".join(buffer)
        return element
    _flush(buffer, pieces, element)
    row = Element("mrow")
    row.extend(pieces)
    return row


def _flush(buffer: list[str], pieces: list[Element], like: Element) -> None:
    text = "".join(buffer)
    buffer.clear()
    if text:
        piece = Element("mtext", dict(like.attrib))
        piece.text = text
        pieces.append(piece)


UNKNOWN_CLASS = "tex-unknown"


def error_mark(name: str) -> Element:
    """An undefined macro as an identifier of its own name (``\\effdim`` → effdim), upright as a
    multi-letter name is; its class and title say what it is (a reader's tooltip, a count)."""
    mark = Element("mi", {"mathvariant": "normal", "class": UNKNOWN_CLASS, "title": UNDEFINED_MESSAGE.format(name)})
    mark.text = name
    return mark
