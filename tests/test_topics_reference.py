"""Issue #43: the volume's survey made faster, its choices unchanged.

Own topics are compared with the choice as it was (tests/own_topics_reference.py) on the fixture volumes, the
corpus fixture, the real ML corpora when they are there and generated volumes; a phrase's shorter parts with
``key_of``'s; the taxonomy's keywords with the word-by-word search; the survey spread over processes with the
survey in this process; and a paper's tags read from the survey's scores with its tags scored again."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corpora
import own_topics_reference
from generator.content.project import derive_one, load_project
from generator.derive import own_topics as fast
from generator.derive.phrases import candidates, key_of, phrases_of
from generator.derive.tagging import (REPEAT_CAP, TITLE_WEIGHT, _ASCII_WORD_OR_GAP, _WORD_OR_GAP, Taxonomy, _matches,
                                      default_taxonomy)
from generator.derive.volume_topics import paper_key, survey
from generator.model.paper import Entry
from generator.reporter import Reporter
from generator.runtime.executor import Executor
from generator.runtime.sizes import LARGE
from generator.sources import read_source
from generator.text.cjk import has_cjk

FIXTURES = Path(__file__).parent / "fixtures"
VOLUMES = [FIXTURES / "topics" / "dialogue-volume.csv", FIXTURES / "topics" / "nlp-ja-volume.csv",
           FIXTURES / "venues" / "colt-2024-theory.bib", FIXTURES / "venues" / "ismir-2024-subjects.csv"]
# Words of an abstract, stop words and plurals among them, so that stretches, heads and nesting all occur.
WORDS = ("dialogue state tracking systems models neural networks of the for language generation graph "
         "policies queries analysis bias is us data-to-text low-resource 2 x speech recognition theory").split()


def entries_of(path: Path) -> list[Entry]:
    return list(read_source(path, path.name).entries)


def corpus_entries(name: str, limit: int | None = None) -> list[Entry]:
    records = corpora.read(corpora.path(name, "the real abstracts"), limit)
    return [Entry(text=r.get("abstract") or "", source=name, index=i, line=i, title=r.get("title") or "")
            for i, r in enumerate(records, 1)]


def both(entries: list[Entry]) -> tuple[fast.OwnTopics, own_topics_reference.OwnTopics]:
    papers = [phrases_of(e.title, e.text) for e in entries]
    texts = [unicodedata.normalize("NFKC", f"{e.title}\n{e.text}") for e in entries]
    return fast.own_topics(papers, texts), own_topics_reference.own_topics(papers, texts)


def same(found: fast.OwnTopics, reference: own_topics_reference.OwnTopics) -> bool:
    return (found.names, found.per_paper) == (reference.names, reference.per_paper)


@pytest.mark.parametrize("path", VOLUMES, ids=lambda path: path.name)
def test_own_topics_are_chosen_as_before_on_the_fixture_volumes(path):
    found, reference = both(entries_of(path))
    assert found.names and same(found, reference)


@pytest.mark.parametrize("name", corpora.FAST_FIXTURE)
def test_own_topics_are_chosen_as_before_on_the_corpora(name):
    found, reference = both(corpus_entries(name, 1500))
    assert found.names and same(found, reference)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=3, max_size=30), min_size=4, max_size=40),
       st.integers(0, 2**32 - 1))
def test_own_topics_are_chosen_as_before_on_generated_volumes(abstracts, seed):
    rng = random.Random(seed)
    entries = [Entry(text=" ".join(words) + ".", source="g.txt", index=n, line=n,
                     title=" ".join(rng.sample(words, min(3, len(words)))))
               for n, words in enumerate(abstracts, 1)]
    assert same(*both(entries))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS + ["species", "classes", "bus", "ﬁelds", "ΣΟΦΊΑΣ", "ıs"]), min_size=1,
                max_size=6))
def test_a_phrases_parts_are_those_key_of_makes(words):
    for key in candidates(" ".join(words))[0]:
        if " " in key:
            parts = key.split(" ")
            assert fast._parts(key) == (key_of(parts[1:]), key_of(parts[:-1]))


def test_the_parts_of_every_phrase_of_the_corpus_are_those_key_of_makes():
    for entry in corpus_entries("fixture"):
        for key in phrases_of(entry.title, entry.text).keys:
            if " " in key:
                parts = key.split(" ")
                assert fast._parts(key) == (key_of(parts[1:]), key_of(parts[:-1]))


@pytest.mark.parametrize("path", VOLUMES[:1] + VOLUMES[2:3], ids=lambda path: path.name)
def test_the_survey_spread_over_processes_is_the_survey_here(path):
    entries = entries_of(path)
    here = survey(default_taxonomy(), entries, "missing")
    spread = survey(default_taxonomy(), entries, "missing", executor=Executor(2, LARGE))  # split from one item
    assert spread == here and spread.own_tags == here.own_tags and spread.version == here.version
    assert spread.scores == here.scores and bool(here.scores) == here.fits


def test_a_papers_tags_read_from_the_survey_are_those_scored_again(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "colt.bib").write_bytes((FIXTURES / "venues" / "colt-2024-theory.bib").read_bytes())
    project = load_project(content, Reporter())
    topics = project.topics
    assert topics.fits and topics.scores
    entries = [entry for source in project.sources for entry in source.entries]
    read = [derive_one(project, entry) for entry in entries]
    rescored = replace(project, topics=replace(topics, scores={}))
    assert [derive_one(rescored, entry) for entry in entries] == read
    # Some papers' tags did come from the survey: their rendered abstract is the source's text.
    assert any(project.renderer.render(e.text).plain == e.text and paper_key(e) in topics.scores for e in entries)


def reference_hits(taxonomy: Taxonomy, text: str) -> list[dict[str, int]]:
    """``Taxonomy._hits`` as it was before issue 43 (its Latin-script part): every word looked up in Python."""
    hits: list[dict[str, int]] = [{} for _ in taxonomy.tags]
    parts = _WORD_OR_GAP.split(text)
    words = [word.lower() for word in parts[1::2]]
    gaps = parts[2::2]
    free = 0
    for position, word in enumerate(words):
        if position < free:
            continue
        for keyword in taxonomy._index.get(word, ()):
            end = position + len(keyword.words) + 1
            if free > position and end < free:
                break
            if _matches(keyword, words, gaps, position, end):
                counts = hits[keyword.tag]
                counts[keyword.text] = counts.get(keyword.text, 0) + 1
                free = end
    if taxonomy._cjk and has_cjk(text):
        taxonomy._cjk_hits(unicodedata.normalize("NFKC", text).lower(), hits)
    return hits


KEYWORD_WORDS = ("graph neural networks reinforcement learning classifier-free guidance diffusion models flow "
                 "matching , - ( ) SE(3)-equivariant Theory theories the of a").split()


@pytest.mark.parametrize("name", corpora.FAST_FIXTURE)
def test_keywords_are_found_as_before_in_the_corpora(name):
    taxonomy = default_taxonomy()
    for entry in corpus_entries(name, 2000):
        assert taxonomy._hits(entry.text) == reference_hits(taxonomy, entry.text)
        assert taxonomy._hits(entry.title) == reference_hits(taxonomy, entry.title)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(KEYWORD_WORDS), max_size=40), st.sampled_from([" ", "-", " - ", ", ", "  "]))
def test_keywords_are_found_as_before_in_generated_text(words, gap):
    taxonomy = default_taxonomy()
    text = gap.join(words)
    assert taxonomy._hits(text) == reference_hits(taxonomy, text)


def reference_scores(taxonomy: Taxonomy, title: str, text: str) -> list[int]:
    """``Taxonomy.scores`` from the reference hits: a title's keywords weighted, an abstract's repeats capped."""
    scores = [TITLE_WEIGHT * len(hits) for hits in reference_hits(taxonomy, title)]
    return [score + sum(min(n, REPEAT_CAP) for n in hits.values())
            for score, hits in zip(scores, reference_hits(taxonomy, text))]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(KEYWORD_WORDS), max_size=12), st.lists(st.sampled_from(KEYWORD_WORDS), max_size=40))
def test_scores_are_counted_as_before(title, words):
    taxonomy = default_taxonomy()
    title_text, text = " ".join(title), " ".join(words)
    assert taxonomy.scores(title_text, text) == reference_scores(taxonomy, title_text, text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_an_ascii_texts_words_and_gaps_are_those_the_unicode_split_finds(text):
    """An ASCII text's words are split from it lowered, by an ASCII set: the same words, lowered, and gaps."""
    assert _ASCII_WORD_OR_GAP.split(text.lower()) == [part.lower() for part in _WORD_OR_GAP.split(text)]
    for point in range(128):  # every ASCII character between, inside and around words
        text = f"{chr(point)}Ab{chr(point)}9-{chr(point)} x{chr(point)}"
        assert _ASCII_WORD_OR_GAP.split(text.lower()) == [part.lower() for part in _WORD_OR_GAP.split(text)]


NAME_WORDS = ["dialogue", "state", "policy", "policies", "Policy", "graph", "LLM", "llms", "a", "ΣΟΦΊΑΣ", "ıs",
              "data-to-text"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(NAME_WORDS), min_size=1, max_size=3),
       st.lists(st.sampled_from(NAME_WORDS + [" ", "-", "–", "\n", "_", "x", "s", "es", "ies", "2", "(", "ſ"]),
                max_size=30))
def test_a_topics_surface_forms_are_those_found_before(words, pieces):
    """Its name's pattern leads with the first word's letters (own_topics._surface_pattern), the same matches."""
    key = " ".join(words).lower()
    text = "".join(pieces) + " " + " ".join(words) + " " + "".join(reversed(pieces))
    found = [(m.start(), m.group()) for m in fast._surface_pattern(key).finditer(text)]
    assert found == [(m.start(), m.group()) for m in own_topics_reference._surface_pattern(key).finditer(text)]
    assert found  # the words as written are always found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(NAME_WORDS), min_size=1, max_size=3),
       st.lists(st.lists(st.sampled_from(NAME_WORDS + ["Dialogue", "STATE", "Graphs", "-", " - ", "  ", "\t", "_",
                                                       "x", "S", "es", "IES", "2", "(", "–", "ſ", "K", "\n"]),
                         max_size=20), min_size=1, max_size=4))
def test_a_topics_forms_in_ascii_texts_lowered_are_those_found_before(words, texts):
    """``_forms`` searches an ASCII text lowered, for a key in lower case: the forms the reference's pattern finds
    in the texts as written, counted the same (a text holding ſ, K or – is no ASCII text: searched as before)."""
    key = " ".join(words).lower()
    written = ["".join(pieces) + " " + " ".join(words).swapcase() + " " + "".join(reversed(pieces))
               for pieces in texts]
    pattern = own_topics_reference._surface_pattern(key)
    expected = Counter(match.group() for text in written for match in pattern.finditer(text))
    assert fast._forms(key, list(range(len(written))), written, {}) == expected
    assert fast._name(key, expected) == own_topics_reference._name(key, written)
