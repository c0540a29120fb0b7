"""Front matter in the shape the tool writes, written without PyYAML: the mirror of ``frontfast``.

``yamlutil.dump`` hands libyaml's C emitter a node tree, but PyYAML's serializer asks its Python resolver
about every scalar twice and the emitter analyses each one again: about 80 µs a page, most of writing a
volume's pages after the file system's own cost. A page's front matter has one shape: a block mapping of
``key: value`` lines, each value a scalar, a flow list or flow mapping of scalars, or a block list of
those (authors with affiliations: ``- {name: …, affiliation: …}``). ``dump`` writes exactly that shape,
each scalar in the style libyaml's emitter chooses for it (``yaml_emitter_analyze_scalar`` and
``yaml_emitter_select_scalar_style``; PyYAML's ``Emitter.analyze_scalar`` is the same rules in Python):

- a string is plain when the dumper's resolver reads it back as a string (not ``12``, ``true``, ``null``,
  ``1e3``…) and no indicator forbids it where it stands: in a block, none of ``#,[]{}&*!|>'"%@` `` first,
  no ``- ``, ``? `` or ``: `` first, no ``: `` or `` #`` inside, no ``---`` or ``...`` start; in a flow
  collection, none of ``,?[]{}:`` anywhere and none of the block's either;
- else it is single-quoted, each ``'`` doubled.

Anything else returns None and the caller takes libyaml's way: a string that is empty, starts or ends with a
space, holds a line break or a character the emitter escapes or that libyaml treats as a break
(NEL, U+2028, U+2029, a tab, a control character, the BOM, one past U+FFFF), a line longer than the emitter folds at
(``width``), a float, a nested collection other than the block list's items, a key that is not a plain
word. tests/test_front_write.py holds it to ``yaml.dump`` on arbitrary values and YAML's awkward strings.
"""

from __future__ import annotations

import re
from generator.text.lazyre import lazy
from typing import Any

import yaml

WIDTH = 10_000  # yamlutil.dump's: the emitter folds a line only once it is past this many columns
_LONGEST = WIDTH - 100  # a line at most this long is never folded (checked on the whole line)
# Characters libyaml writes as they are (allow_unicode: its IS_PRINTABLE, which leaves out every character past
# U+FFFF: an emoji is escaped), none of them a break or a space but U+0020.
_UNSAFE = lazy("[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_FIRST_ALWAYS = frozenset("#,[]{}&*!|>'\"%@`")  # an indicator as the first character, in a block and a flow
_FLOW = frozenset(",?[]{}:")  # anywhere, in a flow collection
_RESOLVERS: dict[Any, list[tuple[str, re.Pattern[str]]]] = getattr(
    yaml, "CSafeDumper", yaml.SafeDumper).yaml_implicit_resolvers
# The characters a resolver's pattern may start with (most strings start with none of them: no pattern to try).
_STARTS = frozenset(_RESOLVERS) - {None}
_KEYS: set[str] = set()  # keys checked once: a volume's pages share a few dozen


class _NotTheShape(Exception):
    """A value outside the shape written here: libyaml writes the page."""


def dump(data: dict[str, Any]) -> str | None:
    """``data`` as ``yamlutil.dump``'s libyaml way writes it, or None when it is not in the tool's shape."""
    # A mapping of scalars alone is written in flow style, ``{id: '1'}``: a page always has its tags' list.
    if type(data) is not dict or not any(type(value) in (list, dict) for value in data.values()):
        return None
    out: list[str] = []
    seen: set[int] = set()  # PyYAML anchors a list or mapping met twice (``&id001``): left to it
    try:
        for key, value in data.items():
            head = _key(key) + ":"
            kind = type(value)
            if kind is list or kind is dict:
                _once(value, seen)
                for item in value if kind is list else ():
                    if type(item) is list or type(item) is dict:
                        _once(item, seen)
            if kind is list and value and any(type(item) is dict or type(item) is list for item in value):
                out.append(head)
                out.extend(_line("- " + (_flow(item) if type(item) in (dict, list) else _scalar(item, False)))
                           for item in value)
            elif kind is list or kind is dict:
                out.append(_line(f"{head} {_flow(value)}"))
            else:
                out.append(_line(f"{head} {_scalar(value, False)}"))
    except _NotTheShape:
        return None
    out.append("")
    return "\n".join(out)


def _once(value: object, seen: set[int]) -> None:
    if id(value) in seen:
        raise _NotTheShape
    seen.add(id(value))


def _line(text: str) -> str:
    if len(text) > _LONGEST:
        raise _NotTheShape
    return text


def _key(key: Any) -> str:
    if key in _KEYS and type(key) is str:
        return key
    if type(key) is not str or not _KEY.fullmatch(key) or not _resolves_to_str(key):
        raise _NotTheShape
    if len(_KEYS) < 1024:
        _KEYS.add(key)
    return key


def _flow(value: list[Any] | dict[str, Any]) -> str:
    """A flow list or mapping of scalars (a collection inside one is not written here)."""
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(item, True) for item in value) + "]"
    return "{" + ", ".join(f"{_key(key)}: {_scalar(item, True)}" for key, item in value.items()) + "}"


def _scalar(value: Any, flow: bool) -> str:
    kind = type(value)
    if kind is str:
        return _string(value, flow)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    if value is None:
        return "null"
    raise _NotTheShape  # a float, a date, a collection inside a flow one…


def _string(text: str, flow: bool) -> str:
    if not text or text[0] == " " or text[-1] == " " or _UNSAFE.search(text):
        raise _NotTheShape
    return text if _plain(text, flow) and _resolves_to_str(text) else "'" + text.replace("'", "''") + "'"


def _plain(text: str, flow: bool) -> bool:
    """Whether no indicator keeps ``text`` from being plain (libyaml's analysis; no break, tab or edge space
    is left by ``_string``)."""
    first = text[0]
    after = text[1:2]  # the character after the first ("" at the end: whitespace to the emitter)
    if first in _FIRST_ALWAYS or text.startswith(("---", "...")):
        return False
    if first in "?:-" and after in ("", " "):
        return False
    if flow and (first == "-" and after in ("", " ") or not _FLOW.isdisjoint(text)):
        return False
    return ": " not in text and not text.endswith(":") and " #" not in text


def _resolves_to_str(text: str) -> bool:
    """Whether the dumper's resolver reads ``text``, written plain, as a string (its ``resolve``, by its table)."""
    if text[0] not in _STARTS and None not in _RESOLVERS:
        return True
    for _, pattern in (*_RESOLVERS.get(text[0], ()), *_RESOLVERS.get(None, ())):
        if pattern.match(text):
            return False
    return True
