"""A source's entries as an earlier build read them, kept in the build cache under the file's bytes.

Every build reads its sources again, a warm one too: a 10,000-record JSON Lines file is about a second of
parsing (each record's columns mapped to fields, its authors split, its links checked), the same each time
the file has not changed. So each ``SourceList`` read is kept as JSON (``EntryCache`` "sources", a record a
source) under a digest of the file's name and bytes and of what else its reading depends on (``venue_base_url``
and the ``links:`` patterns over columns); the code's digest is in every key. A reading that looked in the
content folder for a file a link names (whose presence can change while the source does not) is not kept, nor
one with facts about the volume (a BibTeX ``@proceedings``, with its dates), which this module does not write.
A kept record that does not read back as a ``SourceList`` is read again from the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from generator.model.paper import Entry, SourceList, VolumeInfo
from generator.model.paper_codec import details_of, details_record, diagnostic_of, diagnostic_record
from generator.runtime.cache import EntryCache, digest
from generator.sources import read_source
from generator.sources.relative import RelativeLinks

KIND = "sources"


def read_kept(path: Path, name: str, links: RelativeLinks | None, known: EntryCache | None) -> SourceList:
    """``read_source(path, name, links)``, from ``known`` when it holds this file's reading."""
    return kept_reading(path, name, links, known)[0]


def kept_reading(path: Path, name: str, links: RelativeLinks | None,
                 known: EntryCache | None) -> tuple[SourceList, str]:
    """``read_kept``'s source, and the key its reading is kept under: a digest of all it was read from (""
    when it is not kept: no cache, a file that cannot be read, a reading that looked for a linked file…)."""
    if known is None:
        return read_source(path, name, links), ""
    try:
        data = path.read_bytes()
    except OSError:  # read_source says what is wrong with it
        return read_source(path, name, links), ""
    key = digest(KIND, name, data, *_links_key(links))
    del data
    record = known.take(key)
    found = from_record(record, path) if record is not None else None
    if found is not None:
        return found, key
    source = read_source(path, name, links)
    if not (links is not None and links.looked) and source.volume == VolumeInfo() and source.path == path:
        try:  # (a text orjson refuses, a lone surrogate: not kept); a part at a time, never the whole file's JSON
            made = to_record(source)  # (a detail of a type the record would not give back: not kept)
            for part in (made["title"], *made["entries"], *made["diagnostics"]):
                orjson.dumps(part)
        except TypeError:
            return source, ""
        known.put(key, made)
        return source, key
    return source, ""


def _links_key(links: RelativeLinks | None) -> tuple[str, str]:
    return ("", "") if links is None else (links.base, repr(links.columns))


def to_record(source: SourceList) -> dict[str, Any]:
    """A source's title, entries and diagnostics as JSON (its path is the file's; its volume, none)."""
    return {"title": source.title,
            "entries": [[entry.text, entry.source, entry.index, entry.line, entry.title, list(entry.keywords),
                         entry.uid, details_record(entry.details)] for entry in source.entries],
            "diagnostics": [diagnostic_record(d) for d in source.diagnostics]}


def from_record(record: Any, path: Path) -> SourceList | None:
    """The ``SourceList`` a ``to_record`` record holds; None for a record of another shape."""
    try:
        entries = tuple(Entry(text, source, index, line, title, tuple(keywords), details_of(details), uid)
                        for text, source, index, line, title, keywords, uid, details in record["entries"])
        diagnostics = tuple(diagnostic_of(made) for made in record["diagnostics"])
        return SourceList(path, record["title"], entries, diagnostics)
    except (TypeError, ValueError, KeyError, AttributeError):  # (an older shape: read the file again)
        return None
