"""The cold build's per-paper work (issue 43, session 19): each shortcut taken for a common case (a citation's
title, a page's JSON-LD) and the search index's weights made in numpy write exactly what the general path
writes, for any text a venue's file may hold."""

from __future__ import annotations

from array import array
from collections import Counter
from unittest import mock

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markupsafe import Markup, escape

from generator.model.volume import Volume
from generator.publish import bibtex, jsonld
from generator.publish.apa import apa
from generator.publish.bibtex import BibTeX
from generator.search import index
from generator.search.index import FIELDS, FieldVectors, _Terms, found_terms
from generator.search.shards import term_postings
from test_citation_model import reference
from test_search_shards import corpus_papers

# Titles as venues write them, at worst: every character the parser's rules start at, quotes straight and
# curly, apostrophes, math, commands, capitals in words (braced), CJK, white space of every kind.
TITLE = st.text(st.sampled_from(list("aZ Q2:-–—.,;?!()'\"‘’“”`$\\{}[]<>&#%^_~*+=@|/\n\t\r\x00\u00a0é山")),
                max_size=24)

TEXT_HTML = st.text(st.sampled_from(list("aZ <>&\"'.,é山")), max_size=12)


class _Parsed(BibTeX):
    """The writer without its shortcut: every title parsed."""

    def _plain(self, source: str) -> bool:
        return False


WRITER, PARSED = BibTeX(Volume("V")), _Parsed(Volume("V"))


@settings(max_examples=400, deadline=None)
@given(TITLE)
@example("Self-Supervised Learning: A Survey")
@example("LoRA-style Adapters -- and More")
@example("A `quoted' Title ``with'' Marks")
@example("Newton's Method in 3-D: x^2 and $x^2$")
def test_a_plain_title_is_written_as_the_parser_writes_it(title: str) -> None:
    assert WRITER.title(title) == PARSED.title(title)


def test_most_real_titles_take_the_shortcut() -> None:
    # A colon and a lone hyphen are text to the parser: a title holding them is still plain.
    assert WRITER._plain("Self-Supervised Learning: A Survey of 2RDM Methods")
    for title in ("Bounds -- Tight", "The $k$-Means Problem", "A \\textit{Note}", "“Quoted” Words", "a_b"):
        assert not WRITER._plain(title)



def _protect_case_by_pieces(text: str) -> str:
    """``protect_case`` as it was written before its shortcut: every piece escaped, words braced."""
    pieces = bibtex._WORD.split(text)
    return "".join(f"{{{bibtex.escape(p)}}}" if n % 2 and any(map(str.isupper, p[1:])) else bibtex.escape(p)
                   for n, p in enumerate(pieces))


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(list("aZqÉéǅǈ2 -'’_:.&%$#{}\\~^山\n")), max_size=30))
@example("LoRA and 2RDM: Self-Supervised O’Brien-Style Nets")
@example("a_B ~C^D {E}")
def test_case_is_protected_as_piece_by_piece(text: str) -> None:
    assert bibtex.protect_case(text) == _protect_case_by_pieces(text)


@settings(max_examples=200, deadline=None)
@given(title=TEXT_HTML, container=TEXT_HTML, names=st.lists(TEXT_HTML, max_size=3), doi=TEXT_HTML)
def test_apa_html_is_its_text_escaped_with_the_container_in_italics(title, container, names, doi) -> None:
    text, html = apa(reference("k", title, "", names, "1--2", doi, container))
    assert type(html) is Markup and html.replace("<i>", "").replace("</i>", "") == escape(text)
    assert f"<i>{escape(container)}</i>" in html


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list('a<>&"\'\\/\u2028\u2029é山{}:,')), max_size=30))
def test_a_script_is_made_safe_as_translate_made_it(text: str) -> None:
    assert jsonld._script_safe(text) == text.translate(str.maketrans(jsonld._UNSAFE))
    assert "<" not in jsonld._script_safe(text) and "&" not in jsonld._script_safe(text)


def _postings_one_by_one(found: _Terms, documents: int) -> dict[str, list]:
    """The term postings as they were made before numpy (session 18): each field vector's entries in turn."""
    lists = [[array("i") for _ in FIELDS] for _ in found.postings]
    last = [[0] * len(found.postings) for _ in FIELDS]
    for slot, weights in enumerate(FieldVectors(found, documents).weights()):
        ref, field = divmod(slot, len(FIELDS))
        for number, weight in weights:
            lists[number][field].extend((ref - last[field][number], round(weight * 1000)))
            last[field][number] = ref
    return {term: [posting[0], *lists[posting[0]]] for term, posting in found.postings.items()}


WORDS = st.lists(st.sampled_from("graph graphs learn learning model bandit regret bound tight proof 山田 x".split()),
                 max_size=30)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS, WORDS, WORDS), max_size=12), st.integers(1, 40))
def test_the_term_postings_are_the_field_vectors_entry_by_entry(documents, chunk) -> None:
    """numpy's weights are the same doubles, rounded by Python, and the postings the same arrays, for any
    documents (empty fields, a term in one field only, repeats, one document or none), weighed in chunks of any
    size (a term's steps carried from one chunk to the next)."""
    found = _Terms()
    for ref, fields in enumerate(documents):
        found.add(ref, [[word for word in field] for field in fields])
    with mock.patch.object(index, "ENTRIES_CHUNK", chunk):
        assert term_postings(found, len(documents)) == _postings_one_by_one(found, len(documents))


def test_the_term_postings_of_real_abstracts_are_the_field_vectors_entry_by_entry() -> None:
    papers = corpus_papers(400)
    found = found_terms(papers)
    expected = _postings_one_by_one(found, len(papers))
    for chunk in (index.ENTRIES_CHUNK, 1_000, 1):
        with mock.patch.object(index, "ENTRIES_CHUNK", chunk):
            assert term_postings(found, len(papers)) == expected


class _OldTerms:
    """``_Terms`` as it was before its numbers were given in C (session 19): each term's documents appended as met."""

    def __init__(self) -> None:
        self.postings: dict[str, tuple[int, list[list[int]]]] = {}
        self.counts: list[array] = []
        self.lengths: list[int] = []

    def add(self, ref: int, fields: list[list[str]]) -> None:
        for field, field_terms in enumerate(fields):
            counted = array("I")
            for t, tf in Counter(field_terms).items():
                posting = self.postings.get(t)
                if posting is None:
                    posting = self.postings[t] = (len(self.postings), [[] for _ in FIELDS])
                posting[1][field].append(ref)
                counted.extend((posting[0], tf))
            self.counts.append(counted)
            self.lengths.append(len(field_terms))


def slot_counts(found: _Terms) -> list[array]:
    """Per slot of ``found``: term number, count, term number, count… (term numbers ascending), as ``_OldTerms``
    keeps them."""
    made = []
    for part in found.parts():
        pairs = np.empty(2 * len(part.terms), dtype=np.uint32)
        pairs[0::2], pairs[1::2] = part.terms, part.tfs
        ends = 2 * np.cumsum(part.sizes.astype(np.int64))
        made += [array("I", pairs[end - 2 * size:end].tobytes()) for size, end in zip(part.sizes.tolist(),
                                                                                      ends.tolist())]
    return made


def _by_term(counts: list[array]) -> list[list[tuple[int, int]]]:
    """Each slot's (term number, count) pairs in term-number order (``_Terms`` keeps them so)."""
    return [sorted(zip(counted[::2], counted[1::2])) for counted in counts]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS, WORDS, WORDS), max_size=12), st.integers(1, 40))
def test_the_terms_are_numbered_and_counted_as_one_by_one(documents, batch) -> None:
    """Numbers given in C, and terms counted in numpy a batch of documents at a time (any size: a term's number
    carried from one batch to the next), are the numbers, counts and postings the builder appending each term's
    documents as met made."""
    with mock.patch.object(index, "_BATCH_TERMS", batch):
        new, old = _Terms(), _OldTerms()
        for ref, fields in enumerate(documents):
            new.add(ref, [list(field) for field in fields])
            old.add(ref, [list(field) for field in fields])
        counts = slot_counts(new)
        assert (_by_term(counts), new.lengths) == (_by_term(old.counts), old.lengths)
        assert [list(c[::2]) for c in counts] == [sorted(c[::2]) for c in old.counts], "term numbers ascending"
        assert list(new.postings.items()) == list(old.postings.items())  # in the same order: first met, first
        assert new.with_term() == [sum(map(len, refs)) for _, refs in old.postings.values()]
        assert new.documents_with() == [len(set().union(*refs)) for _, refs in old.postings.values()]


def test_the_terms_of_real_abstracts_are_counted_as_one_by_one() -> None:
    papers = corpus_papers(400)
    old = _OldTerms()
    for ref, paper in enumerate(papers):
        old.add(ref, index.paper_terms(paper.title_plain, paper.paper.tags, paper.abstract_plain, {},
                                       index.people(paper)))
    for batch in (index._BATCH_TERMS, 5_000, 1):
        with mock.patch.object(index, "_BATCH_TERMS", batch):
            new = found_terms(papers)
        counts = slot_counts(new)
        assert _by_term(counts) == _by_term(old.counts) and list(new.postings.items()) == list(old.postings.items())
        assert new.with_term() == [sum(map(len, refs)) for _, refs in old.postings.values()]
        assert new.documents_with() == [len(set().union(*refs)) for _, refs in old.postings.values()]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 5_000, allow_nan=False), max_size=40), st.lists(st.integers(0, 4_000_000), max_size=20))
def test_a_weight_in_thousandths_is_pythons_rounding_of_the_rounded_weight(values, halves) -> None:
    """numpy's scaled weights are Python's ``round(round(x, 3) * 1000)`` for any double, halves (exact ones,
    0.0625, and the doubles either side of k + ½ thousandths) and large ones included."""
    near = [(2 * h + 1) / 2000 for h in halves]
    raw = np.array(values + near + [np.nextafter(x, 0) for x in near] + [np.nextafter(x, 1e9) for x in near]
                   + [0.0625, 0.0005, 2.0 ** 31, 1e12 + 0.5], dtype=np.float64)
    assert index.thousandths(raw).tolist() == [float(round(round(x, 3) * 1000)) for x in raw.tolist()]
