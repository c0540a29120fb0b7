"""Front matter as the tool writes it, read without building YAML's node tree.

libyaml scans a page's front matter in C, but PyYAML then resolves and constructs every value in
Python: about half a millisecond a page, seconds for a volume whose pages must all be parsed (a build
without the cache, or after the tool's version changed). The tool writes front matter in one shape
(``yamlutil.dump``): one ``key: value`` line per key, the value a plain or single-quoted scalar, or a
flow list or flow mapping of them. ``read_front`` reads exactly that shape, line by line, and gives
what YAML gives: each plain scalar is typed by the YAML loader's own resolver (a string stays a
string, ``12`` is 12) and taken only when it is a string or a plain decimal number.

Anything else (a comment, a block list, a double-quoted or multi-line value, an anchor, a number
in another form, a character YAML refuses or folds) returns None, and the page is parsed by libyaml as
before: the fast path never decides a case it is not sure of. tests/test_front_fast.py compares the
two on generated and hand-written front matter.
"""

from __future__ import annotations

import re
from typing import Any

from generator.text.yamlutil import _Loader
from generator.text.lazyre import lazy

_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*): (\S.*)")
# A character YAML refuses (libyaml: the BOM too), folds (NEL, the line and paragraph separators) or that
# starts trouble (tab, carriage return).
_AVOID = lazy("[^\x0a\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_QUOTED = re.compile(r"'((?:[^']|'')*)'")
_FIRST = r"[^\s\-?:,\[\]{}#&*!|>'\"%@`]"  # what a plain scalar may start with: no indicator
# A plain scalar in a block (``key: value``): after its first character anything but `: `, ` #`, and an end
# in a space or a colon (checked apart); in a flow list or mapping, no flow character, colon, hash or quote.
_PLAIN = lazy(_FIRST + r".*")
_FLOW_ITEM = lazy(r"'(?:[^']|'')*'|" + _FIRST + r"(?:[^:#,\[\]{}'\"]*[^\s:#,\[\]{}'\"])?")
_FLOW_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*): ")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)")
_STR, _INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"
# The loader's implicit resolvers by first character (yamlutil: no timestamps, no base-60 numbers).
_IMPLICIT: dict[Any, list[tuple[str, re.Pattern[str]]]] = _Loader.yaml_implicit_resolvers


class _Unsure(Exception):
    """A value outside the shape the tool writes: libyaml reads the page."""


def read_front(text: str, first_line: int = 1) -> tuple[dict[str, Any], dict[str, int]] | None:
    """``text`` (a front matter) as ``yamlutil.load_mapping`` reads it, and each key's line; None when it is
    not in the shape the tool writes."""
    if not text or _AVOID.search(text):
        return None
    meta: dict[str, Any] = {}
    lines: dict[str, int] = {}
    try:
        for number, line in enumerate(text.split("\n"), start=first_line):
            match = _LINE.fullmatch(line)
            if match is None or match.group(1) in meta:
                return None
            key, value = match.groups()
            meta[key], lines[key] = _value(value), number
    except _Unsure:
        return None
    return meta, lines


def _value(text: str) -> Any:
    if text[0] == "[":
        return _flow_list(text)
    if text[0] == "{":
        return _flow_mapping(text)
    return _scalar(text)


def _scalar(text: str, block: bool = True) -> Any:
    if text[0] == "'":
        match = _QUOTED.fullmatch(text)
        if match is None:
            raise _Unsure
        return match.group(1).replace("''", "'")
    if block and (_PLAIN.fullmatch(text) is None or ": " in text or " #" in text or text[-1] in " :"):
        raise _Unsure
    return _typed(text)


def _typed(text: str) -> Any:
    """A plain scalar as the YAML loader types it (``Resolver.resolve``, by the same table): a string, or a
    decimal number; else unsure."""
    tag = _STR
    for candidate, pattern in (*_IMPLICIT.get(text[0], ()), *_IMPLICIT.get(None, ())):
        if pattern.match(text):
            tag = candidate
            break
    if tag == _STR:
        return text
    if tag == _INT and _DECIMAL.fullmatch(text):
        return int(text)
    raise _Unsure


def _flow_list(text: str) -> list[Any]:
    if not text.endswith("]"):
        raise _Unsure
    inside, found, at = text[1:-1], [], 0
    while at < len(inside):
        item = _FLOW_ITEM.match(inside, at)
        if item is None:
            raise _Unsure
        found.append(_scalar(item.group(), block=False))
        at = _next(inside, item.end())
    return found


def _flow_mapping(text: str) -> dict[str, Any]:
    if not text.endswith("}"):
        raise _Unsure
    inside, found, at = text[1:-1], {}, 0
    while at < len(inside):
        key = _FLOW_KEY.match(inside, at)
        item = _FLOW_ITEM.match(inside, key.end()) if key is not None else None
        if key is None or item is None or key.group(1) in found:
            raise _Unsure
        found[key.group(1)] = _scalar(item.group(), block=False)
        at = _next(inside, item.end())
    return found


def _next(inside: str, at: int) -> int:
    """Where the next item of a flow collection starts: after `, ` (the end: after the last one)."""
    if at < len(inside):
        if not inside.startswith(", ", at) or at + 2 == len(inside):
            raise _Unsure
        at += 2
    return at
