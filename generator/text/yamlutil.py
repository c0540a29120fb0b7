"""YAML loading that remembers where each top-level key was written, and reading the text it is in."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from generator.errors import ProceedingsError
from generator.text import frontwrite


# libyaml's C loader when present: ten times faster on thousands of pages.
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[misc, valid-type]
    """Safe loader that keeps dates as plain strings; we validate them ourselves."""


# Drop the timestamp resolver so "2026-12-06" stays a string we parse once, and YAML 1.1's base-60 numbers
# (as YAML 1.2 does), so that a programme's `time: 14:30` is 14:30, not 870: a number never holds a colon.
_NUMBERS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_Loader.yaml_implicit_resolvers = {
    key: [(tag, re.compile("(?!.*:)" + rx.pattern, rx.flags) if tag in _NUMBERS else rx) for tag, rx in resolvers
          if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


# Values a document may hold once its aliases are expanded: far more than any config or page has (a
# page is a few dozen), far less than an alias bomb ("billion laughs") asks for.
MAX_NODES = 100_000


def load_mapping(
    text: str, path: Path | str, error: type[ProceedingsError], first_line: int = 1
) -> tuple[dict[str, Any], dict[str, int]]:
    """Parse ``text`` as a YAML mapping; return it and each key's line number.

    ``first_line`` is the file line where ``text`` starts (front matter starts
    after its ``---``). Errors are raised as ``error`` naming file and line.
    """
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        # Without an alias (``*name``) a document has fewer values than characters: nothing to expand.
        if node is not None and ("*" in text or 2 * len(text) >= MAX_NODES):
            _check_size(node, path, error, first_line)
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = first_line + mark.line if mark else first_line
        problem = getattr(exc, "problem", None) or str(exc)
        raise error(f"invalid YAML: {problem}", path=path, line=line) from None
    finally:
        loader.dispose()
    if node is None:
        return {}, {}
    if not isinstance(node, yaml.MappingNode):
        raise error("expected a mapping of `key: value` lines", path=path, line=first_line)
    lines = {
        str(key.value): first_line + key.start_mark.line
        for key, _ in node.value
        if isinstance(key, yaml.ScalarNode)
    }
    return data, lines  # type: ignore[return-value]  # a MappingNode constructs a dict


def _check_size(root: yaml.Node, path: Path | str, error: type[ProceedingsError], first_line: int) -> None:
    """Refuse a document whose aliases expand past ``MAX_NODES`` values, or refer to themselves.

    Aliases share nodes, so the document is a graph; its expanded size is counted once per node
    (memoised, without recursion), in time linear in the YAML written, not in its expansion.
    """
    size: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in size:
            continue
        children = _children(node)
        if children_done:
            on_path.discard(id(node))
            size[id(node)] = 1 + sum(size[id(child)] for child in children)
            if size[id(node)] > MAX_NODES:
                raise error(f"the YAML expands to more than {MAX_NODES:,} values (aliases `*name` repeating "
                            "anchored `&name` values); write the values out", path=path,
                            line=first_line + node.start_mark.line)
            continue
        if id(node) in on_path:
            raise error("a YAML alias refers to the value it is part of", path=path,
                        line=first_line + node.start_mark.line)
        on_path.add(id(node))
        stack.append((node, True))
        stack.extend((child, False) for child in children if id(child) not in size)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def read_raw(path: Path, display: Path | str, error: type[ProceedingsError], what: str = "file") -> bytes:
    """A file's bytes; a file that cannot be read raises ``error`` naming it."""
    try:
        return _read_bytes(path)
    except OSError as exc:
        raise error(f"cannot read the {what}: {exc.strerror or exc}", path=display) from None


def _read_bytes(path: Path) -> bytes:
    """``path.read_bytes()`` in fewer steps (no buffered file object, no size asked): a warm build reads
    10,000 pages, at about half the CPU."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def as_lf(text: str) -> str:
    """CR or CRLF line ends made LF (a text without CR, as most are, is looked through once, not twice)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_utf8(path: Path, display: Path | str, error: type[ProceedingsError], what: str = "file") -> str:
    """A text file as UTF-8 with a BOM dropped and CR or CRLF line ends made LF; a file that cannot
    be read, or bytes that are not UTF-8, raise ``error`` naming the file (and the line)."""
    raw = read_raw(path, display, error, what)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"byte 0x{raw[exc.start]:02x} is not UTF-8; save the {what} as UTF-8", path=display,
                    line=raw[: exc.start].count(b"\n") + 1) from None
    return as_lf(text)


_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def dump(data: dict[str, Any]) -> str:
    """Stable, readable YAML: keys in the given order, Unicode kept, no line wrapping. A page's front matter
    in the tool's shape is written by ``frontwrite`` (the same text, without PyYAML); the rest by libyaml."""
    fast = frontwrite.dump(data)
    if fast is not None:
        return fast
    try:
        node = _node(data, set())
    except _Other:  # a value the node tree below does not make as PyYAML's representer would: its way
        return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10_000,
                         default_flow_style=None)
    return yaml.serialize(node, Dumper=_Dumper, allow_unicode=True, width=10_000)


class _Other(Exception):
    """A value ``_node`` leaves to PyYAML's representer."""


_STR, _INT, _BOOL, _NULL = (f"tag:yaml.org,2002:{name}" for name in ("str", "int", "bool", "null"))


def _node(value: Any, seen: set[int]) -> yaml.Node:
    """The node PyYAML's safe representer makes of ``value`` (``default_flow_style=None``, keys unsorted), made
    without its dispatch on every value: half of writing a page's front matter. The same nodes go to the same
    (C) emitter, so the text is the same. Strings, ints, booleans, None, lists and dicts of them, each list or
    dict once (PyYAML anchors one met twice); anything else raises ``_Other``."""
    kind = type(value)
    if kind is str:
        return yaml.ScalarNode(_STR, value)
    if kind is bool:
        return yaml.ScalarNode(_BOOL, "true" if value else "false")
    if kind is int:
        return yaml.ScalarNode(_INT, str(value))
    if value is None:
        return yaml.ScalarNode(_NULL, "null")
    if (kind is not list and kind is not dict) or id(value) in seen:
        raise _Other
    seen.add(id(value))
    if kind is list:
        items = [_node(item, seen) for item in value]
        # A collection of plain scalars only is written in flow style (``[a, b]``, ``{k: v}``), as PyYAML does.
        return yaml.SequenceNode("tag:yaml.org,2002:seq", items,
                                 flow_style=all(type(item) is yaml.ScalarNode for item in items))
    pairs = [(_node(key, seen), _node(item, seen)) for key, item in value.items()]
    return yaml.MappingNode("tag:yaml.org,2002:map", pairs, flow_style=all(
        type(key) is yaml.ScalarNode and type(item) is yaml.ScalarNode for key, item in pairs))


def key_lines(text: str, key: str) -> dict[str, int]:
    """The line of each key of the mapping under top-level ``key`` (for messages naming the entry).
    Call it after ``load_mapping``, which has refused whatever YAML cannot be read."""
    node = yaml.compose(text, Loader=_Loader)
    for name, value in node.value if isinstance(node, yaml.MappingNode) else ():
        if isinstance(name, yaml.ScalarNode) and name.value == key and isinstance(value, yaml.MappingNode):
            return {str(inner.value): 1 + inner.start_mark.line for inner, _ in value.value
                    if isinstance(inner, yaml.ScalarNode)}
    return {}


def item_lines(text: str, key: str, first_line: int = 1) -> list[int]:
    """The line of each item of the list under top-level ``key`` (for messages naming the item).
    Call it after ``load_mapping``, which has refused whatever YAML cannot be read."""
    node = yaml.compose(text, Loader=_Loader)
    for name, value in node.value if isinstance(node, yaml.MappingNode) else ():
        if isinstance(name, yaml.ScalarNode) and name.value == key and isinstance(value, yaml.SequenceNode):
            return [first_line + item.start_mark.line for item in value.value]
    return []
