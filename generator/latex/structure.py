"""LaTeX structure inside a paragraph: ``itemize``/``enumerate`` lists and ``\\par``.

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

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .model import TexProblem

_SPLIT = re.compile(r"\\begin\{(itemize|enumerate)\}|\\par(?![A-Za-z])")
_LIST_EDGE = re.compile(r"\\(begin|end)\{(itemize|enumerate)\}")
_ITEM = re.compile(r"\\item(?![A-Za-z])(?:\s*\[[^\]]*\])?")
_DOLLAR = re.compile(r"(?<!\\)\$")
_KINDS = {"itemize": ("bullet_list", "ul"), "enumerate": ("ordered_list", "ol")}
# Block nesting (each list or quote adds one or two levels) past which text is shown as written;
# below markdown-it's maxNesting (20), where it would drop the text instead.
DEEP_LEVEL = 16
DEEP_MESSAGE = "lists or quotes nested too deeply; shown as written"


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
    error.meta = {"problem": TexProblem(DEEP_MESSAGE, source)}
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
    if not any(token.type == "inline" and _SPLIT.search(token.content) for token in state.tokens):
        return
    out: list[Token] = []
    tokens = state.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if (token.type == "paragraph_open" and index + 2 < len(tokens)
                and _SPLIT.search(tokens[index + 1].content)):
            out.extend(_blocks(tokens[index + 1].content, token))
            index += 3
        else:
            out.append(token)
            index += 1
    state.tokens = out


def _blocks(text: str, opening: Token) -> list[Token]:
    """Paragraphs and lists for ``text``, at the level (and hidden-ness) of ``opening``."""
    out: list[Token] = []
    pos = 0
    while (found := _next_split(text, pos)) is not None:
        out += _paragraph(text[pos : found.start()], opening)
        if found.group(1):
            end, body_end = _list_end(text, found.end())
            out += _list(found.group(1), text[found.end() : body_end], opening)
            pos = end
        else:
            pos = found.end()
    return out + _paragraph(text[pos:], opening)


def _next_split(text: str, pos: int) -> re.Match[str] | None:
    """The next list or ``\\par`` that is not inside ``$…$``."""
    for found in _SPLIT.finditer(text, pos):
        if len(_DOLLAR.findall(text, 0, found.start())) % 2 == 0:
            return found
    return None


def _list_end(text: str, pos: int) -> tuple[int, int]:
    """(position after the matching ``\\end{…}``, start of it); the text's end if it is missing."""
    depth = 1
    for edge in _LIST_EDGE.finditer(text, pos):
        depth += 1 if edge.group(1) == "begin" else -1
        if depth == 0:
            return edge.end(), edge.start()
    return len(text), len(text)


def _list(kind: str, body: str, opening: Token) -> list[Token]:
    """The list tokens; text before the first ``\\item`` (LaTeX has none) stays as a paragraph."""
    lead, items = _items(body)
    out = _paragraph(lead, opening)
    if not items:
        return out
    list_type, tag = _KINDS[kind]
    level = opening.level
    out.append(_token(f"{list_type}_open", tag, 1, level, opening))
    for item in items:
        out.append(_token("list_item_open", "li", 1, level + 1, opening))
        inner = _token("paragraph_open", "p", 1, level + 2, opening)
        inner.hidden = True  # a tight list, as markdown-it renders "- item"
        out += _blocks(item, inner)
        out.append(_token("list_item_close", "li", -1, level + 1, opening))
    out.append(_token(f"{list_type}_close", tag, -1, level, opening))
    return out


def _items(body: str) -> tuple[str, list[str]]:
    """The text before the first ``\\item``, and the text of each item (nested lists included)."""
    marks = [match for match in _ITEM.finditer(body) if not _nested(body, match.start())]
    ends = [mark.start() for mark in marks[1:]] + [len(body)]
    lead = body[: marks[0].start()] if marks else body
    return lead, [body[mark.end() : stop].strip() for mark, stop in zip(marks, ends)]


def _nested(body: str, pos: int) -> bool:
    """Whether ``pos`` lies inside a nested list of ``body``."""
    depth = 0
    for edge in _LIST_EDGE.finditer(body, 0, pos):
        depth += 1 if edge.group(1) == "begin" else -1
    return depth > 0


def _paragraph(text: str, opening: Token) -> list[Token]:
    text = text.strip()
    if not text:
        return []
    inline = _token("inline", "", 0, opening.level + 1, opening)
    inline.content = text
    inline.children = []
    close = _token("paragraph_close", "p", -1, opening.level, opening)
    return [_token("paragraph_open", "p", 1, opening.level, opening), inline, close]


def _token(kind: str, tag: str, nesting: int, level: int, like: Token) -> Token:
    token = Token(kind, tag, nesting)
    token.level = level
    token.map = like.map
    token.block = True
    token.hidden = like.hidden if kind.startswith("paragraph") else False
    return token
