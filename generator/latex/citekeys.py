"""What a citation key says to a reader: "Smith et al. 2020", or nothing readable.

An abstract has no bibliography, so a ``\\cite{key}`` can only be shown from its key.
Keys follow a few conventions, and each of them names the first author and the year:

- Google Scholar and most ``.bib`` exporters: ``smith2020deep``, ``Lowe2004Distinctive``;
- ACL Anthology: ``smith-etal-2020-title``, ``smith-jones-2020-title``;
- colon style: ``Smith:2020``, ``Smith:2020a``, ``pro:HeinBuhler10`` (a prefix before a
  name, as in ``DBLP:journals/corr/ZhangZMW17``, is dropped);
- DBLP and alpha-like: ``SmithJones20``, ``AbernethyR09``, ``ShalevShSr11`` (capitalised name
  parts and a two-digit year).

A key is readable when it starts with a name of at least two letters followed by a year
(19xx or 20xx, or two digits). Title-like keys (``Better_Balance_by_Being_Biased_2019``)
do not start with a name and a year, so they are not read. The name parts before the year give the authors: one
name is "Smith", two full names "Smith and Jones", anything more (or a name followed by
initials, ``CaiCS2008``) "Cai et al.". Keys that say neither name nor year
(``Better_Balance_by_Being_Biased``, ``KST08``, ``lda``) are not readable: the caller
numbers them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Two-digit years up to this one are 20xx, later ones 19xx (a key has no century).
CENTURY_TURN = 30

_ACL = re.compile(r"(?P<names>[a-z][a-z'-]*?)-(?P<year>(?:19|20)\d\d)(?:-|$)", re.IGNORECASE)
_FULL_YEAR = re.compile(r"(?P<names>[A-Za-z][A-Za-z'-]*?)[-_:]*(?P<year>(?:19|20)\d\d)(?![0-9])")
_SHORT_YEAR = re.compile(r"(?P<names>[A-Za-z][A-Za-z'-]*?)[-_:]*(?P<year>\d\d)(?![0-9])")
_CAPITAL_PART = re.compile(r"[A-Z][a-z'-]*|[a-z][a-z'-]*")
_ACRONYM = re.compile(r"^[A-Z]{2,}(?=[A-Z][a-z])")  # IJCAIHocking: a venue before the name


@dataclass(frozen=True)
class CiteMark:
    """A readable citation: who (``Smith et al.``) and when (``2020``)."""

    authors: str
    year: str


def read_key(key: str) -> CiteMark | None:
    """``smith2020deep`` → CiteMark("Smith", "2020"); ``KST08`` or ``lda`` → None."""
    key = key.strip().rsplit("/", 1)[-1]
    acl = _ACL.match(key)
    if acl and key.count("-") >= 2:  # smith-etal-2020-title; kay-1986 is read as any key
        return _acl_mark(acl.group("names"), acl.group("year"))
    body = key.split(":", 1)[1] if ":" in key and not key.split(":", 1)[1][:1].isdigit() else key
    for pattern, full in ((_FULL_YEAR, True), (_SHORT_YEAR, False)):
        found = pattern.match(body)
        if found:
            authors = _authors(_ACRONYM.sub("", found.group("names")).strip("-_:'"))
            if authors:
                return CiteMark(authors, _year(found.group("year"), full))
    return None


def _acl_mark(names: str, year: str) -> CiteMark | None:
    parts = [part for part in names.split("-") if part]
    if not parts or len(parts[0]) < 2:
        return None
    if "etal" in parts or len(parts) > 2:
        return CiteMark(f"{_name(parts[0])} et al.", year)
    return CiteMark(" and ".join(_name(part) for part in parts), year)


def _authors(names: str) -> str | None:
    """The name parts before a year: ``SmithJones`` → "Smith and Jones"; None if no name."""
    if names.islower() or names[:1].islower():
        parts = [names.replace("-", " ").split()[0]] if names else []
    else:
        parts = _CAPITAL_PART.findall(names.replace("--", "-"))
        parts = [part.strip("-") for part in parts if part.strip("-")]
    if not parts or len(parts[0]) < 2:
        return None
    if len(parts) == 1:
        return _name(parts[0])
    if len(parts) == 2 and len(parts[1]) >= 2:
        return f"{_name(parts[0])} and {_name(parts[1])}"
    return f"{_name(parts[0])} et al."


def _name(part: str) -> str:
    return part[:1].upper() + part[1:]


def _year(digits: str, full: bool) -> str:
    if full:
        return digits
    return str((2000 if int(digits) <= CENTURY_TURN else 1900) + int(digits))
