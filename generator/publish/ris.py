"""RIS (EndNote, Zotero, Mendeley): one ``TY  - CPAPER`` record per paper, and the volume as one .ris file.

A record is lines of ``XX  - value``, ended by ``ER  - ``. A value is written on one line: every run of
white space (newlines too) becomes one space and control characters are dropped, so nothing in a title or
an abstract can start a line of its own (an abstract holding "ER  - " ends nothing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .reading import Reference, split_name

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` as an RIS value: one line, nothing a reader takes for a tag."""
    # Most values are one line already: printable text (no control character, no white space but the ASCII
    # space: str.isprintable) with no run of spaces and none at either end is what the rule would give.
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(_CONTROL.sub(" ", text).split())


def ris_name(name: str) -> str:
    """"Family, Given[, Suffix]" as RIS writes an author; a name that stays whole as it is."""
    parts = split_name(name)
    if parts.literal:
        return parts.literal
    return ", ".join(part for part in (parts.family, parts.given, parts.suffix) if part)


def ris_record(ref: Reference) -> str:
    """The paper's record, as UTF-8 text ending in a newline."""
    date = ref.date.strftime("%Y/%m/%d/") if ref.date else ""
    tags: list[tuple[str, str]] = [("TY", "CPAPER"), ("ID", ref.key), ("TI", ref.title)]
    tags += [("AU", ris_name(author.name)) for author in ref.authors]
    tags += [("AD", author.affiliation) for author in ref.authors if author.affiliation]
    tags += [("T2", ref.container), ("PY", ref.year), ("DA", date), ("SP", ref.first_page),
             ("EP", ref.last_page if ref.last_page != ref.first_page else ""), ("VL", ref["volume"])]
    tags += [("A2", ris_name(editor)) for editor in ref["editors"]]
    tags += [("T3", ref.series), ("PB", ref["publisher"]), ("CY", ref["address"]), ("SN", ref.isbn or ref.issn),
             ("DO", ref["doi"]), ("UR", ref.url), ("L1", ref["pdf"]), ("N1", ref.note),
             ("AB", ref.abstract)]
    tags += [("KW", keyword) for keyword in ref.keywords]
    lines = [f"{tag}  - {line}" for tag, value in tags if (line := one_line(value))]
    return "\r\n".join([*lines, "ER  - ", ""])


def volume_ris(records: Iterable[str]) -> bytes:
    """Every paper's record, in proceedings order, one blank line apart."""
    # Each record encoded on its own: the volume never exists as one str (papers_json's reason).
    return b"\r\n".join(record.encode("utf-8") for record in records)
