"""The HTML an abstract may carry: a small safe subset rendered, everything else shown as text.

Venues paste HTML into abstracts (PMLR's ``<em>``, ``<ul><li><b>``). markdown-it's own
``html_inline`` rule finds each tag; this core rule then decides what it becomes:

- ``em i b strong sub sup code`` open and close around their text, without attributes, balanced
  within their paragraph: a tag left open is closed at the paragraph's end, a stray closing tag
  is dropped, an opening tag of a kind already open (``<em>mixed<em> reward``) closes it, and tags
  closed out of order (``<b><i>x</b>y</i>``) are closed and reopened as a browser would;
- ``br`` is a line break;
- ``p ul ol li`` are block structure: structure.py turns them into paragraphs and lists before
  this rule runs; one left in running text is a space;
- every other tag, a comment, a declaration, is text: ``<script>`` shows as ``<script>``.

Nothing from the tag itself reaches the page but its name: attributes are never copied. The
abstract's HTML then goes through nh3 (renderer.py) as a second, independent gate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

INLINE_TAGS = frozenset("em i b strong sub sup code".split())
BLOCK_TAGS = frozenset("p ul ol li".split())
ALLOWED = INLINE_TAGS | BLOCK_TAGS | {"br"}
HTML_KEY = "html_tags"  # set in env when an abstract kept a tag: its HTML then passes nh3

# Attributes as HTML writes them, each with a value. A tag with a bare word in it is prose:
# "a<b and c>d" is not bold.
ATTRIBUTES = r"""(?:\s+[A-Za-z_:][-\w:.]*\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))*\s*"""
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)" + ATTRIBUTES + r"(/?)>\Z")


def html_plugin(md: MarkdownIt) -> None:
    md.core.ruler.after("inline", "html_tags", html_tags)
    md.add_render_rule("html_tag", render_tag)


def render_tag(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:  # markdown-it's rule
    token = tokens[idx]
    return f"</{token.tag}>" if token.nesting < 0 else f"<{token.tag}>"


def parse_tag(source: str) -> tuple[str, bool] | None:
    """(name, closing) of an allowed tag, or None for anything else."""
    found = _TAG.match(source)
    if found is None or found.group(2).lower() not in ALLOWED:
        return None
    return found.group(2).lower(), bool(found.group(1))


def html_tags(state: StateCore) -> None:
    for block in state.tokens:
        if block.type == "inline" and block.children and any(t.type == "html_inline" for t in block.children):
            block.children = _Balancer().run(block.children)
            if any(token.type == "html_tag" for token in block.children):
                state.env[HTML_KEY] = True


class _Balancer:
    """One paragraph's tokens with its HTML tags made text, breaks, or balanced open/close pairs."""

    def __init__(self) -> None:
        self.out: list[Token] = []
        self.open: list[str] = []  # the inline tags open now, innermost last

    def run(self, children: list[Token]) -> list[Token]:
        for token in children:
            if token.type != "html_inline":
                self.out.append(token)
                continue
            tag = parse_tag(token.content)
            if tag is None:
                self._text(token.content)
            elif tag[0] == "br":
                self.out.append(Token("hardbreak", "br", 0))
            elif tag[0] in BLOCK_TAGS:
                self._text(" ")
            elif tag[1] or tag[0] in self.open:
                self._close(tag[0])
            else:
                self._open(tag[0])
        while self.open:
            self._emit(self.open.pop(), -1)
        while self.out and self.out[-1].type == "hardbreak":  # a <br> that ends the paragraph breaks nothing
            self.out.pop()
        return self.out

    def _text(self, content: str) -> None:
        token = Token("text", "", 0)
        token.content = content
        self.out.append(token)

    def _open(self, name: str) -> None:
        self.open.append(name)
        self._emit(name, 1)

    def _close(self, name: str) -> None:
        if name not in self.open:
            return  # a closing tag with nothing to close
        reopen: list[str] = []
        while self.open[-1] != name:
            reopen.append(self.open.pop())
            self._emit(reopen[-1], -1)
        self._emit(self.open.pop(), -1)
        for inner in reversed(reopen):
            self._open(inner)

    def _emit(self, name: str, nesting: Literal[1, -1]) -> None:
        last = self.out[-1] if self.out else None
        if nesting < 0 and last is not None and last.type == "html_tag" and last.tag == name and last.nesting > 0:
            self.out.pop()  # <b></b> holds nothing: neither is written
            return
        self.out.append(Token("html_tag", name, nesting))
