"""The search index's child made with less CPU (issue 43, session 23): each shortcut writes exactly the text the
general path writes, for any text a venue's file may hold."""

from __future__ import annotations

import math
import sys
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.search import fuzzy
from generator.search.index import field_terms, paper_terms
from generator.search.payload import compact_json
from generator.search.shards import _Shown
from generator.search.terms import people_terms
from generator.text import cjk

TERMS = sys.modules["generator.search.terms"]
TEXT = st.text(st.sampled_from(list('ab "\\/<>&\n\t\x00\x1f\u2028é山\U0001f600\ud800')), max_size=20)
TREE = st.recursive(st.one_of(TEXT, st.integers(-5, 5)), lambda inner: st.lists(inner, max_size=3), max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT, st.lists(TEXT, max_size=3, unique=True), TEXT, st.lists(TEXT, max_size=3), st.integers(0, 99),
       st.lists(TREE, max_size=1))
def test_a_display_record_is_written_as_compact_json_writes_it(title, url, tags, text, names, more, tree) -> None:
    number = {tag: position for position, tag in enumerate(tags)}
    doc = [title, url, tags, text, names, more, *tree]
    assert _Shown.of(doc).json(number) == compact_json([title, url, [number[t] for t in tags], text, names, more,
                                                        *tree])


def _buckets_term_by_term(counts: dict[str, int], limit: int) -> list[list]:
    """``fuzzy.buckets`` as it was before numpy (session 23): each term's keys hashed in turn, buckets as sets."""
    keyed = [(term, fuzzy.key_hash("<", fuzzy._units(term)[:3]), fuzzy.key_hash(">", fuzzy._units(term)[3:]))
             for term in counts if len(fuzzy._units(term)) >= fuzzy.KEY_FROM]
    if not keyed:
        return []
    count = max(1, math.ceil(sum(2 * (len(term) + 8) for term, _, _ in keyed) / limit))
    made: list[set[str]] = [set() for _ in range(count)]
    for term, first, rest in keyed:
        made[first % count].add(term)
        made[rest % count].add(term)
    return [[x for term in sorted(bucket, key=lambda t: t.encode("utf-16-be", "surrogatepass"))
             for x in (term, counts[term])] for bucket in made]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(st.sampled_from(list("abcdeé山\U0001f600\ud800\udc00")), max_size=12),
                       st.integers(1, 9), max_size=40), st.integers(10, 400))
def test_the_fuzzy_buckets_are_those_of_each_term_hashed_in_turn(counts, limit) -> None:
    assert fuzzy.buckets(counts, limit) == _buckets_term_by_term(counts, limit)
    firsts, rests = fuzzy.key_hashes(list(counts))
    assert firsts.tolist() == [fuzzy.key_hash("<", fuzzy._units(t)[:3]) for t in counts]
    assert rests.tolist() == [fuzzy.key_hash(">", fuzzy._units(t)[3:]) for t in counts]


def _fitting_char_by_char(text: str, columns: int) -> str:
    used = 0
    for end, char in enumerate(text):
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used > columns:
            return text[:end]
    return text


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list("ab …é∑→山ｱ가\U0001f600")), max_size=30), st.integers(-1, 25))
def test_a_preview_is_cut_where_each_character_measured_in_turn_cuts_it(text, columns) -> None:
    assert cjk._fitting(text, columns) == _fitting_char_by_char(text, columns)


@given(st.lists(st.sampled_from(["Graph Learning", "Bandits", "learning", "山田 太郎", ""]), max_size=4),
       st.lists(st.tuples(st.sampled_from(["Gábor Ø", "", "Ann Lee"]), st.sampled_from(["", "MIT"])), max_size=3))
def test_a_papers_topics_and_people_are_split_as_field_terms_splits_them(topics, authors) -> None:
    tags = tuple(topics)
    assert paper_terms("A title", tags, "An abstract", {"learning": "Lernen"}, tuple(authors)) == \
        field_terms("A title", tags + tuple(["Lernen"] * tags.count("learning")), "An abstract", tuple(authors))


def _people_terms_as_they_were(authors: tuple[tuple[str, str], ...]) -> list[str]:
    """``people_terms`` before session 23: every character folded in turn, the text without accents split again."""
    affiliations = dict.fromkeys(affiliation for _, affiliation in authors if affiliation)
    text = " ".join([name for name, _ in authors] + list(affiliations))
    found = TERMS.terms(text)
    plain = "".join(map(TERMS._fold, TERMS.normalise(text).translate(TERMS._PLAIN_LETTERS)))
    return found + list(dict.fromkeys(t for t in TERMS.terms(plain) if t not in set(found)))


NAME = st.lists(st.sampled_from(list("ab -ØøéÉßǅǄİıłﬁ山田\u0301\u2010") + ["Gábor", "Zoë", "Hogsgaard"]),
                max_size=8).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(NAME, NAME), max_size=4))
def test_the_authors_are_split_as_folding_each_character_split_them(authors) -> None:
    assert people_terms(tuple(authors)) == _people_terms_as_they_were(tuple(authors))
    text = " ".join(name for name, _ in authors)
    assert TERMS.unaccented(text) == "".join(map(TERMS._fold, TERMS.normalise(text).translate(TERMS._PLAIN_LETTERS)))
