"""Issue 38, part 1: a venue's table as a spreadsheet saves it gives every paper — Windows-1252, Latin-1,
UTF-16 with or without a byte-order mark, cells separated by `;` (Excel where the decimal mark is a comma),
tabs or `|` — and says once, naming the file, what it detected. The variants are made here from the UTF-8
fixtures in tests/fixtures/venues/, as a spreadsheet would write them (csv.writer, CRLF line ends)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from conftest import cli
from generator.errors import ContentError
from generator.sources import read_source
from generator.sources.encoding import decode
from generator.sources.table import parse, sniff_delimiter

VENUES = Path(__file__).parent / "fixtures" / "venues"
TABLES = ["ismir-2024-papers.csv", "miniconf-2020-papers.csv", "sigdial-2023-papers.csv", "icwsm-2021-papers.csv",
          "conftool-export.csv"]


def read_source_text(text: str, name: str):
    return parse(text, name, "\t" if name.endswith(".tsv") else ",")


def resaved(text: str, delimiter: str) -> str:
    """``text`` (a CSV) written again as a spreadsheet writes it, with ``delimiter`` between cells."""
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows(csv.reader(io.StringIO(text, newline="")))
    return out.getvalue()


# variant → (delimiter, encoding, what the file's one note says, or None)
VARIANTS = {
    "windows-1252": (",", "cp1252", "read as Windows-1252"),
    "latin-1": (",", "latin-1", "read as Windows-1252"),  # the same characters where Latin-1 has them
    "utf-16 with BOM": (",", "utf-16", "read as UTF-16, as its byte-order mark says"),
    "utf-16-le without BOM": (",", "utf-16-le", "read as UTF-16 (little-endian, no byte-order mark)"),
    "utf-16-be without BOM": (",", "utf-16-be", "read as UTF-16 (big-endian, no byte-order mark)"),
    "excel ; windows-1252": (";", "cp1252", "read as Windows-1252"),
    "excel ; utf-8 with BOM": (";", "utf-8-sig", None),
    "tabs in a .csv, utf-16": ("\t", "utf-16", "read as UTF-16, as its byte-order mark says"),
    "pipes": ("|", "utf-8", None),
}


def papers(source) -> list[tuple]:
    return [(e.uid, e.title, e.text, e.details.authors, e.keywords, e.line) for e in source.entries]


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_paper_of_a_venue_table_in_any_encoding_and_delimiter(tmp_path, table, variant):
    delimiter, encoding, note = VARIANTS[variant]
    original = (VENUES / table).read_text(encoding="utf-8")
    copy = tmp_path / table
    copy.write_bytes(resaved(original, delimiter).encode(encoding))
    expected = read_source(VENUES / table, table)
    source = read_source(copy, table)
    assert papers(source) == papers(expected) and len(source.entries) >= 2
    said = [d for d in source.diagnostics if d not in expected.diagnostics]
    if note is not None and not original.isascii():  # (an ASCII file reads the same in every 8-bit encoding)
        assert [d.message for d in said if note in d.message and d.path == table]
    if note is not None and encoding.startswith("utf-16"):
        assert [d.message for d in said if note in d.message and d.path == table]
    separated = [d for d in said if d.level == "info" and "cells are separated by" in d.message]
    assert len(separated) == (delimiter != ",") and all(d.path == table and d.line == 1 for d in separated)
    assert len(said) <= 2  # once per file: its encoding, its delimiter


def test_the_windows_1252_note_names_the_first_byte_that_is_not_utf8():
    text = "UID;title;abstract\r\n1;Plain;ASCII only\r\n2;Café;Déjà vu\r\n"
    decoded = decode(text.encode("cp1252"))
    assert decoded.text == text.replace("\r\n", "\n") and decoded.encoding == "cp1252"
    assert decoded.line == 3 and "byte 0xe9 here is the first that is not" in decoded.note


def test_a_utf8_file_with_one_row_pasted_in_windows_1252_keeps_the_row(tmp_path):
    rows = ["UID,title,abstract", "1,Müller's Theorem,Proved in Zürich.", "2,Café,Pasted from Word – with a dash.",
            "3,Ørsted,Back in UTF-8."]
    raw = b"\n".join(row.encode("cp1252" if row.startswith("2,") else "utf-8") for row in rows) + b"\n"
    (tmp_path / "p.csv").write_bytes(raw)
    source = read_source(tmp_path / "p.csv", "p.csv")
    assert [e.title for e in source.entries] == ["Müller's Theorem", "Café", "Ørsted"]
    assert source.entries[1].text == "Pasted from Word – with a dash."
    ((line, message),) = [(d.line, d.message) for d in source.diagnostics]
    assert line == 3 and message.startswith("line 3 is not UTF-8 like the rest of the file: read as Windows-1252")


def test_a_quote_closed_mid_cell_is_read_as_a_spreadsheet_reads_it():
    source = read_source_text('UID\ttitle\tabstract\n1\tOne\t"Quoted" and more\n2\tTwo\tSecond\n', "p.tsv")
    assert [(e.uid, e.text) for e in source.entries] == [("1", "Quoted and more"), ("2", "Second")]
    assert [d.line for d in source.diagnostics] == [2]


def test_a_binary_file_named_csv_is_refused_naming_it(tmp_path):
    (tmp_path / "p.csv").write_bytes(bytes(range(256)) * 8)
    with pytest.raises(ContentError) as raised:
        read_source(tmp_path / "p.csv", "p.csv")
    assert str(raised.value).startswith("p.csv:1: byte 0x00 is not UTF-8, and no other text encoding reads the file")


@pytest.mark.parametrize(("header", "default", "expected"), [
    ("UID,title,abstract", ",", ","),
    ("UID;title;authors;abstract", ",", ";"),
    ('"title; full";abstract;keywords', ",", ";"),
    ("title,abstract;keywords", ",", ","),  # a tie keeps the extension's
    ("UID\ttitle\tabstract", ",", "\t"),
    ("UID,title,abstract", "\t", ","),
    ("title|authors|abstract", ",", "|"),
    ("nothing;we;know", ",", ","),
])
def test_the_delimiter_is_the_one_whose_header_names_the_most_columns(header, default, expected):
    assert sniff_delimiter(header, default) == expected


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252", "utf-16"])
def test_an_unterminated_quote_is_reported_on_the_line_it_opens(tmp_path, encoding):
    text = 'UID;title;abstract\r\n1;Café;Fine\r\n2;Broken;"Never closed\r\n3;Last;Fine too\r\n'
    (tmp_path / "p.csv").write_bytes(text.encode(encoding))
    source = read_source(tmp_path / "p.csv", "p.csv")
    unread = [d for d in source.diagnostics if "cannot be read" in d.message]
    assert [d.line for d in unread] == [3]
    assert [(e.title, e.text) for e in source.entries] == [("Café", "Fine"), ("Broken", "Never closed"),
                                                           ("Last", "Fine too")]  # its line kept, as Excel would


def test_build_and_import_of_an_excel_copy_give_every_paper_and_say_what_was_detected(tmp_path):
    original = (VENUES / "ismir-2024-papers.csv").read_text(encoding="utf-8")
    excel = tmp_path / "ismir-2024-papers.csv"
    excel.write_bytes(resaved(original, ";").encode("cp1252"))
    content = tmp_path / "content"
    imported = cli("import", str(excel), "--content", str(content))
    assert imported.returncode == 0, imported.stderr
    built = cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert built.returncode == 0, built.stderr
    expected = len(read_source(VENUES / "ismir-2024-papers.csv", "x").entries)
    assert f"built {expected} papers" in built.stderr
    for result in (imported, built):
        assert result.stderr.count("ismir-2024-papers.csv:3: warning: not UTF-8") == 1
        assert result.stderr.count("ismir-2024-papers.csv:1: info: cells are separated by semicolons") == 1
    pages = "".join(p.read_text(encoding="utf-8") for p in (content / "papers").glob("*.md"))
    assert "Queen Mary University of London" in pages and "Johannes Kepler University Linz" in pages
