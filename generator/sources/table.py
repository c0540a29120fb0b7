"""CSV and TSV with a header row, such as Mini-Conf's ``papers.csv``.

Columns are matched by name, in any order and case (``UID``, ``title``,
``authors``, ``abstract``, ``keywords``, ``pdf_url``, ``session``… see
``records.FIELDS``); authors and keywords are separated by ``|`` (or ``;``).
Unknown columns are ignored with one warning. A row with neither a title nor
an abstract is skipped with a warning naming its line; a row whose quote never
closes is read from its own line, as a spreadsheet reads it, with a warning.

As a spreadsheet saves them: in any encoding (sources/encoding.py), with cells separated by a comma, a
semicolon (Excel where the decimal mark is a comma), a tab or ``|`` — the one whose header cells name the
most known columns, said once when it is not the extension's own.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

from generator import diagnostics as codes
from generator.errors import ContentError, Diagnostic
from generator.model.paper import SourceList
from generator.sources.encoding import read_text, with_note
from generator.sources.escapes import decided_breaks, shows_escaped_breaks
from generator.sources.relative import RelativeLinks
from generator.sources.records import (REQUIRED_ANY, RecordReader, accepted_names, field_name, field_rank,
                                       patterned_columns, row_record)


DELIMITERS = (",", ";", "\t", "|")
_SAID = {",": "commas", ";": "semicolons", "\t": "tabs", "|": "`|`"}


def read_csv(path: Path, name: str, links: RelativeLinks | None = None) -> SourceList:
    return _read(path, name, ",", links)


def read_tsv(path: Path, name: str, links: RelativeLinks | None = None) -> SourceList:
    return _read(path, name, "\t", links)


def _read(path: Path, name: str, delimiter: str, links: RelativeLinks | None) -> SourceList:
    decoded = read_text(path, name)
    return with_note(parse(decoded.text, name, delimiter, path, links), decoded, name)


def parse(text: str, name: str, delimiter: str, path: Path | None = None,
          links: RelativeLinks | None = None) -> SourceList:
    lines = text.split("\n")
    given, delimiter = delimiter, sniff_delimiter(lines[0] if lines else "", delimiter)
    header = _header(lines, name, delimiter)
    columns = [field_name(cell) for cell in header]
    if not any(required in columns for required in REQUIRED_ANY):
        raise ContentError(f"no abstract or title column: the header names {', '.join(header)}; "
                           f"accepted names are {accepted_names(*REQUIRED_ANY)} (in any case)", path=name, line=1,
                           code=codes.SOURCE_INVALID)
    evidence = next((n for n, line in enumerate(lines[1:], start=2) if shows_escaped_breaks(line)), None)
    reader = RecordReader(name, escaped_breaks=True, file_escapes=evidence is not None, links=links,
                          spelled=_spelled(header, columns))
    if delimiter != given:
        reader.diagnostics.append(Diagnostic("info", f"cells are separated by {_SAID[delimiter]}, not "
                                             f"{_SAID[given]}: read so", name, 1, codes.TABLE_DELIMITER,
                                             value=delimiter))
    patterns = patterned_columns(header, links)  # columns a `links:` pattern makes links from
    ignored = [cell for cell, column, pattern in zip(header, columns, patterns)
               if column is None and pattern is None and cell.strip()]
    if ignored:
        reader.warn(f"ignored column(s) {', '.join(ignored)}", 1, code=codes.TABLE_IGNORED_COLUMNS,
                    subject=", ".join(ignored))
    if "abstract" not in columns:
        reader.warn(f"no abstract column, so no paper of this file has an abstract: the header names "
                    f"{', '.join(header)}; an abstract column may be named {accepted_names('abstract')}", 1,
                    code=codes.TABLE_NO_ABSTRACT)
    entries = []
    for row, first in _rows(lines, 2, delimiter, reader):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            reader.warn(f"row has {len(row)} cells but the header names {len(header)}; ignored the extra cells", first,
                        code=codes.TABLE_EXTRA_CELLS)
        entry = reader.entry(row_record(columns, header, row), first,
                             [(pattern, cell) for pattern, cell in zip(patterns, row) if pattern is not None])
        if entry is not None:
            entries.append(entry)
    if reader.decided:
        reader.warn(decided_breaks(reader.decided), evidence, code=codes.SOURCE_LINE_BREAKS)
    entries = reader.settle(entries)
    reader.finish()
    return SourceList(path or Path(name), "", tuple(entries), tuple(reader.diagnostics))


def sniff_delimiter(header: str, default: str) -> str:
    """The separator of a table's cells: of ``DELIMITERS``, the one whose header cells name the most known
    columns (a tie keeps ``default``, the extension's)."""
    def known(delimiter: str) -> int:
        try:
            cells = next(csv.reader([header], delimiter=delimiter), [])
        except csv.Error:
            return 0
        return len({field_name(cell) for cell in cells} - {None})

    counts = {delimiter: known(delimiter) for delimiter in DELIMITERS}
    best = max(DELIMITERS, key=lambda delimiter: (counts[delimiter], delimiter == default))
    return best if counts[best] > counts[default] else default


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
        raise ContentError(f"the header row is not valid: {exc}", path=name, line=1,
                           code=codes.SOURCE_INVALID) from None
    if not header or not any(cell.strip() for cell in header):
        raise ContentError("the table is empty; its first row should name the columns "
                           "(title, authors, abstract…)", path=name, line=1, code=codes.SOURCE_INVALID)
    return header


def _rows(lines: list[str], start: int, delimiter: str, reader: RecordReader) -> Iterator[tuple[list[str], int]]:
    """Rows from line ``start`` on, with the line each starts on. A row the csv module cannot read (a quote
    never closed, a quote closed mid-cell) is read from its first line alone, as a spreadsheet reads it (the
    quote's cell up to the line's end), with a warning; reading goes on with the line after it."""
    # A cell may be as long as the file: the csv module's own limit (128 KiB) would stop the whole table.
    csv.field_size_limit(max(csv.field_size_limit(), sum(len(line) + 1 for line in lines)))
    while start <= len(lines):
        # Rows end at line ends only: str.splitlines() would also cut a row at U+2028, U+0085 or a form feed.
        rows = csv.reader(io.StringIO("\n".join(lines[start - 1:]), newline=""), delimiter=delimiter, strict=True)
        first = start
        try:
            for row in rows:
                yield row, first
                first = start + rows.line_num
            return
        except csv.Error as exc:
            alone = _line_alone(lines[first - 1], delimiter)
            if alone is None:
                reader.skip(f"this row cannot be read ({exc}: is a quote never closed?); skipped it and read on "
                            "from the next line", first)
            else:
                reader.warn(f"this row cannot be read whole ({exc}: is a quote never closed?); read its first "
                            "line alone, as a spreadsheet would, and on from the next line", first,
                            code=codes.TABLE_ROW_UNCLOSED)
                yield alone, first
            start = first + 1


def _line_alone(line: str, delimiter: str) -> list[str] | None:
    """The cells of one line whose quotes do not pair, as a spreadsheet reads them; None if it holds none."""
    try:
        row = next(csv.reader([line], delimiter=delimiter, strict=False), None)
    except csv.Error:
        return None
    return row if row and any(cell.strip() for cell in row) else None
