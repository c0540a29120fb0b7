"""Each citation format's record written with few calls (issue 43, session 23: names split once a reference, a
value made one line only when it is not empty, MODS written without indentation, the volume's host block once)
is byte for byte what the writers wrote before (``tests/citations_reference.py``), for any reference a venue's
file may give: names with suffixes, particles, commas and CJK, editors, pages of every shape, no date. A reading
block's JSON by orjson is the script ``data_script`` writes; the volume's files are the same bytes whether a
paper's pieces were kept (after its page) or not (the build's own process writes them first)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import citations_reference as before
from generator.model.paper import Author
from generator.publish import csl, endnote, formats, mods, ris
from generator.publish.apa import apa, apa_text
from generator.publish.reading import CITED, Reference
from generator.publish.reading_list import CALLBACK, block_script
from generator.search.payload import data_script
from test_publish import published

TEXT = st.text(st.sampled_from(list('ab Z,| "&<>\\{}%\n\r\t\x01\x7f\u00a0\u2028\ue000\ufffe-–.é山🦆')), max_size=10)
NAME = st.one_of(TEXT, st.sampled_from(["Ada Lovelace", "John Smith, Jr.", "Ludwig van Beethoven", "山田 太郎",
                                        "Plato", "A, B, C", "Maria de la Cruz III", " Jean-Paul  Sartre "]))
PAGES = st.one_of(TEXT, st.sampled_from(["", "7", "13--24", "13–24", "-5", "5-", "3 — 3"]))
AUTHOR = st.builds(Author, NAME, st.one_of(st.just(""), TEXT), st.one_of(st.just(""), TEXT))
DATE = st.one_of(st.none(), st.dates(dt.date(1, 1, 1), dt.date(9999, 12, 31)))


@st.composite
def references(draw: st.DrawFn) -> Reference:
    details = {field.name: () if field.kind in ("authors", "names") else "" for field in CITED}
    details.update(authors=tuple(draw(st.lists(AUTHOR, max_size=4))), editors=tuple(draw(st.lists(NAME, max_size=3))),
                   pages=draw(PAGES), year=draw(st.sampled_from(["", "2023", "99", "n.d."])),
                   **{name: draw(st.one_of(st.just(""), TEXT)) for name in ("doi", "volume", "publisher", "address",
                                                                           "pdf")})
    texts = [draw(st.one_of(st.just(""), TEXT)) for _ in range(8)]
    return Reference(draw(st.sampled_from(["k", "key-2"])), texts[0], texts[0], texts[1], draw(DATE), texts[2],
                     texts[3], tuple(draw(st.lists(TEXT, max_size=3))), texts[4], texts[5], texts[6], texts[7],
                     "papers/p.md", details)


def _written(ref: Reference) -> list[str]:
    return [ris.ris_record(ref), endnote.endnote_record(ref), endnote.endnote_record(ref, abstract=True),
            mods.mods_record(ref), mods.mods_record(ref, abstract=True), json.dumps(csl.csl_item(ref)),
            json.dumps(csl.csl_item(ref, abstract=True)), formats._csl(ref), formats._csl_alone(ref), *apa(ref),
            apa_text(ref)]


def _written_before(ref: Reference) -> list[str]:
    return [before.ris_record(ref), before.endnote_record(ref), before.endnote_record(ref, abstract=True),
            before.mods_record(ref), before.mods_record(ref, abstract=True), json.dumps(before.csl_item(ref)),
            json.dumps(before.csl_item(ref, abstract=True)), json.dumps(before.csl_item(ref), ensure_ascii=False),
            json.dumps(before.csl_item(ref, abstract=True), ensure_ascii=False, separators=(",", ":")),
            *before.apa(ref), before.apa(ref)[0]]


@settings(max_examples=400, deadline=None)
@given(references())
def test_every_format_writes_what_it_wrote_before(ref: Reference) -> None:
    assert _written(ref) == _written_before(ref)
    assert ref.private_use == before.private_use(ref)


def test_a_plain_paper_is_written_as_before() -> None:
    details = {field.name: () if field.kind in ("authors", "names") else "" for field in CITED}
    details.update(authors=(Author("Ada Lovelace", "Analytical Society", "0000-0002-1825-0097"),
                            Author("John Smith, Jr.")), editors=("Ed Itor", "Jo van Eck"), pages="13--24", year="2023",
                   doi="10.1/x", volume="7", publisher="PMLR", address="Paris", pdf="https://x.org/p.pdf")
    ref = Reference("k", "A & B", "A & B", "Proc. <1>", dt.date(2023, 5, 1), "https://x.org/p.html", "Abs.", ("kw",),
                    "Series", "1234-5678", "", "Retracted.", "papers/p.md", details)
    written = _written(ref)
    assert written == _written_before(ref)
    assert "AU  - Smith, John, Jr.\r\n" in written[0] and "%P 13-24\n" in written[1]
    assert "<title>A &amp; B</title>" in written[3] and "<abstract>" not in written[3]


@settings(max_examples=300, deadline=None)
@given(TEXT)
@example("a & b < c > d\x01\ufffe")
def test_xml_text_is_as_before(text: str) -> None:
    assert mods.xml_text(text) == before.xml_text(text)


JSON_TEXT = st.text(st.sampled_from(list('aZ "\\/<>&\x00\x1f\x7f\x80\u2028\ud800\ue000\uffff山é🦆𠀀')), max_size=8)
JSON_VALUE = st.recursive(JSON_TEXT, lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                          | st.dictionaries(JSON_TEXT, inner, max_size=3), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(JSON_TEXT, JSON_VALUE, max_size=4))
@example({"a": "\x7f", "b": ["é", ("🦆", "\ud800")]})
@example({"a": "\x7f only"})
@example({"a": "runs: éé山🦆𠀀\u2028x é", "b": ["\\\"<", "🦆"]})  # a run past ASCII escaped at once by the encoder
def test_a_block_written_by_orjson_is_the_data_script_json_writes(value: dict) -> None:
    assert block_script("r3", value) == data_script(CALLBACK, "r3", value)


@pytest.mark.parametrize("values", [["a ", "b"], ["a", " b"], ["a |", "b"], ["a", "| b"], [" a"], ["a "], ["a  b"],
                                    ["a\nb", "c"], ["a|b", "c | d"], ["\u00a0"], [" "], ["a", "", "b"]])
def test_values_are_made_one_line_each_as_one_line_makes_them(values: list[str]) -> None:
    tags = [(f"T{n}", value) for n, value in enumerate(values)]
    assert ris.one_lines(tags) == [(tag, line) for tag, value in tags if value and (line := ris.one_line(value))]


def test_the_volumes_files_are_the_same_written_before_or_after_the_pages(seed_content) -> None:
    """The build's own process writes the volume's files first: each text written as it is, no pieces made or
    kept; after the pages (their pieces kept) each is filled from its pieces. The same bytes either way."""
    first, papers, _, _ = published(seed_content)
    after, _, _, _ = published(seed_content)
    for paper in papers:
        after.paper_context(paper)  # a page: its BibTeX's pieces kept
    assert first.files([]) == after.files([])
    assert not first._kept["bib"] and len(after._kept["bib"]) == len(papers)


def test_one_line_gives_back_a_value_exactly_when_the_rule_does() -> None:
    """``one_line``'s check (printable, else one scan for what the rule changes) against the rule itself, for every
    character alone, between letters and beside a private-use mark (a browser's text, formats.py)."""
    def rule(text: str) -> str:
        return " ".join(ris._CONTROL.sub(" ", text).split())

    for code in [*range(0x3100), *range(0x3100, 0x110000, 97)]:  # white space ends at U+3000; past it, a sample
        char = chr(code)
        for text in (char, f"a{char}b", f"\ue000{char}"):
            assert ris.one_line(text) == rule(text), hex(code)
