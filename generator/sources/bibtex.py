"""BibTeX: every entry with an ``abstract`` field is a paper.

bibtexparser reads the file (values over several lines, ``@string``
macros, ``{…}`` or ``"…"`` values) and splits ``author`` in BibTeX name
syntax ("Last, First and First von Last"). Names and the text of titles
become Unicode (``{\\"o}`` → ö) with pylatexenc; math in a title and the
whole abstract stay LaTeX, which the renderer shows. ``keywords`` are
separated by commas or semicolons; ``url`` ending in ``.pdf`` or ``pdf``
give the PDF link. Entries without an abstract (an ``@proceedings`` entry,
say) are skipped with a note.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import bibtexparser
from bibtexparser import middlewares
from pylatexenc.latex2text import LatexNodes2Text

from generator.errors import ContentError
from generator.model import SourceList
from generator.sources.records import RecordReader, field_name
from generator.yamlutil import read_utf8

_MATH = re.compile(r"(\$[^$]+\$)")
_TO_TEXT = LatexNodes2Text(math_mode="verbatim")


def read(path: Path, name: str) -> SourceList:
    return parse(read_utf8(path, name, ContentError), name, path)


def parse(text: str, name: str, path: Path | None = None) -> SourceList:
    # bibtexparser logs each block it cannot parse; we report them ourselves, with their line.
    logger = logging.getLogger("bibtexparser")
    level, logger.level = logger.level, logging.CRITICAL
    try:
        library = bibtexparser.parse_string(
            text, append_middleware=[middlewares.SeparateCoAuthors(), middlewares.SplitNameParts()])
    finally:
        logger.setLevel(level)
    reader = RecordReader(name)
    for block in library.failed_blocks:
        reader.error(f"cannot parse this BibTeX entry ({_reason(block)}); skipped it", block.start_line + 1)
    entries, title = [], ""
    for entry in sorted(library.entries, key=lambda e: e.start_line):
        line = entry.start_line + 1
        fields = {key.lower(): value for key, value in entry.fields_dict.items()}
        if entry.entry_type.lower() == "proceedings" and "title" in fields and not title:
            title = to_unicode(fields["title"].value)  # the volume's own entry names the proceedings
            continue
        if "abstract" not in fields:
            reader.warn(f"@{entry.entry_type}{{{entry.key}}} has no abstract; skipped it", line)
            continue
        made = reader.entry(_record(entry.key, {k: f.value for k, f in fields.items()}), line)
        if made is not None:
            entries.append(made)
    diagnostics = sorted(reader.diagnostics, key=lambda d: d.line or 0)
    return SourceList(path or Path(name), title, tuple(entries), tuple(diagnostics))


def _record(key: str, fields: dict) -> dict:
    record: dict = {"id": key}
    for field, value in fields.items():
        name = field_name(field)
        if name == "authors":
            record[name] = _names(value)
        elif name == "title":
            record[name] = to_unicode(value)
        elif name in ("track", "award", "keywords"):
            record[name] = to_unicode(value)
        elif name is not None and name != "id":
            record[name] = value
    url = str(fields.get("url", ""))
    if "pdf" not in record and url.lower().split("?")[0].endswith(".pdf"):
        record["pdf"] = url
    if "openreview" not in record and "openreview.net/" in url:
        record["openreview"] = url
    return record


def _names(value) -> list[str] | str:
    """The names SplitNameParts made, without BibTeX's "and others" (et al.)."""
    if isinstance(value, str):
        return value
    names = (_name(parts) for parts in value)
    return [name for name in names if name.lower() != "others"]


def _name(parts) -> str:
    """"First von Last, Jr" as a reader writes it, in Unicode."""
    name = " ".join(parts.first + parts.von + parts.last)
    if parts.jr:
        name += ", " + " ".join(parts.jr)
    return to_unicode(name)


def to_unicode(text: str) -> str:
    """LaTeX text to Unicode, leaving ``$…$`` math as it is."""
    pieces = _MATH.split(str(text))
    return " ".join("".join(p if n % 2 else _TO_TEXT.latex_to_text(p) for n, p in enumerate(pieces)).split())


def _reason(block) -> str:
    error = getattr(block, "error", None)
    message = str(error).strip() if error else ""
    # bibtexparser adds a note for programmers ("Note: The entry … is available as `failed_block…`").
    return message.splitlines()[0].split(". Note:")[0] if message else "syntax error"
