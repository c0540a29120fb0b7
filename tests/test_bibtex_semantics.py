"""BibTeX read and written as BibTeX does: @string concatenation and month macros, string bombs stopped with a
warning, and citation keys that never repeat in proceedings.bib."""

from __future__ import annotations

import time

import pytest

from generator.sources import bibtex

from record_fixtures import build, names, warnings


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


@pytest.mark.slow  # parses a file of 100,000 lines
def test_a_chain_of_100000_strings_stops_with_a_warning():
    lines = ['@string{s0 = "word "}'] + [f"@string{{s{n} = s{n - 1} # \"word \"}}" for n in range(1, 100_000)]
    text = "\n".join(lines) + "\n@inproceedings{fine, title = {Fine}, abstract = {We study y.}}\n"
    source = bibtex.parse(text, "chain.bib")
    assert [e.uid for e in source.entries] == ["fine"]
    (warning,) = warnings(source)
    assert "@string" in warning[1] and 1_000 < warning[0] < 100_000


# -- Citation keys unique across the volume ---------------------------------------------------------------

def test_two_bib_files_sharing_a_key_never_repeat_it_in_proceedings_bib(tmp_path):
    import re

    content = tmp_path / "content"
    content.mkdir()
    (content / "a.bib").write_text("@inproceedings{doe2026, title = {Quasars}, abstract = {We fit quasars.}}\n"
                                   "@inproceedings{Roe2026, title = {Comets}, abstract = {We track comets.}}\n",
                                   encoding="utf-8")
    (content / "b.bib").write_text("@inproceedings{doe2026, title = {Proteins}, abstract = {We fold proteins.}}\n"
                                   "@inproceedings{roe2026, title = {Pulsars}, abstract = {We time pulsars.}}\n",
                                   encoding="utf-8")
    assert build(content, tmp_path / "site") == 0
    site = tmp_path / "site"
    keys = re.findall(r"^@inproceedings\{([^,]+),", (site / "proceedings.bib").read_text(encoding="utf-8"), re.M)
    assert keys == ["doe2026", "Roe2026", "doe2026-2", "roe2026-2"]  # BibTeX compares keys without case
    assert "@inproceedings{doe2026-2," in (site / "papers" / "proteins.html").read_text(encoding="utf-8")
    assert "@inproceedings{doe2026," in (site / "papers" / "quasars.html").read_text(encoding="utf-8")
