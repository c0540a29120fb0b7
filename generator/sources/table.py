"""CSV and TSV with a header row, such as Mini-Conf's ``papers.csv``.

Columns are matched by name, in any order and case (``UID``, ``title``,
``authors``, ``abstract``, ``keywords``, ``pdf_url``, ``session``… see
``records.FIELDS``); authors and keywords are separated by ``|`` (or ``;``).
Unknown columns are ignored with one warning. A row without an abstract is
skipped with a warning naming its line, as is a row that cannot be read (a
quote never closed, a byte that is not UTF-8): reading goes on with the next.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

from generator.errors import ContentError
from generator.model.paper import SourceList
from generator.sources.escapes import decided_breaks, shows_escaped_breaks
from generator.sources.relative import RelativeLinks
from generator.sources.records import (REQUIRED_ANY, RecordReader, accepted_names, bad_bytes_in, field_name,
                                       field_rank, patterned_columns, read_lines_leniently, row_record)


def read_csv(path: Path, name: str, links: RelativeLinks | None = None) -> SourceList:
    text, bad_lines = read_lines_leniently(path, name)
    return parse(text, name, ",", path, bad_lines, links)


def read_tsv(path: Path, name: str, links: RelativeLinks | None = None) -> SourceList:
    text, bad_lines = read_lines_leniently(path, name)
    return parse(text, name, "\t", path, bad_lines, links)


def parse(text: str, name: str, delimiter: str, path: Path | None = None,
          bad_lines: dict[int, str] | None = None, links: RelativeLinks | None = None) -> SourceList:
    lines = text.split("\n")
    header = _header(lines, name, delimiter)
    columns = [field_name(cell) for cell in header]
    if not any(required in columns for required in REQUIRED_ANY):
        raise ContentError(f"no abstract or title column: the header names {', '.join(header)}; "
                           f"accepted names are {accepted_names(*REQUIRED_ANY)} (in any case)", path=name, line=1)
    evidence = next((n for n, line in enumerate(lines[1:], start=2) if shows_escaped_breaks(line)), None)
    reader = RecordReader(name, escaped_breaks=True, file_escapes=evidence is not None, links=links,
                          spelled=_spelled(header, columns))
    patterns = patterned_columns(header, links)  # columns a `links:` pattern makes links from
    ignored = [cell for cell, column, pattern in zip(header, columns, patterns)
               if column is None and pattern is None and cell.strip()]
    if ignored:
        reader.warn(f"ignored column(s) {', '.join(ignored)}", 1)
    if "abstract" not in columns:
        reader.warn(f"no abstract column, so no paper of this file has an abstract: the header names "
                    f"{', '.join(header)}; an abstract column may be named {accepted_names('abstract')}", 1)
    entries = []
    for row, first, last in _rows(lines, 2, delimiter, reader):
        if not any(cell.strip() for cell in row):
            continue
        byte = bad_bytes_in(bad_lines or {}, first, last)
        if byte:
            reader.warn(f"byte {byte} on this row is not UTF-8; skipped the row (save the file as UTF-8)", first)
            continue
        if len(row) > len(header):
            reader.warn(f"row has {len(row)} cells but the header names {len(header)}; ignored the extra cells", first)
        entry = reader.entry(row_record(columns, header, row), first,
                             [(pattern, cell) for pattern, cell in zip(patterns, row) if pattern is not None])
        if entry is not None:
            entries.append(entry)
    if reader.decided:
        reader.warn(decided_breaks(reader.decided), evidence)
    entries = reader.settle(entries)
    reader.finish()
    return SourceList(path or Path(name), "", tuple(entries), tuple(reader.diagnostics))


def _spelled(header: list[str], columns: list[str | None]) -> dict[str, str]:
    """Our name of each field → the header's name of the column it is read from first, for messages."""
    spelled: dict[str, str] = {}
    for cell, column in sorted(zip(header, columns), key=lambda pair: field_rank(pair[0])):
        if column is not None:
            spelled.setdefault(column, cell.strip())
    return spelled


def _header(lines: list[str], name: str, delimiter: str) -> list[str]:
    try:
        header = next(csv.reader(io.StringIO(lines[0] if lines else "", newline=""), delimiter=delimiter,
                                 strict=True), None)
    except csv.Error as exc:
        raise ContentError(f"the header row is not valid: {exc}", path=name, line=1) from None
    if not header or not any(cell.strip() for cell in header):
        raise ContentError("the table is empty; its first row should name the columns "
                           "(title, authors, abstract…)", path=name, line=1)
    return header


def _rows(lines: list[str], start: int, delimiter: str, reader: RecordReader) -> Iterator[tuple[list[str], int, int]]:
    """Rows from line ``start`` on, with the lines each spans. A row the csv module cannot read (a quote
    never closed) is skipped with a warning and reading starts again on the line after it starts."""
    # A cell may be as long as the file: the csv module's own limit (128 KiB) would stop the whole table.
    csv.field_size_limit(max(csv.field_size_limit(), sum(len(line) + 1 for line in lines)))
    while start <= len(lines):
        # Rows end at line ends only: str.splitlines() would also cut a row at U+2028, U+0085 or a form feed.
        rows = csv.reader(io.StringIO("\n".join(lines[start - 1:]), newline=""), delimiter=delimiter, strict=True)
        first = start
        try:
            for row in rows:
                yield row, first, start - 1 + rows.line_num
                first = start + rows.line_num
            return
        except csv.Error as exc:
            reader.warn(f"this row cannot be read ({exc}: is a quote never closed?); skipped it and read on "
                        "from the next line", first)
            start = first + 1
