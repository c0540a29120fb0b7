"""Links made from a pattern (``links:`` in proceedings.yaml): a paper's PDF where its venue keeps them.

PMLR's ``.bib`` has no ``pdf`` field; its PDFs live at an address made from the entry key
(``https://proceedings.mlr.press/v247/{key}/{key}.pdf``). A pattern is checked once, when the config
is read (``check_pattern``); a paper's own link always wins over it (``with_patterns``).
"""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Mapping
from urllib.parse import quote

from generator.errors import shown
from generator.model.details import URL
from generator.model.paper import LINK_FIELDS, Paper

# What a pattern may name: the source's own id for the paper (a BibTeX entry key, a Mini-Conf UID), the
# paper's id in the site, and its page's name.
PLACEHOLDERS = {"key": lambda paper: paper.uid, "id": lambda paper: paper.id, "slug": lambda paper: paper.slug}
_KNOWN = ", ".join("{" + name + "}" for name in PLACEHOLDERS)


def check_pattern(kind: str, pattern: object) -> str:
    """``pattern`` for links of ``kind``, checked; a ValueError says what is wrong with it."""
    if kind not in LINK_FIELDS:
        raise ValueError(f"{shown(kind)} is not a kind of link (known: {', '.join(LINK_FIELDS)})")
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
        if name not in PLACEHOLDERS:
            raise ValueError(f"{kind}: {shown(pattern)} has the placeholder {{{name}}}, which is not one "
                             f"(known: {_KNOWN})")
        if spec or conversion:
            raise ValueError(f"{kind}: {shown(pattern)} formats {{{name}}}; write the placeholder alone, {{{name}}}")
    if not fields:
        raise ValueError(f"{kind}: {shown(pattern)} has no placeholder, so every paper would get the same link "
                         f"(use {_KNOWN})")
    example = pattern.format(**{name: "x" for name in PLACEHOLDERS})
    if not URL.fullmatch(example):
        raise ValueError(f"{kind}: {shown(pattern)} must be an http(s) address without spaces or quotes")
    return pattern


def with_patterns(paper: Paper, patterns: Mapping[str, str]) -> Paper:
    """``paper`` with a link of each kind it lacks made from its pattern; one a placeholder has no value
    for (no source id for ``{key}``) is not made."""
    made = {}
    for kind, pattern in patterns.items():
        if getattr(paper.details, kind):
            continue  # the paper's own link wins
        values = {name: value(paper) for name, value in PLACEHOLDERS.items()}
        needed = {name for _, name, _, _ in string.Formatter().parse(pattern) if name}
        if all(values[name] for name in needed):
            made[kind] = pattern.format(**{name: quote(value, safe="") for name, value in values.items()})
    return dataclasses.replace(paper, details=dataclasses.replace(paper.details, **made)) if made else paper
