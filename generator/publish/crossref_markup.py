"""A paper's title as Crossref's ``<title>`` holds it: text, the face markup it allows (``i``, ``b``, ``sub``…) and
its math as MathML (``mml:math``), made from the title's rendered HTML (latex/ writes math as MathML already).

Any other tag (a link, a span) gives its text alone. A title whose HTML does not parse as XML fragments would
(never seen: the renderer writes well-formed HTML) is given as its plain text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser

MATHML = "http://www.w3.org/1998/Math/MathML"
# HTML's inline markup → Crossref's face markup of the same meaning.
FACES = {"i": "i", "em": "i", "b": "b", "strong": "b", "sub": "sub", "sup": "sup", "u": "u", "tt": "tt", "code": "tt"}
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())


class _Builder(HTMLParser):
    """Builds the title element from the HTML: a stack of open elements; ``None`` for a tag that is unwrapped."""

    def __init__(self, root: ET.Element):
        super().__init__(convert_charrefs=True)
        self.stack: list[ET.Element | None] = [root]
        self.math = 0  # depth inside <math>

    def _parent(self) -> ET.Element:
        return next(element for element in reversed(self.stack) if element is not None)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        if tag == "math" or self.math:
            self.math += 1
            kept = {name: value or "" for name, value in attrs if name not in ("xmlns", "class", "style")}
            self.stack.append(ET.SubElement(self._parent(), f"mml:{tag}", kept))
        elif tag in FACES:
            self.stack.append(ET.SubElement(self._parent(), FACES[tag]))
        else:
            self.stack.append(None)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or len(self.stack) == 1:
            return
        self.stack.pop()
        if self.math:
            self.math -= 1

    def handle_data(self, data: str) -> None:
        parent = self._parent()
        if len(parent):
            parent[-1].tail = (parent[-1].tail or "") + data
        else:
            parent.text = (parent.text or "") + data


def title_markup(html: str, plain: str) -> ET.Element:
    """Crossref's ``title`` holding the title's text, faces and MathML (``mml:``, declared by the deposit's root)."""
    element = ET.Element("title")
    builder = _Builder(element)
    builder.feed(html)
    builder.close()
    if len(builder.stack) != 1 or not "".join(element.itertext()).strip():
        element = ET.Element("title")
        element.text = plain
    return element
