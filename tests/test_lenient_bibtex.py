"""Issue 38, part 1: a .bib is read as leniently as BibTeX reads it, and every entry BibTeX keeps is a paper.

tests/fixtures/venues/pmlr-quirks.bib is shaped like PMLR's own volume files and holds each quirk that used to
cost a paper there: a field given twice (in an entry and in the @Proceedings), `H\\{o}gsgaard` in an abstract, an
entry and an abstract whose braces never close, a key used twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter
from generator.sources import bibtex

VENUES = Path(__file__).parent / "fixtures" / "venues"
QUIRKS = VENUES / "pmlr-quirks.bib"
_PAPER = re.compile(r"^\s*@(?!proceedings|string|comment|preamble)\w+\s*\{", re.I | re.M)


def read(text: str):
    return bibtex.parse(text, "x.bib")


def warnings(source) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in source.diagnostics]


def entries_in(text: str) -> int:
    return len(_PAPER.findall(text))


@pytest.mark.parametrize("path", sorted(VENUES.glob("*.bib")), ids=lambda p: p.name)
def test_every_entry_of_a_venues_bib_is_a_paper(path):
    """…but one with neither a title nor an abstract (pmlr-v999.bib has one), which has nothing to show."""
    text = path.read_text(encoding="utf-8")
    source = bibtex.parse(text, path.name)
    empty = [d for d in source.diagnostics if "has neither a title nor an abstract" in d.message]
    assert len(source.entries) + len(empty) == entries_in(text)
    assert len(empty) == (path.name == "pmlr-v999.bib")


def test_the_quirks_of_pmlr_files_each_keep_their_paper():
    source = bibtex.read(QUIRKS, QUIRKS.name)
    assert [e.uid for e in source.entries] == [
        "roe99", "mhammedi99a", "hoegsgaard99", "binnendyk99", "blanchard99", "kane99", "diakonikolas99a",
        "diakonikolas99a", "zhang99"]
    by_line = {e.line: e for e in source.entries}
    assert by_line[24].details.section == "Original Papers"  # `section` twice: the first value
    assert "H\\{o}gsgaard et al. (2024)" in by_line[34].text  # the accent BibTeX counts as a brace pair
    assert by_line[44].text.endswith("product distribution.")  # its entry's brace never closes: kept
    assert by_line[56].title.startswith("Universal Online Learning")  # and the next one is whole
    assert by_line[63].text.startswith("We give the first identity tester")  # its abstract never closes
    assert [e.title for e in source.entries if e.uid == "diakonikolas99a"] == [
        "Testing Identity of Multidimensional Histograms",
        "Communication and Memory Efficient Testing of Discrete Distributions"]
    lines = [line for line, _ in warnings(source)]
    assert lines == [13, 29, 44, 68, 79]


def test_a_proceedings_entry_with_a_field_twice_still_describes_the_volume():
    volume = bibtex.read(QUIRKS, QUIRKS.name).volume
    assert volume.title == "Proceedings of the Ninety-Ninth Conference on Learning Theory"
    assert volume.volume == "999" and volume.short_name == "COLT"
    assert volume.editors == ("Richard Roe", "Mikael Høgsgaard")


def test_a_field_given_twice_keeps_the_first_value_with_a_warning_naming_line_and_field():
    source = read("@inproceedings{a,\n  title = {First},\n  abstract = {A.},\n  Title = {Second}\n}\n"
                  "@inproceedings{b, title = {Next}, abstract = {B.}}\n")
    assert [e.title for e in source.entries] == ["First", "Next"]
    assert warnings(source) == [(4, "@inproceedings{a} gives `Title` again, with another value: the first value "
                                    "is kept, as BibTeX keeps it")]


def test_field_names_in_any_case_are_one_field():
    (entry,) = read("@InProceedings{a, Title = {One}, Author = {Doe, Jane and Roe, Richard}, "
                    "ABSTRACT = {Text.}}").entries
    assert [a.name for a in entry.details.authors] == ["Jane Doe", "Richard Roe"]
    assert entry.text == "Text."


def test_a_backslash_brace_counts_as_a_brace_as_in_bibtex():
    source = read("@inproceedings{a,\n  title = {Bounds},\n  abstract = {By H\\{o}gsgaard et al.},\n}\n"
                  "@inproceedings{b, title = {Next}, abstract = {B.}}\n")
    assert [(e.uid, e.text) for e in source.entries] == [("a", "By H\\{o}gsgaard et al."), ("b", "B.")]
    assert warnings(source) == []


def test_an_abstract_that_never_closes_ends_at_the_next_entry_and_every_later_entry_survives():
    later = "".join(f"@inproceedings{{p{n}, title = {{Paper {n}}}, abstract = {{Text {n}.}}}}\n" for n in range(5))
    source = read("@inproceedings{broken,\n  author = {Doe, Jane},\n  title = {Kept},\n"
                  "  abstract = {Starts {and never\n  closes.\n}\n\n" + later)
    broken, *rest = source.entries
    assert (broken.title, [a.name for a in broken.details.authors]) == ("Kept", ["Jane Doe"])
    assert broken.text.startswith("Starts {and never\nclose")
    assert [e.title for e in rest] == [f"Paper {n}" for n in range(5)]
    ((line, message),) = warnings(source)
    assert line == 4 and "the brace opened here never closes" in message and "@inproceedings{broken}" in message


def test_a_title_that_never_closes_ends_where_the_next_field_starts():
    (entry,) = read('@inproceedings{a,\n  title = {Half a title,\n  author = "Doe, Jane",\n'
                    "  abstract = {Whole.}\n}\n").entries
    assert (entry.title, entry.text, entry.details.authors[0].name) == ("Half a title", "Whole.", "Jane Doe")


def test_an_entry_without_its_closing_brace_at_the_end_of_the_file_is_kept():
    source = read("@inproceedings{last,\n  title = {Last},\n  abstract = {Text.}\n")
    assert [e.title for e in source.entries] == ["Last"]
    assert warnings(source) == [(1, "@inproceedings{last} never closes its braces; read up to the end of the file")]


def test_a_string_defined_twice_uses_the_later_definition():
    source = read('@string{conf = "Old"}\n@string{conf = "COLT"}\n'
                  "@inproceedings{a, title = conf # { 2099}, abstract = {A.}}\n")
    assert [e.title for e in source.entries] == ["COLT 2099"]
    assert [line for line, _ in warnings(source)] == [2]


def test_a_block_that_is_no_entry_at_all_is_named_and_the_others_kept():
    source = read("@inproceedings{x title = {No comma}}\n@inproceedings{b, title = {Two}, abstract = {B.}}\n")
    assert [e.title for e in source.entries] == ["Two"]
    assert [line for line, _ in warnings(source)] == [1]


def test_a_second_paper_under_a_used_key_is_published_as_key_2(tmp_path):
    content, site = tmp_path / "content", tmp_path / "site"
    content.mkdir()
    (content / QUIRKS.name).write_bytes(QUIRKS.read_bytes())
    result = build(content, site, Reporter())
    assert result.papers == entries_in(QUIRKS.read_text(encoding="utf-8")) == 9
    keys = re.findall(r"^@\w+\{([^,]+),", (site / "proceedings.bib").read_text(encoding="utf-8"), re.M)
    assert "diakonikolas99a" in keys and "diakonikolas99a-2" in keys and len(keys) == len(set(keys))
