"""The input edge (issue 27): what a source or a page may hold, read as the tools that wrote it read it."""

from __future__ import annotations

import time

from generator.cli import main
from generator.sources import bibtex


def build(content, site) -> int:
    return main(["build", "--content", str(content), "--out", str(site)])


def names(entry) -> list[str]:
    return [author.name for author in entry.details.authors]


def warnings(source) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in source.diagnostics]


# -- BibTeX strings, resolved as BibTeX resolves them -------------------------------------------------

STRINGS = r"""@string{first = "Jane"}
@String{FULL = first # " Doe"}
@string{venue = "Small " # {Models}}
@inproceedings{a, title = "On " # venue, author = full # " and " # "Richard Roe",
  month = jun, year = 2026, abstract = {We study x.}}
@inproceedings{b, title = {Plain}, month = {Dec}, pages = 1 # "--" # 9, abstract = "Quoted " # {and braced.}}
"""


def test_bibtex_concatenation_strings_from_strings_and_month_macros():
    source = bibtex.parse(STRINGS, "x.bib")
    a, b = source.entries
    assert a.title == "On Small Models"
    assert names(a) == ["Jane Doe", "Richard Roe"]
    assert a.details.month == "June" and a.details.year == "2026"  # `jun` is BibTeX's own macro
    assert b.details.month == "Dec" and b.details.pages == "1--9"
    assert b.text == "Quoted and braced."
    assert warnings(source) == []


def test_bibtex_month_is_written_back_as_its_macro(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.bib").write_text(STRINGS, encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    bib = (tmp_path / "site" / "proceedings.bib").read_text(encoding="utf-8")
    assert "  month = jun,\n" in bib and "  month = dec,\n" in bib
    assert "{jun}" not in bib and "#" not in bib
    assert "Jane Doe and Richard Roe" in bib


def test_an_exponential_string_bomb_stops_with_a_warning_naming_its_line():
    lines = ['@string{s0 = "xxxxxxxxxx"}'] + [f"@string{{s{n} = s{n - 1} # s{n - 1}}}" for n in range(1, 60)]
    text = "\n".join(lines) + "\n@inproceedings{bomb, title = s59, abstract = {x}}\n" \
        "@inproceedings{fine, title = {Fine}, abstract = {We study y.}}\n"
    started = time.perf_counter()
    source = bibtex.parse(text, "bomb.bib")
    assert time.perf_counter() - started < 10
    assert [e.uid for e in source.entries][-1] == "fine"
    assert all(len(e.title) < 10_000 for e in source.entries)
    (warning,) = warnings(source)
    assert warning[0] == 20 and "@string" in warning[1] and "10,000,000 characters" in warning[1]


def test_a_chain_of_100000_strings_stops_with_a_warning():
    lines = ['@string{s0 = "word "}'] + [f"@string{{s{n} = s{n - 1} # \"word \"}}" for n in range(1, 100_000)]
    text = "\n".join(lines) + "\n@inproceedings{fine, title = {Fine}, abstract = {We study y.}}\n"
    source = bibtex.parse(text, "chain.bib")
    assert [e.uid for e in source.entries] == ["fine"]
    (warning,) = warnings(source)
    assert "@string" in warning[1] and 1_000 < warning[0] < 100_000
