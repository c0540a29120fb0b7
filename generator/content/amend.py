"""Change a page's front matter fields (and its abstract) as a person editing the file would: only the lines
of the fields that change are rewritten; every other line of the file, its comments, its other fields in the
style they were written, its ``generated`` block, stays byte for byte. `proceedings correct` writes a reader's
correction with it (commands/correct.py), so that the next build takes the new values as a person's edits
(content/merge.py keeps them) and nothing else of the page moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from generator.content.pages import FENCE, FRONT_MATTER
from generator.errors import ContentError
from generator.text.yamlutil import dump


def amend_page(text: str, fields: Mapping[str, Any], body: str | None = None) -> str:
    """``text`` (a page) with each of ``fields`` written as its new value (a field the page lacks is added
    where the tool would list it) and, given ``body``, the abstract replaced. Line ends are kept."""
    crlf = "\r\n" in text
    lines = (text.replace("\r\n", "\n") if crlf else text).split("\n")
    close = _closing_fence(lines)
    keys = _top_level_keys("\n".join(lines[1:close]))
    edits = [_edit(lines, name, value, keys, close) for name, value in fields.items()]
    if body is not None:
        lines[close + 1:] = _new_body(lines[close + 1:], body)
    for start, end, new in sorted(edits, key=lambda edit: edit[0], reverse=True):  # bottom up: places hold
        lines[start:end] = new
    joined = "\n".join(lines)
    return joined.replace("\n", "\r\n") if crlf else joined


def _closing_fence(lines: list[str]) -> int:
    if not lines or lines[0].strip() != FENCE:
        raise ContentError("the page has no front matter (it starts with a line `---`)")
    for number, line in enumerate(lines[1:], start=1):
        if line.strip() == FENCE:
            return number
    raise ContentError("the page's front matter is never closed (a line `---` after its last field)")


def _top_level_keys(front: str) -> list[tuple[str, int]]:
    """Each top-level key of the front matter and the line it starts on (0 for the line after the fence),
    in the file's order."""
    node = yaml.compose(front, Loader=yaml.SafeLoader)
    if not isinstance(node, yaml.MappingNode):
        raise ContentError("the page's front matter is not a mapping of fields")
    return [(str(key.value), key.start_mark.line) for key, _ in node.value]


def _edit(lines: list[str], name: str, value: Any, keys: list[tuple[str, int]],
          close: int) -> tuple[int, int, list[str]]:
    """(first line, line past the last, new lines) replacing field ``name`` (file lines: the fence is 0)."""
    # As the tool writes a page (text/yamlutil.dump); a field of one value in block style, as a page has it.
    new = (dump({name: value}) if isinstance(value, (list, dict)) else
           yaml.safe_dump({name: value}, sort_keys=False, allow_unicode=True, width=10_000, default_flow_style=False)
           ).rstrip("\n").split("\n")
    starts = [line + 1 for _, line in keys] + [close]
    for number, (key, _) in enumerate(keys):
        if key == name:
            return starts[number], _block_end(lines, starts[number], starts[number + 1]), new
    # A new field goes after the last field the tool lists before it (FRONT_MATTER's order), else first.
    order = {key: place for place, key in enumerate(FRONT_MATTER)}
    mine = order.get(name, len(order))
    before = [(n, key) for n, (key, _) in enumerate(keys) if order.get(key, len(order)) < mine]
    if not before:
        return 1, 1, new
    number = before[-1][0]
    end = _block_end(lines, starts[number], starts[number + 1])
    return end, end, new


def _block_end(lines: list[str], start: int, next_start: int) -> int:
    """Where a field's lines end: before the next field, less the blank and comment lines just above it
    (they belong to the next field, or to no field)."""
    end = next_start
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
        end -= 1
    return end


def _new_body(old: list[str], body: str) -> list[str]:
    """The lines after the front matter with the abstract replaced; the blank lines around it kept."""
    text = "\n".join(old)
    core = text.strip()
    if not core:
        return ["", body.strip(), ""]
    start = text.index(core)
    return (text[:start] + body.strip() + text[start + len(core):]).split("\n")
