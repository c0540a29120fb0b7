"""JSON Lines: one paper per line, ``{"title": …, "authors": […], "abstract": …}``.

Optional keys: ``id``, ``keywords`` and every field ``model.Details`` declares
(``pdf``, ``code``, ``track``, ``award``, ``doi``…; ``records.FIELDS`` has the
other spellings), and ``links``, an object holding any of the link keys. An author is a name or
``{"name": …, "affiliation": …, "orcid": …}``. A line that is not a JSON
object (or cannot be read: nested thousands deep, a number of thousands of
digits, bytes that are not UTF-8, past ``MAX_RECORD_BYTES``) is skipped with a
warning naming it; the others still import. A lone surrogate (``"\\ud800"``) becomes U+FFFD. Keys it
does not use are named in one warning.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from generator.errors import ContentError
from generator.model.paper import SourceList
from generator.sources.escapes import decided_breaks, shows_escaped_breaks
from generator.sources.relative import RelativeLinks
from generator.sources.records import RecordReader, field_name, patterned_columns, source_value
from generator.text.yamlutil import as_lf
from generator import diagnostics as codes

# Bytes one line (one record) may take: a 10 MB abstract is read; a 100 MB line (a whole export on one
# line, a runaway field) is skipped with a warning instead of taking every byte of memory to parse.
MAX_RECORD_BYTES = 32 << 20


# Lone halves of a surrogate pair ("\ud800"): valid JSON, but no character, and not encodable as UTF-8.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def read(path: Path, name: str, links: RelativeLinks | None = None) -> SourceList:
    """The file read a line at a time, so that one huge line costs a warning, not all memory."""
    try:
        with path.open("rb") as handle:
            return _parse_lines(_file_lines(handle), name, path, links)
    except OSError as exc:
        raise ContentError(f"cannot read the file: {exc.strerror or exc}", path=name) from None


def parse(text: str, name: str, path: Path | None = None) -> SourceList:
    return _parse_lines(enumerate(as_lf(text.removeprefix("\ufeff")).split("\n"), start=1), name, path)


def _file_lines(handle: BinaryIO) -> Iterator[tuple[int, str | _Skipped]]:
    """(line number, text) for each line, as ``as_lf`` numbers them (a lone CR ends a line too); a line
    past ``MAX_RECORD_BYTES`` or with bytes that are not UTF-8 comes as why it is skipped."""
    number = 0
    while True:
        raw = handle.readline(MAX_RECORD_BYTES + 1)
        if not raw:
            return
        size = len(raw)
        while size > MAX_RECORD_BYTES and not raw.endswith(b"\n"):  # the rest of it, never held whole
            raw = handle.readline(MAX_RECORD_BYTES)
            size += len(raw)
            if not raw:
                break
        if size > MAX_RECORD_BYTES:
            number += 1
            yield number, _Skipped(f"this line is {size:,} bytes, past the {MAX_RECORD_BYTES:,} a record may take "
                                   "(a whole file on one line?); skipped it")
            continue
        if number == 0:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        raw = raw.removesuffix(b"\n").removesuffix(b"\r")
        try:
            pieces = raw.decode("utf-8").split("\r")
        except UnicodeDecodeError as exc:
            number += 1
            yield number, _Skipped(f"byte 0x{raw[exc.start]:02x} on this line is not UTF-8; skipped the line "
                                   "(save the file as UTF-8)")
            continue
        for piece in pieces:
            number += 1
            yield number, piece


class _Skipped(str):
    """A line that is not read, as the warning saying why."""


def _parse_lines(lines: Iterable[tuple[int, str]], name: str, path: Path | None,
                 links: RelativeLinks | None = None) -> SourceList:
    reader = RecordReader(name, escaped_breaks=True, links=links)
    entries = []
    records: list[tuple[dict, int, list]] = []
    evidence: int | None = None  # the first line whose text writes a line break as \\n
    ignored: dict[str, int] = {}  # a key we do not use → the first line it is on
    for number, line in lines:
        if isinstance(line, _Skipped):
            reader.skip(str(line), number)
            continue
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            reader.skip(f"not valid JSON ({exc.msg}, column {exc.colno}); skipped the line", number)
            continue
        except (RecursionError, ValueError) as exc:  # arrays nested thousands deep; an integer of 5,000 digits
            reader.skip(f"cannot read this line ({_reason(exc)}); skipped it", number)
            continue
        if not isinstance(value, dict):
            reader.skip("each line must be a JSON object like {\"title\": …, \"abstract\": …}; skipped it", number)
            continue
        value = {_replace_surrogates(str(key)): item for key, item in value.items()}
        patterned = [(pattern, value[key]) for key, pattern in zip(value, patterned_columns(value, links))
                     if pattern is not None and isinstance(value[key], (str, int))]
        for key in _unused_keys(value):
            if not links or key.lower() not in links.columns:
                ignored.setdefault(key, number)
        record = _replace_surrogates(_our_names(value))
        for key in value:  # how the file names a field, for messages: the first spelling met
            reader.spelled.setdefault(field_name(str(key)) or "", str(key))
        if evidence is None and any(isinstance(record.get(key), str) and shows_escaped_breaks(record[key])
                                    for key in ("abstract", "title")):
            evidence = number
        records.append((record, number, patterned))
    # Made once every record is read: whether the file escapes its line breaks is the whole file's to say.
    reader.file_escapes = evidence is not None
    for record, number, patterned in records:
        entry = reader.entry(record, number, patterned)
        if entry is not None:
            entries.append(entry)
    if ignored:
        reader.warn(f"ignored key(s) {', '.join(ignored)}", min(ignored.values()), code=codes.JSON_IGNORED_KEYS,
                    subject=", ".join(ignored))
    if reader.decided:
        reader.warn(decided_breaks(reader.decided), evidence, code=codes.SOURCE_LINE_BREAKS)
    entries = reader.settle(entries)
    reader.finish()
    return SourceList(path or Path(name), "", tuple(entries), tuple(reader.diagnostics))


def _reason(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "values nested too deep"
    return str(exc).split(";")[0]


def _replace_surrogates(value: Any, depth: int = 0) -> Any:
    """The value with every lone surrogate made U+FFFD (the replacement character): the record is kept.
    Only as deep as a record's fields go (an author object in a list); deeper values are never used."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if depth > 3:
        return value
    if isinstance(value, dict):
        return {_replace_surrogates(key): _replace_surrogates(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [_replace_surrogates(item, depth + 1) for item in value]
    return value


def _our_names(value: dict) -> dict:
    links = value["links"] if isinstance(value.get("links"), dict) else {}
    record: dict[str, Any] = {}
    for key, item in [*links.items(), *value.items()]:
        name = field_name(str(key))
        item = source_value(name or "", str(key), item)
        if name is not None and (name not in record or (name == "award" and not record[name])):
            record[name] = item
    return record


def _unused_keys(value: dict) -> list[str]:
    links = value["links"] if isinstance(value.get("links"), dict) else {}
    keys = [str(key) for key in value if key != "links"] + [f"links.{key}" for key in links]
    return [key for key in keys if field_name(key.removeprefix("links.")) is None]
