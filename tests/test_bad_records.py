"""One bad record in a source never sinks the others (issue 19, the source readers): a CSV cell over the csv
module's field limit, a quote never closed, a byte that is not UTF-8; JSON Lines with a lone surrogate, an
integer of thousands of digits or arrays nested thousands deep; BibTeX names and titles nested thousands of
groups deep. Each is a warning naming the file and line, every other paper is published, the build exits 0,
and `check` reports the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.commands.check import check
from generator.reporter import Reporter
from record_fixtures import warnings

GOOD = [("g1", "A Good First Paper", "We study the first good thing in detail."),
        ("g2", "A Good Second Paper", "We study the second good thing in detail.")]


def csv_bytes(bad_row: bytes) -> bytes:
    rows = [b"UID,title,abstract"]
    rows.append(f"{GOOD[0][0]},{GOOD[0][1]},{GOOD[0][2]}".encode())
    rows.append(bad_row)
    rows.append(f"{GOOD[1][0]},{GOOD[1][1]},{GOOD[1][2]}".encode())
    return b"\n".join(rows) + b"\n"


def jsonl_bytes(bad_line: bytes) -> bytes:
    good = [json.dumps({"id": uid, "title": title, "abstract": text}).encode() for uid, title, text in GOOD]
    return b"\n".join([good[0], bad_line, good[1]]) + b"\n"


CASES = {
    "csv-field-over-limit": ("papers.csv", csv_bytes(b"big,Big," + b"word " * 40_000), 3, None),
    "csv-unterminated-quote": ("papers.csv", csv_bytes(b'bad,"Never closed,Abstract'), 3, "cannot be read"),
    # Read in the encoding detected (Windows-1252), and said where: the row is kept.
    "csv-invalid-utf8": ("papers.csv", csv_bytes(b"bad,Caf\xe9,An abstract in Latin-1."), 3, "0xe9"),
    "jsonl-lone-surrogate": ("papers.jsonl", jsonl_bytes(b'{"title": "Lone \\ud800", "abstract": "Half \\udfff"}'),
                             2, None),
    "jsonl-huge-integer": ("papers.jsonl", jsonl_bytes(b'{"title": "N", "abstract": "x", "n": ' + b"9" * 5000 + b"}"),
                           2, "digits"),
    "jsonl-deep-arrays": ("papers.jsonl", jsonl_bytes(b'{"title": "D", "abstract": "x", "ignored": '
                                                      + b"[" * 100_000 + b"]" * 100_000 + b"}"), 2, "nested too deep"),
    "jsonl-invalid-utf8": ("papers.jsonl", jsonl_bytes(b'{"title": "Caf\xe9", "abstract": "x"}'), 2, "0xe9"),
    "bib-deep-groups": ("papers.bib", (
        "\n".join(f"@inproceedings{{{uid}, title = {{{title}}}, abstract = {{{text}}}}}" for uid, title, text in GOOD)
        + "\n@inproceedings{deep, title = {" + "{" * 5000 + "T" + "}" * 5000 + "}, author = {"
        + "{" * 3000 + "A" + "}" * 3000 + "}, abstract = {Deep.}}\n").encode(), None, None),
}


@pytest.mark.parametrize("case", CASES)
def test_one_bad_record_never_sinks_the_others(tmp_path, case):
    name, data, line, words = CASES[case]
    content = tmp_path / "content"
    content.mkdir()
    (content / name).write_bytes(data)
    reporter = Reporter()
    result = build(content, tmp_path / "site", reporter)
    assert not reporter.errors, reporter.errors
    titles = {path.read_text(encoding="utf-8") for path in (content / "papers").glob("*.md")}
    for _, title, _ in GOOD:
        assert any(f"title: {title}" in page for page in titles), title
    assert result.papers >= 2
    if line is not None and words is not None:
        (problem,) = [d for d in reporter.warnings if d.line == line and words in d.message]
        assert str(problem.path) == name
        checked = Reporter()
        check(content, checked)
        assert any(d.line == line and words in d.message for d in checked.warnings)
    for path in (tmp_path / "site").rglob("*.html"):
        path.read_text(encoding="utf-8")  # every page is valid UTF-8: no lone surrogate reached it


def test_a_lone_surrogate_becomes_the_replacement_character(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.jsonl").write_bytes(CASES["jsonl-lone-surrogate"][1])
    build(content, tmp_path / "site", Reporter())
    pages = [p.read_text(encoding="utf-8") for p in (content / "papers").glob("*.md")]
    assert any("Lone \ufffd" in page and "Half \ufffd" in page for page in pages)


def test_a_huge_csv_cell_is_read_whole(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_bytes(CASES["csv-field-over-limit"][1])
    build(content, tmp_path / "site", Reporter())
    assert (content / "papers" / "big.md").is_file()


# -- integrity: pages keep their place ---------------------------------------------------------------------


def three_papers(tmp_path: Path, rows: str) -> tuple[Path, Path]:
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_text("UID,title,abstract\n" + rows, encoding="utf-8")
    build(content, tmp_path / "site", Reporter())
    return content, tmp_path / "site"


ROWS = ("1,Sorting Long Lists,We sort long lists of numbers quickly.\n"
        "2,Counting Objects,We count objects in photographs of rooms.\n"
        "3,Landscapes of Loss,We map loss landscapes of deep networks.\n")


def test_a_half_saved_page_keeps_its_place_and_its_url(tmp_path):
    content, site = three_papers(tmp_path, ROWS)
    page = content / "papers" / "counting-objects.md"
    whole = page.read_text(encoding="utf-8")
    page.write_text(whole[: whole.index("generated:") + 20], encoding="utf-8")  # the editor is still saving
    reporter = Reporter()
    build(content, site, reporter)
    assert sorted(p.name for p in (content / "papers").glob("*.md")) == [
        "counting-objects.md", "landscapes-of-loss.md", "sorting-long-lists.md"]  # no second page for it
    assert (site / "papers" / "counting-objects.html").is_file()  # the last good HTML stays
    page.write_text(whole, encoding="utf-8")  # the save completes
    reporter = Reporter()
    result = build(content, site, reporter)
    assert not reporter.errors and result.changes == []
    assert "Counting Objects" in (site / "papers" / "counting-objects.html").read_text(encoding="utf-8")


def test_a_repeated_source_id_and_a_hand_edit_never_move_a_title(tmp_path):
    rows = ("7,First Paper,We study the first question in depth.\n"
            "7,Second Paper,We answer an unrelated second question.\n")
    content, site = three_papers(tmp_path, rows)
    second = content / "papers" / "second-paper.md"
    second.write_text(second.read_text(encoding="utf-8").replace("title: Second Paper", "title: My Own Title"),
                      encoding="utf-8")
    for _ in range(2):
        build(content, site, Reporter())
        assert "title: First Paper" in (content / "papers" / "first-paper.md").read_text(encoding="utf-8")
        text = second.read_text(encoding="utf-8")
        assert "title: My Own Title" in text and "unrelated second question" in text
        assert len(list((content / "papers").glob("*.md"))) == 2


def test_a_broken_page_keeps_the_html_at_its_own_address_whatever_its_file_name(tmp_path):
    content, site = three_papers(tmp_path, ROWS)
    page = content / "papers" / "counting-objects.md"
    renamed = page.rename(content / "papers" / "my-notes.md")  # the slug, not the file name, is the address
    build(content, site, Reporter())
    before = (site / "papers" / "counting-objects.html").read_bytes()
    renamed.write_text(renamed.read_text(encoding="utf-8").replace("order:", "order: [", 1), encoding="utf-8")
    build(content, site, Reporter())
    assert (site / "papers" / "counting-objects.html").read_bytes() == before
    assert not (site / "papers" / "my-notes.html").exists()


# -- A huge JSON Lines record ------------------------------------------------------------------------------

def test_a_100_mb_json_lines_record_is_skipped_with_a_warning_and_10_mb_is_read(tmp_path):
    import json

    from generator.sources import jsonlines

    path = tmp_path / "papers.jsonl"
    with path.open("wb") as handle:
        handle.write(json.dumps({"title": "One", "abstract": "We study one thing."}).encode() + b"\r\n")
        handle.write(b'{"title": "Huge", "abstract": "')
        for _ in range(100):
            handle.write(b"word " * 200_000)  # 1 MB at a time: 100 MB on one line
        handle.write(b'"}\n')
        handle.write(json.dumps({"title": "Ten", "abstract": "ten " * 2_500_000}).encode() + b"\n")
        handle.write(json.dumps({"title": "Last", "abstract": "We study the last thing."}).encode() + b"\n")
    source = jsonlines.read(path, "papers.jsonl")
    assert [(e.title, e.line) for e in source.entries] == [("One", 1), ("Ten", 3), ("Last", 4)]
    assert len(source.entries[1].text) > 9_000_000
    (warning,) = warnings(source)
    assert warning[0] == 2 and "100,000,0" in warning[1] and "skipped it" in warning[1]


def test_json_lines_line_ends_beside_a_bad_byte(tmp_path):
    # A lone CR ends a line, whatever other line holds a byte that is not UTF-8.
    from generator.sources import jsonlines

    path = tmp_path / "p.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"title": "A"}\r{"title": "B"}\r\n{"title": "Caf\xe9"}\n{"title": "D"}')
    source = jsonlines.read(path, "p.jsonl")
    assert [(e.title, e.line) for e in source.entries] == [("A", 1), ("B", 2), ("D", 4)]
    assert warnings(source) == [(3, "byte 0xe9 on this line is not UTF-8; skipped the line (save the file as UTF-8)")]
