"""Links made from a pattern (``links:`` in proceedings.yaml): a paper's PDF where its venue keeps them.

PMLR's ``.bib`` has no ``pdf`` field; its PDFs live at an address made from the entry key
(``https://proceedings.mlr.press/v247/{key}/{key}.pdf``). A pattern is checked once, when the config
is read (``check_pattern``); a paper's own link always wins over it (``with_patterns``). A pattern keyed by
a column of the sources rather than a kind of link (COLT 2020's ``slideslive_1``, a bare talk id) is a
``ColumnLink``: the reader makes the link from the column's ``{value}`` and keeps it, with its label, in the
paper's ``more_links``.
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from generator.errors import shown
from generator.model.details import URL
from generator.model.paper import LINK_FIELDS, Paper

# What a pattern may name: the source's own id for the paper (a BibTeX entry key, a Mini-Conf UID), the
# paper's id in the site, and its page's name.
PLACEHOLDERS = {"key": lambda paper: paper.uid, "id": lambda paper: paper.id, "slug": lambda paper: paper.slug}
# What a pattern over a column may name: the column's value in the record, and the record's source id.
COLUMN_PLACEHOLDERS = {"value": None, "key": None}


@dataclass(frozen=True)
class ColumnLink:
    """A pattern over a column of the sources (``slideslive_1: "https://slideslive.com/{value}"``): a paper whose
    record fills the column gets a link made from its value, shown by ``label``."""

    pattern: str
    label: str

    def link(self, value: str, key: str = "") -> str:
        """The address for a record's ``value`` (and its source id, ``{key}``); "" when a placeholder has none."""
        values = {"value": value.strip(), "key": key.strip()}
        needed = {name for _, name, _, _ in string.Formatter().parse(self.pattern) if name}
        if not all(values[name] for name in needed):
            return ""
        return self.pattern.format(**{name: quote(text, safe="") for name, text in values.items()})


def check_pattern(kind: str, pattern: object) -> str | ColumnLink:
    """``pattern`` for links of ``kind``, checked; a ValueError says what is wrong with it. A ``kind`` that is no
    kind of link names a column of the sources, whose pattern uses ``{value}`` (a ColumnLink)."""
    if kind not in LINK_FIELDS:
        return _column_pattern(kind, pattern)
    return _address_pattern(kind, pattern, PLACEHOLDERS)


def _column_pattern(column: str, given: object) -> ColumnLink:
    """``{pattern: …, label: …}`` or a pattern alone (labelled by the column's name in words)."""
    pattern, label = (given.get("pattern"), given.get("label")) if isinstance(given, Mapping) else (given, None)
    uses_value = isinstance(pattern, str) and any(name == "value" for name, _, _ in _fields(pattern))
    if not uses_value:
        raise ValueError(f"{shown(column)} is not a kind of link (known: {', '.join(LINK_FIELDS)}); a pattern over "
                         f"a column of the sources uses {{value}}, like {column}: "
                         "{pattern: \"https://slideslive.com/{value}\", label: Talk}")
    if label is not None and (not isinstance(label, str) or not label.strip()):
        raise ValueError(f"{column}: the label must be text, like label: Talk")
    checked = _address_pattern(column, pattern, COLUMN_PLACEHOLDERS)
    return ColumnLink(checked, " ".join(label.split()) if label else column_words(column))


def _fields(pattern: str) -> list[tuple[str, str, str | None]]:
    try:
        return [(name, spec or "", conversion) for _, name, spec, conversion in string.Formatter().parse(pattern)
                if name is not None]
    except ValueError:
        return []


def _address_pattern(kind: str, pattern: object, placeholders: Mapping[str, object]) -> str:
    known = ", ".join("{" + name + "}" for name in placeholders)
    if not isinstance(pattern, str) or not pattern.strip():
        raise ValueError(f"{kind}: give an address with placeholders, like "
                         "\"https://proceedings.mlr.press/v247/{key}/{key}.pdf\"")
    pattern = pattern.strip()
    try:
        fields = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(pattern)
                  if name is not None]
    except ValueError as exc:
        raise ValueError(f"{kind}: {shown(pattern)} has a brace that is not a placeholder ({exc}); "
                         "write {{ or }} for a brace itself") from None
    for name, spec, conversion in fields:
        if name not in placeholders:
            raise ValueError(f"{kind}: {shown(pattern)} has the placeholder {{{name}}}, which is not one "
                             f"(known: {known})")
        if spec or conversion:
            raise ValueError(f"{kind}: {shown(pattern)} formats {{{name}}}; write the placeholder alone, {{{name}}}")
    if not fields:
        raise ValueError(f"{kind}: {shown(pattern)} has no placeholder, so every paper would get the same link "
                         f"(use {known})")
    example = pattern.format(**{name: "x" for name in placeholders})
    if not URL.fullmatch(example):
        raise ValueError(f"{kind}: {shown(pattern)} must be an http(s) address without spaces or quotes")
    return pattern


def with_patterns(paper: Paper, patterns: Mapping[str, str]) -> Paper:
    """``paper`` with a link of each kind it lacks made from its pattern; one a placeholder has no value
    for (no source id for ``{key}``) is not made."""
    made: dict[str, Any] = {}
    for kind, pattern in patterns.items():
        if not isinstance(pattern, str) or getattr(paper.details, kind):  # a column's pattern is the reader's
            continue  # the paper's own link wins
        values = {name: value(paper) for name, value in PLACEHOLDERS.items()}
        needed = {name for _, name, _, _ in string.Formatter().parse(pattern) if name}
        if all(values[name] for name in needed):
            made[kind] = pattern.format(**{name: quote(value, safe="") for name, value in values.items()})
    return dataclasses.replace(paper, details=dataclasses.replace(paper.details, **made)) if made else paper


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def column_words(column: str) -> str:
    """``slideslive_1`` → "Slideslive 1", ``AwardNominee`` → "Award nominee": a column's name as words."""
    words = " ".join(_CAMEL.sub(" ", column.strip()).replace("_", " ").replace("-", " ").split()).lower()
    return words[:1].upper() + words[1:]
