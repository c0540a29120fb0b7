"""BibTeX: every entry with an ``abstract`` field is a paper.

bibtexparser reads the file (values over several lines, ``@string``
macros, ``{…}`` or ``"…"`` values) and splits ``author`` in BibTeX name
syntax ("Last, First and First von Last"). Names and the text of titles
become Unicode (``{\\"o}`` → ö) with pylatexenc; math in a title and the
whole abstract stay LaTeX, which the renderer shows; case-protecting braces
(``{G}aussian``) are dropped from titles. Values are resolved as BibTeX resolves them
(``#``, ``@string``s, month macros: generator/sources/bibstrings.py). ``keywords`` are separated by commas
or semicolons; ``url`` ending in ``.pdf`` or ``pdf`` give the PDF link (an OpenReview ``url`` the
OpenReview one, any other ``url`` the paper's page at its publisher). The
entry key is the paper's ``uid`` (and its citation key). An ``@proceedings``
entry describes the volume (``VolumeInfo``); an entry with a title and no
abstract is a paper without an abstract.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bibtexparser import middlewares
from bibtexparser.middlewares.names import parse_single_name_into_parts
from bibtexparser.model import Entry
from pylatexenc.latex2text import LatexNodes2Text

from generator.model.paper import DETAILS, SourceList, VolumeInfo
from generator.model.schema import ENTRY_FIELDS
from generator.sources.bibrecover import Blocks, read_blocks
from generator.sources.bibstrings import Strings
from generator.sources.encoding import read_text, with_note
from generator.sources.records import RecordReader, field_name, source_value
from generator.sources.relative import RelativeLinks
from generator import diagnostics as codes

_MATH = re.compile(r"(\$[^$]+\$)")
_TO_TEXT = LatexNodes2Text(math_mode="verbatim")
_MAX_GROUPS = 200
# What the schema says becomes Unicode: names (in BibTeX name syntax), and the text fields marked `tex`.
_NAMES = frozenset(field.name for field in DETAILS if field.kind in ("authors", "names"))
_TEX = frozenset(field.name for field in (*ENTRY_FIELDS, *DETAILS) if field.tex)


def read(path: Path, name: str, links: RelativeLinks | None = None) -> SourceList:
    decoded = read_text(path, name)
    return with_note(parse(decoded.text, name, path, links), decoded, name)


def parse(text: str, name: str, path: Path | None = None, links: RelativeLinks | None = None) -> SourceList:
    reader = RecordReader(name, links=links)
    blocks = _resolve(read_blocks(text, reader.warn, reader.skip), Strings(reader.warn))
    volume = next((volume_info(_fields(block),
                               lambda message, at=block.start_line + 1, **coded: reader.warn(message, at, **coded))
                   for block in blocks if block.entry_type.lower() == "proceedings"), VolumeInfo())
    section_titles = dict(volume.sections)
    entries = []
    for block in blocks:
        line, fields = block.start_line + 1, _fields(block)
        if block.entry_type.lower() == "proceedings":
            continue
        if "abstract" not in fields and "title" not in fields:
            reader.skip(f"@{block.entry_type}{{{block.key}}} has neither a title nor an abstract; skipped it", line)
            continue
        if "section" in fields:  # PMLR names a section by its key; a reader wants its title
            fields["section"] = section_titles.get(str(fields["section"]).strip(), fields["section"])
        made = reader.entry(_record(block.key, fields), line)
        if made is not None:
            entries.append(made)
    reader.finish()
    diagnostics = sorted(reader.diagnostics, key=lambda d: d.line or 0)
    return SourceList(path or Path(name), volume.title, tuple(entries), tuple(diagnostics), volume)


def _resolve(found: Blocks, strings: Strings) -> list:
    """Every @string and field value as BibTeX reads it, then authors split into names."""
    for string in found.strings:
        strings.define(string.key, string.value, (string.start_line or 0) + 1)
    names = middlewares.SeparateCoAuthors()
    entries = []
    for block in found.entries:
        for field in block.fields:
            field.value = strings.resolve(field.value, (field.start_line or block.start_line or 0) + 1)
        # (it raises no error: a name splits or stays whole; it reads no library)
        entries.append(names.transform_entry(block, None))  # type: ignore[arg-type]
    return entries


def _fields(block: Entry) -> dict:
    return {key.lower(): field.value for key, field in block.fields_dict.items()}


def volume_info(fields: dict, warn: Callable[..., None]) -> VolumeInfo:
    """An ``@proceedings`` entry as PMLR and the ACL Anthology write it: ``title`` or ``booktitle``
    (else ``name``), ``editor``, ``year``, ``volume``, the ``published``/``end``/``start`` dates,
    ``address``, the meeting's ``name`` and ``shortname``, and ``sections = {name=Title|name=Title}``."""
    title = next((to_unicode(fields[key]) for key in ("title", "booktitle", "name") if fields.get(key)), "")
    days = {key: _day(fields, key, warn) for key in ("published", "start", "end")}
    return VolumeInfo(
        title=title,
        editors=tuple(_names(fields.get("editor") or [])),
        date=days["published"] or days["end"] or days["start"],  # the day it came out, else the meeting's
        year=to_unicode(fields.get("year", "")),
        volume=to_unicode(fields.get("volume", "")),
        publisher=to_unicode(fields.get("publisher", "")),
        address=to_unicode(fields.get("address", "")),
        sections=_sections(str(fields.get("sections", ""))),
        venue=to_unicode(fields.get("name", "")),
        short_name=to_unicode(fields.get("shortname", "")),
        start=days["start"],
        end=days["end"],
    )


def _day(fields: dict, key: str, warn: Callable[..., None]) -> dt.date | None:
    """A date field; PMLR gives one date per section (``2023-01-01|2023-06-01``): the first is the volume's.
    A date that does not parse is left out with a warning."""
    value = str(fields.get(key, "")).split("|")[0].strip()
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        warn(f"@proceedings `{key}` {value!r} is not a date written YYYY-MM-DD; left out", code=codes.BIB_DATE_INVALID,
             subject=key, value=str(value))
        return None


def _sections(value: str) -> tuple[tuple[str, str], ...]:
    """``preface=Preface|contributed=Contributed Papers`` → ((name, title), …); a part without ``=``
    is its own title."""
    parts = [part.strip() for part in value.split("|") if part.strip()]
    pairs = (part.split("=", 1) if "=" in part else (part, part) for part in parts)
    return tuple((key.strip(), to_unicode(title)) for key, title in pairs)


def _record(key: str, fields: dict) -> dict:
    record: dict = {"id": key}
    for field, value in fields.items():
        # biblatex's `date` is when the paper came out, not the programme's day a table's `date` column gives.
        name = field_name(field) if field.lower() != "date" else None
        if name in _NAMES:
            record[name] = _names(value)
        elif name in _TEX:
            record[name] = source_value(name, field, to_unicode(value))
        elif name is not None and name != "id":
            record[name] = value
    # `url` is the paper's page at its publisher (PMLR's abstract page), unless it is the PDF or OpenReview.
    url = str(fields.get("url", ""))
    if "pdf" not in record and url.lower().split("?")[0].endswith(".pdf"):
        record["pdf"] = record.pop("publisher_page", url)
    if "openreview" not in record and "openreview.net/" in url:
        record["openreview"] = record.pop("publisher_page", url)
    return record


def _names(value: Any) -> list[str] | str:
    """Names split as BibTeX splits them (a stray trailing comma, as in "Greenstreet, Laura,", is
    accepted as BibTeX accepts it), without BibTeX's "and others" (et al.)."""
    if isinstance(value, str):
        value = [value]
    names = (_name(name) for name in value)
    return [name for name in names if name and name.lower() != "others"]


def _name(written: str) -> str:
    """"First von Last, Jr" as a reader writes it, in Unicode."""
    try:
        parts = parse_single_name_into_parts(written, strict=False)
    except Exception:  # noqa: BLE001 - bibtexparser's own errors vary; a name it cannot split stays as written
        return to_unicode(written)
    name = " ".join(parts.first + parts.von + parts.last)
    if parts.jr:
        name += ", " + " ".join(parts.jr)
    return to_unicode(name)


def to_unicode(text: str) -> str:
    """LaTeX text to Unicode, leaving ``$…$`` math as it is."""
    pieces = _MATH.split(str(text))
    return " ".join("".join(p if n % 2 else _text_to_unicode(p) for n, p in enumerate(pieces)).split())


def _text_to_unicode(text: str) -> str:
    if text.count("{") > _MAX_GROUPS:  # pylatexenc recurses once per group: no name or title nests this deep
        return text.replace("{", "").replace("}", "")
    return str(_TO_TEXT.latex_to_text(text))

