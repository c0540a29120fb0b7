"""Issue #43: title rules whose patterns are written so that the regex engine skips to where a match may start (a
lookahead or a leading character set before the rest: titles.py's ``_CLAUSE``, ``_SUBJECT``, ``_LEAD_IN``) find
what the plain patterns found, at the same places, with the same groups."""

from __future__ import annotations

import re

import corpora
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.derive import titles

# The patterns as they were written before: a match may start anywhere, at a word boundary or after spaces.
PLAIN_SUBJECT = (r"\b(?:[Ww]e|and|[Pp]aper|[Ww]ork|[Aa]rticle)\s+"
                 r"(?:(?:\w+ly|then|further|also|here|now|first|thus|therefore)\s+)?")


def plain(pattern: re.Pattern[str], lead: str, replacement: str = "") -> re.Pattern[str]:
    """``pattern`` with its ``lead`` (the part that lets the engine skip) written back as ``replacement``."""
    assert pattern.pattern.startswith(lead)
    return re.compile(replacement + pattern.pattern[len(lead):], pattern.flags)


SUBJECT = titles._SUBJECT
PAIRS = [
    (titles._CLAUSE, plain(titles._CLAUSE, "(?=[\\s;:.!?,])")),
    (titles._LEAD_IN, plain(titles._LEAD_IN, "(?=[A-Z])")),
    (titles._OBJECT, plain(titles._OBJECT, SUBJECT, PLAIN_SUBJECT)),
    (titles._INTRO_ACRONYM, plain(titles._INTRO_ACRONYM, SUBJECT, PLAIN_SUBJECT)),
    (titles._INTRO_NAME, plain(titles._INTRO_NAME, SUBJECT, PLAIN_SUBJECT)),
]
IDS = ["clause", "lead-in", "object", "intro-acronym", "intro-name"]

PIECES = ["We", "we", "We also", "and", "And", "paper", "Paper", "This paper", "work", "Work", "article", "Article",
          "Awe", "sand", "newspaper", "network", "particle", "Paperwork", "WE", "propose", "introduce", "study",
          "present", "further", "here", "clearly", "a", "the", "DeepNet (DN)", "Graph Networks (GN)", ",", ";", ":",
          ".", "!", "?", "—", "–", "--", "(i)", "(2)", "that", "which", "where", "while", "namely", "e.g.", "i.e.",
          "and then show", "and clearly prove", "In", "However", "Building on", "Motivated by", "(Smith, 2019)",
          "To", "Due to", "x", "_", "é", "Ärticle", "\n", "\t", "  "]
# Sentences each rule matches (the fixture's abstracts name no "(ACR)" after "we propose").
NAMING = ["In this paper, we propose the Deep Thing Network (DTN) for graphs.", "This work introduces FooNet, a model."]
texts = st.lists(st.sampled_from(PIECES), max_size=30).map(" ".join)


def found(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], dict[str, str | None]]]:
    """Every match ``finditer`` gives, and the first at each start (``search`` from there), with their groups."""
    every = [(m.span(), m.groupdict()) for m in pattern.finditer(text)]
    starts = [(m.span(), m.groupdict()) if (m := pattern.search(text, i)) else None for i in range(len(text) + 1)]
    return every + [("search", starts)]  # type: ignore[list-item]


@pytest.mark.parametrize(("fast", "slow"), PAIRS, ids=IDS)
@settings(max_examples=300, deadline=None)
@given(text=st.one_of(texts, st.text(alphabet="Wwe aPpndrkticl,.;:(i)—-\t", max_size=40)))
def test_a_rule_matches_as_its_plain_pattern(fast, slow, text):
    assert found(fast, text) == found(slow, text)


@pytest.mark.parametrize(("fast", "slow"), PAIRS, ids=IDS)
def test_a_rule_matches_the_corpus_as_its_plain_pattern(fast, slow):
    sentences = [sentence for record in corpora.read(corpora.path("fixture"))
                 for sentence in titles._split_sentences(titles._clean(record.get("abstract") or ""))] + NAMING
    assert len(sentences) > 100
    hits = 0
    for sentence in sentences:
        mine, before = fast.search(sentence), slow.search(sentence)
        assert (mine and (mine.span(), mine.groupdict())) == (before and (before.span(), before.groupdict()))
        hits += mine is not None
    assert hits  # each rule matches somewhere in the fixture


ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|al|vs|cf|resp|Fig|Eq|Sec))$")


def sentences_before(text: str) -> list[str]:
    """``_split_sentences`` as it was: each mark before a space and a capital, checked for an abbreviation after."""
    sentences, start = [], 0
    for match in re.finditer(r"([.!?])\s+(?=[A-Z0-9(])", text):
        if not ABBREVIATION.search(text, max(0, match.start() - 6), match.start()):
            sentences.append(text[start : match.end(1)])
            start = match.end()
    sentences.append(text[start:])
    return [s for s in sentences if s]


ENDS = ["e.g.", "i.e.", "al.", "et al.", "vs.", "cf.", "resp.", "Fig.", "Eq.", "Sec.", "xal.", "Xresp.", "eg.", "Al.",
        ".", "!", "?", "A", "B2", "(c)", "x", "and", "2", "  ", "\n"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ENDS), max_size=30).map(" ".join) | st.text(alphabet="ae.gilvsr!? AF(2", max_size=40))
def test_sentences_end_where_they_did(text):
    assert titles._split_sentences(text) == sentences_before(text)


def test_the_corpus_sentences_end_where_they_did():
    for record in corpora.read(corpora.path("fixture")):
        text = titles._clean(record.get("abstract") or "")
        assert titles._split_sentences(text) == sentences_before(text)
    assert titles._split_sentences("See e.g. Fig. 2 and Smith et al. Then we go. Next!") == [
        "See e.g. Fig. 2 and Smith et al. Then we go.", "Next!"]
