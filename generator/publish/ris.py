"""RIS (EndNote, Zotero, Mendeley): one ``TY  - CPAPER`` record per paper, and the volume as one .ris file.

A record is lines of ``XX  - value``, ended by ``ER  - ``. A value is written on one line: every run of
white space (newlines too) becomes one space and control characters are dropped, so nothing in a title or
an abstract can start a line of its own (an abstract holding "ER  - " ends nothing).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable

from generator.latex.spaces import singly_spaced

from .reading import Name, Reference

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# What one_line changes in a value: a control character, or white space (str.split's) other than the ASCII space.
_CHANGED = re.compile("[\x00-\x1f\x7f-\x9f\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def one_line(text: str) -> str:
    """``text`` as an RIS value: one line, nothing a reader takes for a tag."""
    if _kept(text):
        return text
    return " ".join(_CONTROL.sub(" ", text).split())


def _kept(text: str) -> bool:
    """Whether ``one_line`` gives ``text`` back: nothing it changes, no run of spaces, none at either end. Printable
    text (str.isprintable, one scan in C) has nothing it changes; a text that is not (a browser's text, marked where
    its record fills it with a private-use character, formats.py) is scanned for what it changes."""
    return (text.isprintable() or _CHANGED.search(text) is None) and singly_spaced(text)


def one_lines(tags: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(tag, ``one_line(value)``) of each tag whose value gives a line. Most records need no value changed: all
    their values joined, one scan each in C tells so (a value's own start and end are the join's, or stand beside
    a bar), instead of a call a value."""
    given = [(tag, value) for tag, value in tags if value]
    joined = "|".join([value for _, value in given])
    if _kept(joined) and " |" not in joined and "| " not in joined:
        return given  # each value as one_line gives it
    return [(tag, line) for tag, value in given if (line := one_line(value))]


def name_text(parts: Name) -> str:
    """A name (``split_name``'s) as RIS and EndNote write it: "Family, Given[, Suffix]"; one that stays whole as it
    is."""
    if parts.literal:
        return parts.literal
    if parts.family and parts.given and not parts.suffix:  # nearly every name
        return f"{parts.family}, {parts.given}"
    return ", ".join(part for part in (parts.family, parts.given, parts.suffix) if part)


@functools.lru_cache(maxsize=16)  # the volume's date: the same for nearly every paper
def _date(date: dt.date) -> str:
    return date.strftime("%Y/%m/%d/")


def ris_record(ref: Reference) -> str:
    """The paper's record, as UTF-8 text ending in a newline."""
    # Every value that is not empty made one line; most of a record's possible tags are (issue 43: a call per
    # tag was most of a record's time).
    first, last = ref.pages
    details = ref.details
    tags: list[tuple[str, str]] = [("TY", "CPAPER"), ("ID", ref.key), ("TI", ref.title)]
    tags += [("AU", name_text(name)) for name in ref.author_names]
    tags += [("AD", author.affiliation) for author in details["authors"] if author.affiliation]
    tags += [("T2", ref.container), ("PY", ref.year), ("DA", _date(ref.date) if ref.date else ""), ("SP", first),
             ("EP", last if last != first else ""), ("VL", details["volume"])]
    tags += [("A2", name_text(editor)) for editor in ref.editor_names]
    tags += [("T3", ref.series), ("PB", details["publisher"]), ("CY", details["address"]),
             ("SN", ref.isbn or ref.issn), ("DO", details["doi"]), ("UR", ref.url), ("L1", details["pdf"]),
             ("N1", ref.note), ("AB", ref.abstract)]
    tags += [("KW", keyword) for keyword in ref.keywords]
    return "".join([f"{tag}  - {line}\r\n" for tag, line in one_lines(tags)]) + "ER  - \r\n"


def volume_ris(records: Iterable[str]) -> bytes:
    """Every paper's record, in proceedings order, one blank line apart."""
    # Each record encoded on its own: the volume never exists as one str (papers_json's reason).
    return b"\r\n".join(record.encode("utf-8") for record in records)
