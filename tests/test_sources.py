"""Input formats: each reads into the right entries, names its problems by file and line, and keeps the
merge rules; the fixtures in tests/fixtures/sources/ are written like the files venues publish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.model.details import parse_authors, parse_details
from generator.errors import ContentError
from generator.model.paper import Author
from generator.sources import find_sources, read_source
from generator.sources import bibtex, jsonlines, table

FIXTURES = Path(__file__).parent / "fixtures" / "sources"


def read(name: str):
    return read_source(FIXTURES / name, name)


def no_problem(key, message):
    pytest.fail(f"unexpected problem with `{key}`: {message}")


def problems(source) -> list[tuple[str, int, str]]:
    return [(d.level, d.line, d.message) for d in source.diagnostics]


def names(entry) -> list[str]:
    return [author.name for author in entry.details.authors]


# -- BibTeX -------------------------------------------------------------------


def test_bibtex_entries_in_unicode_with_their_details():
    source = read("venue.bib")
    assert source.title == "Proceedings of the First Workshop on Small Models"  # from the @proceedings entry
    sparse, rates, _, _, tokens = source.entries
    assert sparse.title == "Sparse Attention for Tiny Transformers"
    assert names(sparse) == ["Jane Doe", "Ludwig van Beethoven", "Jörg Müller"]
    assert sparse.keywords == ("attention", "efficiency", "small models")
    assert sparse.uid == "doe-etal-2026-sparse" and sparse.line == 12 and sparse.index == 1
    assert sparse.details.doi == "10.18653/v1/2026.wsm-1.1"
    assert sparse.details.pdf == "https://anthology.example.org/2026.wsm-1.1.pdf"  # a url ending in .pdf
    # The abstract stays LaTeX for the renderer, its lines as written.
    assert sparse.text.startswith("We study sparse attention for transformers with fewer than\n$10^6$ parameters.")
    assert "$x^2$" in sparse.text and "50\\%" in sparse.text
    assert rates.title == "Learning Rates for Étude Networks"
    assert names(rates) == ["María García", "Pedro de la Cruz", "John Smith, Jr."]
    assert rates.details.pdf.endswith("garcia26a.pdf")  # the pdf field wins over url
    assert "\n\nA second paragraph" in rates.text
    assert tokens.title == "Counting Tokens with $O(\\log n)$ Memory"  # math in a title stays LaTeX
    assert names(tokens) == ["Wei Chen", "Søren Østergaard"]
    assert tokens.line == 57 and tokens.index == 5
    assert rates.details.pages == "13--24" and rates.details.volume == "300" and rates.details.publisher == "PMLR"
    assert rates.details.editors == ("Jane Doe",)
    assert source.volume.editors == ("Jane Doe", "Richard Roe") and source.volume.year == "2026"


def test_bibtex_problems_name_their_line_and_the_broken_entry_keeps_what_it_can():
    source = read("venue.bib")
    assert [(level, line) for level, line, _ in problems(source)] == [("warning", 53), ("warning", 55)]
    assert "the brace opened here never closes; the value is read up to line 53" in problems(source)[0][2]
    # An entry with a title and no abstract is a paper without an abstract.
    assert [e.uid for e in source.entries] == ["doe-etal-2026-sparse", "pmlr-v300-garcia26a",
                                               "roe-2026-no-abstract", "broken-2026", "chen-2026-tokens"]
    assert source.entries[2].text == "" and source.entries[2].title == "A Paper Without an Abstract"
    broken = source.entries[3]  # its title's brace never closes: it ends where `author = {` starts
    assert (broken.title, broken.text, names(broken)) == ("This entry never closes its braces", "Lost.",
                                                          ["Anne Nobody"])


def test_bibtex_and_others_duplicates_and_openreview_urls():
    text = r"""
@inproceedings{a, title = {One}, author = {Doe, Jane and others}, abstract = {First.},
  url = {https://openreview.net/forum?id=abcdef}}
@inproceedings{b, title = {Twice}, title = {Again}, abstract = {Second.}}
"""
    source = bibtex.parse(text, "x.bib")
    entry, twice = source.entries
    assert names(entry) == ["Jane Doe"]  # "and others" is et al., not an author
    assert entry.details.openreview == "https://openreview.net/forum?id=abcdef"
    assert twice.title == "Twice"  # the first value, as BibTeX keeps it
    assert problems(source) == [("warning", 4, "@inproceedings{b} gives `title` again, with another value: "
                                               "the first value is kept, as BibTeX keeps it")]


# -- CSV and TSV --------------------------------------------------------------


def test_mini_conf_csv_rows_with_quoted_commas_and_newlines():
    source = read("papers.csv")
    assert source.title == ""
    first, second, third, fourth = source.entries
    assert first.uid == "wsm-001" and first.line == 2
    assert first.title == "Sparse Attention, Revisited"
    assert first.text.endswith("50\\% on three benchmarks.\n\nA second paragraph, with a comma.")
    assert names(first) == ["Jane Doe", "Jörg Müller", "Ana María García"]
    assert first.keywords == ("attention", "efficiency", "small models")
    assert first.details.sessions == ("Session 1",)  # Mini-Conf's sessions column
    assert first.details.pdf == "https://example.org/wsm-001.pdf"
    assert first.details.code == "https://github.com/example/sparse"
    assert second.line == 5 and 'matching "lower bound".' in second.text
    assert (third.uid, third.text, third.title) == ("wsm-003", "", "A Row Without an Abstract")  # still a paper
    assert (fourth.uid, fourth.index, fourth.line) == ("wsm-004", 4, 7)
    assert fourth.details.pdf == ""


def test_csv_problems_name_their_line():
    assert problems(read("papers.csv")) == [
        ("warning", 1, "ignored column(s) poster_id"),
        ("warning", 7, "“Learning Rates for Étude Networks”: `pdf` 'not a link' is not an http(s) URL "
                       "or a path inside the site; left out"),
    ]


def test_tsv():
    source = read("papers.tsv")
    assert [(e.uid, e.title, e.line) for e in source.entries] == [
        ("t-1", "Tabs Are Separators", 2), ("t-2", "Second Row", 3)]
    assert names(source.entries[0]) == ["Ada Lovelace", "Charles Babbage"]
    assert source.entries[1].text == "A second abstract, with a comma, and no quotes at all."
    assert source.diagnostics == ()


def test_csv_rows_end_at_line_ends_only():
    # U+2028 and U+0085 are line breaks to str.splitlines(), not to a spreadsheet.
    text = ("UID,title,abstract\na,One,First\u2028still first\x85and first\n"
            "b,Two,\"Quoted\nover two lines\"\nc,Three,3\n")
    source = table.parse(text, "x.csv", ",")
    assert [(e.uid, e.line) for e in source.entries] == [("a", 2), ("b", 3), ("c", 5)]
    assert source.entries[0].text == "First\u2028still first and first"  # NEL: a space (generator/text/cleantext.py)
    assert source.diagnostics == ()


def test_table_without_abstract_column_is_refused_with_its_columns():
    with pytest.raises(ContentError) as caught:
        table.parse("UID,name,summary_text\n1,A,B\n", "x.csv", ",")
    assert caught.value.line == 1 and "no abstract or title column" in str(caught.value)
    assert "UID, name, summary_text" in str(caught.value)
    assert "accepted names are `title`, `abstract`, `summary`" in str(caught.value)


def test_excel_export_with_bom_and_crlf(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_bytes("\ufeffUID,Title,Authors,Abstract\r\n7,T,\"Ada Lovelace, Charles Babbage\",An abstract.\r\n"
                     .encode("utf-8"))
    (entry,) = read_source(path, "excel.csv").entries
    assert entry.uid == "7"  # the BOM does not hide the first column
    assert names(entry) == ["Ada Lovelace", "Charles Babbage"]


def test_a_repeated_id_is_warned_about():
    source = table.parse("id,abstract\nx,One.\nx,Two.\n", "x.csv", ",")
    assert len(source.entries) == 2
    assert [(d.level, d.line) for d in source.diagnostics] == [("warning", 3)]
    assert "also on line 2" in source.diagnostics[0].message


# -- JSON Lines ---------------------------------------------------------------


def test_jsonl_authors_as_objects_and_links():
    first, second, no_abstract, untitled = read("papers.jsonl").entries
    assert (no_abstract.title, no_abstract.text, names(no_abstract)) == ("No Abstract Here", "", ["Nobody"])
    assert first.details.authors == (
        Author("Ada Lovelace", "Analytical Engine Society", "0000-0002-1825-0097"), Author("Charles Babbage"))
    assert first.details.pdf == "https://example.org/jl-1.pdf"
    assert first.details.code == "https://github.com/example/edges"
    assert first.details.openreview == "https://openreview.net/forum?id=AbCdEf123"  # a bare forum id
    assert first.details.doi == "10.5555/jl.1" and first.details.award == "Outstanding paper"
    assert first.details.track == ("Main track",) and first.keywords == ("graphs", "structure learning")
    assert first.text == ("We learn the edges of a graph together with the weights of a network on it, and show\n"
                          "that the learned graphs are sparse.")  # CRLF inside the value made LF
    assert second.keywords == ("counting", "small models") and second.details.pdf == "papers/jl-2.pdf"
    assert (untitled.title, untitled.uid, untitled.line, untitled.index) == ("", "jl-5", 7, 4)
    assert untitled.details.code == ""


def test_jsonl_problems_name_their_line():
    assert problems(read("papers.jsonl")) == [
        ("warning", 3, "not valid JSON (Unterminated string starting at, column 54); skipped the line"),
        ("warning", 5, "each line must be a JSON object like {\"title\": …, \"abstract\": …}; skipped it"),
        ("warning", 7, "record 'jl-5': `code` 'javascript:alert(1)' is not an http(s) URL or a path inside "
                       "the site; left out"),
        ("warning", 7, "ignored key(s) authors_extra"),
    ]


# -- details and the registry --------------------------------------------------


@pytest.mark.parametrize("written, expected", [
    ("Jane Doe, John Smith, and Ann Lee", ["Jane Doe", "John Smith", "Ann Lee"]),
    ("Ada Lovelace and Charles Babbage", ["Ada Lovelace", "Charles Babbage"]),
    ("Ada Lovelace; Charles Babbage", ["Ada Lovelace", "Charles Babbage"]),
    ("Doe, Jane", ["Jane Doe"]),  # never shown as "Family, Given"
    ("Doe, Jane; Smith, Jr., John*; van der Berg, Anna Maria",
     ["Jane Doe", "John Smith, Jr.", "Anna Maria van der Berg"]),
    ("Ada Lovelace|Charles Babbage*", ["Ada Lovelace", "Charles Babbage"]),
    ("John Smith, Jr.", ["John Smith, Jr."]),
])
def test_authors_written_as_one_string(written, expected):
    assert [a.name for a in parse_authors(written, no_problem)] == expected


def test_placeholders_in_link_cells_mean_no_link():
    details = parse_details({"pdf": "N/A", "code": "TBD", "openreview": "-", "doi": "none"}, no_problem)
    assert not details


def test_every_format_is_found_in_a_content_folder(tmp_path):
    for name in ("a.txt", "b.bib", "c.csv", "d.tsv", "e.jsonl", "f.json", "notes.md"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    assert [p.name for p in find_sources(tmp_path)] == ["a.txt", "b.bib", "c.csv", "d.tsv", "e.jsonl"]


def test_jsonl_reader_keeps_only_objects():
    source = jsonlines.parse(json.dumps({"abstract": "A.", "links": {"reviews": "x"}}) + "\n", "x.jsonl")
    assert len(source.entries) == 1 and problems(source) == [("warning", 1, "ignored key(s) links.reviews")]


def test_a_plain_list_paragraph_has_the_cap_a_json_lines_record_has():
    """A whole file with no blank line is skipped with a warning at its line, not derived for minutes."""
    from generator.diagnostics import RECORD_SKIPPED as SKIPPED
    from generator.sources.jsonlines import MAX_RECORD_BYTES
    from generator.sources.plainlist import parse
    huge = "word " * (MAX_RECORD_BYTES // 5 + 1)
    listed = parse(f"Title\n\n{huge}\n\nA real abstract about bandits.\n", "list.txt")
    assert [(entry.text, entry.index, entry.line) for entry in listed.entries] == [
        ("A real abstract about bandits.", 2, 5)]
    (skipped,) = listed.diagnostics
    assert (skipped.code, skipped.path, skipped.line) == (SKIPPED, "list.txt", 3)
    assert "past the 33,554,432 an abstract may take" in skipped.message
