"""JSON Lines: one paper per line, ``{"title": …, "authors": […], "abstract": …}``.

Optional keys: ``id``, ``keywords``, ``pdf``, ``code``, ``openreview``, ``track``,
``award``, ``doi`` (see ``records.FIELDS`` for the other spellings), and
``links``, an object holding any of the link keys. An author is a name or
``{"name": …, "affiliation": …, "orcid": …}``. A line that is not a JSON
object is skipped with an error naming it; the others still import. Keys
it does not use are named in one warning.
"""

from __future__ import annotations

import json
from pathlib import Path

from generator.errors import ContentError
from generator.model import SourceList
from generator.sources.records import RecordReader, field_name
from generator.yamlutil import read_utf8


def read(path: Path, name: str) -> SourceList:
    return parse(read_utf8(path, name, ContentError), name, path)


def parse(text: str, name: str, path: Path | None = None) -> SourceList:
    reader = RecordReader(name, escaped_breaks=True)
    entries = []
    ignored: dict[str, int] = {}  # a key we do not use → the first line it is on
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            reader.warn(f"not valid JSON ({exc.msg}, column {exc.colno}); skipped the line", number)
            continue
        if not isinstance(value, dict):
            reader.warn("each line must be a JSON object like {\"title\": …, \"abstract\": …}; skipped it", number)
            continue
        for key in _unused_keys(value):
            ignored.setdefault(key, number)
        entry = reader.entry(_our_names(value), number)
        if entry is not None:
            entries.append(entry)
    if ignored:
        reader.warn(f"ignored key(s) {', '.join(ignored)}", min(ignored.values()))
    return SourceList(path or Path(name), "", tuple(entries), tuple(reader.diagnostics))


def _our_names(value: dict) -> dict:
    links = value.get("links") if isinstance(value.get("links"), dict) else {}
    record = {}
    for key, item in [*links.items(), *value.items()]:
        name = field_name(str(key))
        if name is not None and name not in record:
            record[name] = item
    return record


def _unused_keys(value: dict) -> list[str]:
    links = value.get("links") if isinstance(value.get("links"), dict) else {}
    keys = [str(key) for key in value if key != "links"] + [f"links.{key}" for key in links]
    return [key for key in keys if field_name(key.removeprefix("links.")) is None]
