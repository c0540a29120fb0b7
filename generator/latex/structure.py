"""Structure inside a paragraph: ``itemize``/``enumerate`` lists and ``\\par``, and their HTML
twins ``<ul>``/``<ol>``/``<li>`` and ``<p>``.

Abstracts paste ``\\begin{itemize} \\item … \\end{itemize}`` into the middle of
a paragraph, where HTML cannot hold a list. So a core rule, run after the
block parse and before inline parsing, splits such a paragraph: the text
before, a ``bullet_list``/``ordered_list`` of tight items (markdown-it's own
list tokens, so the HTML renderer and the plain text need nothing new), the
text after. ``\\par`` splits a paragraph in two. Nested lists nest.

A block rule also guards the other end: markdown-it stops parsing blocks nested
``maxNesting`` deep (``- - - … x``, ``> > > … x``) and silently drops the rest of the
text, so past ``DEEP_LEVEL`` the rest is shown as written and reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from generator import diagnostics as codes

from .htmltags import ATTRIBUTES
from .model import TexProblem

# A list edge with its braces, or fused by a conversion that lost them (PMLR's \beginitemize).
_LIST = r"(?P<{0}_brace>\{{)?(?P<{0}>itemize|enumerate)(?({0}_brace)\}}|(?![A-Za-z]))"
# The HTML twins (htmltags.py): <ul> is itemize, <ol> enumerate, <li> an item, <p> and </p> a \\par.
_HTML_LIST = r"<(?P<{0}_close>/?)(?P<{0}>[uUoO][lL])" + ATTRIBUTES + ">"
_HTML_EDGE = r"<(?:/?[pP]|[lL][iI])" + ATTRIBUTES + r">|</[lL][iI]\s*>"
_SPLIT = re.compile(r"\\begin" + _LIST.format("begin") + r"|\\par(?![A-Za-z])|\\item(?![A-Za-z])|"
                    + _HTML_LIST.format("x") + "|" + _HTML_EDGE)
# Everything the splitter acts on, in one pattern: list edges, items, \par and unescaped dollars.
_EDGE = re.compile(r"\\begin" + _LIST.format("begin") + r"|\\end" + _LIST.format("end")
                   + r"|(?P<item>\\item(?![A-Za-z])(?:[ \t\n]*\[[^\]\n]{0,200}\])?|<[lL][iI]" + ATTRIBUTES + ">)"
                   r"|(?P<par>\\par(?![A-Za-z])|</?[pP]" + ATTRIBUTES + r">)|(?P<item_end></[lL][iI]\s*>)|"
                   + _HTML_LIST.format("html") + r"|(?<!\\)\$")
_KINDS = {"itemize": ("bullet_list", "ul"), "enumerate": ("ordered_list", "ol")}
_HTML_KINDS = {"ul": "itemize", "ol": "enumerate"}
# Block nesting (each list or quote adds one or two levels) past which text is shown as written;
# below markdown-it's maxNesting (20), where it would drop the text instead.
DEEP_LEVEL = 16
DEEP_MESSAGE = "lists or quotes nested too deeply; shown as written"
# LaTeX lists nested deeper than this are shown as written (LaTeX itself allows four).
MAX_LIST_DEPTH = 6
LIST_DEPTH_MESSAGE = "lists nested too deeply; shown as written"


def structure_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before("table", "deep_nesting", deep_nesting)
    md.core.ruler.before("inline", "latex_structure", split_paragraphs)


def deep_nesting(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: the rest of a container nested ``DEEP_LEVEL`` deep becomes one error span."""
    if state.level < DEEP_LEVEL:
        return False
    if silent:
        return True
    end = _container_end(state, start, end)
    source = state.getLines(start, end, state.blkIndent, False).strip()
    state.push("paragraph_open", "p", 1).map = [start, end]
    inline = state.push("inline", "", 0)
    inline.map = [start, end]
    error = Token("tex_error", "span", 0)
    error.content = source
    error.meta = {"problem": TexProblem(DEEP_MESSAGE, source, codes.LATEX_TOO_DEEP)}
    inline.children = [error]
    state.push("paragraph_close", "p", -1)
    state.line = end
    return True


def _container_end(state: StateBlock, start: int, end: int) -> int:
    """The line where the enclosing list item ends: the first line after a blank one that is
    indented less than the item (a line with no blank before it continues the paragraph)."""
    blank = False
    for line in range(start + 1, end):
        if state.isEmpty(line):
            blank = True
        elif blank and state.sCount[line] < state.blkIndent:
            return line
        else:
            blank = False
    return end


def split_paragraphs(state: StateCore) -> None:
    # (a backslash or a bracket first: substring scans in C, sooner than the pattern's search)
    if not any(token.type == "inline" and ("\\" in token.content or "<" in token.content)
               and _SPLIT.search(token.content) for token in state.tokens):
        return
    out: list[Token] = []
    tokens = state.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if (token.type == "paragraph_open" and index + 2 < len(tokens)
                and _SPLIT.search(tokens[index + 1].content)):
            text, index = _joined(tokens, index)
            out.extend(_Splitter(text, token).blocks())
        else:
            out.append(token)
            index += 1
    state.tokens = out


def _joined(tokens: list[Token], index: int) -> tuple[str, int]:
    """The text of the paragraph at ``index`` and of those after it that a list left open spans,
    and the index after the last of them."""
    parts = [tokens[index + 1].content]
    depth = _list_depth(parts[0])
    index += 3
    while depth > 0 and _is_paragraph(tokens, index, tokens[index - 3].level):
        parts.append(tokens[index + 1].content)
        depth += _list_depth(parts[-1])
        index += 3
    return "\n\n".join(parts), index


def _is_paragraph(tokens: list[Token], index: int, level: int) -> bool:
    return (index + 2 < len(tokens) and tokens[index].type == "paragraph_open" and tokens[index].level == level
            and tokens[index + 1].type == "inline")


def _list_depth(text: str) -> int:
    """How many more lists ``text`` opens than it closes."""
    depth = 0
    for edge in _EDGE.finditer(text):
        if _opens(edge):
            depth += 1
        elif edge.group("end") or edge.group("html_close"):
            depth -= 1
    return depth


class _Splitter:
    """Paragraphs and lists for one paragraph's text, in one left-to-right pass.

    A stack holds the open lists, so nesting costs nothing per level and a list
    nested past ``MAX_LIST_DEPTH`` (LaTeX itself stops at four) is shown as written
    and reported, up to its matching ``\\end``. ``\\par`` and ``\\begin`` inside
    ``$…$`` do not split; the dollar count restarts at each list edge and item,
    so one unpaired ``$`` cannot swallow the rest of a list.
    """

    def __init__(self, text: str, opening: Token):
        self.text = text
        self.out: list[Token] = []
        self.contexts = [opening]  # the paragraph opening of the current level
        self.lists: list[_OpenList] = []
        self.chunk = 0  # where the text not yet emitted starts
        self.too_deep: tuple[int, int] | None = None  # (start, depth inside) of a list shown as written

    def blocks(self) -> list[Token]:
        dollars = 0
        for edge in _EDGE.finditer(self.text):
            kind = _opens(edge)
            if self.too_deep is not None:
                self._skip(edge)
            elif edge.group() == "$":
                dollars += 1
            elif kind or edge.group("par"):
                if dollars % 2 == 0:
                    self._begin(edge, kind) if kind else self._par(edge)
                    dollars = 0
            elif edge.group("item_end"):
                if dollars % 2 == 0:
                    self._par(edge)  # the item's text ends here; the item stays open until the next
            elif self.lists:
                self._item(edge) if edge.group("item") else self._end(edge)
                dollars = 0
            elif edge.group("item") and dollars % 2 == 0:  # an \item with no list: the list is implied
                self.lists.append(_OpenList("itemize", self.contexts[-1]))
                self._item(edge)
                dollars = 0
            elif edge.group("html_close") and dollars % 2 == 0:  # a </ul> with no list open
                self._par(edge)
        if self.too_deep is not None:
            self._deep_error(len(self.text))
        self._flush(len(self.text))
        while self.lists:
            self._close()
        return self.out

    def _flush(self, stop: int) -> None:
        self.out += _paragraph(self.text[self.chunk : stop], self.contexts[-1])

    def _par(self, edge: re.Match[str]) -> None:
        self._flush(edge.start())
        self.chunk = edge.end()

    def _begin(self, edge: re.Match[str], kind: str) -> None:
        self._flush(edge.start())
        if len(self.lists) >= MAX_LIST_DEPTH:
            self.too_deep = (edge.start(), 1)
            return
        self.lists.append(_OpenList(kind, self.contexts[-1]))
        self.chunk = edge.end()

    def _item(self, edge: re.Match[str]) -> None:
        self._flush(edge.start())
        current = self.lists[-1]
        level = current.outer.level
        if current.items:
            self.out.append(_token("list_item_close", "li", -1, level + 1, current.outer))
        else:
            list_type, tag = _KINDS[current.kind]
            self.out.append(_token(f"{list_type}_open", tag, 1, level, current.outer))
            inner = _token("paragraph_open", "p", 1, level + 2, current.outer)
            inner.hidden = True  # a tight list, as markdown-it renders "- item"
            self.contexts.append(inner)
        current.items = True
        self.out.append(_token("list_item_open", "li", 1, level + 1, current.outer))
        self.chunk = edge.end()

    def _end(self, edge: re.Match[str]) -> None:
        self._flush(edge.start())
        self._close()
        self.chunk = edge.end()

    def _close(self) -> None:
        """Close the innermost list; text before its first ``\\item`` (LaTeX has none) was a paragraph."""
        current = self.lists.pop()
        if current.items:
            self.contexts.pop()
            level = current.outer.level
            list_type, tag = _KINDS[current.kind]
            self.out.append(_token("list_item_close", "li", -1, level + 1, current.outer))
            self.out.append(_token(f"{list_type}_close", tag, -1, level, current.outer))

    def _skip(self, edge: re.Match[str]) -> None:
        """Inside a list nested too deeply: find where it ends."""
        assert self.too_deep is not None
        start, depth = self.too_deep
        if _opens(edge):
            depth += 1
        elif edge.group("end") or edge.group("html_close"):
            depth -= 1
        self.too_deep = (start, depth)
        if depth == 0:
            self._deep_error(edge.end())

    def _deep_error(self, stop: int) -> None:
        assert self.too_deep is not None
        source = self.text[self.too_deep[0] : stop]
        self.too_deep = None
        self.chunk = stop
        context = self.contexts[-1]
        inline = _token("inline", "", 0, context.level + 1, context)
        inline.content = ""  # already parsed: the error token is its only child
        error = Token("tex_error", "span", 0)
        error.content = source
        error.meta = {"problem": TexProblem(LIST_DEPTH_MESSAGE, source, codes.LATEX_TOO_DEEP)}
        inline.children = [error]
        self.out += [_token("paragraph_open", "p", 1, context.level, context), inline,
                     _token("paragraph_close", "p", -1, context.level, context)]


def _opens(edge: re.Match[str]) -> str | None:
    """The kind of list ``edge`` opens (``itemize``/``enumerate``), if it opens one."""
    if edge.group("begin"):
        return edge.group("begin")
    if edge.group("html") and not edge.group("html_close"):
        return _HTML_KINDS[edge.group("html").lower()]
    return None


@dataclass
class _OpenList:
    kind: str
    outer: Token  # the paragraph opening the list sits at
    items: bool = False


def _paragraph(text: str, opening: Token) -> list[Token]:
    text = text.strip()
    if not text:
        return []
    inline = _token("inline", "", 0, opening.level + 1, opening)
    inline.content = text
    inline.children = []
    close = _token("paragraph_close", "p", -1, opening.level, opening)
    return [_token("paragraph_open", "p", 1, opening.level, opening), inline, close]


def _token(kind: str, tag: str, nesting: Literal[-1, 0, 1], level: int, like: Token) -> Token:
    token = Token(kind, tag, nesting)
    token.level = level
    token.map = like.map
    token.block = True
    token.hidden = like.hidden if kind.startswith("paragraph") else False
    return token
