"""CSV and TSV with a header row, such as Mini-Conf's ``papers.csv``.

Columns are matched by name, in any order and case (``UID``, ``title``,
``authors``, ``abstract``, ``keywords``, ``pdf_url``, ``session``… see
``records.FIELDS``); authors and keywords are separated by ``|`` (or ``;``).
Unknown columns are ignored with one warning. A row without an abstract is
skipped with an error naming its line.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from generator.errors import ContentError
from generator.model import SourceList
from generator.sources.records import REQUIRED_ANY, RecordReader, accepted_names, field_name
from generator.yamlutil import read_utf8


def read_csv(path: Path, name: str) -> SourceList:
    return parse(read_utf8(path, name, ContentError), name, ",", path)


def read_tsv(path: Path, name: str) -> SourceList:
    return parse(read_utf8(path, name, ContentError), name, "\t", path)


def parse(text: str, name: str, delimiter: str, path: Path | None = None) -> SourceList:
    # Rows end at line ends only: str.splitlines() would also cut a row at U+2028, U+0085 or a form feed.
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(rows, None)
    except csv.Error as exc:
        raise ContentError(f"the header row is not valid: {exc}", path=name, line=1) from None
    if not header or not any(cell.strip() for cell in header):
        raise ContentError("the table is empty; its first row should name the columns "
                           "(title, authors, abstract…)", path=name, line=1)
    columns = [field_name(cell) for cell in header]
    if not any(required in columns for required in REQUIRED_ANY):
        raise ContentError(f"no abstract or title column: the header names {', '.join(header)}; "
                           f"accepted names are {accepted_names(*REQUIRED_ANY)} (in any case)", path=name, line=1)
    reader = RecordReader(name, escaped_breaks=True)
    ignored = [cell for cell, column in zip(header, columns) if column is None and cell.strip()]
    if ignored:
        reader.warn(f"ignored column(s) {', '.join(ignored)}", 1)
    entries = []
    line = rows.line_num + 1  # where the next row starts
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ContentError(f"the table cannot be read past here: {exc}", path=name, line=line) from None
        if any(cell.strip() for cell in row):
            if len(row) > len(header):
                reader.warn(f"row has {len(row)} cells but the header names {len(header)}; "
                            "ignored the extra cells", line)
            record = {column: cell for column, cell in zip(columns, row) if column is not None}
            entry = reader.entry(record, line)
            if entry is not None:
                entries.append(entry)
        line = rows.line_num + 1
    return SourceList(path or Path(name), "", tuple(entries), tuple(reader.diagnostics))
