"""A rendered title as data for scripts: its formulas as MathML element trees, the rest as text.

Search results are built in the browser with ``createElementNS`` and text nodes, never from
HTML strings (search.js). For a title with math, the search data carries this tree: a list of
nodes, each a string (text) or ``[tag, {attribute: value}, [children]]`` for a MathML element
of the renderer's allow-list. Other markup (``<em>``, an error span) is kept as its text.
"""

from __future__ import annotations

from html.parser import HTMLParser

from .mathml_tags import ALLOWED_ATTRS, ALLOWED_TAGS

Node = "str | list"


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: list = []
        self.stack: list[list] = [self.root]  # the children list being filled
        self.open: list[bool] = []  # per open tag: whether it made an element

    def handle_starttag(self, tag, attrs):  # noqa: ANN001 (HTMLParser signature)
        keep = tag in ALLOWED_TAGS and (tag == "math" or len(self.stack) > 1)
        self.open.append(keep)
        if keep:
            children: list = []
            kept = {name: value or "" for name, value in attrs if name in ALLOWED_ATTRS and name != "xmlns"}
            self.stack[-1].append([tag, kept, children])
            self.stack.append(children)

    def handle_endtag(self, tag):  # noqa: ANN001
        if self.open and self.open.pop():
            self.stack.pop()

    def handle_data(self, data):  # noqa: ANN001
        siblings = self.stack[-1]
        if siblings and isinstance(siblings[-1], str):
            siblings[-1] += data
        else:
            siblings.append(data)


def math_tree(html: str) -> list | None:
    """The nodes of ``html`` (a rendered title), or None when it has no formula."""
    if "<math" not in html:
        return None
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root
